/**
 * The render pool of a built server or of the pre-pass, from the environment
 * (docs/decisions/0022-render-pool.md): RENDER_WORKERS workers (default: one per CPU; the workers run at the
 * lowest priority, so the hit path keeps its core), each running a few renders at once, each capped in
 * heap, a render given a time limit derived from the backend's.
 */
import { availableParallelism } from "node:os";
import type { Env } from "../env";
import { reportWarning } from "../monitoring";
import type { FigureSink } from "../monitoring/metrics";
import { RenderPool } from "./main";
import type { RenderWorkerData } from "./protocol";

/** Renders one worker runs at once: most of a render's time is spent waiting for the backend. */
export const RENDERS_PER_WORKER = 4;
/**
 * Scheduling of a server's render threads: the main thread, which answers hits, gets the CPU first;
 * renders take what it leaves (at least the other cores: the main thread uses one). Linux's SCHED_IDLE
 * policy where it can be set (docs/decisions/0038-render-worker-scheduling.md), else nice 10. The pre-pass has
 * no hits to protect: its workers run at normal priority.
 */
export const SERVER_WORKER_NICE = 10;

/**
 * V8 heap caps per worker: a worker past them dies and is replaced. A render's live set is a few MiB and a
 * worker's read cache a few more; small caps keep two workers inside a 512 MB container beside the page
 * store (README, "The render pool": memory measured per worker).
 */
export const WORKER_HEAP_MB = 64;
export const WORKER_YOUNG_MB = 8;

/** Workers in the pool: RENDER_WORKERS, else one per CPU; 0 means rendering in the main thread. */
export function renderWorkerCount(env: Pick<Env, "RENDER_WORKERS">): number {
  return env.RENDER_WORKERS ?? availableParallelism();
}

/** A render's time limit: a few sequential backend reads at their own limit, plus the render itself. */
export function renderTimeoutMs(env: Pick<Env, "BACKEND_TIMEOUT_MS">): number {
  return 3 * env.BACKEND_TIMEOUT_MS + 5_000;
}

/** The built worker beside this bundle (server/entry.render-worker.js). */
export function workerFile(entryUrl: string): URL {
  return new URL("./entry.render-worker.js", entryUrl);
}

export interface RenderPoolOptions {
  size?: number;
  /** Normal priority (the pre-pass): no hits to protect. */
  normalPriority?: boolean;
  heapCaps?: boolean;
  workerEnv?: Record<string, string | undefined>;
}

/** `figures`: where the workers' backend figures go (the server's metrics). */
export function createRenderPool(env: Env, file: URL, opts: RenderPoolOptions, figures: FigureSink): RenderPool {
  return new RenderPool({
    file,
    size: opts.size ?? renderWorkerCount(env),
    perWorker: RENDERS_PER_WORKER,
    timeoutMs: renderTimeoutMs(env),
    resourceLimits:
      opts.heapCaps === false ? undefined : { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    env: opts.workerEnv,
    workerData: (opts.normalPriority ? { nice: 0, idle: false } : { nice: SERVER_WORKER_NICE, idle: true }) satisfies RenderWorkerData,
    onWorkerExit: (detail) => reportWarning(detail),
    onFigure: figures,
    // Under SCHED_IDLE a worker can starve outright: the floor moves a starving one to nice 10 (cpu-floor.ts).
    cpuFloor: !opts.normalPriority,
  });
}
