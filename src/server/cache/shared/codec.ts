/**
 * A page entry as stored in the shared store: one Redis string, `<meta length>\n<meta JSON><bodies>`.
 * The meta (target, headers, tags and the versions they were rendered against) comes first so that the
 * load script in Redis can read the tags and versions without touching the bodies. Bodies are the
 * precompressed ones the entry already holds (brotli + gzip), never recompressed.
 */
import { assembleEntry, ownMemory, type PageEntry } from "../entry";
import type { CacheTarget } from "../key";

export const SHARED_FORMAT = 1;

interface Meta {
  f: number;
  target: CacheTarget;
  headers: string[];
  etag: string;
  tags: string[];
  versions: string[];
  renderedAt: number;
  identityLength: number;
  /** Byte lengths of br, gzip, identity; -1 for an absent body. */
  lengths: [number, number, number];
}

const len = (b: Buffer | null) => (b ? b.length : -1);

/** Encodes an entry stamped with its versions (entry.versions aligned with entry.tags). */
export function encodeEntry(entry: PageEntry & { versions: string[] }): Buffer {
  const meta: Meta = {
    f: SHARED_FORMAT,
    target: entry.target,
    headers: entry.headers,
    etag: entry.etag,
    tags: entry.tags,
    versions: entry.versions,
    renderedAt: entry.renderedAt,
    identityLength: entry.identityLength,
    lengths: [len(entry.br), len(entry.gzip), len(entry.identity)],
  };
  const json = Buffer.from(JSON.stringify(meta));
  const head = Buffer.from(`${json.length}\n`);
  return Buffer.concat([head, json, ...[entry.br, entry.gzip, entry.identity].filter((b): b is Buffer => !!b)]);
}

/** Decodes a stored entry for `key`, or null when it is malformed, of another format or another key. */
export function decodeEntry(blob: Buffer, key: string, ttlMs: number): PageEntry | null {
  try {
    const newline = blob.indexOf(10);
    const metaLength = Number(blob.subarray(0, newline).toString());
    if (newline < 1 || !Number.isInteger(metaLength)) return null;
    const meta = JSON.parse(blob.subarray(newline + 1, newline + 1 + metaLength).toString()) as Meta;
    if (meta.f !== SHARED_FORMAT || meta.target?.key !== key) return null;
    let at = newline + 1 + metaLength;
    // Each body gets memory of its own: the blob is not pinned by the entry.
    const body = (length: number) => {
      if (length < 0) return null;
      const copy = ownMemory(blob.subarray(at, at + length));
      at += length;
      return copy;
    };
    const [br, gzip, identity] = meta.lengths.map(body);
    if (at !== blob.length) return null;
    const entry = assembleEntry({
      target: meta.target,
      headers: meta.headers,
      // The fast path answers it once it was served through this instance's stack (page-cache.ts).
      servedByStack: false,
      br,
      gzip,
      identity,
      identityLength: meta.identityLength,
      etag: meta.etag,
      tags: meta.tags,
      renderedAt: meta.renderedAt,
      expiresAt: meta.renderedAt + ttlMs,
    });
    entry.versions = meta.versions;
    return entry;
  } catch {
    return null;
  }
}
