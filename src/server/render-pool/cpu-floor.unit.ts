import { describe, expect, it } from "vitest";
import { CpuFloor, readThreads, SCHED_IDLE, SCHED_OTHER, STARVED_SHARE, type ThreadSample } from "./cpu-floor";

/** A floor over fake threads: `wait[tid]` is each thread's run-queue wait so far, in ms. */
function setup(threads: { tid: number; policy: number }[]) {
  const wait = new Map(threads.map((t) => [t.tid, 0]));
  const policy = new Map(threads.map((t) => [t.tid, t.policy]));
  const calls: string[] = [];
  let busy = true;
  const floor = new CpuFloor({
    busy: () => busy,
    read: (): ThreadSample[] => threads.map(({ tid }) => ({ tid, policy: policy.get(tid)!, waitNs: wait.get(tid)! * 1e6 })),
    setIdle: async (tid, idle) => {
      calls.push(`${tid} ${idle ? "idle" : "other"}`);
      policy.set(tid, idle ? SCHED_IDLE : SCHED_OTHER);
      return true;
    },
  });
  return { floor, wait, calls, setBusy: (b: boolean) => (busy = b) };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("CpuFloor", () => {
  it("moves a render thread that waited for a core most of the interval to the normal class, once", async () => {
    const { floor, wait, calls } = setup([{ tid: 1, policy: SCHED_OTHER }, { tid: 2, policy: SCHED_IDLE }, { tid: 3, policy: SCHED_IDLE }]);
    floor.tick(0);
    wait.set(2, 200); // 200 of 250 ms waiting: starving
    wait.set(3, 50); // 50 of 250 ms: it gets its CPU
    wait.set(1, 250); // the main thread is never touched
    floor.tick(250);
    await settle();
    expect(calls).toEqual(["2 other"]);
    expect([...floor.promoted]).toEqual([2]);
    wait.set(2, 450);
    floor.tick(500);
    await settle();
    expect(calls).toEqual(["2 other"]);
    expect(floor.promotions).toBe(1);
  });

  it("needs two samples of a thread before judging it (no wait is known before the first)", async () => {
    const { floor, wait, calls } = setup([{ tid: 2, policy: SCHED_IDLE }]);
    wait.set(2, 10_000); // a long wait before this floor ever looked
    floor.tick(0);
    await settle();
    expect(calls).toEqual([]);
  });

  it("judges by the share of the interval spent waiting, from STARVED_SHARE up", async () => {
    const { floor, wait, calls } = setup([{ tid: 2, policy: SCHED_IDLE }, { tid: 3, policy: SCHED_IDLE }]);
    floor.tick(0);
    wait.set(2, 1000 * STARVED_SHARE - 1);
    wait.set(3, 1000 * STARVED_SHARE);
    floor.tick(1000);
    await settle();
    expect(calls).toEqual(["3 other"]);
  });

  it("moves every thread it moved back to SCHED_IDLE once no render is in flight, and judges afresh after", async () => {
    const { floor, wait, calls, setBusy } = setup([{ tid: 2, policy: SCHED_IDLE }]);
    floor.tick(0);
    wait.set(2, 250);
    floor.tick(250);
    await settle();
    setBusy(false);
    floor.tick(500);
    await settle();
    expect(calls).toEqual(["2 other", "2 idle"]);
    expect(floor.promoted.size).toBe(0);
    setBusy(true);
    floor.tick(750); // a first sample again: nothing judged
    await settle();
    expect(calls).toHaveLength(2);
  });

  it("forgets a thread it could not move (no chrt, or refused)", async () => {
    const floor = new CpuFloor({
      busy: () => true,
      read: (() => {
        let n = 0;
        return () => [{ tid: 7, policy: SCHED_IDLE, waitNs: (n++ * 250) * 1e6 }];
      })(),
      setIdle: async () => false,
    });
    floor.tick(0);
    floor.tick(250);
    await settle();
    expect(floor.promotions).toBe(1);
    expect(floor.promoted.size).toBe(0);
  });
});

describe("readThreads", () => {
  it("reads this process's threads with their policy and run-queue wait", () => {
    const threads = readThreads();
    const main = threads.find((t) => t.tid === process.pid);
    expect(main).toMatchObject({ policy: SCHED_OTHER });
    expect(main!.waitNs).toBeGreaterThanOrEqual(0);
  });

  it("is empty where there is no /proc", () => {
    expect(readThreads("/nonexistent")).toEqual([]);
  });
});
