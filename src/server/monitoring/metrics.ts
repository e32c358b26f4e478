/**
 * The server's Prometheus metrics (prom-client): one registry, every definition here, recorded through the
 * small functions below from hook points in the request path, the render admission, the backend client,
 * the shared store and the contact relay. Served on a port of its own (metrics-server.ts), never through
 * the public app.
 *
 * Why recording functions and not the metric objects: with metrics off (METRICS_PORT=0) every hook is one
 * branch on `enabled`, so the benchmark's "off" case measures the hit path without any of this.
 *
 * Labels are bounded: a practice label is a code of the practice list (setPractices) or "other", never a
 * path, a host or a title; the other labels are closed sets (cache result, outcome, resource kind).
 *
 * Render workers are threads with their own copy of this module: what they measure (backend calls) goes to
 * the main thread as a message of the render pool's protocol (render-pool/protocol.ts: a worker's figure
 * sink is set by worker.ts, the pool hands the figure to recordBackendFigure), like every other message
 * between the threads.
 */
import client from "prom-client";

/** A practice label: a listed code, else this. */
export const OTHER = "other";
/** More practices than this and the rest count as "other" (a runaway list must not explode the series). */
export const MAX_PRACTICE_LABELS = 500;

export const registry = new client.Registry();
let enabled = false;
let practices = new Set<string>();

/** Practice labels allowed: the practice list's codes (preview hosts resolve to the same codes). */
export function setPractices(codes: readonly string[]): void {
  practices = new Set(codes.slice(0, MAX_PRACTICE_LABELS));
}

export function practiceLabel(code: string | null | undefined): string {
  return code && practices.has(code) ? code : OTHER;
}

const seconds = (ms: number) => ms / 1000;

interface Tally {
  labels: { practice: string; result: string; status: string };
  n: number;
  reported: number;
}
const requestTallies: Tally[] = [];
const requestTallyIndex = new Map<string, Map<string, Tally[]>>();

