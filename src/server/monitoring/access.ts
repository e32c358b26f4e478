/**
 * The request observer: wraps the server's request listener and, when a response is done (or abandoned),
 * counts it (metrics.ts) and writes one access line (log.ts). One listener per request, nothing in the
 * answer's path.
 *
 * The access line holds: request id, method, practice, host, path (never the query string: it can carry
 * a visitor's e-mail, a campaign id), status, cache result, duration, bytes sent. Never the client's
 * address (docs/decisions/0028-error-tracking-privacy.md: the address is personal data and only the rate limit
 * uses it), cookies, or a body. Host and path are the visitor's own spelling, so both are cut to a bound.
 *
 * The request id: a client's or proxy's X-Request-Id when it is a short token (letters, digits, `.`, `_`,
 * `-`, at most 64), else generated here; carried into error events and render workers' lines.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { recordRequest } from "./metrics";
import { cacheResultOf, setRequestId } from "./request-marks";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_HOST = 100;
const MAX_PATH = 200;
const HOST_MEMO_MAX = 1024;

export interface ObserveOptions {
  /** The practice a Host header names (tenancy's resolveHost), or null. */
  practiceOf: (host: string | undefined) => string | null;
  log: Logger | null;
  metrics: boolean;
}

/** Generated ids: a per-process random prefix and a counter (unique, and no crypto call per request). */
const prefix = randomBytes(4).toString("hex");
let sequence = 0;

export function requestId(header: string | string[] | undefined): string {
  if (typeof header === "string" && REQUEST_ID.test(header)) return header;
  return `${prefix}-${(++sequence).toString(36)}`;
}

/** The cache result label: the page cache's own, 404 for any 404, else NONE (not a cacheable page). */
export function resultOf(res: ServerResponse): string {
  if (res.statusCode === 404) return "404";
  const marked = cacheResultOf(res);
  if (marked) return marked;
  const header = res.getHeader("x-cache");
  return header === "HIT" || header === "STALE" || header === "MISS" ? header : "NONE";
}

/** The path without its query, bounded. */
export function pathOnly(url: string | undefined): string {
  if (!url) return "";
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

export function observeRequests(listener: RequestListener, opts: ObserveOptions): RequestListener {
  const { log, metrics } = opts;
  if (!log && !metrics) return listener;
  const hosts = new Map<string, string | null>();
  const practiceOf = (host: string | undefined): string | null => {
    if (!host) return null;
    let code = hosts.get(host);
    if (code === undefined) {
      code = opts.practiceOf(host);
      if (hosts.size >= HOST_MEMO_MAX) hosts.clear();
      hosts.set(host, code);
    }
    return code;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    const socket = req.socket;
    // Only what the enabled parts need: the hit path pays for each (bench section (l)).
    const written = log ? socket.bytesWritten : 0;
    const id = log ? requestId(req.headers["x-request-id"]) : "";
    if (log) setRequestId(req, id);
    // "close", not "finish": a response the client abandoned is counted and logged too (aborted). `on`, not
    // `once`: the response emits it once and is dropped after, and `once` allocates a wrapper per request.
    res.on("close", () => {
      const ms = performance.now() - start;
      const host = req.headers.host;
      const practice = practiceOf(host);
      const result = resultOf(res);
      if (metrics) recordRequest(practice, result, res.statusCode, ms);
      if (log) {
        log.info({
          msg: "access",
          id,
          method: req.method,
          practice,
          host: host && host.length > MAX_HOST ? host.slice(0, MAX_HOST) : host,
          path: pathOnly(req.url),
          status: res.statusCode,
          cache: result,
          ms: Math.round(ms * 100) / 100,
          bytes: socket.bytesWritten - written,
          ...(res.writableFinished ? {} : { aborted: true }),
        });
      }
    });
    listener(req, res);
  };
}
