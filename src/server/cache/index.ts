/**
 * The page cache of this process, built from the environment: byte budget PAGE_CACHE_MAX_MB, TTL
 * BACKEND_REVALIDATE_TTL, renders through the one render function, invalidations reaching the backend
 * read cache first, unknown paths answered with the practice's one 404 page (not-found.ts). With a render
 * pool (a built server), renders run in its workers behind admission control (pool-renders.ts).
 */
import type { Env } from "../env";
import type { RenderRequest } from "../render/render";
import type { RenderPool } from "../render/pool";
import { PageCache } from "./page-cache";
import { renderChecked, targetRenderer, type PathLookups } from "./render-target";
import { mayCheckUnknown } from "./not-found";
import { poolRenders } from "./pool-renders";

export { PageCache } from "./page-cache";
export { cacheFront, cacheMiddleware } from "./http";
export { revalidateHandlers } from "./revalidate";

/** Background re-renders at once without a pool: two cores, and visitors' own misses must still get CPU. */
const REFRESH_CONCURRENCY = 4;

export function createPageCache(
  env: Env,
  renderRequest: RenderRequest,
  invalidateData: (tags: string[]) => void,
  paths: PathLookups,
  pool?: RenderPool,
): PageCache {
  const render = targetRenderer(renderRequest);
  return new PageCache({
    maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
    ...(pool
      ? poolRenders(pool, invalidateData)
      : {
          render: (target) => renderChecked(target, mayCheckUnknown(target), render, paths),
          invalidateData,
          concurrency: REFRESH_CONCURRENCY,
        }),
  });
}
