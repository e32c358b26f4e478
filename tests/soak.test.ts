/**
 * The short soak (bench/soak.ts; `npm run soak` runs it for minutes): two instances on one Redis, an edit
 * and its webhook every second, the backend failing 5% of calls. No answer may be older than an edit the
 * webhook confirmed before it was asked for; memory stays bounded.
 */
import { describe, expect, it } from "vitest";
import { runSoak } from "../bench/soak";

describe("soak, short", () => {
  it("serves no wrong content across two instances under edits and backend faults", async () => {
    const lines: string[] = [];
    const result = await runSoak({ seconds: 20, workers: 3, log: (line) => lines.push(line) });
    expect(result.wrong, lines.join("\n")).toBe(0);
    // Enough answers to have crossed several edits (an idle machine does about 150 in 20 s; a loaded one 60).
    expect(result.requests).toBeGreaterThan(30);
    expect(result.confirmed).toBeGreaterThan(result.edits / 2);
    // Flat after warm-up: the live set is a few dozen pages, so growth is noise, not a leak.
    for (const rss of result.rss) expect(rss.end - rss.warm, lines.join("\n")).toBeLessThan(64);
    expect(result.redisPeakMiB).toBeLessThan(128);
  }, 90_000);
});
