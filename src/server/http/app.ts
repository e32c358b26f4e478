/**
 * createApp(): the request listener of the server, importable without listening: the request pipeline
 * (pipeline.ts declares its stages in order: observe, rules, tenant, cache hit, app, on response) with, as
 * its stage 6, the app's handlers (stack.ts runs them in order), built here:
 *
 *   0. headers of every response            4. tenancy: the practice stage 4 resolved, else plain 404
 *   1. the build's files (immutable),       4b. redirects of migrated practices (301)
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
 * No framework: every handler gets Node's own request and response (stack.ts and
 * docs/decisions/0064-hit-path-shapes.md say why); respond.ts writes their answers, compressed where worth it.
 * The refusals (request-rules.ts) and the cache hit stage (cache-front.ts) answer before any handler and send
 * the one list of headers step 0 sets (security headers, noindex). Every long-lived object comes from the
 * services (src/server/services.ts builds them); this file builds none and says which it uses (AppServices).
 */
import type { RequestListener } from "node:http";
import type { Env } from "../env";
import { isInternalPath, isServedPort, type HostRules } from "../tenancy";
import type { PageCache } from "../cache/page-cache";
import type { NotFoundWatch } from "../migration-watch/not-found-watch";
import type { CacheRenderer } from "../render-pool/renderer";
import type { RequestServices } from "../render/context";
import { reportError } from "../monitoring";
import type { Metrics } from "../monitoring/metrics";
import { requestId } from "../monitoring/access";
import { isIndexable } from "../site/indexing";
import { compileTrust } from "../util/request-scheme";
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
import { mediaFilesMiddleware } from "./media-files";
import type { Lifecycle } from "./lifecycle";
import { createPipeline, stateOf, tenantOf } from "./pipeline";
import { observers, watchNotFound, type Observers } from "./observe";
import { DistFiles } from "./dist-files";
import { pathOf, sendText } from "./respond";
import { mountOf, route, stack, type Handler } from "./stack";

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

/** The build's bundles never change under their name (it holds their hash): a year, immutable. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** The build's other files (the favicon, the practices' media) may change at the next deploy. */
const ONE_HOUR = "public, max-age=3600";
const BUILD_MOUNTS = ["/build", "/assets"];

/** A URL path decoded, or null when its escapes are not UTF-8 (no file has such a name). */
function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

