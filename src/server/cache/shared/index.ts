/**
 * The shared cache of several instances, built from the environment: off without CACHE_URL (one
 * instance, as before), else the coordinator of cache/shared/coordinator.ts attached to the page cache.
 */
import type { Env } from "../../env";
import { getDataCache } from "../../backend";
import type { PageCache } from "../page-cache";
import { SharedCache } from "./coordinator";

export { SharedCache } from "./coordinator";

/** Redis answers in well under a millisecond on a healthy network: a command slower than this is an outage. */
const COMMAND_TIMEOUT_MS = 500;

export function startSharedCache(env: Env, pageCache: PageCache): SharedCache | null {
  if (!env.CACHE_URL) return null;
  const shared = new SharedCache({
    url: env.CACHE_URL,
    environment: env.ENVIRONMENT,
    pageCache,
    clearData: () => getDataCache().clear(),
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
    commandTimeoutMs: Math.min(COMMAND_TIMEOUT_MS, env.BACKEND_TIMEOUT_MS),
  });
  shared.start();
  return shared;
}
