/**
 * Wiring of what an operator sees, for the server entry (after startLog): the access log, the metrics (with what they
 * read on scrape) and the internal port with the operator's commands, and which of the request pipeline's
 * on-response consumers are on (http/observe.ts). METRICS_PORT=0 turns the metrics and the internal port off;
 * LOG_FORMAT=off the log, ACCESS_LOG=off the access line alone.
 */
import type { Server } from "node:http";
import type { Env } from "../env";
import type { PageCache } from "../cache/page-cache";
import type { SharedCache } from "../cache/shared";
import type { CacheRenderer } from "../render-pool/renderer";
import type { HostRules } from "../tenancy";
import type { Observers } from "../http/observe";
import { flushLog, getAccessLog } from "../monitoring/log";
import type { Metrics } from "../monitoring/metrics";
import { startMetricsServer } from "./metrics-server";
import { reportWarning } from "../monitoring";

export interface OperatorView {
  /** The request pipeline's on-response consumers that are on (metrics, access line): createApp's `observe`. */
  observe: Observers;
  close: () => void;
}

/**
 * What the operator's view reads of the server's services. Declared here rather than taken from services.ts:
 * the composition root sits below operator/ in the folder order (README, "Layout") and passes its Services.
 */
export interface OperatorServices {
  env: Env;
  hostRules: HostRules;
  pageCache: PageCache;
  renderer: Pick<CacheRenderer, "pool">;
  shared?: SharedCache;
  /** The webhook's invalidation (services.ts: here, or confirmed on every instance with CACHE_URL). */
  invalidate: (tags: string[]) => Promise<number>;
  /** The server's metrics (services.ts built them, on with METRICS_PORT). */
  metrics: Metrics;
}

export async function startOperatorView(services: OperatorServices): Promise<OperatorView> {
  const { env, pageCache, shared, hostRules } = services;
  const { pool } = services.renderer;
  const accessLog = env.ACCESS_LOG === "on" ? getAccessLog() : null;
  const codes = hostRules.registry.practices.map((p) => p.code);
  let server: Server | undefined;
  const { metrics } = services;
  if (metrics.enabled) {
    metrics.scrape({
      store: () => ({ keys: pageCache.store.count, bytes: pageCache.store.bytes }),
      pool: pool ? () => pool.stats() : undefined,
      shared: () => (shared ? { linked: shared.trusted } : null),
    });
    const preview = env.PREVIEW_DOMAIN;
    server = startMetricsServer(
      env.METRICS_PORT,
      env.METRICS_HOST,
      {
        codes,
        previewHost: (code) => (preview ? `${code}.${env.ENVIRONMENT}.${preview}` : null),
        store: pageCache.store,
        backend: { baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS },
        cache: () => ({
          store: { keys: pageCache.store.count, bytes: pageCache.store.bytes, maxBytes: pageCache.store.maxBytes },
          renders: { started: pageCache.renders, running: pageCache.rendering },
          pool: pool ? pool.stats() : null,
          shared: shared ? { trusted: shared.trusted } : null,
        }),
        // The same invalidation as the webhook's: the composition root chose it (here or on every instance).
        invalidate: services.invalidate,
        metrics,
      },
      // A port taken (another instance on this machine) costs the metrics, never the site.
      (error) => reportWarning(`metrics: internal port ${env.METRICS_HOST}:${env.METRICS_PORT} unavailable (${error.message}); serving without it`),
    );
    server.once("listening", () => console.log(`metrics and operator commands on http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics`));
  }
  return {
    observe: { accessLog, metrics: metrics.enabled ? metrics : null },
    close: () => {
      server?.close();
      flushLog();
    },
  };
}
