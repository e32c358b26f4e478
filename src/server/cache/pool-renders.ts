/**
 * How the page cache renders when the server has a render pool: every render through admission control
 * (admission.ts, docs/decisions/admission.md) into the pool's workers, and every invalidation also
 * broadcast to the workers' read caches (docs/decisions/read-cache-placement.md).
 */
import type { RenderPool } from "../render/pool";
import type { ReadCacheMessage } from "../render-worker";
import { Admission } from "./admission";
import { mayCheckUnknown } from "./not-found";
import type { PageCacheOptions, RenderTarget } from "./page-cache";
import { fromWire, type RenderTask } from "./render-task";
import { measuredRender } from "../monitoring/metrics";

/** A practice's renders waiting at most, and all practices' (past them: the stale copy or a 503). */
const MAX_QUEUED_PER_PRACTICE = 32;
const MAX_QUEUED = 512;
/** A render that waited this long for a slot is refused rather than started late. */
const MAX_WAIT_MS = 10_000;
/** Background re-renders waiting at most: the eager budget after an invalidation. */
const REFRESH_BUDGET = 256;

export function poolRenders(
  pool: RenderPool,
  invalidateData: (tags: string[]) => void,
): Pick<PageCacheOptions, "render" | "promote" | "invalidateData" | "concurrency" | "refreshBudget"> {
  const admission = new Admission({
    concurrency: pool.capacity,
    maxQueuedPerPractice: MAX_QUEUED_PER_PRACTICE,
    maxQueued: MAX_QUEUED,
    maxWaitMs: MAX_WAIT_MS,
  });
  const render = pooledRenderTarget(pool);
  return {
    // Queue wait, queue depth and render time measured here, on the main thread (monitoring/metrics.ts).
    render: (target, priority = "visitor") =>
      measuredRender(target.code, (start) => admission.run(target.code, target.key, priority, start), () => render(target)),
    promote: (target) => admission.promote(target.code, target.key),
    invalidateData: (tags) => {
      // The main thread's read cache (the renders that stay here: contact, media) and every worker's. A
      // worker handles the broadcast before any render posted after it: nothing rendered after the
      // webhook's answer reads a payload the tags named from before.
      invalidateData(tags);
      pool.broadcast({ invalidate: tags } satisfies ReadCacheMessage);
    },
    // Background re-renders at once: one per worker. A webhook naming hundreds of pages must not fill every
    // render slot (both cores) while other practices' visitors are served; a visitor asking for a page whose
    // refresh still waits renders it at once, as a visitor's miss.
    concurrency: pool.size,
    refreshBudget: REFRESH_BUDGET,
  };
}

/**
 * The cache's render function, run in the pool (also the pre-pass's, which renders listed pages only and
 * so skips the unknown-path check: `checkUnknown` false).
 */
export function pooledRenderTarget(pool: RenderPool, checkUnknown = true): RenderTarget {
  return async (target) => {
    const task: RenderTask = { target, checkUnknown: checkUnknown && mayCheckUnknown(target) };
    return fromWire(await pool.run(task));
  };
}
