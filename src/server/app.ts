/**
 * createApp(): the Express stack in front of Qwik City, importable without listening.
 *
 *   0. security headers (every response)    4. tenancy: Host -> practice, else plain 404
 *   1. static build assets (immutable)      4b. redirects of migrated practices (301)
 *   2. global endpoints (any Host):         4c. page cache (GET/HEAD of cacheable responses)
 *      healthz, revalidation routes         5. pages: rendered by the real Qwik City router
 *   3. /_sites from outside -> 404          6. final 404, then one error handler
 *
 * Fresh cache hits are answered before Express by cacheFront() (src/server/cache/http.ts), wrapped
 * around this app by the server entry; it replays the headers this stack set before the cache middleware.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import compression from "compression";
import { join } from "node:path";
import type { Env } from "./env";
import { isInternalPath, resolveHost, type HostRules } from "./tenancy";
import type { RenderRequest } from "./render";
import { sendFetchResponse, toFetchRequest } from "./express-bridge";
import { reportError } from "./monitoring";
import { isIndexable, NOINDEX_HEADER } from "./indexing";
import { securityHeadersMiddleware } from "./security-headers";
import { cmsOrigin } from "./build-constants";
import { loadRedirects, redirectsMiddleware, type RedirectTable } from "./redirects";
import { cacheMiddleware, revalidateHandlers, type PageCache } from "./cache";
import { requestBodyMiddleware } from "./http/request-body";
import { canonicalPathMiddleware } from "./http/canonical-path";
import { endpointPathMiddleware } from "./http/endpoint-paths";
import { mediaFilesMiddleware } from "./media/static-files";

export interface AppOptions {
  env: Env;
  hostRules: HostRules;
  renderRequest: RenderRequest;
  /** The client build output (dist/): /build and /assets are served from it. */
  distDir: string;
  /** Redirect maps loaded and validated at start (src/server/redirects.ts); default: read MIGRATIONS_DIR. */
  redirects?: RedirectTable;
  /** The page cache (src/server/cache): answers cacheable GET/HEAD; its invalidate() backs revalidation. */
  pageCache: PageCache;
}

/** Request-scoped data the later middleware reads (never module state). */
export interface TenantLocals {
  code: string;
  host: string;
}

const IMMUTABLE = { immutable: true, maxAge: "365d", index: false, redirect: false } as const;

export function createApp(opts: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Only a proxy on this machine or the container network may tell us the client's protocol/address.
  app.set("trust proxy", opts.env.TRUSTED_PROXY);

  // Security headers first, so every response carries them, refusals included.
  app.use(securityHeadersMiddleware({ cmsOrigin: cmsOrigin(opts.env.BUILD_CMS_ORIGIN) }));

  const indexable = isIndexable(opts.env);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    // Every response of a non-production deployment says noindex (the shared indexing decision).
    if (!indexable) res.setHeader("X-Robots-Tag", NOINDEX_HEADER);
    next();
  });

  app.use(compression());

  app.use("/build", express.static(join(opts.distDir, "build"), IMMUTABLE));
  app.use("/assets", express.static(join(opts.distDir, "assets"), IMMUTABLE));

  app.get("/healthz", (_req, res) => {
    res.type("text/plain").send("ok");
  });

  // Every body is read here, bounded in bytes and time, on the Node side (http/request-body.ts says why).
  app.use(requestBodyMiddleware());

  // Revalidation by tag, on any Host: the backend calls the container's internal address.
  const revalidate = revalidateHandlers({
    secret: opts.env.REVALIDATION_SECRET,
    invalidate: (tags) => opts.pageCache.invalidate(tags),
  });
  app.post("/webhooks/revalidate/", revalidate.webhook);
  app.post("/api/revalidate", revalidate.api);

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isInternalPath(req.path)) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    const code = resolveHost(req.headers.host, opts.hostRules);
    if (!code) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    res.locals.tenant = { code, host: req.headers.host! } satisfies TenantLocals;
    next();
  });

  // One spelling per path: `//`, dot segments and needless escapes are redirected, never rendered or stored.
  app.use(canonicalPathMiddleware());

  // Redirects of migrated practices (migrations/{code}/redirects.json): after tenancy, before anything renders.
  app.use(redirectsMiddleware(opts.redirects ?? loadRedirects(opts.env.MIGRATIONS_DIR).table));

  // Files of the client build's root (favicon, manifest) served per tenant host; no index, no redirect.
  // A practice's build-time media files only on its own hosts, SVG sandboxed (media/static-files.ts).
  app.use(mediaFilesMiddleware());
  app.use(express.static(opts.distDir, { index: false, redirect: false, maxAge: "1h" }));

  // The page cache: after tenancy and redirects, before the render. It stores only what the render below
  // answers a 200 for; everything it does not answer falls through to the render.
  app.use(cacheMiddleware(opts.pageCache));

  // POST /api/contact (the specified spelling) is answered there, never redirected.
  app.use(endpointPathMiddleware());

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const tenant = res.locals.tenant as TenantLocals;
    try {
      const response = await opts.renderRequest(
        toFetchRequest(req, tenant.host),
        { ssr: true, render: { code: tenant.code, tags: new Set() } },
        req.ip,
      );
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  });

  app.use((_req: Request, res: Response) => {
    res.status(404).type("text/plain").send("Not Found");
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    reportError(error, { path: req.originalUrl });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).type("text/plain").send("Internal Server Error");
  });

  return app;
}
