/**
 * The backend read cache: parsed payloads by endpoint for BACKEND_REVALIDATE_TTL (node-cache), so that
 * rendering many pages of a practice reads its config, practice, nav, team and page list once, and
 * concurrent identical reads share one request. Entries carry tags and are dropped by the same
 * invalidation as the pages (plus the page lists a page tag reaches: tags.ts, expandTags).
 *
 * Payloads are shared between renders, not copied (useClones: false): route code treats backend data
 * as read-only. Failures are never cached: the next read asks the backend again. A payload only one page
 * renders from (its own content) is kept SINGLE_USE_TTL_SECONDS at most: long enough for the page and
 * its q-data.json, without holding every page's content in memory beside the rendered page itself.
 */
import NodeCache from "node-cache";
import type { Reader } from "./client";
import { expandTags } from "./tags";
import { Inflight } from "../util/inflight";
import { TagIndex } from "../util/tag-index";

/** Retention of single-page payloads (measured: 7,500 of them held for an hour cost ~100 MB of heap). */
export const SINGLE_USE_TTL_SECONDS = 60;

export interface ReadCacheOptions {
  ttlSeconds: number;
  /** A ceiling on entries (node-cache refuses more); past it reads still work, uncached. */
  maxKeys?: number;
}

export class ReadCache {
  private readonly cache: NodeCache;
  private readonly singleUseTtl: number;
  private readonly index = new TagIndex<string>();
  private readonly tagsOf = new Map<string, string[]>();
  /** Running reads by endpoint, with their tags (an invalidation drops those it names). */
  private readonly inflight = new Inflight<unknown, string[]>();

  constructor(opts: ReadCacheOptions) {
    this.singleUseTtl = Math.min(opts.ttlSeconds, SINGLE_USE_TTL_SECONDS);
    this.cache = new NodeCache({
      stdTTL: opts.ttlSeconds,
      checkperiod: Math.min(opts.ttlSeconds, 120),
      useClones: false,
      maxKeys: opts.maxKeys ?? 200_000,
    });
    // Expiry and deletion both come through "del": keep the tag index in step.
    this.cache.on("del", (key: string) => this.forget(key));
  }

  /** A Reader that answers from the cache and coalesces concurrent reads of one endpoint. */
  wrap(read: Reader): Reader {
    return (endpoint, schema, tags, shared = true) => {
      const cached = this.cache.get(endpoint);
      if (cached !== undefined) return Promise.resolve(cached as never);
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
    this.cache.del(keys);
    const wanted = new Set(dataTags);
    this.inflight.dropWhere((tags) => tags.some((tag) => wanted.has(tag)));
    return keys.length;
  }

  /** Drops everything (and forgets running reads): this instance may have missed invalidations. */
  clear(): void {
    this.cache.flushAll();
    this.inflight.dropWhere(() => true);
    this.index.clear();
    this.tagsOf.clear();
  }

  get size(): number {
    return this.cache.keys().length;
  }

  private store(endpoint: string, value: unknown, tags: string[], shared: boolean): void {
    try {
      this.forget(endpoint);
      if (shared) this.cache.set(endpoint, value);
      else this.cache.set(endpoint, value, this.singleUseTtl);
      this.tagsOf.set(endpoint, tags);
      this.index.add(endpoint, tags);
    } catch {
      // ECACHEFULL: serve uncached rather than fail the render.
    }
  }

  private forget(endpoint: string): void {
    const tags = this.tagsOf.get(endpoint);
    if (!tags) return;
    this.index.remove(endpoint, tags);
    this.tagsOf.delete(endpoint);
  }
}
