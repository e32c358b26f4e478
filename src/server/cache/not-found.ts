/**
 * A practice's 404 page, rendered once and cached under one key per practice and host
 * (docs/decisions/cached-404.md), so that a storm of unknown paths costs no render: a render worker
 * finds from the practice's page list that a path is no page (site/unknown-page.ts) and the cache
 * answers this entry, status 404, instead of rendering the path.
 *
 * The entry is rendered for NOT_FOUND_PATH, a path no practice publishes, so nothing of a visitor's own
 * path is in it (the 404 page prints no path besides Qwik's serialised URL, which is then this one); it
 * carries the practice's page-list tags, so any publication, unpublication or move of a page (which
 * could turn a 404 into a page) invalidates it with the page list.
 */
import { isShareable, type RenderResult } from "./entry";
import { cacheKey, cacheTarget, type CacheTarget } from "./key";
import type { Scheme } from "../util/request-scheme";
import { pageListTags } from "../backend/tags";

/** The path the cached 404 page is rendered for: a path no practice's page list holds. */
export const NOT_FOUND_PATH = "/__404__/";

/** Where a practice's 404 page is cached for this target's host (the same key as a request for NOT_FOUND_PATH). */
export function notFoundTarget(target: CacheTarget): CacheTarget {
  const origin = new URL(target.origin);
  return cacheTarget("GET", target.code, origin.host, origin.protocol.slice(0, -1), NOT_FOUND_PATH)!;
}

/** The key of a practice's 404 page for a host (as hostKeyPart() gives it) and scheme. */
export function notFoundKey(code: string, scheme: Scheme, authority: string): string {
  return cacheKey("GET", code, scheme, authority, NOT_FOUND_PATH)!;
}

/** Whether this is the render of a practice's 404 page (which reads the practice's path index too). */
export function isNotFoundRender(target: CacheTarget): boolean {
  return target.url === NOT_FOUND_PATH;
}

/** Whether a render may look for an unknown path first (never the 404 page's own render). */
export function mayCheckUnknown(target: CacheTarget): boolean {
  return !isNotFoundRender(target);
}

/**
 * The 404 page's render, storable under its key: status 404, shareable, tagged with the page list as
 * well as what it read. Null for any other render.
 */
export function storableNotFound(target: CacheTarget, result: RenderResult): RenderResult | null {
  if (!isNotFoundRender(target) || result.status !== 404 || !isShareable(result)) return null;
  return { ...result, tags: withPageList(target.code, result.tags) };
}

/** The tags an unknown-path answer depends on: what the check read plus the practice's page list. */
export function withPageList(code: string, tags: string[]): string[] {
  return [...new Set([...tags, ...pageListTags(code)])];
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
const NOT_PAGE_SEGMENTS = new Set(["api", "assets", "build", "healthz", "media", "readyz", "webhooks"]);

/** Whether `url` (path and query as sent) is a path the index may judge. */
export function isPageShaped(url: string): boolean {
  if (!PAGE_SHAPED.test(url)) return false;
  return !NOT_PAGE_SEGMENTS.has(url.slice(1, url.indexOf("/", 1)));
}

/** Whether the index proves `url` is no page of the practice (false: not proven, ask the page route). */
export function isUnknownPath(index: PathIndex, url: string): boolean {
  if (!isPageShaped(url) || index.pagePaths.has(url)) return false;
  const last = url.slice(url.lastIndexOf("/", url.length - 2) + 1, -1);
  return !index.slugs.has(last);
}
