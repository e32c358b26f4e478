/**
 * The backend read cache: parsed payloads by endpoint for BACKEND_REVALIDATE_TTL, so that rendering many
 * pages of a practice reads its config, practice, nav, team and page list once, and concurrent identical
 * reads share one request. Entries carry tags and are dropped by the same invalidation as the pages (plus the
 * page lists a page tag reaches: tags.ts, expandTags).
 *
 * Payloads are shared between renders, not copied: route code treats backend data as read-only. Failures are
 * never cached: the next read asks the backend again. A payload only one page renders from (its own content)
 * is kept SINGLE_USE_TTL_SECONDS at most: long enough for the page and its q-data.json, without holding every
 * page's content in memory beside the rendered page itself.
 *
 * Bounded in bytes as well as keys, least recently used out first (issue 30): each render worker holds one in
 * a heap capped at render-pool/config.ts's WORKER_HEAP_MB, and 3,000 practices' shared payloads (18.5 KiB of
 * heap each, measured) did not fit: the workers' heaps ran at their cap, renders slowed in garbage collection.
 */
import { LRUCache } from "lru-cache";
import type { Reader } from "./client";
import { expandTags } from "./tags";
import { Inflight } from "../util/inflight";
import { TagIndex } from "../util/tag-index";

/** Retention of single-page payloads (measured: 7,500 of them held for an hour cost ~100 MB of heap). */
export const SINGLE_USE_TTL_SECONDS = 60;
/**
 * Heap bytes a payload costs per byte of its JSON: measured 18.5 KiB of heap for a practice's shared payloads
 * (config, practice, team, nav, page list: 6.1 KB of JSON), parsed and validated.
 */
export const HEAP_BYTES_PER_JSON_BYTE = 3;
/**
 * The default byte budget: a quarter of a render worker's heap (render-pool/config.ts, WORKER_HEAP_MB), whose
 * modules alone take about 40 MB (measured: a heap snapshot of a worker after its first renders).
 */
export const READ_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export interface ReadCacheOptions {
  ttlSeconds: number;
  /** A ceiling on entries; past it the least recently used go. */
  maxKeys?: number;
  /** A ceiling on the payloads' estimated heap bytes; past it the least recently used go. */
  maxBytes?: number;
}

interface Held {
  value: unknown;
  expiresAt: number;
  size: number;
  tags: string[];
}

export class ReadCache {
  private readonly cache: LRUCache<string, Held>;
  private readonly ttlMs: number;
  private readonly singleUseTtlMs: number;
  private readonly index = new TagIndex<string>();
  /** Running reads by endpoint, with their tags (an invalidation drops those it names). */
  private readonly inflight = new Inflight<unknown, string[]>();

  constructor(opts: ReadCacheOptions) {
    this.ttlMs = opts.ttlSeconds * 1000;
    this.singleUseTtlMs = Math.min(opts.ttlSeconds, SINGLE_USE_TTL_SECONDS) * 1000;
    this.cache = new LRUCache<string, Held>({
      max: opts.maxKeys ?? 200_000,
      maxSize: opts.maxBytes ?? READ_CACHE_MAX_BYTES,
      sizeCalculation: (held) => held.size,
      // Eviction, expiry and deletion all come through here: the tag index stays in step.
      dispose: (held, key) => this.index.remove(key, held.tags),
    });
  }

  /** A Reader that answers from the cache and coalesces concurrent reads of one endpoint. */
  wrap(read: Reader): Reader {
    return (endpoint, schema, tags, shared = true) => {
      const held = this.cache.get(endpoint);
      if (held && held.expiresAt > Date.now()) return Promise.resolve(held.value as never);
      if (held) this.cache.delete(endpoint);
      const start = (): Promise<unknown> => {
        const promise: Promise<unknown> = read(endpoint, schema, tags, shared).then((value) => {
          // Stored only if no invalidation dropped this read while it ran.
          if (this.inflight.isCurrent(endpoint, promise)) this.store(endpoint, value, tags, shared);
          return value;
        });
        return promise;
      };
      return this.inflight.run(endpoint, start, tags) as never;
    };
  }

  /** Drops every payload (and running read) the webhook tags reach; returns how many payloads. */
  invalidate(tags: string[]): number {
    const dataTags = expandTags(tags);
    const keys = [...this.index.keysFor(dataTags)];
    for (const key of keys) this.cache.delete(key);
    const wanted = new Set(dataTags);
    this.inflight.dropWhere((tags) => tags.some((tag) => wanted.has(tag)));
    return keys.length;
  }

  /** Drops everything (and forgets running reads): this instance may have missed invalidations. */
  clear(): void {
    this.cache.clear();
    this.inflight.dropWhere(() => true);
    this.index.clear();
  }

  get size(): number {
    return this.cache.size;
  }

  /** The payloads' estimated heap bytes. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }

  private store(endpoint: string, value: unknown, tags: string[], shared: boolean): void {
    const size = JSON.stringify(value ?? null).length * HEAP_BYTES_PER_JSON_BYTE;
    const expiresAt = Date.now() + (shared ? this.ttlMs : this.singleUseTtlMs);
    // A replaced entry leaves the index through dispose; one larger than the budget is not stored at all.
    this.cache.set(endpoint, { value, expiresAt, size, tags });
    if (this.cache.peek(endpoint)?.value === value) this.index.add(endpoint, tags);
  }
}
