/**
 * The warm tier behind memory on one machine (no CACHE_URL): a page pushed out of memory is read back from
 * local disk (about a millisecond), not rendered again (tens of milliseconds of a worker, and a backend read).
 * The page cache's WarmPages (cache/page-cache.ts). With CACHE_URL the same class holds only the build
 * pre-pass's pages, writes nothing, and the shared store admits each page before it is served (BuildPages).
 *
 * - Append-only segment files of records (record.ts: the entry's own br/gzip bodies, so a read never
 *   compresses), with an index in memory: key -> segment, offset, length, tags. Bounded in bytes (the
 *   segments written) and in keys (the index); past either bound the oldest segment goes whole, as flash
 *   caches do: no compaction, no read-modify-write.
 * - Written through: every page the cache stores is appended (in the background, off the event loop); a
 *   page memory pushes out that the disk no longer holds is appended again (page-cache.ts).
 * - Read-your-writes across tiers: an invalidation forgets every page its tags name before the webhook
 *   answers, and a read that raced it is dropped (the slot it read is no longer the current one); the page
 *   cache checks its own invalidation log too. A page is never served from disk after its tags were named.
 * - It never outlives its process: this process could not know the invalidations it missed while down. Each
 *   segment file is unlinked as soon as it is opened, so the kernel frees it when the process ends, even by
 *   a crash: nothing to clean up at start. A new instance seeds from the build pre-pass instead (attach():
 *   its file read in place, page by page, on demand).
 * - Without a writable directory it logs once and writes nothing (the attached pre-pass is still read).
 */
import { closeSync, fdatasync, mkdirSync, openSync, read, unlinkSync, writev } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { TagIndex } from "../../util/tag-index";
import type { PageEntry } from "../entry";
import type { BuildPages, WarmPages } from "../page-cache";
import { decodeRecord, encodeRecord, isRecordable } from "./record";

const readAsync = promisify(read);

export interface DiskPagesOptions {
  /** Where the segment files go; null: nothing is written (an attached pre-pass is still read). */
  dir: string | null;
  /** Bytes of segments written, at most. */
  maxBytes: number;
  /** Pages indexed, at most (the index is what the tier costs in memory: a few hundred bytes a page). */
  maxKeys: number;
  /** A page read back expires this long after it was rendered (it is then served stale and refreshed). */
  ttlMs: number;
  /** Bytes per segment file; by default an eighth of maxBytes (so dropping one frees an eighth). */
  segmentBytes?: number;
  log?: (line: string) => void;
}

/** A page of an attached file (the pre-pass's: prepass/store.ts). */
export interface AttachedRecord {
  key: string;
  offset: number;
  length: number;
  tags: string[];
}

interface Segment {
  fd: number;
  /** Bytes appended so far: the next record's offset. */
  size: number;
  /** Counted against maxBytes; the pre-pass's file is the build's, read in place, never ours to drop bytes of. */
  owned: boolean;
  keys: Set<string>;
  /** Reads and writes in flight: the file is closed once dropped and idle (never under a running read). */
  busy: number;
  dropped: boolean;
  /** Bytes written since the last fdatasync (see SYNC_BYTES), and whether one is running. */
  unsynced: number;
  syncing: boolean;
}

interface Slot {
  segment: Segment;
  offset: number;
  length: number;
  tags: string[];
  /** Readable once its write completed. */
  written: boolean;
}

const newSegment = (fd: number, owned: boolean): Segment => ({ fd, size: 0, owned, keys: new Set(), busy: 0, dropped: false, unsynced: 0, syncing: false });

const MIN_SEGMENT = 64 * 1024;
/**
 * Written pages are flushed to disk every this many bytes (fdatasync, in the thread pool). A container's memory
 * limit counts the file pages a process writes: left dirty, they pile up to the limit, and the server's
 * allocations then wait for their writeback. Flushed, they are clean, and the kernel drops them at once when
 * memory is needed. Measured in a 1 GiB cgroup, 3,000 practices cold at 300/s (docs/benchmarks.md, issue 30):
 * renders' answers p50 57 ms, p99 4.2 s before; 17 ms, 0.6 s with the flushes.
 */