export function createApp({ services, distDir, lifecycle, observe }: AppOptions): RequestListener {
  const { env, hostRules, pageCache } = services;
  // Only a proxy on this machine or the container network may tell us the client's protocol/address.
  const trust = compileTrust(env.TRUSTED_PROXY);
  const files = new DistFiles(distDir);
  // Security headers (and noindex outside production) first, so every response carries them, refusals
  // included. The cache's fast path replays the same list.
  const stackHeaders = everyResponseHeaders({ cmsOrigin: cmsOrigin(env.BUILD_CMS_ORIGIN), indexable: isIndexable(env) });
  const notFound = (res: Parameters<Handler>[1]) => sendText(res, 404, "Not Found", undefined, { "Cache-Control": "no-store" });

  // The build's bundles on any host; a build file that is not there is a plain 404: no practice's page, and
  // never cached for long. Under its mount in any case, as Express's mounts were; the file's own name exactly.
  const buildFiles: Handler = async (req, res, next) => {
    const path = pathOf(req.url!);
    const mount = mountOf(path, BUILD_MOUNTS);
    if (mount === null) return next();
    const rest = decodedPath(path.slice(mount.length));
    const answered = rest !== null && (req.method === "GET" || req.method === "HEAD") && (await files.answer(req, res, `${mount}${rest}`, IMMUTABLE));
    if (!answered) notFound(res);
  };

  // Revalidation by tag, on any Host: the backend calls the container's internal address.
  const revalidate = revalidateHandlers({
    secret: env.REVALIDATION_SECRET,
    bodyOf,
    invalidate: (tags) => services.metrics.timedInvalidation(() => services.invalidate(tags)),
  });

  const tenancy: Handler = (req, res, next) => {
    const path = pathOf(req.url!);
    // Judged on the canonical spelling too: `/x/../_sites/b/` must not be redirected to the internal path.
    if (isInternalPath(path) || isInternalPath(canonicalPath(path))) return sendText(res, 404, "Not Found");
    // The practice the pipeline's tenant stage resolved from this Host header (pipeline.ts), on our port only.
    const state = stateOf(req)!;
    const code = isServedPort(req.headers.host, env.PORT) ? (state.site?.code ?? null) : null;
    if (!code) return sendText(res, 404, "Not Found");
    state.tenant = { code, host: req.headers.host! };
    next();
  };

  // Only the routes' listed files are looked up (tenancy/routes.ts): not q-manifest.json, and no file lookup
  // for a page path.
  const rootFiles: Handler = async (req, res, next) => {
    const path = pathOf(req.url!);
    if (routeOf(req.method!, path) !== "file") return next();
    const decoded = decodedPath(path);
    if (decoded === null || !(await files.answer(req, res, decoded, ONE_HOUR))) next();
  };

  // The media proxy, the contact relay, and the practice's 404 page for every other path.
  const practiceRoutes = practiceRoutesMiddleware({ services, pageCache, renderer: services.renderer, trust });

  const handlers: Handler[] = [
    responseHeadersMiddleware(stackHeaders),
    buildFiles,
    route(["GET"], ["/healthz"], (_req, res) => sendText(res, 200, "ok")),
    route(["GET"], ["/readyz"], lifecycle?.readyz ?? ((_req, res) => sendText(res, 200, "ready"))),
    // The metrics are on the internal port only (METRICS_PORT). Here /metrics is one plain 404 on any host, as
    // a missing build file: it was a 301 to /metrics/ (every slash-less path is), then the practice's 404 page.
    route("any", ["/metrics"], (_req, res) => notFound(res)),
    // Every body is read here, bounded in bytes and time, on the Node side (http/request-body.ts says why).
    requestBodyMiddleware(),
    route(["POST"], ["/webhooks/revalidate"], revalidate.webhook),
    route(["POST"], ["/api/revalidate"], revalidate.api),
    tenancy,
    // Redirects of migrated practices (migrations/{code}/redirects.json, loaded at start): after tenancy, before
    // anything renders, and before the canonical spelling so that every spelling of an old URL the map names
    // (`//`, lower-case escapes) reaches its target in one 301 (the target is a path the map wrote, not the
    // visitor's). An old URL the map drops answers the practice's 404 page (practice-routes.ts) at once.
    redirectsMiddleware(services.redirects.table, practiceRoutes),
    // One spelling per path: `//`, dot segments and needless escapes are redirected, never rendered or stored.
    canonicalPathMiddleware(),
    // A practice's build-time media files only on its own hosts, SVG sandboxed; then the build's root files.
    mediaFilesMiddleware(),
    rootFiles,
    // The page cache: after tenancy and redirects. Pages, robots, sitemap and the card are its routes (stored,
    // or rendered in the pool); every other request falls through to the routes below.
    cacheMiddleware(pageCache, trust),
    // GET and HEAD, and POST on the contact relay: any other method is a 405, never a render.
    methodMiddleware(),
    practiceRoutes,
  ];

  const stackHeaderNames = new Set(stackHeaders.filter((_, i) => i % 2 === 0));
  const app = stack(
    handlers,
    (error, req, res) => {
      // The practice too: the event has no request of its own (monitoring/index.ts).
      reportError(error, { path: req.url, code: stateOf(req)?.site?.code, requestId: stateOf(req)?.id });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Whatever a handler set before it failed (a Cache-Control, an ETag, a cookie) is not the error's: only the
      // headers of every response stay, and no cache keeps the error.
      for (const name of res.getHeaderNames()) if (!stackHeaderNames.has(name)) res.removeHeader(name);
      sendText(res, 500, "Internal Server Error", undefined, { "Cache-Control": "no-store" });
    },
    // practiceRoutes answers every request that reaches it: this is never reached.
    (_req, res) => sendText(res, 404, "Not Found"),
  );

  // The pipeline (pipeline.ts): the request rules' refusals (one Host, no fragment, no Qwik call parameters,
  // a method some route takes: request-rules.ts), then fresh cache hits (and paths a practice's cached 404
  // page proves are no page) in front of all of the above (cache-front.ts says why), then the app's handlers.
  const front = {
    stackHeaders,
    trust,
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
