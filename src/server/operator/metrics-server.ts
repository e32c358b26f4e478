/**
 * The internal port (METRICS_PORT, default 9464; 0: off): Prometheus metrics and the operator's commands,
 * on a server of its own so that nothing here is ever routed through the public app (the public port
 * answers 404 for these paths, and nginx proxies only the public port).
 *
 *   GET  /metrics                       the Prometheus text format (metrics.ts)
 *   GET  /ops/practices                 each listed practice: active at the backend (asked now), preview
 *                                       host, cached pages, last render, last backend error
 *   GET  /ops/cache                     the page store, the renders, the render workers, the shared store
 *   POST /ops/purge?practice=<code>     every cached page and payload of a practice (its site tag), or
 *   POST /ops/purge?tag=<tag>           one tag; confirmed on every instance as the webhook is
 *
 * Bound to METRICS_HOST (default 127.0.0.1; the container sets its own network address). The purge needs
 * no secret because only this network reaches the port: the same trust as Prometheus scraping it
 * (docs/decisions/0044-operator-view.md). "Only this network" must also hold for a browser on that network, whose
 * pages can send requests here (issue 26: a page on a `make demo` machine could POST /ops/purge): see
 * `refusal` below.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { Metrics } from "../monitoring/metrics";
import { request, type HttpOptions } from "../backend/http";
import { siteTag } from "../backend/tags";
import type { PageStore } from "../cache/page-store";

export interface OpsSources {
  codes: readonly string[];
  previewHost: (code: string) => string | null;
  store: PageStore;
  backend: HttpOptions;
  cache: () => Record<string, unknown>;
  /** The webhook's invalidation (several instances: confirmed on every one); resolves with pages dropped. */
  invalidate: (tags: string[]) => Promise<number> | number;
  /** What /metrics serves, and each practice's last backend failure. */
  metrics: Pick<Metrics, "registry" | "lastBackendError">;
}

/** A tag as the webhook accepts it: short, printable, no spaces. */
const TAG = /^[A-Za-z0-9:_./-]{1,200}$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(`${JSON.stringify(body, null, 2)}\n`);
}

export function practiceState(store: PageStore, lastBackendError: Metrics["lastBackendError"], code: string) {
  const keys = store.keysFor([siteTag(code)]);
  let lastRender = 0;
  for (const key of keys) lastRender = Math.max(lastRender, store.peek(key)?.renderedAt ?? 0);
  const error = lastBackendError.get(code);
  return {
    cachedPages: keys.size,
    lastRender: lastRender ? new Date(lastRender).toISOString() : null,
    lastBackendError: error ? { outcome: error.outcome, resource: error.kind, at: new Date(error.at).toISOString() } : null,
  };
}

/** "active" (config answers 200), "inactive" (404: unknown or is_active false), or what failed. */
async function activeAtBackend(backend: HttpOptions, code: string): Promise<string> {
  try {
    const response = await request(backend, `/sites/${encodeURIComponent(code)}/config/`, { method: "GET", headers: { accept: "application/json" } });
    await response.body?.cancel();
    return response.ok ? "active" : response.status === 404 ? "inactive" : `backend HTTP ${response.status}`;
  } catch (error) {
    return `backend ${(error as { failure?: string }).failure ?? "error"}`;
  }
}

/** Loopback names, as a browser or curl on this machine writes them. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** One DNS label: a compose service or container name (frontend, practice-frontend-prod-frontend-2). */
const LABEL = /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;

/**
 * Why a request to the internal port is refused (403), or null. Its clients are Prometheus, curl and
 * `npm run ops`; a browser's page never is, yet a page can reach this port from the operator's own machine:
 * - DNS rebinding (a page of evil.example whose name then resolves to 127.0.0.1) sends the attacker's name
 *   as Host. Accepted: the loopback names, an IP address (the container's, as docs/operations.md has
 *   operators write it), or a single label (the compose network's service and container names, resolved by
 *   that network's DNS, never by a public one an attacker controls); with this port or none.
 * - A cross-site request (a form or fetch POSTing /ops/purge) carries Origin, and Sec-Fetch-Site in every
 *   current browser; none of the real clients sends either. Refused on every method: the reads ask the
 *   backend for every practice, which a page must not make the instance do either.
 */
function refusal(req: IncomingMessage, port: number): string | null {
  const host = (req.headers.host ?? "").toLowerCase();
  const parsed = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (!parsed) return "a Host header naming this machine is required";
  const [, name, hostPort] = parsed;
  const known = LOOPBACK.has(name) || isIP(name.replace(/^\[|\]$/g, "")) !== 0 || LABEL.test(name);
  if (!known || (hostPort !== undefined && Number(hostPort) !== port)) return `Host ${JSON.stringify(host.slice(0, 100))} is not this internal port`;
  if (req.headers.origin !== undefined) return "requests from a web page (Origin) are refused";
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "none") return "requests from a web page (Sec-Fetch-Site) are refused";
  return null;
}

async function handle(req: IncomingMessage, res: ServerResponse, ops: OpsSources): Promise<void> {
  // The connection's local port is the port this server listens on.
  const refused = refusal(req, req.socket.localPort ?? 0);
  if (refused) return send(res, 403, { error: refused });
  const url = new URL(req.url ?? "/", "http://internal");
  if (req.method === "GET" && url.pathname === "/metrics") {
    const { registry } = ops.metrics;
    const body = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
    res.end(body);
    return;
  }
  if (req.method === "GET" && url.pathname === "/ops/practices") {
    const states = await Promise.all(ops.codes.map((code) => activeAtBackend(ops.backend, code)));
    send(
      res,
      200,
      ops.codes.map((code, i) => ({ code, state: states[i], preview: ops.previewHost(code), ...practiceState(ops.store, ops.metrics.lastBackendError, code) })),
    );
    return;
  }
  if (req.method === "GET" && url.pathname === "/ops/cache") {
    send(res, 200, ops.cache());
    return;
  }
  if (url.pathname === "/ops/purge") {
    if (req.method !== "POST") return send(res, 405, { error: "POST /ops/purge?practice=<code> or ?tag=<tag>" });
    const practice = url.searchParams.get("practice");
    const tag = url.searchParams.get("tag");
    if (practice !== null && !ops.codes.includes(practice)) return send(res, 400, { error: `no practice "${practice.slice(0, 64)}" in the practice list` });
    if (practice === null && (tag === null || !TAG.test(tag))) return send(res, 400, { error: "give ?practice=<code> of the practice list or ?tag=<tag>" });
    const tags = [practice !== null ? siteTag(practice) : tag!];
    try {
      const invalidated = await ops.invalidate(tags);
      send(res, 200, { purged: true, tags, invalidated });
    } catch (error) {
      send(res, 503, { purged: false, tags, error: `applied on this instance only: ${(error as Error).message}; retry` });
    }
    return;
  }
  send(res, 404, { error: "GET /metrics, /ops/practices, /ops/cache; POST /ops/purge?practice=<code>|tag=<tag>" });
}

export function startMetricsServer(port: number, host: string, ops: OpsSources, onError: (error: Error) => void): Server {
  const server = createServer((req, res) => {
    handle(req, res, ops).catch((error: Error) => {
      onError(error);
      if (!res.headersSent) send(res, 500, { error: "internal error" });
      else res.destroy();
    });
  });
  server.on("error", onError);
  server.listen(port, host);
  // The internal port never keeps a draining process alive.
  server.unref();
  return server;
}
