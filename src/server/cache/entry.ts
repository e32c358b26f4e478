/**
 * A stored response: the render's bytes, precompressed once (brotli and gzip) so a hit never
 * compresses, with the headers to replay and the tags it was rendered from.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, gunzipSync } from "node:zlib";
import type { CacheTarget } from "./key";
import type { PathIndex } from "../site/path-index";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/*
 * Measured on the demo homepage (26.5 KB of HTML): brotli quality 5 gives 7.0 KB in 0.5 ms, quality 11
 * 6.5 KB in 47 ms. Compression sits on every miss and refresh (and 2,500 pages of the pre-pass), so 7%
 * fewer bytes are not worth 90 times the CPU. Gzip's levels differ by a few bytes on pages this small.
 */
export const BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

/** What one render produced, body read in full. */
export interface RenderResult {
  status: number;
  headers: Headers;
  body: Buffer;
  /** Union of the tags of every backend read during the render. */
  tags: string[];
  /** The stored forms, when the render was compressed where it ran (a render worker: render-pool/worker.ts). */
  encoded?: Encoded;
  /**
   * Set by a render worker that found the path is no page of the practice before rendering it: the
   * cache answers the practice's one cached 404 page instead (cache/not-found.ts).
   */
  unknownPage?: boolean;
  /** With the render of a practice's 404 page: which paths are no page of the practice (cache/not-found.ts). */
  pathIndex?: PathIndex;
}

/** A body's stored forms: br and gzip for compressible types (else null), and its validator. */
export interface Encoded {
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
}

export interface PageEntry {
  target: CacheTarget;
  /** 200, or 404 for a practice's one cached 404 page (cache/not-found.ts). */
  status?: number;
  /** The render's own headers, as [name, value, name, value…] (lower-case names). */
  headers: string[];
  /**
   * Served through the full Express stack at least once, so tenancy, redirects and every middleware
   * decided for this key: only then may the fast path in front of Express answer it (a seeded entry is
   * served by Express first).
   */
  servedByStack: boolean;
  /** Compressible types keep br + gzip (identity is decompressed on demand); others keep identity only. */
  br: Buffer | null;
  gzip: Buffer | null;
  identity: Buffer | null;
  identityLength: number;
  etag: string;
  tags: string[];
  /** Epoch ms the bytes were rendered (Age counts from here). */
  renderedAt: number;
  /** After this (epoch ms) the entry is stale: served as STALE while one background render refreshes it. */
  expiresAt: number;
  /** Named by an invalidation: never served again without a re-render attempt. */
  invalidated: boolean;
  /** Versions of `tags` in the shared store when rendered (cache/shared/); absent without one. */
  versions?: string[];
  /** The page cache's trust generation this entry was last known valid in (PageCache.distrust()). */
  gen: number;
  /** Rendered while cut off from the other instances: fresh only briefly, then rendered again (never STALE). */
  provisional?: boolean;
  /** A stale entry starts no background render before this (epoch ms): backs off a failing backend. */
  retryAt: number;
  /** Bytes counted against the store's budget. */
  size: number;
  /** Epoch ms a visitor was last answered from it: invalidations re-render recently used entries first. */
  usedAt?: number;
  /** A practice's cached 404 page: the paths it answers without a render (cache/not-found.ts). */
  pathIndex?: PathIndex;
  /**
   * The redirect maps have no redirect for this entry's own URL (target.url), asked once by the fast path
   * (http/cache-front.ts): the maps are loaded once at start. A flag, not the visitor's spelling: a target
   * kept per entry would let anyone pin a 16 KB query string on every cached page, outside the budget.
   */
  ownUrlNotRedirected?: boolean;
  /** Its key's hash for the page store's frequency sketch (cache/frequency-sketch.ts's hashOf), kept on first use. */
  keyHash?: number;
}

/** Headers of a render never replayed from the cache: per response, or decided by the cache itself. */
const NOT_STORED = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "age",
  "vary",
  "x-cache",
]);

/** A 200 without Set-Cookie or Cache-Control private/no-store: the only thing the cache stores. */
export function isStorable(result: Pick<RenderResult, "status" | "headers">): boolean {
  return result.status === 200 && isShareable(result);
}

/** Whether one render may be handed to every request that waited for it (never a cookie or a private answer). */
export function isShareable(result: Pick<RenderResult, "headers">): boolean {
  if (result.headers.getSetCookie().length) return false;
  const cacheControl = result.headers.get("cache-control");
  return !cacheControl || !/\b(?:no-store|private)\b/i.test(cacheControl);
}

export function isCompressible(contentType: string | null): boolean {
  return (
    !!contentType &&
    /^(?:text\/|application\/(?:json|xml|javascript|manifest\+json)|image\/svg\+xml)/i.test(contentType)
  );
}

/** Per-entry bookkeeping (key, headers, tags, object overhead) counted on top of the bodies. */
const ENTRY_OVERHEAD = 1024;

export async function buildEntry(
  target: CacheTarget,
  result: RenderResult,
  opts: { renderedAt: number; ttlMs: number; servedByStack: boolean },
): Promise<PageEntry> {
  const headers: string[] = [];
  result.headers.forEach((value, name) => {
    if (!NOT_STORED.has(name)) headers.push(name, value);
  });
  // A worker's bodies arrive in ArrayBuffers of their own (transferred): no copy needed.
  const encoded = result.encoded ?? (await encode(result));
  const own = result.encoded ? result.body : ownMemory(result.body);
  return assembleEntry({
    target,
    status: result.status === 200 ? undefined : result.status,
    headers,
    servedByStack: opts.servedByStack,
    br: encoded.br,
    gzip: encoded.gzip,
    identity: encoded.br ? null : own,
    identityLength: result.body.length,
    etag: encoded.etag,
    tags: [...new Set(result.tags)].sort(),
    renderedAt: opts.renderedAt,
    expiresAt: opts.renderedAt + opts.ttlMs,
    pathIndex: result.pathIndex,
  });
}

