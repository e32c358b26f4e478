/**
 * The composition root: every long-lived object of a thread is built here, once, from the parsed
 * environment, and every choice between two implementations is made here (renders in a pool or in this
 * thread; one instance or several). The entries call it: the server (src/entry.express.tsx), the build
 * pre-pass (src/entry.prepass.tsx), a render worker (src/entry.render-worker.tsx) and the vite dev server
 * (dev-services.ts). Route loaders and endpoints never import a singleton: they reach these objects through
 * the request context (render/context.ts, requestContext(ev).services).
 *
 *   RequestServices   what a render may use (render/context.ts): backend client (reading through its read
 *                     cache), host rules, the build-time media cache's directories; on the main thread also
 *                     the contact relay and the media proxy
 *   Services          the server's: those plus the cache renderer (in the pool, or here without one; behind
 *                     admission either way: the only way anything renders), the page cache, the redirect maps, the webhook's invalidation
 *                     and, with CACHE_URL, the shared cache that joins it to the other instances
 */
import type { ServerRenderOptions } from "@builder.io/qwik-city/middleware/request-handler";
import type { Env } from "./env";
import { createBackendClient, directReader, getMedia, postContact, ReadCache } from "./backend";
import { listedOrUnlisted, loadRegistry, type Registry } from "./tenancy";
import { createRateLimiter } from "./util/rate-limit";
import { createMediaProxy } from "./media/proxy";
import { mediaCacheRoots } from "./media/build-cache";
import type { RequestServices } from "./render/context";
import { createRenderer } from "./render/render";
import { PageCache } from "./cache/page-cache";
import { createSharedCache, type SharedCache } from "./cache/shared";
import { DiskPages } from "./cache/disk/disk-pages";
import { pathLookups } from "./site/unknown-page";
import { createRenderPool, renderWorkerCount, type RenderPoolOptions } from "./render-pool/config";
import { inProcessRenderer, pooledRenderer, type CacheRenderer } from "./render-pool/renderer";
import { targetRenderer } from "./render-pool/target";
import type { WorkerRenders } from "./render-pool/worker";
import { loadRedirects } from "./redirects/map";
import type { AppServices } from "./http/app";
import { serverNotFoundWatch, type NotFoundWatch } from "./migration-watch/not-found-watch";
import { Metrics, type FigureSink } from "./monitoring/metrics";

/** Where nothing is counted: the dev server, a render worker without a sink (its figures go to the pool's port). */
const NO_METRICS = new Metrics(false, []);

/** Form pages with errors a visitor may be shown per submission the relay allows (typos, a missing field...). */
const FORM_PAGES_PER_SUBMISSION = 4;

export interface Services extends AppServices, RequestServices {
  /** How the page cache renders: in the render pool's workers, or in this thread (render-pool/renderer.ts). */
  renderer: CacheRenderer;
  /** Several instances (CACHE_URL): started by the server entry; absent for one instance on its own. */
  shared?: SharedCache;
  /**
   * The build pre-pass's pages on local disk, seeded at start (prepass/store.ts): one instance on its own reads
   * them through its warm tier (the same object); several admit them one by one through the shared store.
   */
  prepassPages: DiskPages;
  /** One instance on its own: the warm tier on local disk behind the page store (the pre-pass is read through it). */
  warm?: DiskPages;
  /** The migration watch, whole: the app records, the server entry flushes it on shutdown. */
  notFound: NotFoundWatch;
  /** The server's metrics (on with METRICS_PORT): what records hands them its figures, the operator view serves them. */
  metrics: Metrics;
}

export interface ServiceOptions {
  /** The render workers' bundle beside the entry (render-pool/config.ts workerFile); without it, no pool. */
  workerFile?: URL;
  /** How the workers run (the pre-pass: normal priority, no heap caps, its own environment). */
  pool?: RenderPoolOptions;
}

/**
 * What a render uses, for this thread. `dev`: the vite dev server, without a read cache (it has no page
 * cache nor revalidation route: a read cache there would hide every backend edit until a restart).
 * `worker`: a render worker, which renders cacheable GETs only: no contact relay, no media proxy.
 * `metrics`: what counts this thread's backend reads and contact relays; a render worker hands its figures to
 * `figures` instead (the pool's port: render-pool/worker.ts). `registry`: the practice list, when the caller
 * loaded it already. Throws (RegistryError…) when the practice list is invalid.
 */
