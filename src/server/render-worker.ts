/**
 * A render worker's setup (src/entry.render-worker.tsx calls it): lower this thread's scheduling
 * priority (a server's workers: the main thread, which answers cache hits, always wins the CPU; the
 * pre-pass's run at normal priority; render/pool-config.ts, docs/decisions/render-worker-scheduling.md);
 * build this worker's own
 * request services from the same environment parsing (backend client + its read cache: one per worker,
 * docs/decisions/read-cache-placement.md); then serve render tasks and invalidation broadcasts.
 */
import { execFileSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { setPriority } from "node:os";
import type { ServerRenderOptions } from "@builder.io/qwik-city/middleware/request-handler";
import { getEnv } from "./env";
import { startLog } from "./monitoring/log";
import { initMonitoring } from "./monitoring";
import { targetRenderer } from "./cache/render-target";
import { runRenderTask, type RenderTask } from "./cache/render-task";
import { createRequestServices } from "./services";
import { createRenderer } from "./render/render";
import { pathLookups } from "./site/unknown-page";
import { serveTasks } from "./render/worker-port";
import type { RenderWorkerData } from "./render/pool-config";

/** What the main thread broadcasts to every worker: tags to drop, or everything (a missed invalidation). */
export interface ReadCacheMessage {
  invalidate?: string[];
  clear?: true;
}

export function startRenderWorker(ssr: ServerRenderOptions): void {
  lowerThreadPriority(workerData as RenderWorkerData);
  const env = getEnv();
  void initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT);
  // This thread's lines as JSON too (its own copy of monitoring/log.ts).
  void startLog(env.LOG_FORMAT);
  const services = createRequestServices(env);
  const render = targetRenderer(createRenderer(ssr, services));
  const paths = pathLookups(services.backend);
  serveTasks<RenderTask>({
    task: (task) => runRenderTask(task, render, paths),
    broadcast: (message) => {
      const { invalidate, clear } = message as ReadCacheMessage;
      if (invalidate) services.readCache?.invalidate(invalidate);
      if (clear) services.readCache?.clear();
    },
  });
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
