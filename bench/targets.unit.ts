import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { met, TARGETS, targetsTable } from "./targets";

describe("the targets table", () => {
  it("judges each target at its bound as its text says", () => {
    for (const [name, target] of Object.entries(TARGETS)) {
      const inclusive = target.direction === "at least" || target.direction === "at most";
      expect(met(target, target.limit), name).toBe(inclusive);
      const better = target.direction === "at least" || target.direction === "above" ? target.limit * 1.01 : target.limit * 0.99;
      const worse = target.direction === "at least" || target.direction === "above" ? target.limit * 0.99 : target.limit * 1.01;
      expect(met(target, better), name).toBe(true);
      expect(met(target, worse), name).toBe(false);
      expect(met(target, NaN), name).toBe(false);
    }
  });

  it("prints each bound as the figure's unit says: a percentage, milliseconds or seconds", () => {
    expect(TARGETS.hitVsBare.text).toBe(">= 90%");
    expect(TARGETS.hitVsBare.limit).toBe(0.9);
    for (const target of Object.values(TARGETS)) {
      const percent = /(\d+)%/.exec(target.text);
      if (percent) expect(Number(percent[1]) / 100, target.figure).toBe(target.limit);
    }
    expect(TARGETS.lcpMs).toMatchObject({ limit: 1000, text: "<= 1.0 s" });
    expect(TARGETS.webhookMedianMs).toMatchObject({ limit: 20, text: "< 20 ms" });
  });

  it("is the one statement of the targets: the bench's sections name none of their own", () => {
    expect(targetsTable()).toContain(">= 90%");
    for (const file of ["run.ts", "cluster.ts", "noisy-neighbour.ts", "operator-view.ts", "lcp.ts"]) {
      const source = readFileSync(new URL(file, import.meta.url), "utf8");
      expect(source, file).not.toMatch(/target: "/);
      expect(source, file).not.toMatch(/met: /);
    }
  });
});
