/**
 * Small media files kept in memory as the proxy served them. The page's first hero image comes through
 * the proxy (site/blocks.ts: the largest paint from the page's own origin), once per visitor and page
 * kind, so the proxy answers it from here instead of with a backend round trip each time: a few hundred
 * microseconds instead of the backend's time, for the image a phone waits for first.
 *
 * Bounded in bytes and in keys; keyed by the canonical media path only (request.ts re-encodes every
 * segment); a file over ORIGINAL_CACHE_MAX_FILE_BYTES is streamed as before and not kept; kept for as long
 * as a resized image (media may be replaced under the same name).
 */
import { LRUCache } from "lru-cache";
import { RESIZE_CACHE_TTL_MS } from "./resize";
import { readChunksUpTo } from "../util/read-up-to";

export const ORIGINAL_CACHE_MAX_BYTES = 16 * 1024 * 1024;
export const ORIGINAL_CACHE_MAX_KEYS = 2_000;
/** A hero image is tens of kilobytes; a file this large is a download, not a paint to speed up. */
export const ORIGINAL_CACHE_MAX_FILE_BYTES = 512 * 1024;

export interface CachedMedia {
  body: Buffer;
  type: string;
  /** The backend's validators, sent again on every answer. */
  etag: string | null;
  lastModified: string | null;
}

export function createOriginalCache(maxBytes = ORIGINAL_CACHE_MAX_BYTES): LRUCache<string, CachedMedia> {
  return new LRUCache<string, CachedMedia>({
    max: ORIGINAL_CACHE_MAX_KEYS,
    maxSize: maxBytes,
    maxEntrySize: ORIGINAL_CACHE_MAX_FILE_BYTES,
    sizeCalculation: (value) => Math.max(1, value.body.byteLength),
    ttl: RESIZE_CACHE_TTL_MS,
  });
}

/**
 * A fetch response's body read whole when it ends within `limit` bytes; otherwise a stream that gives the
 * chunks already read and then the rest, so the caller can still send the file (cancelling it cancels the
 * fetch's own stream, which is safe: it is not made from a Node stream).
 */
export async function bodyUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | ReadableStream<Uint8Array>> {
  const reader = body.getReader();
  const { chunks, complete } = await readChunksUpTo(reader, limit);
  if (complete) return Buffer.concat(chunks);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
