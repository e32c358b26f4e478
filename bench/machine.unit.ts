import { describe, expect, it } from "vitest";
import { elsewhere, otherRuntime, parseProcStat, processCpuSeconds, wasBusy } from "./machine";

// A real /proc/stat's head (ticks of 1/100 s): user nice system idle iowait irq softirq steal guest guest_nice.
const STAT = `cpu  1000 50 300 8000 100 0 20 30 0 0
cpu0 500 25 150 4000 50 0 10 15 0 0
intr 12345
`;

describe("parseProcStat", () => {
  it("counts user, nice, system, irq, softirq and steal as busy, idle and iowait as not", () => {
    expect(parseProcStat(STAT)).toEqual({ busy: 14, steal: 0.3, total: 95 });
  });

  it("refuses a text without the aggregate cpu line", () => {
    expect(() => parseProcStat("cpu0 1 2 3 4\n")).toThrow(/no aggregate cpu line/);
  });
});

describe("elsewhere", () => {
  it("is the machine's busy time minus the bench's own, per wall second", () => {
    const before = { busy: 100, steal: 1, total: 1000 };
    const after = { busy: 110, steal: 1.5, total: 1010 };
    // 10 s of CPU on the machine in 5 s, 7 of them the bench's: the others used 3 s, 0.6 of a core.
    const e = elsewhere(before, after, 7, 5);
    expect(e.otherCores).toBeCloseTo(0.6);
    expect(e.stealCores).toBeCloseTo(0.1);
  });

  it("says a machine is busy when the others used more than a tenth of its cores in the median round", () => {
    const quiet = { otherCores: 0.1, stealCores: 0, load1: 1 };
    const busy = { otherCores: 0.5, stealCores: 0, load1: 3 };
    const stolen = { otherCores: 0.05, stealCores: 0.3, load1: 1 };
    expect(wasBusy([quiet, quiet, busy], 2)).toBe(false);
    expect(wasBusy([quiet, busy, busy], 2)).toBe(true);
    expect(wasBusy([stolen, stolen, quiet], 2)).toBe(true);
  });
});

describe("processCpuSeconds", () => {
  it("reads this process's CPU from /proc, and it grows with work", () => {
    const before = processCpuSeconds("self");
    const until = Date.now() + 150;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(processCpuSeconds("self")).toBeGreaterThan(before);
  });
});

describe("otherRuntime", () => {
  it("accepts the deployed major, whatever its minor, and names the difference otherwise", () => {
    expect(otherRuntime("v24.1.0", "24.21.0")).toBeNull();
    expect(otherRuntime("v20.20.2", "24.21.0")).toMatch(/Node v20\.20\.2, the product on 24\.21\.0/);
    expect(() => otherRuntime("v24.1.0", "")).toThrow(/not x\.y\.z/);
  });

  it("reads the deployed version from ops/images/node.sh, the runtime these tests run on (make test)", () => {
    expect(otherRuntime(process.version)).toBeNull();
    expect(otherRuntime("v1.0.0")).toMatch(/the product on \d+\.\d+\.\d+ \(ops\/images\/node\.sh\)/);
  });
});
