/**
 * A render worker's setup (src/entry.render-worker.tsx calls it): lower this thread's scheduling
 * priority so the main thread, which answers cache hits, always wins the CPU; build this worker's own
 * services from the same environment parsing (backend client + its read cache: one per worker,
 * docs/decisions/read-cache-placement.md); then serve render tasks and invalidation broadcasts.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { getBackend, getDataCache } from "../backend";
import { getEnv } from "../env";
import { initMonitoring } from "../monitoring";
import { targetRenderer } from "../cache/render-target";
import type { RenderRequest } from "../render";
import { runRenderTask, type RenderTask } from "./task";
import { unknownPageTags } from "./unknown-page";
import { serveTasks } from "./worker-port";

/** What the main thread broadcasts to every worker. */
export interface InvalidateMessage {
  invalidate: string[];
}

/** Nice value of render threads (0 normal, 19 lowest): renders take the CPU the hit path leaves. */
const WORKER_NICE = 19;

export function startRenderWorker(renderRequest: RenderRequest): void {
  lowerThreadPriority();
  const env = getEnv();
  void initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT);
  const render = targetRenderer(renderRequest);
  const backend = getBackend();
  serveTasks<RenderTask>({
    task: (task) => runRenderTask(task, render, (target) => unknownPageTags(backend, target)),
    broadcast: (message) => {
      const { invalidate } = message as InvalidateMessage;
      if (invalidate) getDataCache().invalidate(invalidate);
    },
  });
}

/**
 * Linux schedules threads, and setpriority() given a thread id renices that thread alone; Node names
 * the thread only through /proc/thread-self ("<pid>/task/<tid>"). Elsewhere this does nothing.
 */
function lowerThreadPriority(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // not Linux, or not allowed: the worker runs at normal priority
  }
}