export function createRequestServices(
  env: Env,
  opts: { dev?: boolean; worker?: boolean; metrics?: Metrics; figures?: FigureSink; registry?: Registry } = {},
): RequestServices {
  const http = { baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS };
  const metrics = opts.metrics ?? NO_METRICS;
  const direct = directReader(http, opts.figures ?? metrics.recordBackendFigure);
  const readCache = opts.dev ? null : new ReadCache({ ttlSeconds: env.BACKEND_REVALIDATE_TTL });
  const services: RequestServices = {
    env,
    hostRules: { registry: opts.registry ?? loadRegistry(env.TENANTS_FILE), environment: env.ENVIRONMENT, previewDomain: env.PREVIEW_DOMAIN },
    backend: createBackendClient(readCache ? readCache.wrap(direct) : direct),
    readCache,
    mediaCacheRoots: mediaCacheRoots(env.MEDIA_CACHE_DIR),
  };
  if (opts.worker) return services;
  const mediaOrigin = { baseUrl: new URL(env.BACKEND_API_URL).origin, timeoutMs: env.BACKEND_TIMEOUT_MS };
  return {
    ...services,
    contact: {
      send: (code, submission) => metrics.countedContact(code, () => postContact(http, code, submission)),
      limiter: createRateLimiter({ limit: env.CONTACT_RATE_LIMIT, windowMs: env.CONTACT_RATE_WINDOW_S * 1000 }),
      formPages: createRateLimiter({ limit: env.CONTACT_RATE_LIMIT * FORM_PAGES_PER_SUBMISSION, windowMs: env.CONTACT_RATE_WINDOW_S * 1000 }),
    },
    media: createMediaProxy((path, method) => getMedia(mediaOrigin, path, method)),
  };
}

/**
 * The server's services (and the pre-pass's): the render function over the SSR entry and the Qwik City
 * plan; the render pool when there is a worker bundle and RENDER_WORKERS is not 0, else renders in this
 * thread; the page cache rendering through it; the shared cache with CACHE_URL. Throws (RegistryError,
 * RedirectsError…) when the practice list or a redirect map is invalid.
 */
export function createServices(env: Env, ssr: ServerRenderOptions, opts: ServiceOptions = {}): Services {
  const registry = loadRegistry(env.TENANTS_FILE);
  // The metrics, on with the internal port that serves them (METRICS_PORT), labelled by the practice list.
  const metrics = new Metrics(env.METRICS_PORT > 0, registry.practices.map((p) => p.code));
  const base = createRequestServices(env, { metrics, registry });
  const pool =
    opts.workerFile && renderWorkerCount(env) > 0
      ? createRenderPool(env, opts.workerFile, opts.pool ?? {}, metrics.recordBackendFigure)
      : undefined;
  // Render admission's queues: one per listed practice, one for every other code (tenancy/registry.ts).
  const bucket = listedOrUnlisted(base.hostRules.registry);
  // With a pool, this thread has no render function at all: it cannot render, whatever a request names
  // (docs/decisions/0047-main-thread-renders-nothing.md). Without one (RENDER_WORKERS=0, the pre-pass), it
  // renders here, behind the same admission.
  const renderer = pool
    ? pooledRenderer(pool, base.readCache, bucket, metrics)
    : inProcessRenderer(createRenderer(ssr, base, metrics.countMainThreadRender), pathLookups(base.backend), base.readCache, bucket, metrics);
  // The shared cache is told what to do with another instance's invalidation and with lost trust; the page
  // cache is handed its pages. Neither holds the other.
  const shared = createSharedCache(env, {
    invalidateHere: (tags) => pageCache.invalidate(tags),
    distrust: () => pageCache.distrust(),
    clearData: renderer.clearData,
    roundTrip: metrics.recordSharedRoundTrip,
  });
  // One instance on its own keeps a warm tier on local disk behind memory, the pre-pass's pages in it;
  // several share Redis instead, and read the pre-pass's pages only where Redis admits them (nothing written).
  const diskPages = new DiskPages({
    dir: shared ? null : env.PAGE_DISK_DIR,
    maxBytes: shared ? 0 : env.PAGE_DISK_MAX_MB * 1024 * 1024,
    maxKeys: env.PAGE_DISK_MAX_KEYS,
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
  });
  const warm = shared ? undefined : diskPages;
  const pageCache = new PageCache({
    maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
    ttlMs: env.BACKEND_REVALIDATE_TTL * 1000,
    render: renderer.render,
    promote: renderer.promote,
    invalidateData: renderer.invalidateData,
    concurrency: renderer.concurrency,
    refreshBudget: renderer.refreshBudget,
    shared: shared?.pages,
    warm,
    build: shared ? diskPages : undefined,
  });
  return {
    ...base,
    metrics,
    renderer,
    pageCache,
    shared,
    prepassPages: diskPages,
    warm,
    redirects: loadRedirects(env.MIGRATIONS_DIR),
    notFound: serverNotFoundWatch(env, bucket, shared?.command),
    // The webhook's invalidation: with several instances, confirmed on every one (else 503); else here.
    invalidate: shared ? (tags) => shared.invalidate(tags) : async (tags) => pageCache.invalidate(tags),
  };
}

/** A render worker's renders (render-pool/worker.ts): its own backend client and read cache, nothing else. */
export function createWorkerRenders(env: Env, ssr: ServerRenderOptions, figures: FigureSink): WorkerRenders {
  const services = createRequestServices(env, { worker: true, figures });
  return {
    // A worker's renderer counts nothing: it never runs on the main thread, and if it ever did, the render fails
    // loudly rather than go uncounted (docs/decisions/0047-main-thread-renders-nothing.md).
    render: targetRenderer(createRenderer(ssr, services, () => {
      throw new Error("a render worker's renderer ran on the main thread");
    })),
    paths: pathLookups(services.backend),
    readCache: services.readCache,
  };
}