export const requests = new client.Counter({
  name: "frontend_http_requests_total",
  help: "Requests answered, by practice, cache result (HIT, STALE, MISS, 404, NONE: not a cacheable page) and status class",
  labelNames: ["practice", "result", "status"] as const,
  registers: [registry],
  // Tallied on the request path in plain numbers (recordRequest), handed over here.
  collect() {
    for (const tally of requestTallies) {
      if (tally.n > tally.reported) this.inc(tally.labels, tally.n - tally.reported);
      tally.reported = tally.n;
    }
  },
});
export const requestDuration = new client.Histogram({
  name: "frontend_http_request_duration_seconds",
  help: "Time from the request to the last byte handed to the socket, by cache result (every result but HIT)",
  labelNames: ["result"] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
/**
 * Renders run on the main thread, the thread that answers every practice's cache hits. With a render pool
 * (every server but RENDER_WORKERS=0) the main thread has no render function, so this stays 0: the tests
 * and the fuzz run assert it after every route shape (docs/decisions/0047-main-thread-renders-nothing.md).
 * Counted in a plain number (render/render.ts), read by the stats line and handed to the counter here.
 */
let mainThreadRenderCount = 0;
let mainThreadRendersReported = 0;
export function countMainThreadRender(): void {
  mainThreadRenderCount++;
}
export function mainThreadRenders(): number {
  return mainThreadRenderCount;
}
export const mainThreadRenderCounter = new client.Counter({
  name: "frontend_main_thread_renders_total",
  help: "Renders run on the main thread (0 with a render pool: the main thread answers stored bytes and hands every render to the pool)",
  registers: [registry],
  collect() {
    if (mainThreadRenderCount > mainThreadRendersReported) this.inc(mainThreadRenderCount - mainThreadRendersReported);
    mainThreadRendersReported = mainThreadRenderCount;
  },
});
export const renderDuration = new client.Histogram({
  name: "frontend_render_duration_seconds",
  help: "Page renders in the render workers (from the start of the render to its answer), by practice",
  labelNames: ["practice"] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
export const renderQueueWait = new client.Histogram({
  name: "frontend_render_queue_wait_seconds",
  help: "Time a render waited in the admission queue before it started",
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
export const renders = new client.Counter({
  name: "frontend_renders_total",
  help: "Renders through admission by outcome (ok, failed, refused: never started, queue full or wait too long)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});
export const renderQueueDepth = new client.Gauge({
  name: "frontend_render_queue_depth",
  help: "Renders waiting in the admission queue for a render slot",
  registers: [registry],
});
export const backendRequests = new client.Counter({
  name: "frontend_backend_requests_total",
  help: "Content backend reads by resource kind and outcome (ok, not_found, bad_status, timeout, unreachable, invalid_payload)",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});
export const backendDuration = new client.Histogram({
  name: "frontend_backend_request_duration_seconds",
  help: "Content backend read latency by resource kind",
  labelNames: ["kind"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 10],
  registers: [registry],
});
export const webhookInvalidations = new client.Counter({
  name: "frontend_webhook_invalidations_total",
  help: "Revalidation webhooks by outcome (ok: acknowledged; failed: not confirmed, answered 503)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});
export const webhookAck = new client.Histogram({
  name: "frontend_webhook_ack_seconds",
  help: "Time to acknowledge a revalidation webhook (with several instances: confirmed by every one)",
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
  registers: [registry],
});
export const sharedRoundTrips = new client.Histogram({
  name: "frontend_shared_store_round_trip_seconds",
  help: "Redis commands of the shared store by outcome (ok, failed)",
  labelNames: ["outcome"] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5],
  registers: [registry],
});
export const contactRelays = new client.Counter({
  name: "frontend_contact_relays_total",
  help: "Contact messages relayed to the backend by practice and outcome (accepted, invalid, refused, failed)",
  labelNames: ["practice", "outcome"] as const,
  registers: [registry],
});

/** What can be read when Prometheus scrapes (no hook on any path). */
export interface ScrapeSources {
  store?: () => { keys: number; bytes: number };
  pool?: () => { workers: number; replaced: number };
  /** The shared store: null without CACHE_URL (one instance). */
  shared?: () => { linked: boolean } | null;
}

function scrapeGauges(sources: ScrapeSources): void {
  new client.Gauge({
    name: "frontend_page_store_bytes",
    help: "Bytes held by the rendered-page store",
    registers: [registry],
    collect() {
      this.set(sources.store?.().bytes ?? 0);
    },
  });
  new client.Gauge({
    name: "frontend_page_store_keys",
    help: "Pages held by the rendered-page store",
    registers: [registry],
    collect() {
      this.set(sources.store?.().keys ?? 0);
    },
  });
  new client.Gauge({
    name: "frontend_render_workers_alive",
    help: "Render worker threads running",
    registers: [registry],
    collect() {
      this.set(sources.pool?.().workers ?? 0);
    },
  });
  // A counter read on scrape: the pool counts its replacements, this adds what it counted since.
  let replacedSeen = 0;
  new client.Counter({
    name: "frontend_render_worker_restarts_total",
    help: "Render workers replaced after a crash, an exit or a render timeout",
    registers: [registry],
    collect() {
      const replaced = sources.pool?.().replaced ?? 0;
      if (replaced > replacedSeen) this.inc(replaced - replacedSeen);
      replacedSeen = replaced;
    },
  });
  new client.Gauge({
    name: "frontend_shared_store_up",
    help: "1 while this instance is joined to the shared store (Redis) and trusts it, 0 when not, -1 without CACHE_URL",
    registers: [registry],
    collect() {
      const state = sources.shared?.() ?? null;
      this.set(state === null ? -1 : state.linked ? 1 : 0);
    },
  });
}

/** Turns recording on in the main thread: definitions read on scrape, process metrics. */
export function startMetrics(sources: ScrapeSources): void {
  if (enabled) return;
  enabled = true;
  client.collectDefaultMetrics({ register: registry });
  scrapeGauges(sources);
}

export const metricsEnabled = () => enabled;

/**
 * Requests are tallied in plain numbers and handed to prom-client when it is scraped: prom-client hashes
 * the label set on every inc(), children included, which measured 2.6 µs per request on this machine, more
 * than the 3% the hit path may spend on metrics. A HIT's duration is not observed for the same reason (its
 * time is the proxy's to measure); every other result's is.
 */

export function recordRequest(code: string | null, result: string, status: number, ms: number): void {
  if (!enabled) return;
  const practice = practiceLabel(code);
  // Nested maps and a status-class index: no string is built per request.
  let byResult = requestTallyIndex.get(practice);
  if (!byResult) requestTallyIndex.set(practice, (byResult = new Map()));
  let byClass = byResult.get(result);
  if (!byClass) byResult.set(result, (byClass = []));
  const index = status >= 100 && status < 600 ? (status / 100) | 0 : 0;
  let tally = byClass[index];
  if (!tally) {
    tally = { labels: { practice, result, status: index ? `${index}xx` : "other" }, n: 0, reported: 0 };
    byClass[index] = tally;
    requestTallies.push(tally);
  }
  tally.n++;
  if (result !== "HIT") requestDuration.observe({ result }, seconds(ms));
}

/**
 * Measures one render through admission: `admit(start)` runs `start` when a render slot is free. Queue
 * wait and depth are the time and count before `start`; the render duration is `start`'s own.
 */
export function measuredRender<T>(code: string, admit: (start: () => Promise<T>) => Promise<T>, render: () => Promise<T>): Promise<T> {
  if (!enabled) return admit(render);
  const queuedAt = performance.now();
  let started = false;
  renderQueueDepth.inc();
  const run = admit(() => {
    started = true;
    renderQueueDepth.dec();
    const startedAt = performance.now();
    renderQueueWait.observe(seconds(startedAt - queuedAt));
    return render().finally(() => renderDuration.observe({ practice: practiceLabel(code) }, seconds(performance.now() - startedAt)));
  });
  return run.then(
    (value) => {
      renders.inc({ outcome: "ok" });
      return value;
    },
    (error: unknown) => {
      if (!started) renderQueueDepth.dec();
      renders.inc({ outcome: started ? "failed" : "refused" });
      throw error;
    },
  );
}

/** The resource a backend endpoint reads: a closed set, never the path (which holds slugs). */
export function backendKind(endpoint: string): string {
  if (endpoint === "/sites/" || endpoint.startsWith("/sites/?")) return "sites";
  const m = /^\/sites\/[^/]+\/([a-z-]+)\/([^?]*)/.exec(endpoint);
  if (!m) return "other";
  if (m[1] === "pages") return m[2] ? "page" : "pages";
  return ["config", "practice", "team", "jobs", "nav", "contact"].includes(m[1]) ? m[1] : "other";
}

/** The practice an endpoint names (`/sites/{code}/...`), for "last backend error" per practice. */
function endpointPractice(endpoint: string): string | null {
  const m = /^\/sites\/([a-z0-9-]{1,64})\//.exec(endpoint);
  return m ? m[1] : null;
}

/** One backend read as measured: by the main thread, or by a render worker and carried by the pool's protocol. */
export interface BackendFigure {
  kind: string;
  outcome: string;
  ms: number;
  code: string | null;
}

/** Last backend failure per listed practice (operator's `practices` command): outcome and time. */
export const lastBackendError = new Map<string, { outcome: string; kind: string; at: number }>();

function recordBackend(kind: string, outcome: string, ms: number, code: string | null): void {
  backendRequests.inc({ kind, outcome });
  backendDuration.observe({ kind }, seconds(ms));
  if (outcome !== "ok" && outcome !== "not_found" && code && practices.has(code)) lastBackendError.set(code, { outcome, kind, at: Date.now() });
}

/** The main thread's record of a backend read, its own or one a render worker measured (render-pool/main.ts). */
export function recordBackendFigure({ kind, outcome, ms, code }: BackendFigure): void {
  if (enabled) recordBackend(kind, outcome, ms, code);
}

/** Where this thread's backend figures go: recorded here, unless a render worker sends them to the main thread. */
let figureSink: (figure: BackendFigure) => void = recordBackendFigure;

/** A render worker's figures go to the main thread through the pool's port (render-pool/worker.ts). */
export function sendBackendFiguresTo(sink: (figure: BackendFigure) => void): void {
  figureSink = sink;
}

/** One backend read, in whichever thread made it. */
export function recordBackendCall(endpoint: string, outcome: string, ms: number): void {
  figureSink({ kind: backendKind(endpoint), outcome, ms, code: endpointPractice(endpoint) });
}

/** Measures one backend read; the outcome of a failure is its BackendError failure. */
export async function timedBackendCall<T>(endpoint: string, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    const value = await call();
    recordBackendCall(endpoint, "ok", performance.now() - start);
    return value;
  } catch (error) {
    const failure = (error as { failure?: unknown }).failure;
    recordBackendCall(endpoint, typeof failure === "string" ? failure : "failed", performance.now() - start);
    throw error;
  }
}

/** A revalidation webhook's invalidation, timed until acknowledged (or refused). */
export async function timedInvalidation<T>(invalidate: () => Promise<T> | T): Promise<T> {
  if (!enabled) return invalidate();
  const start = performance.now();
  try {
    const value = await invalidate();
    webhookInvalidations.inc({ outcome: "ok" });
    webhookAck.observe(seconds(performance.now() - start));
    return value;
  } catch (error) {
    webhookInvalidations.inc({ outcome: "failed" });
    throw error;
  }
}

export function recordSharedRoundTrip(ok: boolean, ms: number): void {
  if (enabled) sharedRoundTrips.observe({ outcome: ok ? "ok" : "failed" }, seconds(ms));
}

/** A contact relay's outcome (accepted, invalid, refused), or "failed" when it threw. */
export async function countedContact<T extends { kind: string }>(code: string, relay: () => Promise<T>): Promise<T> {
  try {
    const outcome = await relay();
    if (enabled) contactRelays.inc({ practice: practiceLabel(code), outcome: outcome.kind });
    return outcome;
  } catch (error) {
    if (enabled) contactRelays.inc({ practice: practiceLabel(code), outcome: "failed" });
    throw error;
  }
}
