/**
 * The rendered-page store: entries by key under a byte budget, with a tag index kept in step (an entry that
 * leaves leaves the index too). Pure bookkeeping: when entries are rendered, refreshed or invalidated is
 * page-cache.ts's business.
 *
 * Memory goes to what is hot, by frequency as well as recency (W-TinyLFU, as Caffeine does it):
 *
 * - A newcomer enters a small window (WINDOW_SHARE of the budget), in recency order: a page asked for twice in
 *   a short while gets in, however cold it was before.
 * - What the window pushes out competes with the main area's least recently used entry: it takes that entry's
 *   place only if it was asked for more often lately (frequency-sketch.ts, which counts every lookup, hits and
 *   misses alike); otherwise it is the one that goes (the warm tier behind memory still has it: cache/disk/).
 * - So a crawler's scan of the long tail (each page asked for once) passes through the window and leaves the
 *   hot pages where they are; a plain LRU would have flushed them all.
 * - A replaced entry (a refresh, a re-render after an invalidation) keeps its place: it was admitted already.
 */
import { TagIndex } from "../util/tag-index";
import type { PageEntry } from "./entry";
import { FrequencySketch, hashOf } from "./frequency-sketch";

/** The window's share of the budget (Caffeine's default): enough for a burst of new pages, too little for a scan. */
const WINDOW_SHARE = 0.01;
/** An entry's typical size, to size the frequency sketch (a page with both encodings: about 19 KB, issue 30). */
const TYPICAL_ENTRY_BYTES = 16 * 1024;

type Area = Map<string, PageEntry>;

export class PageStore {
  /** Both areas in recency order, least recently used first (a Map keeps insertion order). */
  private readonly window: Area = new Map();
  private readonly main: Area = new Map();
  private readonly index = new TagIndex<string>();
  private readonly sketch: FrequencySketch;
  private readonly windowMax: number;
  private windowBytes = 0;
  private mainBytes = 0;
  /**
   * The entry added or moved last, so the last of its own area (null after it leaves): a hit on it leaves the
   * order as it is. Moving an entry is a Map delete and set: a page asked for again and again paid them on every
   * hit, 2.4 µs a hit with 1,000 pages held, 0.06 µs with this (tmp micro-benchmark, this 2-core machine; a hit
   * on another page than the last costs 0.4 µs as before).
   */
  private newest: PageEntry | null = null;

  /** `onEvict`: an entry pushed out for room (not deleted, not replaced), e.g. to keep it in a warm tier. */
  constructor(
    readonly maxBytes: number,
    private readonly onEvict?: (entry: PageEntry) => void,
  ) {
    this.windowMax = Math.floor(maxBytes * WINDOW_SHARE);
    this.sketch = new FrequencySketch(maxBytes / TYPICAL_ENTRY_BYTES);
  }

  /** The entry, marked as recently used; the request counts toward the key's frequency, held or not. */
  get(key: string): PageEntry | undefined {
    let area = this.window;
    let entry = area.get(key);
    if (entry === undefined) entry = (area = this.main).get(key);
    if (entry === undefined) {
      this.sketch.increment(key);
      return undefined;
    }
    // A held entry keeps its key's hash: a hit does not hash the key again (0.1 µs of a hit, measured with perf).
    this.sketch.increment(key, (entry.keyHash ??= hashOf(key)));
    if (entry !== this.newest) {
      area.delete(key);
      area.set(key, entry);
      this.newest = entry;
    }
    return entry;
  }

  /** The entry, recency and frequency untouched. */
  peek(key: string): PageEntry | undefined {
    return this.window.get(key) ?? this.main.get(key);
  }

  /**
   * Stores (or replaces) an entry; false when it is not held afterwards: larger than the whole budget, or a
   * newcomer the window pushed out at once and admission refused.
   */
  set(entry: PageEntry): boolean {
    const key = entry.target.key;
    const area = this.areaOf(key) ?? this.window;
    this.remove(key);
    if (entry.size > this.maxBytes) return false;
    this.add(area, entry);
    this.evict();
    return this.peek(key) === entry;
  }

  delete(key: string): void {
    this.remove(key);
  }

  /** Keys of the entries any of the tags names. */
  keysFor(tags: Iterable<string>): Set<string> {
    return this.index.keysFor(tags);
  }

  get count(): number {
    return this.window.size + this.main.size;
  }

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.windowBytes + this.mainBytes;
  }

  private areaOf(key: string): Area | undefined {
    return this.window.has(key) ? this.window : this.main.has(key) ? this.main : undefined;
  }

  private add(area: Area, entry: PageEntry): void {
    area.set(entry.target.key, entry);
    this.newest = entry;
    if (area === this.window) this.windowBytes += entry.size;
    else this.mainBytes += entry.size;
    this.index.add(entry.target.key, entry.tags);
  }

  private remove(key: string): PageEntry | undefined {
    const area = this.areaOf(key);
    const entry = area?.get(key);
    if (!area || !entry) return undefined;
    area.delete(key);
    if (entry === this.newest) this.newest = null;
    if (area === this.window) this.windowBytes -= entry.size;
    else this.mainBytes -= entry.size;
    this.index.remove(key, entry.tags);
    return entry;
  }

  /**
   * Window overflow goes to the main area if admitted. The main area may use every byte the window does not
   * hold (a window smaller than one entry, in a small store, costs the main area nothing).
   */
  private evict(): void {
    while (this.windowBytes > this.windowMax) {
      const candidate = this.remove(first(this.window)!)!;
      if (!this.admit(candidate)) {
        this.onEvict?.(candidate);
        continue;
      }
      this.add(this.main, candidate);
    }
    // A replacement larger than the entry it replaced may leave the store over its budget.
    while (this.bytes > this.maxBytes && this.main.size) this.pushOut(first(this.main)!);
  }

  /**
   * Makes room for `candidate` in the main area if it was asked for more often than the main area's least
   * recently used entry (a tie keeps the incumbent: a scan's pages never displace one another's betters).
   */
  private admit(candidate: PageEntry): boolean {
    const room = this.maxBytes - this.windowBytes;
    if (candidate.size > room) return false;
    if (this.mainBytes + candidate.size <= room) return true;
    const victim = first(this.main)!;
    if (this.sketch.frequency(candidate.target.key, candidate.keyHash) <= this.sketch.frequency(victim)) return false;
    while (this.mainBytes + candidate.size > room && this.main.size) this.pushOut(first(this.main)!);
    return true;
  }

  /** Removes an entry for room and hands it to `onEvict`. (Not `onEvict?.(this.remove(key))`: an optional call
   * skips evaluating its argument when there is no hook, and the entry would never leave.) */
  private pushOut(key: string): void {
    const entry = this.remove(key);
    if (entry) this.onEvict?.(entry);
  }
}

function first(area: Area): string | undefined {
  return area.keys().next().value;
}
