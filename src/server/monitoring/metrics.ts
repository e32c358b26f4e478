/**
 * The server's Prometheus metrics (prom-client): one registry, every definition here, recorded through the
 * small functions below from hook points in the request path, the render admission, the backend client,
 * the shared store and the contact relay. Served on a port of its own (metrics-server.ts), never through
 * the public app.
 *
 * One Metrics object per server, built by the composition root (services.ts) with the practice list and the
 * choice on/off (METRICS_PORT), and handed to what records: nothing here is module state, so two servers in
 * one process (the tests) never count into each other's registry.
 *
 * Why recording methods and not the metric objects: with metrics off (METRICS_PORT=0) every hook is one
 * branch on `enabled`, so the benchmark's "off" case measures the hit path without any of this.
 *
 * Labels are bounded: a practice label is a code of the practice list or "other", never a path, a host or a
 * title; the other labels are closed sets (cache result, outcome, resource kind).
 *
 * Render workers are threads: what they measure (backend calls) goes to the main thread as a message of the
 * render pool's protocol (render-pool/protocol.ts: the worker's backend client is given a figure sink that
 * posts it, the pool hands the figure to recordBackendFigure), like every other message between the threads.
 */
import client from "prom-client";

/** A practice label: a listed code, else this. */
export const OTHER = "other";
/** More practices than this and the rest count as "other" (a runaway list must not explode the series). */
export const MAX_PRACTICE_LABELS = 500;

const seconds = (ms: number) => ms / 1000;

interface Tally {
  labels: { practice: string; result: string; status: string };
  n: number;
  reported: number;
}

/** What can be read when Prometheus scrapes (no hook on any path). */
export interface ScrapeSources {
  store?: () => { keys: number; bytes: number };
  pool?: () => { workers: number; replaced: number };
  /** The shared store: null without CACHE_URL (one instance). */
  shared?: () => { linked: boolean } | null;
}

/** The server's metrics: one registry, every definition, the recording methods (see the top of this file). */
export class Metrics {
  readonly registry = new client.Registry();
  /** Last backend failure per listed practice (operator's `practices` command): outcome and time. */
  readonly lastBackendError = new Map<string, { outcome: string; kind: string; at: number }>();
  private readonly practices: Set<string>;
  private readonly requestTallies: Tally[] = [];
  private readonly requestTallyIndex = new Map<string, Map<string, Tally[]>>();
  private mainThreadRenderCount = 0;
  private scraping = false;

  /** `practices`: the practice list's codes, the only practice labels (preview hosts resolve to the same codes). */
  constructor(
    readonly enabled: boolean,
    practices: readonly string[],
  ) {
    this.practices = new Set(practices.slice(0, MAX_PRACTICE_LABELS));
    // Process metrics (memory, event loop lag, GC) only when someone can read them.
    if (enabled) client.collectDefaultMetrics({ register: this.registry });
  }

  practiceLabel(code: string | null | undefined): string {
    return code && this.practices.has(code) ? code : OTHER;
  }

