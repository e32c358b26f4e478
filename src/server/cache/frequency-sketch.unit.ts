import { describe, expect, it } from "vitest";
import { FrequencySketch } from "./frequency-sketch";

describe("FrequencySketch", () => {
  it("estimates how often a key was asked for, never less, and tells hot keys from a scan's", () => {
    const sketch = new FrequencySketch(1_000);
    for (let i = 0; i < 5; i++) sketch.increment("hot");
    for (let i = 0; i < 900; i++) sketch.increment(`scan-${i}`);
    expect(sketch.frequency("hot")).toBeGreaterThanOrEqual(5);
    // Collisions may overcount a key a little, never by much at this load.
    const overcounted = Array.from({ length: 900 }, (_, i) => sketch.frequency(`scan-${i}`)).filter((f) => f >= 5);
    expect(overcounted.length).toBeLessThan(9);
    expect(sketch.frequency("never")).toBeLessThan(5);
  });

  it("forgets old popularity: the counters halve once the sample is full", () => {
    const sketch = new FrequencySketch(256);
    for (let i = 0; i < 12; i++) sketch.increment("once-hot");
    expect(sketch.frequency("once-hot")).toBe(12);
    for (let i = 0; i < 10 * 256; i++) sketch.increment(`later-${i}`);
    // Halved once (12 -> 6); the later keys' collisions may add one or two to each of its counters, but a
    // sketch that never ages could only stay at 12 or more.
    expect(sketch.frequency("once-hot")).toBeLessThanOrEqual(8);
  });
});
