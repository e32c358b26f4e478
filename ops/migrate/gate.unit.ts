import { describe, expect, it } from "vitest";
import { belowThresholds } from "./gate";

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
