import { describe, expect, it } from "vitest";
import { belowThresholds, median, medianResult } from "./gate";

const result = (performance: number | null, accessibility: number | null, seo: number | null) => ({
  url: "http://a.fr/",
  scores: { performance, accessibility, "best-practices": 50, seo },
  failed: [],
});

describe("belowThresholds", () => {
  it("passes scores strictly above 90, 95 and 95 (best practices not gated)", () => {
    expect(belowThresholds(result(91, 96, 96))).toEqual([]);
    expect(belowThresholds(result(100, 100, 100))).toEqual([]);
  });

  it("fails a score at or below its threshold, and a missing score", () => {
    expect(belowThresholds(result(90, 96, 96))).toEqual(["performance 90 (needs above 90)"]);
    expect(belowThresholds(result(99, 95, null))).toEqual(["accessibility 95 (needs above 95)", "seo n/a (needs above 95)"]);
  });
});

describe("the median of a page's runs", () => {
  const run = (performance: number | null, lcpMs: number | null, failed: string[] = []) => ({
    url: "http://a.fr/",
    scores: { performance, accessibility: 98, "best-practices": 100, seo: 100 },
    failed,
    lcpMs,
  });

  it("takes the middle value: one slow run under load does not fail the page, one lucky run does not pass it", () => {
    expect(median([57, 92, 94])).toBe(92);
    expect(median([95, 60, 58])).toBe(60);
    expect(median([91])).toBe(91);
    expect(median([90, 92])).toBe(91);
    expect(median([null, 93, 95])).toBe(94);
    expect(median([null, null])).toBeNull();
  });

  it("gives each category its median and the audits of the run the performance figure comes from", () => {
    const result = medianResult([run(57, 2900, ["slow run"]), run(93, 980, ["median run"]), run(96, 900, ["fast run"])]);
    expect(result.scores).toEqual({ performance: 93, accessibility: 98, "best-practices": 100, seo: 100 });
    expect(result.failed).toEqual(["median run"]);
    expect(result.lcpMs).toBe(980);
    expect(belowThresholds(result)).toEqual([]);
    expect(belowThresholds(medianResult([run(57, 2900), run(60, 2500), run(96, 900)]))).toEqual(["performance 60 (needs above 90)"]);
  });

  it("refuses no run at all", () => {
    expect(() => medianResult([])).toThrow("no Lighthouse run");
  });
});
