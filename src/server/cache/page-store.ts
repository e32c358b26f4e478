/**
 * The rendered-page store: entries by key under a byte budget, least recently used evicted first, with
 * a tag index kept in step (an evicted entry leaves the index too). Pure bookkeeping: when entries are
 * rendered, refreshed or invalidated is page-cache.ts's business.
 */
import { LRUCache } from "lru-cache";
import { TagIndex } from "../util/tag-index";
import type { PageEntry } from "./entry";

export class PageStore {
  private readonly lru: LRUCache<string, PageEntry>;
  private readonly index = new TagIndex<string>();

  /** `onEvict`: an entry pushed out for room (not deleted, not replaced), e.g. to keep it in a warm tier. */
  constructor(
    readonly maxBytes: number,
    onEvict?: (entry: PageEntry) => void,
  ) {
    this.lru = new LRUCache<string, PageEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry) => entry.size,
      // Replacements are handled in set(); dispose only sees evictions and deletions.
      noDisposeOnSet: true,
      dispose: (entry, key, reason) => {
        this.index.remove(key, entry.tags);
        if (reason === "evict") onEvict?.(entry);
      },
    });
  }

  /** The entry, marked as recently used. */
  get(key: string): PageEntry | undefined {
    return this.lru.get(key);
  }

  /** The entry, recency untouched. */
  peek(key: string): PageEntry | undefined {
    return this.lru.peek(key);
  }

  /** Stores (or replaces) an entry; false when it alone is larger than the budget. */
  set(entry: PageEntry): boolean {
    const key = entry.target.key;
    const previous = this.lru.peek(key);
    if (previous) this.index.remove(key, previous.tags);
    this.lru.set(key, entry);
    if (this.lru.peek(key) !== entry) return false;
    this.index.add(key, entry.tags);
    return true;
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  /** Keys of the entries any of the tags names. */
  keysFor(tags: Iterable<string>): Set<string> {
    return this.index.keysFor(tags);
  }

  get count(): number {
    return this.lru.size;
  }

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }
}