const brotliOptions = (length: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: length },
});

/** Compresses a render's body off the event loop (zlib's thread pool): the in-process render path. */
async function encode(result: Pick<RenderResult, "headers" | "body">): Promise<Encoded> {
  const { body } = result;
  if (!isCompressible(result.headers.get("content-type"))) return { br: null, gzip: null, etag: etagOf(body) };
  const [br, gz] = await Promise.all([brotli(body, brotliOptions(body.length)), gzipAsync(body, { level: GZIP_LEVEL })]);
  return { br: ownMemory(br), gzip: ownMemory(gz), etag: etagOf(body) };
}

/**
 * The same, synchronously: a render worker compresses on its own thread (whose priority it lowered),
 * not in the process-wide zlib thread pool, which would compete with the hit path at full priority.
 */
export function encodeSync(result: Pick<RenderResult, "headers" | "body">): Encoded {
  const { body } = result;
  if (!isCompressible(result.headers.get("content-type"))) return { br: null, gzip: null, etag: etagOf(body) };
  const br = brotliCompressSync(body, brotliOptions(body.length));
  return { br: ownMemory(br), gzip: ownMemory(gzipSync(body, { level: GZIP_LEVEL })), etag: etagOf(body) };
}

/** Completes an entry from its stored parts (also used by the pre-pass seed). */
export function assembleEntry(parts: Omit<PageEntry, "invalidated" | "retryAt" | "size" | "gen">): PageEntry {
  const bodies = (parts.br?.length ?? 0) + (parts.gzip?.length ?? 0) + (parts.identity?.length ?? 0);
  const meta =
    parts.headers.reduce((n, h) => n + h.length, 0) +
    parts.tags.reduce((n, t) => n + t.length, 0) +
    (parts.pathIndex ? indexBytes(parts.pathIndex) : 0);
  return { ...parts, invalidated: false, retryAt: 0, gen: 0, size: bodies + meta + parts.target.key.length + ENTRY_OVERHEAD };
}

/** Bytes a 404 page's path index holds: its strings and a set slot each. */
function indexBytes(index: PathIndex): number {
  let bytes = 0;
  for (const set of [index.pagePaths, index.slugs]) for (const item of set) bytes += item.length + 16;
  return bytes;
}

/**
 * A copy in memory of its own. Small Buffers are slices of shared 8 KB pool slabs: a long-lived 3 KB
 * body would pin a whole slab (and an ArrayBuffer-backed body the render's whole buffer) for as long
 * as the entry lives.
 */
export function ownMemory(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

export function etagOf(body: Buffer): string {
  // Weak: the same validator for the br, gzip and identity forms of one body.
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
}

/** The uncompressed body (a rare need: a client accepting neither br nor gzip). */
export function identityBody(entry: PageEntry): Buffer {
  return entry.identity ?? gunzipSync(entry.gzip!);
}

/*
 * An entry's state changes, all of them here. Fresh: servable as it is until expiresAt. Stale: served while
 * one background render refreshes it, at most one attempt per retry period. Invalidated: never served again
 * without a re-render attempt.
 */

/** Whether the entry may be served as it is at `now` (the fast path's whole question). */
export function isFresh(entry: PageEntry, now: number): boolean {
  return !entry.invalidated && now < entry.expiresAt;
}

/** Named by an invalidation (or stored by a render an invalidation overtook). */
export function markInvalidated(entry: PageEntry): void {
  entry.invalidated = true;
}

/** A visitor was answered from it (or waits for its re-render) at `now`. */
export function markUsed(entry: PageEntry, now: number): void {
  entry.usedAt = now;
}

/** Whether a visitor asked for it within `ms` of `now` (a seeded entry counts from its render). */
export function usedWithin(entry: PageEntry, now: number, ms: number): boolean {
  return now - (entry.usedAt ?? entry.renderedAt) < ms;
}

/** Served through the Express stack: the fast path may answer it from now on. */
export function markServedByStack(entry: PageEntry): void {
  entry.servedByStack = true;
}

/** Whether a stale entry may start a background refresh now; if so, the next is deferred by `retryMs`. */
export function claimRefresh(entry: PageEntry, now: number, retryMs: number): boolean {
  if (now < entry.retryAt) return false;
  entry.retryAt = now + retryMs;
  return true;
}

/** Known valid in the page cache's trust generation `gen` (page-cache.ts, distrust()). */
export function markConfirmed(entry: PageEntry, gen: number): void {
  entry.gen = gen;
}

/** Rendered while cut off from the other instances: fresh for `ms` at most, then rendered again, never STALE. */
export function markProvisional(entry: PageEntry, ms: number): void {
  entry.provisional = true;
  entry.expiresAt = Math.min(entry.expiresAt, entry.renderedAt + ms);
}

/** stale-if-error: the re-render failed, so the last good copy goes back into service as stale. */
export function keepAfterFailedRender(entry: PageEntry, now: number, retryMs: number): void {
  entry.invalidated = false;
  entry.expiresAt = Math.min(entry.expiresAt, now);
  entry.retryAt = now + retryMs;
}
