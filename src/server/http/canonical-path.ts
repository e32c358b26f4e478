/**
 * One spelling per path. `/contact//`, `/./contact/`, `/x/../contact/` and `/%63ontact/` all name
 * `/contact/`; each spelling rendered and stored its own copy, so a few hundred requests could evict every
 * other practice's pages. Every non-canonical spelling is answered with a redirect to the canonical path
 * (before the page cache, so it is never rendered nor stored), and the cache key only ever sees canonical
 * paths. docs/decisions/0025-canonical-paths.md records the choice.
 *
 * Canonical (RFC 3986 section 6.2.2): percent-encoded unreserved characters decoded, other escapes in upper
 * case, runs of slashes collapsed to one, dot segments removed. `%2F` stays encoded (it is not a separator).
 * A raw backslash is a slash, as browsers and the WHATWG URL parser (our render's) read it: `/x\..\contact\`
 * rendered `/contact/` under a key of its own, and `/\evil.com/` was answered `Location: /\evil.com/`, which
 * a browser follows to another site. Both are redirected to the one slash-separated spelling.
 */
import type { Handler } from "./stack";
import { redirect } from "./respond";

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The canonical spelling of a request path (no query). */
export function canonicalPath(path: string): string {
  const decoded = path.replace(/%([0-9a-fA-F]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  return removeDotSegments(decoded.replace(/\\/g, "/").replace(/\/{2,}/g, "/"));
}

/** RFC 3986 section 5.2.4 on an absolute path whose slashes are already single. */
function removeDotSegments(path: string): string {
  const segments = path.split("/").slice(1);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === ".") {
      if (last) out.push("");
    } else if (segment === "..") {
      out.pop();
      if (last) out.push("");
    } else {
      out.push(segment);
    }
  });
  return `/${out.join("/")}`;
}

/** The app's handler: a redirect to the canonical path when the request's path is spelled otherwise. */
export function canonicalPathMiddleware(): Handler {
  return (req, res, next) => {
    const raw = req.url!;
    const q = raw.indexOf("?");
    const path = q === -1 ? raw : raw.slice(0, q);
    const canonical = canonicalPath(path);
    if (canonical === path) return next();
    // 308 keeps the method and body of a POST; a GET is told 301 like every other permanent move.
    const status = req.method === "GET" || req.method === "HEAD" ? 301 : 308;
    res.setHeader("Cache-Control", "public, max-age=3600");
    redirect(res, status, `${canonical}${q === -1 ? "" : raw.slice(q)}`);
  };
}
