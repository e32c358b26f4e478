/**
 * A render worker thread (src/entry.render-worker.tsx starts it): lower this thread's scheduling priority
 * (a server's workers: the main thread, which answers cache hits, always wins the CPU; the pre-pass's run at
 * normal priority; config.ts, docs/decisions/0038-render-worker-scheduling.md), build the worker's own renders
 * (src/server/services.ts, createWorkerRenders: a backend client and its read cache, one per worker,
 * docs/decisions/0021-read-cache-placement.md), then answer render tasks and apply broadcasts (protocol.ts).
 */
import { execFileSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { setPriority } from "node:os";
import { getEnv, type Env } from "../env";
import { initMonitoring } from "../monitoring";
import { startLog, withRequestId } from "../monitoring/log";
import type { FigureSink } from "../monitoring/metrics";
import { encodeSync, isStorable } from "../cache/entry";
import type { PathLookups } from "../site/path-index";
import { renderChecked, type TargetRender } from "./target";
import { toWire, type FromWorker, type RenderTask, type RenderWorkerData, type ToWorker } from "./protocol";

/** What a worker renders with, built from the environment by the composition root. */
export interface WorkerRenders {
  render: TargetRender;
  paths: PathLookups;
  readCache: { invalidate(tags: string[]): void; clear(): void } | null;
}

export function startRenderWorker(build: (env: Env, figures: FigureSink) => WorkerRenders): void {
  const port = parentPort;
  if (!port) throw new Error("a render worker runs in a worker thread only");
  lowerThreadPriority(workerData as RenderWorkerData);
  const env = getEnv();
  void initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT);
  // This thread's lines as JSON too (its own copy of monitoring/log.ts).
  void startLog(env.LOG_FORMAT);
  // Its backend reads are counted by the main thread's metrics: sent as the protocol's figure messages.
  const { render, paths, readCache } = build(env, (figure) => port.postMessage({ figure } satisfies FromWorker));
  // Broadcasts are applied synchronously, as they arrive: a task posted after one starts after it.
  port.on("message", (message: ToWorker) => {
    if (message.kind === "broadcast") {
      if (message.message.kind === "invalidate") readCache?.invalidate(message.message.tags);
      else readCache?.clear();
      return;
    }
    const { id, task } = message;
    runRenderTask(task, render, paths).then(
      ({ value, transfer }) => port.postMessage({ id, ok: true, value } satisfies FromWorker, transfer),
      (error: unknown) =>
        port.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies FromWorker),
    );
  });
}

/** One task: the checked render, compressed here when storable (the main thread only stores the bytes). */
async function runRenderTask(task: RenderTask, render: TargetRender, paths: PathLookups) {
  const result = await withRequestId(task.requestId, () =>
    task.shared ? render(task.target, task.shared) : renderChecked(task.target, task.checkUnknown, render, paths),
  );
  return toWire(result, isStorable(result) ? encodeSync(result) : undefined);
}

/**
 * Linux schedules threads, and setpriority() given a thread id renices that thread alone; Node names
 * the thread only through /proc/thread-self ("<pid>/task/<tid>"). Node has no call for the scheduling
 * policy: util-linux's `chrt` sets SCHED_IDLE on the thread id (once, at the worker's start). Where
 * either is missing or refused, the thread keeps what it could get (nice 10, or normal priority).
 */
function lowerThreadPriority({ nice, idle }: RenderWorkerData): void {
  if (!nice && !idle) return;
  let tid: number;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return; // not Linux: the worker runs at normal priority
  }
  if (!Number.isInteger(tid) || tid <= 0) return;
  try {
    if (nice) setPriority(tid, nice);
  } catch {
    // not allowed: normal priority
  }
  try {
    if (idle) execFileSync("chrt", ["--idle", "--pid", "0", String(tid)], { stdio: "ignore", timeout: 2000 });
  } catch {
    // no chrt, or refused: nice alone
  }
}
