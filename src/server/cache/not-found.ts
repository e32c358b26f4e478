/**
 * A practice's 404 page, rendered once and cached under one key per practice and host
 * (docs/decisions/0020-cached-404.md), so that a storm of unknown paths costs no render: a render worker
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
  return notFoundPageTarget(target.code, origin.host, origin.protocol.slice(0, -1))!;
}

/** The practice's 404 page for a request's host and scheme; null for a host that is not a DNS name. */
export function notFoundPageTarget(code: string, host: string, proto: string): CacheTarget | null {
  return cacheTarget("GET", code, host, proto, NOT_FOUND_PATH);
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
