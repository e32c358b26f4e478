/**
 * The short soak (bench/soak.ts; `npm run soak` runs it for minutes): two instances on one Redis, an edit
 * and its webhook every second, the backend failing 5% of calls. No answer may be older than an edit the
 * webhook confirmed before it was asked for, enough answers are compared with such an edit, STALE answers
 * and errors stay within their bounds (bench/soak.ts SOAK_BOUNDS says why each), memory stays bounded.
 */
import { describe, expect, it } from "vitest";
import { judgeSoak, runSoak, SOAK_BOUNDS, type SoakResult } from "../bench/soak";

describe("soak, short", () => {
  it("serves no wrong content across two instances under edits and backend faults", async () => {
    const lines: string[] = [];
    // 12 s: each bound is per second or a share, so a short run holds the same rules (npm run soak runs minutes).
    // A machine starved by another run answers too few in 12 s to compare: the run then goes on, up to 30 s
    // (a third of the test's limit), until it has the same number of answers checked.
    const result = await runSoak({ seconds: 12, maxSeconds: 30, workers: 3, log: (line) => lines.push(line) });
    const report = lines.join("\n");
    console.log(report);
    expect(result.wrong, report).toBe(0);
    expect(result.checked, report).toBeGreaterThanOrEqual(SOAK_BOUNDS.minCheckedPerSecond * 12);
    const errors = Object.values(result.errors).reduce((a, b) => a + b, 0);
    expect(errors / result.requests, report).toBeLessThanOrEqual(SOAK_BOUNDS.maxErrorShare);
    expect(result.stale / result.requests, report).toBeLessThanOrEqual(SOAK_BOUNDS.maxStaleShare);
    expect(result.confirmed).toBeGreaterThan(result.edits / 2);
    for (const rss of result.rss) expect(rss.end - rss.warm, report).toBeLessThan(SOAK_BOUNDS.maxRssGrowthMiB);
    expect(result.redisPeakMiB).toBeLessThan(SOAK_BOUNDS.maxRedisMiB);
    // The verdict `npm run soak` exits by is the same.
    expect(result.misses, report).toEqual([]);
  }, 90_000);
});

describe("the soak's verdict (judgeSoak)", () => {
  // The figures of a 20 s run on an idle machine, as runSoak returns them.
  const passed: Omit<SoakResult, "misses"> = {
    seconds: 20, requests: 26_085, wrong: 0, checked: 9_000, stale: 0, errors: { 503: 2 }, edits: 19, confirmed: 19,
    rss: [{ warm: 283, peak: 290, end: 290 }, { warm: 284, peak: 289, end: 289 }], redisMiB: 2.1, redisPeakMiB: 2.2,
  };

  it("passes a run within every bound", () => {
    expect(judgeSoak(passed)).toEqual([]);
  });

  it("fails an all-STALE run (which the soak passed before its answers were bounded)", () => {
    const misses = judgeSoak({ ...passed, stale: passed.requests, checked: 0, errors: {} });
    expect(misses.join("\n")).toMatch(/STALE answers 100\.00% of 26085/);
    expect(misses.join("\n")).toMatch(/0 answers checked against a confirmed edit \(at least 40\)/);
  });

  it("fails a run of errors, and one with too few checked answers", () => {
    expect(judgeSoak({ ...passed, errors: { 502: 2_000 } }).join("\n")).toMatch(/non-200 answers 7\.67% of 26085 \(bound 5\.00%\)/);
    expect(judgeSoak({ ...passed, checked: 39 })).toEqual(["39 answers checked against a confirmed edit (at least 40)"]);
    expect(judgeSoak({ ...passed, wrong: 1 })).toEqual(["1 answers older than an edit the webhook had confirmed"]);
  });
});
