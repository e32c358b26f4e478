/**
 * A page as stored in the shared store: one Redis string, `<meta length>\n<meta JSON><body>`. The meta
 * (target, headers, tags and the versions they were rendered against) comes first so that the load script
 * in Redis can read the tags and versions without touching the body.
 *
 * One body only, brotli when the type is compressible (identity otherwise): with both brotli and gzip,
 * 300 practices x 25 pages overflowed Redis's 128 MB and least-recently-used eviction emptied the store
 * as fast as a new instance read it (bench (j)). The instance that loads a page rebuilds its entry with
 * the same code as a render (cache/entry.ts buildEntry: brotli + gzip, ETag), about a millisecond in
 * the thread pool instead of a render.
 */
import { promisify } from "node:util";
import { brotliDecompress } from "node:zlib";
import { buildEntry, type PageEntry } from "../entry";
import type { CacheTarget } from "../key";

export const SHARED_FORMAT = 2;

const unbrotli = promisify(brotliDecompress);

interface Meta {
  f: number;
  target: CacheTarget;
  headers: string[];
  tags: string[];
  versions: string[];
  renderedAt: number;
  /** How the body is stored. */
  encoding: "br" | "identity";
}

/** Encodes an entry stamped with its versions (entry.versions aligned with entry.tags). */
export function encodeEntry(entry: PageEntry & { versions: string[] }): Buffer {
  const meta: Meta = {
    f: SHARED_FORMAT,
    target: entry.target,
    headers: entry.headers,
    tags: entry.tags,
    versions: entry.versions,
    renderedAt: entry.renderedAt,
    encoding: entry.br ? "br" : "identity",
  };
  const json = Buffer.from(JSON.stringify(meta));
  const body = entry.br ?? entry.identity!;
  return Buffer.concat([Buffer.from(`${json.length}\n`), json, body]);
}

/**
 * Decodes a stored page for `key` into an entry (expiring ttlMs after it was rendered), or null when it is
 * malformed, of another format or another key.
 */
export async function decodeEntry(blob: Buffer, key: string, ttlMs: number): Promise<PageEntry | null> {
  let meta: Meta;
  let body: Buffer;
  try {
    const newline = blob.indexOf(10);
    const metaLength = Number(blob.subarray(0, newline).toString());
    if (newline < 1 || !Number.isInteger(metaLength)) return null;
    meta = JSON.parse(blob.subarray(newline + 1, newline + 1 + metaLength).toString()) as Meta;
    if (meta.f !== SHARED_FORMAT || meta.target?.key !== key || meta.versions?.length !== meta.tags?.length) return null;
    const stored = blob.subarray(newline + 1 + metaLength);
    body = meta.encoding === "br" ? await unbrotli(stored) : stored;
  } catch {
    return null;
  }
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < meta.headers.length; i += 2) pairs.push([meta.headers[i], meta.headers[i + 1]]);
  const result = { status: 200, headers: new Headers(pairs), body, tags: meta.tags };
  // The fast path answers it once it was served through this instance's stack (page-cache.ts).
  const entry = await buildEntry(meta.target, result, { renderedAt: meta.renderedAt, ttlMs, servedByStack: false });
  entry.versions = meta.versions;
  return entry;
}
