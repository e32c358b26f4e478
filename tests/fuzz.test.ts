/**
 * The fuzz run (bench/fuzz.ts, `npm run fuzz`) with a fixed seed and a bounded count, inside `make test`:
 * generated hostile requests mixed with normal page views against the built server. The process never
 * exits, every request gets a whole answer (no connection reset before it, no hang), no answer shows a
 * practice's name other than the one its Host names, no undocumented 5xx, and the page store holds no more
 * keys than the practices' canonical cacheable URLs.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { leakedNames, owner } from "../bench/fuzz";

describe("fuzz run (seed 20261123, 2000 requests)", () => {
  it("never stops the process, answers every request, never leaks across practices, keeps the store bounded", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "bench/fuzz.ts", "--seed", "20261123", "--requests", "2000", "--json"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
      timeout: 150_000,
    });
    const line = run.stdout.trim().split("\n").pop() ?? "";
    const figures = JSON.parse(line) as Record<string, number> & { samples: Record<string, string[]> };
    console.log(`fuzz figures: ${line}`);
    const samples = (kind: string) => figures.samples[kind].join("\n");
    expect(figures.requests).toBe(2000);
    expect(figures.restarts).toBe(0);
    expect(figures.leaks, samples("leaks")).toBe(0);
    // Each request got its whole answer: a reset or a hang is a failure whatever the request shape (a body
    // the server refuses gets its 4xx before the connection is closed).
    expect(figures.resets, samples("failures")).toBe(0);
    expect(figures.hangs, samples("failures")).toBe(0);
    expect(figures.serverErrors, samples("serverErrors")).toBe(0);
    // The main thread renders nothing, whatever was sent (docs/decisions/0047-main-thread-renders-nothing.md).
    expect(figures.mainThreadRenders).toBe(0);
    expect(figures.storeKeys).toBeGreaterThan(0);
    expect(figures.storeKeys).toBeLessThanOrEqual(figures.storeKeyBound);
    expect(run.status, run.stderr).toBe(0);
  }, 180_000);
});

describe("the fuzz run's leak check", () => {
  const names = new Map([
    ["dupont", "Cabinet Dentaire Dupont"],
    ["martin", "Centre Dentaire Martin"],
  ]);

  it("names the practice of a Host on the server's own port only", () => {
    expect(owner({ host: "DUPONT.DEV.localhost:4000" }, 4000)).toBe("dupont");
    expect(owner({ host: "dupont.dev.localhost:4001" }, 4000)).toBeNull();
    expect(owner({ host: "nosuch1.dev.localhost:4000" }, 4000)).toBeNull();
    expect(owner({ host: "dupont.dev.localhost:4000.evil.example" }, 4000)).toBeNull();
    expect(owner({ host: "" }, 4000)).toBeNull();
  });

  it("finds another practice's name in any answer, and any practice's name in an answer to a host naming none", () => {
    // A 404 (not a 200 page view: the check before this one looked at those only) showing Martin on Dupont's host.
    expect(leakedNames("<title>Page introuvable - Centre Dentaire Martin</title>", "dupont", names)).toEqual(["Centre Dentaire Martin"]);
    expect(leakedNames("<title>Cabinet Dentaire Dupont</title>", "dupont", names)).toEqual([]);
    expect(leakedNames("<title>Cabinet Dentaire Dupont</title>", null, names)).toEqual(["Cabinet Dentaire Dupont"]);
  });
});
