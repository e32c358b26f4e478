/**
 * The headers of every response (pages, endpoints, static files, the tenancy 404s): the security headers,
 * and X-Robots-Tag on a deployment that must not be indexed (the shared indexing decision). They are the
 * same for every request of the process, so the page cache's fast path replays this very list on a hit
 * (src/server/http/cache-front.ts) instead of running the app's handlers.
 *
 * The Content-Security-Policy here is the one of every response that is not a rendered page (images,
 * media, JSON, text, refusals): `default-src 'none'`. A rendered page replaces it with its own policy,
 * which names its inline scripts by hash (render/content-security-policy.ts); the fast path sends the
 * entry's policy instead of this one (serve.ts).
 */
import type { Handler } from "./stack";
import { NOINDEX_HEADER } from "../site/indexing";
import { resourcePolicy } from "../render/content-security-policy";

export interface SecurityHeaderOptions {
  /** Origin of the content backend's admin (the CMS preview iframe); undefined: only 'self' may frame. */
  cmsOrigin: string | undefined;
}

export interface ResponseHeaderOptions extends SecurityHeaderOptions {
  /** isIndexable(env): false adds X-Robots-Tag: noindex to every response. */
  indexable: boolean;
}

export function contentSecurityPolicy(opts: SecurityHeaderOptions): string {
  return resourcePolicy(opts);
}

export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()";

export function securityHeaders(opts: SecurityHeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(opts),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // A practice's site uses none of these browser features; no page it links to may control its window.
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

/** Every response's headers as a flat [name, value, name, value…] list (what writeHead takes). */
export function everyResponseHeaders(opts: ResponseHeaderOptions): string[] {
  const headers: Record<string, string> = securityHeaders(opts);
  if (!opts.indexable) headers["X-Robots-Tag"] = NOINDEX_HEADER;
  return Object.entries(headers).flatMap(([name, value]) => [name.toLowerCase(), value]);
}

/** The app's first handler, so that no response, not even a refusal, goes out without them. */
export function responseHeadersMiddleware(flat: readonly string[]): Handler {
  return (_req, res, next) => {
    for (let i = 0; i < flat.length; i += 2) res.setHeader(flat[i], flat[i + 1]);
    next();
  };
}
