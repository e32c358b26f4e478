/**
 * createApp(): the request listener of the server, importable without listening: the request pipeline
 * (pipeline.ts declares its stages in order: observe, rules, tenant, cache hit, app, on response) with, as
 * its stage 6, the Express stack in front of Qwik City, built here:
 *
 *   0. headers of every response            4. tenancy: the practice stage 4 resolved, else plain 404
 *   1. static build assets (immutable),     4b. redirects of migrated practices (301)
 *      else a plain 404                     4c. canonical paths (301), the practice's files
 *   2. global endpoints (any Host):         4d. page cache: pages, robots, sitemap, card (the pool renders)
 *      healthz, readyz, revalidation        4e. GET/HEAD, POST on the contact relay, else 405
 *   3. /_sites from outside -> 404          5. the other routes: media proxy, contact relay, and the
 *                                              practice's 404 page for every other path (practice-routes.ts)
 *                                           6. one error handler
 *
 * Nothing here renders: with a render pool, this thread has no render function (services.ts), and every
 * render a visitor can cause waits its turn in the pool's admission (docs/decisions/0047-main-thread-renders-nothing.md).
 *
 * The refusals (request-rules.ts) and the cache hit stage (cache-front.ts) answer without Express and send the
 * one list of headers step 0 sets (security headers, noindex). Every long-lived object comes from the services
 * (src/server/services.ts builds them); this file builds none and says which it uses (AppServices).
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { RequestListener } from "node:http";
import compression from "compression";
import { join } from "node:path";
import type { Env } from "../env";
import { isInternalPath, isServedPort, setRequestTenant, type HostRules } from "../tenancy";
import type { PageCache } from "../cache/page-cache";
import type { NotFoundWatch } from "../migration-watch/not-found-watch";
import type { CacheRenderer } from "../render-pool/renderer";
import type { RequestServices } from "../render/context";
import { reportError } from "../monitoring";
import type { Metrics } from "../monitoring/metrics";
import { requestId } from "../monitoring/access";
import { isIndexable } from "../site/indexing";
import { everyResponseHeaders, responseHeadersMiddleware } from "./security-headers";
import { cmsOrigin } from "../build-constants";
import { redirectsMiddleware } from "./redirects";
import { answerRequest, type LoadedRedirects } from "../redirects/map";
import { cacheHitStage, cacheMiddleware } from "./cache-front";
import { revalidateHandlers } from "./revalidate";
import { bodyOf, requestBodyMiddleware } from "./request-body";
import { canonicalPath, canonicalPathMiddleware } from "./canonical-path";
import { methodMiddleware, requestRulesStage } from "./request-rules";
import { practiceRoutesMiddleware } from "./practice-routes";
import { routeOf } from "../tenancy/routes";
import { mediaFilesMiddleware } from "../media/static-files";
import type { Lifecycle } from "./lifecycle";
import { createPipeline, stateOf, tenantOf } from "./pipeline";
import { observers, watchNotFound, type Observers } from "./observe";

/** What the app uses of the services. */
export interface AppServices extends Pick<RequestServices, "contact" | "media" | "backend"> {
  env: Env;
  hostRules: HostRules;
  pageCache: PageCache;
  /** The one render the page cache does not ask for: a refused no-JS contact post's form page (in the pool). */
  renderer: Pick<CacheRenderer, "renderOnce">;
  redirects: LoadedRedirects;
  /** The webhook's invalidation: here, or confirmed on every instance (cache/shared/invalidation.ts). */
  invalidate: (tags: string[]) => Promise<number>;
  /** Counts the old URLs still asked for that answer 404 (the migration watch: migration-watch/not-found-watch.ts). */
  notFound: Pick<NotFoundWatch, "record">;
  /** Times the webhook's invalidations (monitoring/metrics.ts). */
  metrics: Pick<Metrics, "timedInvalidation">;
}

export interface AppOptions {
  services: AppServices;
  /** The client build output (dist/): /build and /assets are served from it. */
  distDir: string;
  /** Readiness for /readyz and the graceful shutdown (lifecycle.ts); default: always ready. */
  lifecycle?: Lifecycle;
  /** The on-response consumers that are on (operator/operator-view.ts); default: none. */
  observe?: Observers;
}

const IMMUTABLE = { immutable: true, maxAge: "365d", index: false, redirect: false } as const;

