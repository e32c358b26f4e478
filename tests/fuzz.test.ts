/**
 * The fuzz run (bench/fuzz.ts, `npm run fuzz`) with a fixed seed and a bounded count, inside `make test`:
 * generated hostile requests mixed with normal page views against the built server. The process never
 * exits, no practice is shown another practice's content, no undocumented 5xx, and the page store holds
 * no more keys than the practices' canonical cacheable URLs.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";

describe("fuzz run (seed 20261123, 2000 requests)", () => {
  it("never stops the process, never leaks across practices, keeps the store bounded", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "bench/fuzz.ts", "--seed", "20261123", "--requests", "2000", "--json"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
      timeout: 150_000,
    });
    const line = run.stdout.trim().split("\n").pop() ?? "";
    const figures = JSON.parse(line) as Record<string, number>;
    console.log(`fuzz figures: ${line}`);
    expect(figures.requests).toBe(2000);
    expect(figures.restarts).toBe(0);
    expect(figures.leaks).toBe(0);
    expect(figures.serverErrors).toBe(0);
    expect(figures.storeKeys).toBeGreaterThan(0);
    expect(figures.storeKeys).toBeLessThanOrEqual(figures.storeKeyBound);
    expect(run.status, run.stderr).toBe(0);
  }, 180_000);
});
