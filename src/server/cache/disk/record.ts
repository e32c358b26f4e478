/**
 * A page on disk, one self-describing record: `<u32 meta length><meta JSON><br><gzip><identity>`. The bodies
 * are the entry's own (precompressed once, cache/entry.ts), so reading a page back costs a read and a JSON
 * parse, never a compression. The same format is written by the build pre-pass (prepass/store.ts) and by the
 * warm tier behind memory (disk-pages.ts), so the server reads either the same way.
 *
 * The meta names the page's key: a record read at the wrong offset (a bug, a file replaced under us) is
 * refused, never served for another page.
 */
import { assembleEntry, type PageEntry } from "../entry";

export const RECORD_FORMAT = 1;

interface Meta {
  f: number;
  key: string;
  code: string;
  origin: string;
  url: string;
  headers: string[];
  tags: string[];
  etag: string;
  identityLength: number;
  renderedAt: number;
  /** Lengths of br, gzip, identity (-1: absent). */
  lengths: [number, number, number];
}

const HEAD = 4;

/** Whether an entry can be written as a record: a 200 (a practice's 404 page stays in memory: cache/not-found.ts). */
export function isRecordable(entry: PageEntry): boolean {
  return (entry.status ?? 200) === 200 && !entry.pathIndex;
}

/** The record of an entry, as the buffers to write back to back (no copy of the bodies). */
export function encodeRecord(entry: PageEntry): { parts: Buffer[]; length: number } {
  const bodies = [entry.br, entry.gzip, entry.identity];
  const meta: Meta = {
    f: RECORD_FORMAT,
    key: entry.target.key,
    code: entry.target.code,
    origin: entry.target.origin,
    url: entry.target.url,
    headers: entry.headers,
    tags: entry.tags,
    etag: entry.etag,
    identityLength: entry.identityLength,
    renderedAt: entry.renderedAt,
    lengths: bodies.map((b) => (b ? b.length : -1)) as Meta["lengths"],
  };
  const json = Buffer.from(JSON.stringify(meta));
  const head = Buffer.allocUnsafe(HEAD);
  head.writeUInt32LE(json.length, 0);
  const parts = [head, json, ...bodies.filter((b): b is Buffer => b !== null)];
  return { parts, length: parts.reduce((n, p) => n + p.length, 0) };
}

/**
 * The entry a record holds, expiring `ttlMs` after it was rendered; null when the bytes are not a record of
 * `key` (another format, another page, truncated).
 */
export function decodeRecord(bytes: Buffer, key: string, ttlMs: number): PageEntry | null {
  try {
    if (bytes.length < HEAD) return null;
    const metaLength = bytes.readUInt32LE(0);
    if (HEAD + metaLength > bytes.length) return null;
    const meta = JSON.parse(bytes.subarray(HEAD, HEAD + metaLength).toString()) as Meta;
    if (meta.f !== RECORD_FORMAT || meta.key !== key || !Array.isArray(meta.lengths)) return null;
    // The bodies in memory of their own, without the meta (headers are kept as strings anyway).
    const own = Buffer.allocUnsafeSlow(bytes.length - HEAD - metaLength);
    bytes.copy(own, 0, HEAD + metaLength);
    let at = 0;
    const [br, gzip, identity] = meta.lengths.map((length) => {
      if (length < 0) return null;
      const body = own.subarray(at, at + length);
      at += length;
      return body;
    });
    if (at !== own.length) return null;
    return assembleEntry({
      target: { key: meta.key, code: meta.code, origin: meta.origin, url: meta.url },
      headers: meta.headers,
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
  } catch {
    return null;
  }
}
