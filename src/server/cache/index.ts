/**
 * The page cache of this process, built from the environment: byte budget PAGE_CACHE_MAX_MB, TTL
 * BACKEND_REVALIDATE_TTL, renders through the one render function, invalidations reaching the backend
 * read cache first.
 */
import type { Env } from "../env";
import type { RenderRequest } from "../render/render";
import { PageCache } from "./page-cache";
import { targetRenderer } from "./render-target";

export { PageCache } from "./page-cache";
export { cacheFront, cacheMiddleware } from "./http";
export { revalidateHandlers } from "./revalidate";

/** Background re-renders at once: two cores, and visitors' own misses must still get CPU. */
const REFRESH_CONCURRENCY = 4;

export function createPageCache(
  env: Env,
  renderRequest: RenderRequest,
  invalidateData: (tags: string[]) => void,
): PageCache {
  return new PageCache({
    maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
    render: targetRenderer(renderRequest),
    invalidateData,
    concurrency: REFRESH_CONCURRENCY,
  });
}
