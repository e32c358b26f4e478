/**
 * The pipeline's on-response consumers (pipeline.ts, stage 7) that tell the operator about each request: the
 * metrics (monitoring/metrics.ts: plain counters, handed to prom-client when it is scraped) and the access line
 * (monitoring/access.ts: formatted by hand, written in batches). Each is on or off (METRICS_PORT, LOG_FORMAT and
 * ACCESS_LOG: operator/operator-view.ts decides). The migration watch's consumer (watchNotFound) is always on.
 */
import type { ServerResponse } from "node:http";
import type { NotFoundWatch } from "../migration-watch/not-found-watch";
import type { AccessLog } from "../monitoring/access";
import type { Metrics } from "../monitoring/metrics";
import type { OnResponse, RequestState } from "./pipeline";

export interface Observers {
  /** The access log, or null when no access line is written. */
  accessLog: AccessLog | null;
  /** The metrics that count requests, or null when they are off. */
  metrics: Pick<Metrics, "recordRequest"> | null;
}

/** The cache result label: 404 for any 404, else the page cache's own (HIT, STALE, MISS), else NONE (not a page). */
export function resultOf(res: ServerResponse, state: RequestState): string {
  if (res.statusCode === 404) return "404";
  return state.cache ?? "NONE";
}

/**
 * The migration watch's consumer (migration-watch/not-found-watch.ts): every 404 the page cache answered (the
 * practice's 404 page, stored or rendered, whichever stage wrote it: the cache hit stage, the cache middleware,
 * the practice's other paths, an old URL its redirect map drops) counts its URL for the practice the Host named.
 * The plain 404s of the server's own paths (/build/, /assets/, /metrics) are not an old site's URLs and are not
 * counted; the watch counts listed practices only.
 */
export function watchNotFound(watch: Pick<NotFoundWatch, "record">): OnResponse {
  return (req, res, state) => {
    if (res.statusCode !== 404 || !state.site || state.cache === undefined) return;
    // No handler rewrites req.url (stack.ts): it is the target as received.
    watch.record(state.site.code, req.url ?? "");
  };
}

export function observers({ accessLog, metrics }: Observers): OnResponse[] {
  const consumers: OnResponse[] = [];
  if (metrics) consumers.push((_req, res, state, ms) => metrics.recordRequest(state.site?.code ?? null, resultOf(res, state), res.statusCode, ms));
  if (accessLog) {
    consumers.push((req, res, state, ms) =>
      accessLog.write({
        id: state.id,
        method: req.method!,
        practice: state.site?.code ?? null,
        host: req.headers.host,
        path: req.url ?? "",
        status: res.statusCode,
        cache: resultOf(res, state),
        ms,
        bytes: state.bytes,
        aborted: state.aborted,
      }),
    );
  }
  return consumers;
}
