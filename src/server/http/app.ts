/**
 * createApp(): the request listener of the server, importable without listening: the page cache's
 * fast path, then the Express stack in front of Qwik City.
 *
 *  -2. one Host, no fragment, no Qwik      4. tenancy: Host -> practice, else plain 404
 *      calls (400), GET/HEAD/POST (405)     4b. redirects of migrated practices (301)
 *  -1. fresh cache hits (cacheFront)        4c. canonical paths (301), the practice's files
 *   0. headers of every response            4d. page cache: pages, robots, sitemap, card (the pool renders)
 *   1. static build assets (immutable),     4e. GET/HEAD, POST on the contact relay, else 405
 *      else a plain 404                     5. the other routes: media proxy, contact relay, and the
 *   2. global endpoints (any Host):            practice's 404 page for every other path (practice-routes.ts)
 *      healthz, readyz, revalidation        6. one error handler
 *   3. /_sites from outside -> 404
 *
 * Nothing here renders: with a render pool, this thread has no render function (services.ts), and every
 * render a visitor can cause waits its turn in the pool's admission (docs/decisions/0047-main-thread-renders-nothing.md).
 *
 * The refusals (request-rules.ts) and the fast path (cache-front.ts) answer without Express and send the
 * one list of headers step 0 sets (security headers, noindex). Every long-lived object comes from the services
 * (src/server/services.ts builds them); this file builds none and says which it uses (AppServices).
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { RequestListener } from "node:http";
import compression from "compression";
import { join } from "node:path";
import type { Env } from "../env";
import { isInternalPath, isServedPort, resolveHost, setRequestTenant, type HostRules } from "../tenancy";
import type { PageCache } from "../cache/page-cache";
import type { NotFoundWatch } from "../migration-watch/not-found-watch";
import type { CacheRenderer } from "../render-pool/renderer";
import type { RequestServices } from "../render/context";
import { reportError } from "../monitoring";
import { timedInvalidation } from "../monitoring/metrics";
import { requestIdOf } from "../monitoring/request-marks";
import { isIndexable } from "../site/indexing";
import { everyResponseHeaders, responseHeadersMiddleware } from "./security-headers";
import { cmsOrigin } from "../build-constants";
import { redirectsMiddleware } from "./redirects";
import { answerRequest, type LoadedRedirects } from "../redirects/map";
import { cacheFront, cacheMiddleware } from "./cache-front";
import { revalidateHandlers } from "./revalidate";
import { bodyOf, requestBodyMiddleware } from "./request-body";
import { canonicalPath, canonicalPathMiddleware } from "./canonical-path";
import { methodMiddleware, requestRulesFront } from "./request-rules";
import { practiceRoutesMiddleware } from "./practice-routes";
import { routeOf } from "../tenancy/routes";
import { mediaFilesMiddleware } from "../media/static-files";
import type { Lifecycle } from "./lifecycle";

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
}

export interface AppOptions {
  services: AppServices;
  /** The client build output (dist/): /build and /assets are served from it. */
  distDir: string;
  /** Readiness for /readyz and the graceful shutdown (lifecycle.ts); default: always ready. */
  lifecycle?: Lifecycle;
}

const IMMUTABLE = { immutable: true, maxAge: "365d", index: false, redirect: false } as const;

export function createApp({ services, distDir, lifecycle }: AppOptions): RequestListener {
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
    invalidate: (tags) => timedInvalidation(() => services.invalidate(tags)),
  });
  app.post("/webhooks/revalidate/", revalidate.webhook);
  app.post("/api/revalidate", revalidate.api);

  app.use((req: Request, res: Response, next: NextFunction) => {
    // Judged on the canonical spelling too: `/x/../_sites/b/` must not be redirected to the internal path.
    if (isInternalPath(req.path) || isInternalPath(canonicalPath(req.path))) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    const code = isServedPort(req.headers.host, env.PORT) ? resolveHost(req.headers.host, hostRules) : null;
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
  const practiceRoutes = practiceRoutesMiddleware({ services, pageCache, renderer: services.renderer, notFound: services.notFound });
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
  app.use(cacheMiddleware(pageCache, services.notFound));

  // GET and HEAD, and POST on the contact relay: any other method is a 405, never a render.
  app.use(methodMiddleware());

  // The media proxy, the contact relay, and the practice's 404 page for every other path.
  app.use(practiceRoutes);

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    reportError(error, { path: req.originalUrl, requestId: requestIdOf(req) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).type("text/plain").send("Internal Server Error");
  });

  // Fresh cache hits (and paths a practice's cached 404 page proves are no page) are answered in front of
  // all of the above (cache-front.ts says why); in front of them, the request rules' refusals (one Host, no
  // fragment, no Qwik call parameters, a method some route takes: request-rules.ts).
  const front = {
    rules: hostRules,
    stackHeaders,
    trust: app.get("trust proxy fn"),
    redirected: (code: string, url: string) => answerRequest(services.redirects.table, code, url) !== null,
    notFound: services.notFound,
  };
  return requestRulesFront(stackHeaders, cacheFront(pageCache, front, app));
}
