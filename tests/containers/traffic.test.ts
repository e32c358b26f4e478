/**
 * The drills' traffic helper (traffic.ts), without containers: drill 5 says its pages were rendered for the
 * first time from the X-Cache of each page's first answer, so the first answer must be the first sent.
 */
import { describe, expect, it } from "vitest";
import { notRenderedFirst, targetKey, traffic, type Target, type TrafficAnswer } from "./traffic";
import { until } from "../support/until";

const targets: Target[] = [
  { host: "a.example", path: "/" },
  { host: "b.example", path: "/new/" },
];

describe("drill traffic", () => {
  it("keeps every status and each target's first answer (the first sent, even when it comes back last)", async () => {
    const sent: Target[] = [];
    let answerFirstOfB = () => {};
    const firstOfB = new Promise<void>((resolve) => (answerFirstOfB = resolve));
    const send = async (t: Target): Promise<TrafficAnswer> => {
      sent.push(t);
      const n = sent.length;
      if (t.host === "b.example" && n === 2) {
        // The first request for b is answered after the second one: a render takes longer than a hit.
        await firstOfB;
        return { status: 200, headers: { "x-cache": "MISS" } };
      }
      if (t.host === "b.example") {
        if (n === 4) answerFirstOfB();
        return { status: 200, headers: { "x-cache": "HIT" } };
      }
      return { status: n === 3 ? 503 : 200, headers: { "x-cache": "HIT" } };
    };
    const load = traffic(targets, send, 100);
    await until(() => sent.length >= 6, "six requests sent");
    const { statuses, first } = await load.stop();
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(sent.length);
    expect(statuses.get("503")).toBe(1);
    expect(first.get(targetKey(targets[0]))).toBe("200 HIT");
    expect(first.get(targetKey(targets[1]))).toBe("200 MISS");
    expect(notRenderedFirst([targets[1]], first)).toEqual([]);
    expect(notRenderedFirst(targets, first)).toEqual(["a.example /: 200 HIT"]);
  });

  it("reports a first request that failed, and a target never asked for", async () => {
    let calls = 0;
    const load = traffic([targets[0]], () => {
      calls++;
      return Promise.reject(new Error("socket hang up"));
    }, 100);
    await until(() => calls >= 1, "one request sent");
    const { first, statuses } = await load.stop();
    expect(statuses.get("error socket hang up")).toBe(calls);
    expect(notRenderedFirst(targets, first)).toEqual(["a.example /: error socket hang up", "b.example /new/: never asked for"]);
  });
});