const SYNC_BYTES = 4 * 1024 * 1024;
const MAX_SEGMENT = 256 * 1024 * 1024;

export class DiskPages implements WarmPages, BuildPages {
  /** When the attached file's renders began reading the backend (epoch ms); null while none is attached. */
  readSince: number | null = null;
  private readonly index = new Map<string, Slot>();
  private readonly tags = new TagIndex<string>();
  /** Oldest first; the last owned one takes the writes. */
  private readonly segments: Segment[] = [];
  private dir: string | null;
  private readonly segmentBytes: number;
  private ownedBytes = 0;
  private files = 0;
  private writing = 0;
  private whenIdle: (() => void)[] = [];
  /** Write failures (a full disk…): counted, and the page stays in memory only. */
  writeErrors = 0;

  constructor(private readonly opts: DiskPagesOptions) {
    this.dir = opts.dir && opts.maxBytes > 0 ? resolve(opts.dir) : null;
    const share = opts.segmentBytes ?? Math.floor(opts.maxBytes / 8);
    this.segmentBytes = Math.min(MAX_SEGMENT, Math.max(MIN_SEGMENT, share));
  }

  /** Pages indexed (the attached pre-pass's included). */
  get count(): number {
    return this.index.size;
  }

  /** Bytes of segments this tier wrote and still holds (counted against maxBytes). */
  get bytes(): number {
    return this.ownedBytes;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  async load(key: string): Promise<PageEntry | null> {
    const slot = this.index.get(key);
    if (!slot?.written) return null;
    const { segment } = slot;
    segment.busy++;
    let bytes: Buffer;
    try {
      bytes = Buffer.allocUnsafeSlow(slot.length);
      const { bytesRead } = await readAsync(segment.fd, bytes, 0, slot.length, slot.offset);
      if (bytesRead !== slot.length) return null;
    } catch {
      return null;
    } finally {
      segment.busy--;
      this.closeIfIdle(segment);
    }
    // Invalidated, replaced or dropped while it was read: not the page to serve.
    if (this.index.get(key) !== slot) return null;
    return decodeRecord(bytes, key, this.opts.ttlMs);
  }

  save(entry: PageEntry): void {
    if (!this.dir || !isRecordable(entry)) return;
    const { parts, length } = encodeRecord(entry);
    if (length > this.segmentBytes) return;
    const segment = this.writable(length);
    if (!segment) return;
    const key = entry.target.key;
    this.forget(key);
    const slot: Slot = { segment, offset: segment.size, length, tags: entry.tags, written: false };
    segment.size += length;
    this.ownedBytes += length;
    this.remember(key, slot);
    segment.busy++;
    this.writing++;
    writev(segment.fd, parts, slot.offset, (error, written) => {
      segment.busy--;
      if (--this.writing === 0) for (const wake of this.whenIdle.splice(0)) wake();
      // A short write (a full disk) leaves a record that cannot be read back: as good as a failed one.
      if (error || written !== length) {
        this.writeErrors++;
        if (this.index.get(key) === slot) this.forget(key);
      } else {
        slot.written = true;
        this.syncSometimes(segment, length);
      }
      this.closeIfIdle(segment);
    });
    this.trim();
  }

  delete(key: string): void {
    this.forget(key);
  }

  /** Forgets every page the tags name (already expanded: backend/tags.ts); returns their keys. */
  invalidate(tags: string[]): Set<string> {
    const keys = this.tags.keysFor(tags);
    for (const key of keys) this.forget(key);
    return keys;
  }

  /**
   * Reads a file of records in place (the build pre-pass's pages), oldest of all: its pages are served
   * from it on demand, never read into memory at once. Returns how many were indexed (at most maxKeys).
   * `readSince`: when its renders began reading the backend (what the shared store's admission compares).
   */
  async attach(file: string, records: AsyncIterable<AttachedRecord>, readSince: number): Promise<number> {
    const segment = newSegment(openSync(file, "r"), false);
    this.segments.unshift(segment);
    let indexed = 0;
    try {
      for await (const record of records) {
        if (this.index.size >= this.opts.maxKeys || segment.dropped) break;
        // A page written here meanwhile (rendered since the start) is newer than the build's.
        if (this.index.has(record.key)) continue;
        this.remember(record.key, { segment, offset: record.offset, length: record.length, tags: record.tags, written: true });
        indexed++;
      }
    } catch (error) {
      // An index that cannot be read to its end is not used at all: its pages and its file are let go.
      this.segments.splice(this.segments.indexOf(segment), 1);
      this.drop(segment);
      throw error;
    }
    this.readSince = readSince;
    return indexed;
  }

  /** Resolves once no write is in flight (tests, benchmark). */
  idle(): Promise<void> {
    return this.writing ? new Promise((resolve) => this.whenIdle.push(resolve)) : Promise.resolve();
  }

  /** Closes every file (tests; a server's files go with its process). */
  close(): void {
    for (const segment of this.segments.splice(0)) this.drop(segment);
  }

  private remember(key: string, slot: Slot): void {
    this.index.set(key, slot);
    slot.segment.keys.add(key);
    this.tags.add(key, slot.tags);
  }

  private forget(key: string): void {
    const slot = this.index.get(key);
    if (!slot) return;
    this.index.delete(key);
    slot.segment.keys.delete(key);
    this.tags.remove(key, slot.tags);
  }

  /** The segment a record of `length` bytes goes to, a new one when the current is full; null when none can be opened. */
  private writable(length: number): Segment | null {
    const last = this.segments.at(-1);
    if (last?.owned && last.size + length <= this.segmentBytes) return last;
    try {
      // Made on the first write: a process that never stores a page (the pre-pass) leaves no directory behind.
      if (!this.files) mkdirSync(this.dir!, { recursive: true });
      const file = join(this.dir!, `pages-${process.pid}-${this.files++}.seg`);
      const fd = openSync(file, "w+");
      unlinkSync(file); // freed with the process (see the module comment)
      const segment = newSegment(fd, true);
      this.segments.push(segment);
      return segment;
    } catch (error) {
      this.writeOff(error);
      return null;
    }
  }

  /** Drops the oldest segments while over a bound (never the one taking writes). */
  private trim(): void {
    while ((this.ownedBytes > this.opts.maxBytes || this.index.size > this.opts.maxKeys) && this.segments.length > 1) {
      this.drop(this.segments.shift()!);
    }
  }

  private drop(segment: Segment): void {
    for (const key of [...segment.keys]) this.forget(key);
    if (segment.owned) this.ownedBytes -= segment.size;
    segment.dropped = true;
    this.closeIfIdle(segment);
  }

  /** Flushes a segment's written bytes every SYNC_BYTES, one flush at a time, off the event loop. */
  private syncSometimes(segment: Segment, written: number): void {
    segment.unsynced += written;
    if (segment.unsynced < SYNC_BYTES || segment.syncing || segment.dropped) return;
    segment.unsynced = 0;
    segment.syncing = true;
    segment.busy++;
    fdatasync(segment.fd, () => {
      segment.syncing = false;
      segment.busy--;
      this.closeIfIdle(segment);
    });
  }

  private closeIfIdle(segment: Segment): void {
    if (!segment.dropped || segment.busy || segment.fd < 0) return;
    try {
      closeSync(segment.fd);
    } catch {
      /* already closed */
    }
    segment.fd = -1;
  }

  private writeOff(error: unknown): void {
    const log = this.opts.log ?? console.log;
    log(`page cache: warm tier on disk off (${(error as Error).message}); pages pushed out of memory render again`);
    this.dir = null;
  }
}
