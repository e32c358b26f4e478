/**
 * The shared cache of several instances, built from the environment: none without CACHE_URL (one
 * instance, as before), else the coordinator of cache/shared/coordinator.ts for the page cache. The
 * server entry starts it (connecting is the only thing it does at start).
 */
import type { Env } from "../../env";
import type { PageCache } from "../page-cache";
import { SharedCache } from "./coordinator";
import { cacheNamespace } from "./names";

export { SharedCache } from "./coordinator";

/** Redis answers in well under a millisecond on a healthy network: a command slower than this is an outage. */
const COMMAND_TIMEOUT_MS = 500;

/** `clearData`: empties the backend read cache (after a possibly missed invalidation). */
export function createSharedCache(env: Env, pageCache: PageCache, clearData: () => void): SharedCache | undefined {
  if (!env.CACHE_URL) return undefined;
  return new SharedCache({
    url: env.CACHE_URL,
    environment: env.ENVIRONMENT,
    namespace: cacheNamespace(env),
    pageCache,
    clearData,
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
    commandTimeoutMs: Math.min(COMMAND_TIMEOUT_MS, env.BACKEND_TIMEOUT_MS),
  });
}
