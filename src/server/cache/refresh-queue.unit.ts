import { describe, expect, it } from "vitest";
import { RefreshQueue } from "./refresh-queue";

describe("RefreshQueue", () => {
  it("never runs more than its concurrency, runs every key once, and drains", async () => {
    let active = 0;
    let peak = 0;
    const ran: string[] = [];
    const queue = new RefreshQueue(3, async (key) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      ran.push(key);
      active--;
    });
    for (let i = 0; i < 20; i++) queue.add(`k${i}`);
    queue.add("k19"); // already waiting: not queued twice
    await queue.idle();
    expect(peak).toBe(3);
    expect(ran.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`).sort());
  });

  it("keeps going after a failed run", async () => {
    const ran: string[] = [];
    const queue = new RefreshQueue(1, async (key) => {
      ran.push(key);
      if (key === "bad") throw new Error("boom");
    });
    queue.add("bad");
    queue.add("good");
    await queue.idle();
    expect(ran).toEqual(["bad", "good"]);
  });

  it("refuses keys past its budget of waiting keys (they render on their next request)", async () => {
    const ran: string[] = [];
    const queue = new RefreshQueue(1, async (key) => void ran.push(key), 2);
    expect(["a", "b", "c", "d"].map((key) => queue.add(key))).toEqual([true, true, true, false]);
    await queue.idle();
    expect(ran).toEqual(["a", "b", "c"]);
  });
});