  private readonly requests = (() => {
    const tallies = this.requestTallies;
    return new client.Counter({
      name: "frontend_http_requests_total",
      help: "Requests answered, by practice, cache result (HIT, STALE, MISS, 404, NONE: not a cacheable page) and status class",
      labelNames: ["practice", "result", "status"] as const,
      registers: [this.registry],
      // Tallied on the request path in plain numbers (recordRequest), handed over here.
      collect() {
        for (const tally of tallies) {
          if (tally.n > tally.reported) this.inc(tally.labels, tally.n - tally.reported);
          tally.reported = tally.n;
        }
      },
    });
  })();
  private readonly requestDuration = new client.Histogram({
    name: "frontend_http_request_duration_seconds",
    help: "Time from the request to the last byte handed to the socket, by cache result (every result but HIT)",
    labelNames: ["result"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /**
   * Renders run on the main thread, the thread that answers every practice's cache hits. With a render pool
   * (every server but RENDER_WORKERS=0) the main thread has no render function, so this stays 0: the tests
   * and the fuzz run assert it after every route shape (docs/decisions/0047-main-thread-renders-nothing.md).
   * Counted in a plain number (countMainThreadRender, from render/render.ts), read by the stats line and handed
   * to the counter here.
   */
  private readonly mainThreadRenderCounter = (() => {
    const count = () => this.mainThreadRenderCount;
    let reported = 0;
    return new client.Counter({
      name: "frontend_main_thread_renders_total",
      help: "Renders run on the main thread (0 with a render pool: the main thread answers stored bytes and hands every render to the pool)",
      registers: [this.registry],
      collect() {
        const counted = count();
        if (counted > reported) this.inc(counted - reported);
        reported = counted;
      },
    });
  })();
  private readonly renderDuration = new client.Histogram({
    name: "frontend_render_duration_seconds",
    help: "Page renders in the render workers (from the start of the render to its answer), by practice",
    labelNames: ["practice"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly renderQueueWait = new client.Histogram({
    name: "frontend_render_queue_wait_seconds",
    help: "Time a render waited in the admission queue before it started",
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly renders = new client.Counter({
    name: "frontend_renders_total",
    help: "Renders through admission by outcome (ok, failed, refused: never started, queue full or wait too long)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly renderQueueDepth = new client.Gauge({
    name: "frontend_render_queue_depth",
    help: "Renders waiting in the admission queue for a render slot",
    registers: [this.registry],
  });
  private readonly backendRequests = new client.Counter({
    name: "frontend_backend_requests_total",
    help: "Content backend reads by resource kind and outcome (ok, not_found, bad_status, timeout, unreachable, invalid_payload)",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly backendDuration = new client.Histogram({
    name: "frontend_backend_request_duration_seconds",
    help: "Content backend read latency by resource kind",
    labelNames: ["kind"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 10],
    registers: [this.registry],
  });
  private readonly webhookInvalidations = new client.Counter({
    name: "frontend_webhook_invalidations_total",
    help: "Revalidation webhooks by outcome (ok: acknowledged; failed: not confirmed, answered 503)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly webhookAck = new client.Histogram({
    name: "frontend_webhook_ack_seconds",
    help: "Time to acknowledge a revalidation webhook (with several instances: confirmed by every one)",
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [this.registry],
  });
  private readonly sharedRoundTrips = new client.Histogram({
    name: "frontend_shared_store_round_trip_seconds",
    help: "Redis commands of the shared store by outcome (ok, failed)",
    labelNames: ["outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5],
    registers: [this.registry],
  });
  private readonly contactRelays = new client.Counter({
    name: "frontend_contact_relays_total",
    help: "Contact messages relayed to the backend by practice and outcome (accepted, invalid, refused, failed)",
    labelNames: ["practice", "outcome"] as const,
    registers: [this.registry],
  });

  /** What is read on scrape (the operator view hands it once the objects it reads exist). */
  scrape(sources: ScrapeSources): void {
    if (!this.enabled || this.scraping) return;
    this.scraping = true;
    const registers = [this.registry];
    new client.Gauge({
      name: "frontend_page_store_bytes",
      help: "Bytes held by the rendered-page store",
      registers,
      collect() {
        this.set(sources.store?.().bytes ?? 0);
      },
    });
    new client.Gauge({
      name: "frontend_page_store_keys",
      help: "Pages held by the rendered-page store",
      registers,
      collect() {
        this.set(sources.store?.().keys ?? 0);
      },
    });
    new client.Gauge({
      name: "frontend_render_workers_alive",
      help: "Render worker threads running",
      registers,
      collect() {
        this.set(sources.pool?.().workers ?? 0);
      },
    });
    // A counter read on scrape: the pool counts its replacements, this adds what it counted since.
    let replacedSeen = 0;
    new client.Counter({
      name: "frontend_render_worker_restarts_total",
      help: "Render workers replaced after a crash, an exit or a render timeout",
      registers,
      collect() {
        const replaced = sources.pool?.().replaced ?? 0;
        if (replaced > replacedSeen) this.inc(replaced - replacedSeen);
        replacedSeen = replaced;
      },
    });
    new client.Gauge({
      name: "frontend_shared_store_up",
      help: "1 while this instance is joined to the shared store (Redis) and trusts it, 0 when not, -1 without CACHE_URL",
      registers,
      collect() {
        const state = sources.shared?.() ?? null;
        this.set(state === null ? -1 : state.linked ? 1 : 0);
      },
    });
  }

  /**
   * Requests are tallied in plain numbers and handed to prom-client when it is scraped: prom-client hashes
   * the label set on every inc(), children included, which measured 2.6 µs per request on this machine, more
   * than the 3% the hit path may spend on metrics. A HIT's duration is not observed for the same reason (its
   * time is the proxy's to measure); every other result's is.
   */
  recordRequest(code: string | null, result: string, status: number, ms: number): void {
    if (!this.enabled) return;
    const practice = this.practiceLabel(code);
    // Nested maps and a status-class index: no string is built per request.
    let byResult = this.requestTallyIndex.get(practice);
    if (!byResult) this.requestTallyIndex.set(practice, (byResult = new Map()));
    let byClass = byResult.get(result);
    if (!byClass) byResult.set(result, (byClass = []));
    const index = status >= 100 && status < 600 ? (status / 100) | 0 : 0;
    let tally = byClass[index];
    if (!tally) {
      tally = { labels: { practice, result, status: index ? `${index}xx` : "other" }, n: 0, reported: 0 };
      byClass[index] = tally;
      this.requestTallies.push(tally);
    }
    tally.n++;
    if (result !== "HIT") this.requestDuration.observe({ result }, seconds(ms));
  }

  /** A render ran on this thread (render/render.ts; never, with a render pool). */
  readonly countMainThreadRender = (): void => {
    this.mainThreadRenderCount++;
  };

  get mainThreadRenders(): number {
    return this.mainThreadRenderCount;
  }

  /**
   * Measures one render through admission: `admit(start)` runs `start` when a render slot is free. Queue
   * wait and depth are the time and count before `start`; the render duration is `start`'s own.
   */
  measuredRender<T>(code: string, admit: (start: () => Promise<T>) => Promise<T>, render: () => Promise<T>): Promise<T> {
    if (!this.enabled) return admit(render);
    const queuedAt = performance.now();
    let started = false;
    this.renderQueueDepth.inc();
    const run = admit(() => {
      started = true;
      this.renderQueueDepth.dec();
      const startedAt = performance.now();
      this.renderQueueWait.observe(seconds(startedAt - queuedAt));
      return render().finally(() => this.renderDuration.observe({ practice: this.practiceLabel(code) }, seconds(performance.now() - startedAt)));
    });
    return run.then(
      (value) => {
        this.renders.inc({ outcome: "ok" });
        return value;
      },
      (error: unknown) => {
        if (!started) this.renderQueueDepth.dec();
        this.renders.inc({ outcome: started ? "failed" : "refused" });
        throw error;
      },
    );
  }

  /** The record of a backend read, this thread's own or one a render worker measured (render-pool/main.ts). */
  readonly recordBackendFigure = ({ kind, outcome, ms, code }: BackendFigure): void => {
    if (!this.enabled) return;
    this.backendRequests.inc({ kind, outcome });
    this.backendDuration.observe({ kind }, seconds(ms));
    if (outcome !== "ok" && outcome !== "not_found" && code && this.practices.has(code)) this.lastBackendError.set(code, { outcome, kind, at: Date.now() });
  };

  /** A revalidation webhook's invalidation, timed until acknowledged (or refused). */
  async timedInvalidation<T>(invalidate: () => Promise<T> | T): Promise<T> {
    if (!this.enabled) return invalidate();
    const start = performance.now();
    try {
      const value = await invalidate();
      this.webhookInvalidations.inc({ outcome: "ok" });
      this.webhookAck.observe(seconds(performance.now() - start));
      return value;
    } catch (error) {
      this.webhookInvalidations.inc({ outcome: "failed" });
      throw error;
    }
  }

  readonly recordSharedRoundTrip = (ok: boolean, ms: number): void => {
    if (this.enabled) this.sharedRoundTrips.observe({ outcome: ok ? "ok" : "failed" }, seconds(ms));
  };

  /** A contact relay's outcome (accepted, invalid, refused), or "failed" when it threw. */
  async countedContact<T extends { kind: string }>(code: string, relay: () => Promise<T>): Promise<T> {
    try {
      const outcome = await relay();
      if (this.enabled) this.contactRelays.inc({ practice: this.practiceLabel(code), outcome: outcome.kind });
      return outcome;
    } catch (error) {
      if (this.enabled) this.contactRelays.inc({ practice: this.practiceLabel(code), outcome: "failed" });
      throw error;
    }
  }
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

/** Where a thread's backend figures go: its Metrics (the main thread), or the pool's port (a render worker). */
export type FigureSink = (figure: BackendFigure) => void;

/** Measures one backend read into `sink`; the outcome of a failure is its BackendError failure. */
export async function timedBackendCall<T>(endpoint: string, call: () => Promise<T>, sink: FigureSink): Promise<T> {
  const start = performance.now();
  const record = (outcome: string) => sink({ kind: backendKind(endpoint), outcome, ms: performance.now() - start, code: endpointPractice(endpoint) });
  try {
    const value = await call();
    record("ok");
    return value;
  } catch (error) {
    const failure = (error as { failure?: unknown }).failure;
    record(typeof failure === "string" ? failure : "failed");
    throw error;
  }
}
