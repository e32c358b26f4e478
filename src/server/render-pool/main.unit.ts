import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RenderPool } from "./main";
import { RenderUnavailable } from "../render/unavailable";

/**
 * A fake render worker speaking the pool's protocol (protocol.ts), steered by each task:
 * answer after `ms`, throw, hang in a busy loop, or exit the thread; it also reports the broadcasts it
 * has handled and its thread id.
 */
const FAKE_WORKER = `
import { parentPort, threadId } from "node:worker_threads";
const seen = [];
parentPort.on("message", async ({ kind, id, task, message }) => {
  if (kind === "broadcast") { seen.push(message); return; }
  if (task.mode === "hang") for (;;) {}
  if (task.mode === "die") process.exit(3);
  if (task.mode === "figure") parentPort.postMessage({ figure: { kind: "config", outcome: "timeout", ms: 12, code: "dupont" } });
  await new Promise((r) => setTimeout(r, task.ms ?? 0));
  if (task.mode === "throw") { parentPort.postMessage({ id, ok: false, error: "render exploded" }); return; }
  if (task.mode === "bytes") {
    const bytes = new Uint8Array(task.size).fill(7).buffer;
    parentPort.postMessage({ id, ok: true, value: { bytes } }, [bytes]);
    return;
  }
  parentPort.postMessage({ id, ok: true, value: { echo: task.value, seen: [...seen], threadId } });
});
`;

/** What the fake worker takes and answers (the pool is generic over its protocol's payloads). */
type FakeTask = { value?: unknown; ms?: number; mode?: "hang" | "die" | "throw" | "bytes" | "figure"; size?: number };
type Echo = { echo: unknown; seen: unknown[]; threadId: number };
type FakePool = RenderPool<FakeTask, Echo & { bytes: ArrayBuffer }, unknown>;

let file: URL;
const pools: FakePool[] = [];

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "pool-unit-"));
  writeFileSync(join(dir, "fake-worker.mjs"), FAKE_WORKER);
  file = pathToFileURL(join(dir, "fake-worker.mjs"));
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(opts: { size?: number; perWorker?: number; timeoutMs?: number; onFigure?: (figure: unknown) => void } = {}) {
  const created: FakePool = new RenderPool({
    file,
    onFigure: opts.onFigure,
    size: opts.size ?? 1,
    perWorker: opts.perWorker ?? 2,
    timeoutMs: opts.timeoutMs ?? 5000,
    respawnDelayMs: 50,
  });
  pools.push(created);
  return created;
}

describe("RenderPool", () => {
  it("runs tasks in workers, never more at once than its capacity, and answers each its own result", async () => {
    const p = pool({ size: 2, perWorker: 2 });
    const results = Array.from({ length: 10 }, (_, i) => p.run({ value: i, ms: 20 }));
    expect(p.stats().running).toBe(4);
    expect(p.stats().queued).toBe(6);
    const answers = await Promise.all(results);
    expect(answers.map((a) => a.echo)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
  });

  it("hands a worker's figure messages to onFigure, and the task they came with still gets its own answer", async () => {
    const figures: unknown[] = [];
    const p = pool({ onFigure: (figure) => figures.push(figure) });
    await expect(p.run({ value: "after a figure", mode: "figure" })).resolves.toMatchObject({ echo: "after a figure" });
    expect(figures).toEqual([{ kind: "config", outcome: "timeout", ms: 12, code: "dupont" }]);
  });

  it("transfers a worker's bytes back intact", async () => {
    const { bytes } = await pool().run({ mode: "bytes", size: 100_000 });
    expect(bytes.byteLength).toBe(100_000);
    expect(new Uint8Array(bytes)[99_999]).toBe(7);
  });

  it("rejects a task whose render throws, and the same worker goes on serving", async () => {
    const p = pool();
    const first = await p.run({ value: "before" });
    await expect(p.run({ mode: "throw" })).rejects.toThrow("render exploded");
    const after = await p.run({ value: "after" });
    expect(after.echo).toBe("after");
    expect(after.threadId).toBe(first.threadId);
    expect(p.replaced).toBe(0);
  });

  // The time limits below are far above what a worker's start or an echo costs on a busy machine (a
  // 300 ms limit once refused the warm-up task itself under load), and the tests' own limits far above them.
  it("answers a hung render with RenderUnavailable after its time limit, replaces the worker, and recovers", async () => {
    const p = pool({ timeoutMs: 2000 });
    const first = await p.run({ value: "warm" });
    const hung = p.run({ mode: "hang" });
    // Another task on the same worker is not lost with it: it runs again on the replacement.
    const neighbour = p.run({ value: "neighbour" });
    await expect(hung).rejects.toBeInstanceOf(RenderUnavailable);
    expect((await neighbour).echo).toBe("neighbour");
    const after = await p.run({ value: "after" });
    expect(after.echo).toBe("after");
    expect(after.threadId).not.toBe(first.threadId);
    expect(p.replaced).toBe(1);
  }, 15_000);

  it("a worker's death does not fail the other tasks it ran: they run again on a live worker, once", async () => {
    const p = pool({ size: 2, perWorker: 2 });
    await Promise.all([p.run({ ms: 5 }), p.run({ ms: 5 })]);
    // Both land on one worker (perWorker 2), the other worker busy with two long tasks of its own.
    const others = [p.run({ value: "o1", ms: 300 }), p.run({ value: "o2", ms: 300 })];
    const victim = p.run({ value: "other practice", ms: 300 });
    const killer = p.run({ mode: "die" });
    await expect(killer).rejects.toBeInstanceOf(RenderUnavailable);
    expect((await victim).echo).toBe("other practice");
    expect((await Promise.all(others)).map((a) => a.echo)).toEqual(["o1", "o2"]);
  });

  it("replaces a worker that dies, rejecting its task with RenderUnavailable", async () => {
    const p = pool({ size: 1 });
    const first = await p.run({ value: "warm" });
    await expect(p.run({ mode: "die" })).rejects.toBeInstanceOf(RenderUnavailable);
    const after = await p.run({ value: "after" });
    expect(after.echo).toBe("after");
    expect(after.threadId).not.toBe(first.threadId);
    expect(p.stats().workers).toBe(1);
  });

  it("a task waiting for a worker that never comes back is refused at its time limit, not kept forever", async () => {
    const p = pool({ size: 1, perWorker: 1, timeoutMs: 2000 });
    const hung = p.run({ mode: "hang" });
    const queued = p.run({ value: "queued" });
    await expect(hung).rejects.toBeInstanceOf(RenderUnavailable);
    await expect(queued).rejects.toBeInstanceOf(RenderUnavailable);
  }, 15_000);

  it("hands a broadcast to every worker before any task posted after it", async () => {
    const p = pool({ size: 2, perWorker: 1 });
    await Promise.all([p.run({ ms: 10 }), p.run({ ms: 10 })]);
    p.broadcast({ invalidate: ["site:dupont"] });
    const answers = await Promise.all([p.run({ value: 1 }), p.run({ value: 2 })]);
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    for (const answer of answers) expect(answer.seen).toEqual([{ invalidate: ["site:dupont"] }]);
  });
});