export function createApp({ services, distDir, lifecycle, observe }: AppOptions): RequestListener {
  const { env, hostRules, pageCache } = services;
  const app = express();
  app.disable("x-powered-by");
  // Only a proxy on this machine or the container network may tell us the client's protocol/address.
  app.set("trust proxy", env.TRUSTED_PROXY);

  // Security headers (and noindex outside production) first, so every response carries them, refusals
  // included. The cache's fast path replays the same list.
  const stackHeaders = everyResponseHeaders({ cmsOrigin: cmsOrigin(env.BUILD_CMS_ORIGIN), indexable: isIndexable(env) });
  app.use(responseHeadersMiddleware(stackHeaders));
  app.use(compression());

  app.use("/build", express.static(join(distDir, "build"), IMMUTABLE));
  app.use("/assets", express.static(join(distDir, "assets"), IMMUTABLE));
  // A build file that is not there is a plain 404 on any host: no practice's page, and never cached for long.
  app.use(["/build", "/assets"], (_req: Request, res: Response) => {
    res.status(404).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send("Not Found");
  });

  app.get("/healthz", (_req, res) => {
    res.type("text/plain").send("ok");
  });
  app.get("/readyz", lifecycle?.readyz ?? ((_req, res) => void res.type("text/plain").send("ready")));
  // The metrics are on the internal port only (METRICS_PORT). Here /metrics is one plain 404 on any host, as
  // a missing build file: it was a 301 to /metrics/ (every slash-less path is), then the practice's 404 page.
  app.all(["/metrics", "/metrics/"], (_req: Request, res: Response) => {
    res.status(404).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send("Not Found");
  });

  // Every body is read here, bounded in bytes and time, on the Node side (http/request-body.ts says why).
  app.use(requestBodyMiddleware());

  // Revalidation by tag, on any Host: the backend calls the container's internal address.
  const revalidate = revalidateHandlers({
    secret: env.REVALIDATION_SECRET,
    bodyOf,
    invalidate: (tags) => services.metrics.timedInvalidation(() => services.invalidate(tags)),
  });
  app.post("/webhooks/revalidate/", revalidate.webhook);
  app.post("/api/revalidate", revalidate.api);

  app.use((req: Request, res: Response, next: NextFunction) => {
    // Judged on the canonical spelling too: `/x/../_sites/b/` must not be redirected to the internal path.
    if (isInternalPath(req.path) || isInternalPath(canonicalPath(req.path))) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    // The practice the pipeline's tenant stage resolved from this Host header (pipeline.ts), on our port only.
    const code = isServedPort(req.headers.host, env.PORT) ? (stateOf(req)?.site?.code ?? null) : null;
    if (!code) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    setRequestTenant(res, { code, host: req.headers.host! });
    next();
  });

  // Redirects of migrated practices (migrations/{code}/redirects.json, loaded at start): after tenancy, before
  // anything renders, and before the canonical spelling so that every spelling of an old URL the map names
  // (`//`, lower-case escapes) reaches its target in one 301 (the target is a path the map wrote, not the visitor's).
  // An old URL the map drops answers the practice's 404 page (practice-routes.ts) at once, never the page at its path.
  const practiceRoutes = practiceRoutesMiddleware({ services, pageCache, renderer: services.renderer });
  app.use(redirectsMiddleware(services.redirects.table, practiceRoutes));

  // One spelling per path: `//`, dot segments and needless escapes are redirected, never rendered or stored.
  app.use(canonicalPathMiddleware());

  // Files of the client build's root (the favicon) served per tenant host; no index, no redirect.
  // A practice's build-time media files only on its own hosts, SVG sandboxed (media/static-files.ts).
  app.use(mediaFilesMiddleware());
  // Only the routes' listed files are looked up (tenancy/routes.ts): not q-manifest.json, and no file-system
  // lookup for a page path (a storm of unknown paths cost 0.2 ms of main-thread time per request).
  const rootFiles = express.static(distDir, { index: false, redirect: false, maxAge: "1h" });
  app.use((req: Request, res: Response, next: NextFunction) => (routeOf(req.method, req.path) === "file" ? rootFiles(req, res, next) : next()));

  // The page cache: after tenancy and redirects. Pages, robots, sitemap and the card are its routes (stored,
  // or rendered in the pool); every other request falls through to the routes below.
  app.use(cacheMiddleware(pageCache));

  // GET and HEAD, and POST on the contact relay: any other method is a 405, never a render.
  app.use(methodMiddleware());

  // The media proxy, the contact relay, and the practice's 404 page for every other path.
  app.use(practiceRoutes);

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The practice too: the event has no request of its own (monitoring/index.ts).
    reportError(error, { path: req.originalUrl, code: stateOf(req)?.site?.code, requestId: stateOf(req)?.id });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).type("text/plain").send("Internal Server Error");
  });

  // The pipeline (pipeline.ts): the request rules' refusals (one Host, no fragment, no Qwik call parameters,
  // a method some route takes: request-rules.ts), then fresh cache hits (and paths a practice's cached 404
  // page proves are no page) in front of all of the above (cache-front.ts says why), then this Express app.
  const front = {
    stackHeaders,
    trust: app.get("trust proxy fn"),
    redirected: (code: string, url: string) => answerRequest(services.redirects.table, code, url) !== null,
  };
  return createPipeline({
    rules: requestRulesStage(stackHeaders),
    tenant: tenantOf(hostRules),
    cacheHit: cacheHitStage(pageCache, front),
    app,
    // The operator's view (metrics, access line) when on; the migration watch always.
    onResponse: [...(observe ? observers(observe) : []), watchNotFound(services.notFound)],
    requestId,
  });
}
