/**
 * The composition root: every long-lived object of the process is built here, once, from the parsed
 * environment. Both entries use it (the server, src/entry.express.tsx, and the build pre-pass,
 * src/entry.prepass.tsx). Route loaders and endpoints never import a singleton: they reach these objects
 * through the request context (src/server/render/render.ts, requestContext(ev).services).
 *
 *   RequestServices   what a render needs: backend client (reading through its read cache), host rules,
 *                     the contact relay's backend call and rate limiter, the media proxy's fetch and
 *                     resize cache, the build-time media cache's directories
 *   Services          the server's: those plus the render function, the page cache, the redirect maps and,
 *                     with CACHE_URL, the shared cache that joins it to the other instances
 */
import type { ServerRenderOptions } from "@builder.io/qwik-city/middleware/request-handler";
import type { Env } from "./env";
import {
  createBackendClient,
  directReader,
  getMedia,
  postContact,
  ReadCache,
  type BackendClient,
  type ContactOutcome,
  type ContactSubmission,
} from "./backend";
import { loadRegistry, type HostRules } from "./tenancy";
import { createRateLimiter, type RateLimiter } from "./contact/rate-limit";
import { createMediaProxy, type MediaProxy } from "./media/proxy";
import { mediaCacheRoots } from "./media/build-cache";
import { loadRedirects, type LoadedRedirects } from "./http/redirects";
import { createRenderer, type RenderRequest } from "./render/render";
import { createPageCache, type PageCache } from "./cache";
import type { RenderPool } from "./render/pool";
import { createRenderPool, renderWorkerCount, type RenderPoolOptions } from "./render/pool-config";
import type { ReadCacheMessage } from "./render-worker";
import { createSharedCache, type SharedCache } from "./cache/shared";
import { pathLookups } from "./site/unknown-page";
import { countedContact } from "./monitoring/metrics";

export interface RequestServices {
  env: Env;
  hostRules: HostRules;
  backend: BackendClient;
  /** The backend read cache (null on the vite dev server, which has no revalidation route). */
  readCache: ReadCache | null;
  /** Relays one contact submission (the only write to the backend). */
  sendContact: (code: string, submission: ContactSubmission) => Promise<ContactOutcome>;
  contactLimiter: RateLimiter;
  media: MediaProxy;
  /** Where the build-time media cache (logos for the social card) is read. */
  mediaCacheRoots: string[];
}

export interface Services extends RequestServices {
  renderRequest: RenderRequest;
  pageCache: PageCache;
  redirects: LoadedRedirects;
  /** Several instances (CACHE_URL): started by the server entry; absent for one instance on its own. */
  shared?: SharedCache;
  /** The render workers (absent: renders run in this thread). */
  pool?: RenderPool;
}

export interface ServiceOptions {
  /** The render workers' bundle beside the entry (render/pool-config.ts workerFile); without it, no pool. */
  workerFile?: URL;
  /** How the workers run (the pre-pass: normal priority, no heap caps, its own environment). */
  pool?: RenderPoolOptions;
}

/** Throws (RegistryError, RedirectsError…) when the practice list or a redirect map is invalid. */
export function createRequestServices(env: Env, opts: { dev?: boolean } = {}): RequestServices {
  const http = { baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS };
  const direct = directReader(http);
  // The vite dev server has no page cache and no revalidation route: a read cache there would hide every
  // backend edit until a restart. Built servers (and the pre-pass) read through it.
  const readCache = opts.dev ? null : new ReadCache({ ttlSeconds: env.BACKEND_REVALIDATE_TTL });
  const mediaOrigin = { baseUrl: new URL(env.BACKEND_API_URL).origin, timeoutMs: env.BACKEND_TIMEOUT_MS };
  return {
    env,
    hostRules: { registry: loadRegistry(env.TENANTS_FILE), environment: env.ENVIRONMENT, previewDomain: env.PREVIEW_DOMAIN },
    backend: createBackendClient(readCache ? readCache.wrap(direct) : direct),
    readCache,
    sendContact: (code, submission) => countedContact(code, () => postContact(http, code, submission)),
    contactLimiter: createRateLimiter({ limit: env.CONTACT_RATE_LIMIT, windowMs: env.CONTACT_RATE_WINDOW_S * 1000 }),
    media: createMediaProxy((path, method) => getMedia(mediaOrigin, path, method)),
    mediaCacheRoots: mediaCacheRoots(env.MEDIA_CACHE_DIR),
  };
}

/**
 * The server's services: the render function over the SSR entry and the Qwik City plan, the render pool
 * (RENDER_WORKERS worker threads, src/server/render/pool-config.ts), the page cache rendering in it.
 */
export function createServices(env: Env, ssr: ServerRenderOptions, opts: ServiceOptions = {}): Services {
  const base = createRequestServices(env);
  const pool =
    opts.workerFile && renderWorkerCount(env) > 0 ? createRenderPool(env, opts.workerFile, opts.pool) : undefined;
  const renderRequest = createRenderer(ssr, base);
  const invalidateData = (tags: string[]) => base.readCache?.invalidate(tags);
  const pageCache = createPageCache(env, renderRequest, invalidateData, pathLookups(base.backend), pool);
  return {
    ...base,
    renderRequest,
    redirects: loadRedirects(env.MIGRATIONS_DIR),
    pageCache,
    pool,
    // A possibly missed invalidation empties every read cache: this thread's and each render worker's.
    shared: createSharedCache(env, pageCache, () => {
      base.readCache?.clear();
      pool?.broadcast({ clear: true } satisfies ReadCacheMessage);
    }),
  };
}
