/**
 * The HTTP server's own timeouts, set deliberately instead of Node's defaults (a connection sending half a
 * header was held for over a minute; a slow request for five). docs/decisions/0036-server-timeouts.md.
 *
 * - headersTimeout 10 s: a client has this long to send the request line and headers (408, then closed).
 * - requestTimeout 30 s: the whole request, body included (the body reader's own limit is 10 s).
 * - keepAliveTimeout 65 s: longer than nginx's upstream keepalive_timeout (60 s), so the proxy, not us,
 *   closes an idle connection; the reverse order races a reused connection into a 502.
 * - connectionsCheckingInterval 2 s: how often Node enforces the first two (its default, 30 s, would let a
 *   stalled header live up to 40 s).
 */
import type { Server, ServerOptions } from "node:http";

export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  checkingIntervalMs: 2_000,
} as const;

/** Options for http.createServer(). */
export function serverOptions(): ServerOptions {
  return {
    headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
    requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
    connectionsCheckingInterval: SERVER_TIMEOUTS.checkingIntervalMs,
  };
}

/** What createServer()'s options do not cover. */
export function applyServerLimits(server: Server): Server {
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  return server;
}
