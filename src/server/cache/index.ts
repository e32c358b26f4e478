/**
 * The page cache of this process, built from the environment: byte budget PAGE_CACHE_MAX_MB, TTL
 * BACKEND_REVALIDATE_TTL, renders through the one render function, invalidations reaching the backend
 * read cache first. With a render pool (a built server), renders run in its workers behind admission
 * control (admission.ts) and invalidations also reach each worker's read cache.
 */
import type { Env } from "../env";
import type { RenderRequest } from "../render";
import { getDataCache } from "../backend";
import { PageCache } from "./page-cache";
import { targetRenderer } from "./render-target";
import { Admission } from "./admission";
import type { RenderPool } from "../render/pool";
import { pooledRenderTarget } from "../render/pooled";
import type { InvalidateMessage } from "../render/worker";

export { PageCache } from "./page-cache";
export { cacheFront, cacheMiddleware } from "./http";
export { revalidateHandlers } from "./revalidate";

/** Background re-renders at once without a pool: two cores, and visitors' own misses must still get CPU. */
const REFRESH_CONCURRENCY = 4;

/** Admission bounds (docs/decisions/admission.md). */
const MAX_QUEUED_PER_PRACTICE = 32;
const MAX_QUEUED = 512;
const MAX_WAIT_MS = 10_000;
/** Background re-renders waiting at most: the eager budget after an invalidation. */
const REFRESH_BUDGET = 256;

export function createPageCache(env: Env, renderRequest: RenderRequest, pool?: RenderPool): PageCache {
  const common = { maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024, ttlMs: env.BACKEND_REVALIDATE_TTL * 1000 };
  if (!pool) {
    return new PageCache({
      ...common,
      render: targetRenderer(renderRequest),
      invalidateData: (tags) => getDataCache().invalidate(tags),
      concurrency: REFRESH_CONCURRENCY,
    });
  }
  const admission = new Admission({
    concurrency: pool.capacity,
    maxQueuedPerPractice: MAX_QUEUED_PER_PRACTICE,
    maxQueued: MAX_QUEUED,
    maxWaitMs: MAX_WAIT_MS,
  });
  const render = pooledRenderTarget(pool);
  return new PageCache({
    ...common,
    render: (target, priority = "visitor") => admission.run(target.code, target.key, priority, () => render(target)),
    promote: (target) => admission.promote(target.code, target.key),
    invalidateData: (tags) => {
      // The main thread's own read cache (renders that stay here: contact, media) and every worker's.
      getDataCache().invalidate(tags);
      pool.broadcast({ invalidate: tags } satisfies InvalidateMessage);
    },
    concurrency: pool.capacity,
    refreshBudget: REFRESH_BUDGET,
  });
}
