/**
 * The pre-pass output on disk and the seed at start: `manifest.json` (per entry: practice, origin,
 * path, headers, tags, ETag, offsets) and `bodies.bin` (the precompressed bodies, back to back), so the
 * server loads thousands of pages with two reads.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Env } from "../env";
import { assembleEntry, ownMemory, type PageEntry } from "../cache/entry";
import { cacheTarget } from "../cache/key";
import type { PageCache } from "../cache/page-cache";

export const PREPASS_FORMAT = 1;

type Span = [offset: number, length: number] | null;

interface PrepassRecord {
  code: string;
  origin: string;
  url: string;
  headers: string[];
  tags: string[];
  etag: string;
  identityLength: number;
  renderedAt: number;
  br: Span;
  gzip: Span;
  identity: Span;
}

export interface PrepassSummary {
  /** The ENVIRONMENT the pages were rendered for (robots meta, canonical rules depend on it). */
  environment: string;
  renderedAt: string;
  practices: { code: string; host: string; pages: number; failed: number }[];
  skipped: { code: string; reason: string }[];
}

interface PrepassManifest extends PrepassSummary {
  format: number;
  entries: PrepassRecord[];
}

/** Writes the output atomically: a half-written directory is never seeded. */
export function writePrepass(dir: string, summary: PrepassSummary, entries: PageEntry[]): void {
  const target = resolve(dir);
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const chunks: Buffer[] = [];
  let offset = 0;
  const span = (body: Buffer | null): Span => {
    if (!body) return null;
    chunks.push(body);
    offset += body.length;
    return [offset - body.length, body.length];
  };
  const records = entries.map((e): PrepassRecord => ({
    code: e.target.code,
    origin: e.target.origin,
    url: e.target.url,
    headers: e.headers,
    tags: e.tags,
    etag: e.etag,
    identityLength: e.identityLength,
    renderedAt: e.renderedAt,
    br: span(e.br),
    gzip: span(e.gzip),
    identity: span(e.identity),
  }));
  writeFileSync(join(tmp, "bodies.bin"), Buffer.concat(chunks));
  const manifest: PrepassManifest = { format: PREPASS_FORMAT, ...summary, entries: records };
  writeFileSync(join(tmp, "manifest.json"), JSON.stringify(manifest));
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  renameSync(tmp, target);
}

export function removePrepass(dir: string): void {
  rmSync(resolve(dir), { recursive: true, force: true });
}

export interface LoadedPrepass {
  summary: PrepassSummary;
  entries: PageEntry[];
}

/** Reads the output back as cache entries (stale once older than ttlMs), or null when there is none. */
export function readPrepass(dir: string, ttlMs: number): LoadedPrepass | null {
  const manifestFile = join(resolve(dir), "manifest.json");
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as PrepassManifest;
  if (manifest.format !== PREPASS_FORMAT)
    throw new Error(`pre-pass format ${manifest.format}, expected ${PREPASS_FORMAT}`);
  const bodies = readFileSync(join(resolve(dir), "bodies.bin"));
  // Each entry keeps its own copy: a slice would pin the whole file in memory past eviction.
  const body = (s: Span) => (s ? ownMemory(bodies.subarray(s[0], s[0] + s[1])) : null);
  const entries: PageEntry[] = [];
  for (const r of manifest.entries) {
    const url = new URL(r.origin);
    const target = cacheTarget("GET", r.code, url.host, url.protocol.slice(0, -1), r.url);
    if (!target) continue;
    entries.push(
      assembleEntry({
        target,
        headers: r.headers,
        servedByStack: false,
        br: body(r.br),
        gzip: body(r.gzip),
        identity: body(r.identity),
        identityLength: r.identityLength,
        etag: r.etag,
        tags: r.tags,
        renderedAt: r.renderedAt,
        expiresAt: r.renderedAt + ttlMs,
      }),
    );
  }
  const { entries: _records, format: _format, ...summary } = manifest;
  return { summary, entries };
}

/**
 * Seeds the page store at start, so the first visitor after a deploy gets a HIT. Pages rendered for
 * another ENVIRONMENT are not used: their robots meta and canonical links would be wrong here.
 */
export function seedFromPrepass(cache: PageCache, env: Env, log: (line: string) => void = console.log): number {
  let loaded: LoadedPrepass | null;
  try {
    loaded = readPrepass(env.PREPASS_DIR, env.BACKEND_REVALIDATE_TTL * 1000);
  } catch (error) {
    log(`page cache: pre-pass output unreadable (${(error as Error).message}); pages render on first request`);
    return 0;
  }
  if (!loaded) {
    log(`page cache: no pre-pass output in ${env.PREPASS_DIR}; pages render on first request`);
    return 0;
  }
  if (loaded.summary.environment !== env.ENVIRONMENT) {
    log(
      `page cache: pre-pass rendered for ENVIRONMENT=${loaded.summary.environment}, this server runs ` +
        `${env.ENVIRONMENT}: not seeding; pages render on first request`,
    );
    return 0;
  }
  const seeded = cache.seed(loaded.entries);
  const practices = new Set(loaded.entries.map((e) => e.target.code)).size;
  log(
    `page cache: seeded ${seeded} pages of ${practices} practices from the build pre-pass (${loaded.summary.renderedAt})`,
  );
  return seeded;
}
