/**
 * A practice's path index: what its cached 404 page knows of its paths, so the cache's fast path can tell
 * that a path is no page without a render (docs/decisions/0020-cached-404.md). Read by site/unknown-page.ts,
 * stored with the 404 entry (cache/not-found.ts), asked by the fast path (http/cache-front.ts).
 */

/** Where a render looks a path up (a cache target has these, and more). */
export interface PathTarget {
  code: string;
  /** Scheme and host, as `https://www.example.fr`. */
  origin: string;
  /** Path and query as the cache keys them. */
  url: string;
}

/** What the cache's renders ask of a practice's paths (site/unknown-page.ts answers, from the backend). */
export interface PathLookups {
  /** The tags read when the path is no page of the practice, else null. */
  unknownPage(target: PathTarget): Promise<string[] | null>;
  /** The practice's path index, stored with its 404 page, and the tags read; null when a read failed. */
  pathIndex(code: string): Promise<{ index: PathIndex; tags: string[] } | null>;
}

/**
 * What a practice's 404 entry knows of its paths, read when it is rendered (site/unknown-page.ts), so the
 * cache's fast path can tell that a path is no page without a render, a worker or the Express stack.
 * It is a sound summary of the page route's resolution (site/page-view.ts, resolvePage), never a second
 * rule: a page-shaped path that is no page's path and whose last segment is no slug that could resolve
 * (a page's, or a team member's or job's under the practice's team or jobs page) resolves to "not found"
 * there. Anything it cannot prove goes the long way, to that resolution.
 */
export interface PathIndex {
  /** Every page's path. */
  pagePaths: ReadonlySet<string>;
  /** Every slug a path may end in and still resolve: pages', team members' and jobs'. */
  slugs: ReadonlySet<string>;
}

/**
 * Paths the index may judge: lower-case slug segments and a trailing slash, so canonical (no escapes, no
 * dot segments, no `//`), no query, and never a file (`robots.txt`, `q-data.json`: no dots). Everything
 * else (upper case, escapes) is left to the page route's own resolution, in the render.
 */
const PAGE_SHAPED = /^(?:\/[a-z0-9][a-z0-9-]*)+\/$/;

/**
 * First segments the server answers before the page cache or outside the page route, whatever follows
 * (http/app.ts: health and readiness, static build files, media files; the practice's other routes under
 * src/routes/_sites/[code]/). A path under one of them is never judged by the index.
 */
const NOT_PAGE_SEGMENTS = new Set(["api", "assets", "build", "healthz", "media", "metrics", "readyz", "webhooks"]);

/** Whether `url` (path and query as sent) is a path the index may judge. */
export function isPageShaped(url: string): boolean {
  if (!PAGE_SHAPED.test(url)) return false;
  return !NOT_PAGE_SEGMENTS.has(url.slice(1, url.indexOf("/", 1)));
}

/**
 * The page path a request names, as the index judges it: the path itself when page-shaped, or the path with
 * its trailing slash when only the slash is missing (`/ancienne-page`: an old site's clean URL). The page route
 * answers the latter with a 301 adding the slash; when the index proves the slashed path is no page, the
 * practice's 404 answers at once instead of a 301 to a 404 (issue 29). Null for anything else.
 */
export function judgedPagePath(url: string): string | null {
  if (isPageShaped(url)) return url;
  if (url.endsWith("/") || url.includes("?")) return null;
  const slashed = `${url}/`;
  return isPageShaped(slashed) ? slashed : null;
}

/** Whether the index proves `url` is no page of the practice (false: not proven, ask the page route). */
export function isUnknownPath(index: PathIndex, url: string): boolean {
  if (!isPageShaped(url) || index.pagePaths.has(url)) return false;
  const last = url.slice(url.lastIndexOf("/", url.length - 2) + 1, -1);
  return !index.slugs.has(last);
}
