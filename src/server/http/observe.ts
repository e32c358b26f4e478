/**
 * The pipeline's on-response consumers (pipeline.ts, stage 7) that tell the operator about each request: the
 * metrics (monitoring/metrics.ts: plain counters, handed to prom-client when it is scraped) and the access line
 * (monitoring/access.ts: formatted by hand, written in batches). Each is on or off (METRICS_PORT, LOG_FORMAT and
 * ACCESS_LOG: operator/operator-view.ts decides); with both off there is no consumer and no "close" listener.
 */
import type { ServerResponse } from "node:http";
import type { AccessLog } from "../monitoring/access";
import { recordRequest } from "../monitoring/metrics";
import type { OnResponse, RequestState } from "./pipeline";

export interface Observers {
  /** The access log, or null when no access line is written. */
  accessLog: AccessLog | null;
  /** Whether requests are counted (the metrics are on). */
  metrics: boolean;
}

/** The cache result label: the page cache's own, 404 for any 404, else NONE (not a cacheable page). */
export function resultOf(res: ServerResponse, state: RequestState): string {
  if (res.statusCode === 404) return "404";
  if (state.cache) return state.cache;
  const header = res.getHeader("x-cache");
  return header === "HIT" || header === "STALE" || header === "MISS" ? header : "NONE";
}

export function observers({ accessLog, metrics }: Observers): OnResponse[] {
  const consumers: OnResponse[] = [];
  if (metrics) consumers.push((_req, res, state, ms) => recordRequest(state.site?.code ?? null, resultOf(res, state), res.statusCode, ms));
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
        bytes: req.socket.bytesWritten - state.bytesBefore,
        aborted: !res.writableFinished,
      }),
    );
  }
  return consumers;
}
