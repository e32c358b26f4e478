/**
 * The page cache's promises (../shared/DESIGN.md, "The cache: what it promises"), in one place:
 *
 * - HIT: a fresh entry. STALE: older than the TTL, served while one background render refreshes it.
 * - MISS: one render per key however many requests wait for it (coalesced); stored when storable.
 * - invalidate(tags): the data cache drops what the tags name, then every page entry they name (page tags
 *   also name the renders that list pages: backend/tags.ts) is marked
 *   and re-rendered in the background (bounded concurrency). A marked entry is never served as it is: a
 *   request that arrives first waits for the re-render. If that render fails (backend down, 5xx), the last
 *   good copy is served as STALE and the failure reported; if it answers 404 (or anything but a 200), the
 *   entry is dropped and that answer served.
 * - A render that was already running when an invalidation named one of its tags is not stored: it is
 *   rendered again, so no request answered after the webhook's 2xx sees the old content.
 */
import {
  buildEntry,
  claimRefresh,
  isFresh,
  isShareable,
  isStorable,
  keepAfterFailedRender,
  markInvalidated,
  markServedByStack,
  type PageEntry,
  type RenderResult,
} from "./entry";
import { Inflight } from "../util/inflight";
import type { CacheTarget } from "./key";
import { PageStore } from "./page-store";
import { RefreshQueue } from "./refresh-queue";
import type { CacheStatus } from "./serve";
import { reportWarning } from "../monitoring";
import { expandTags } from "../backend/tags";

export type RenderTarget = (target: CacheTarget) => Promise<RenderResult>;

export interface PageCacheOptions {
  maxBytes: number;
  ttlMs: number;
  /** Renders a target with the same render function as everything else (cache/render-target.ts). */
  render: RenderTarget;
  /** Runs first in invalidate(): the data cache drops what the tags name. */
  invalidateData: (tags: string[]) => void;
  /** Background renders at once (invalidations, TTL refreshes). */
  concurrency?: number;
  /** A stale entry whose refresh failed starts no new background render for this long. */
  retryMs?: number;
  now?: () => number;
}

/** What the cache answers: a stored entry, or a render that was not stored (404, 503, Set-Cookie…). */
export type CacheAnswer =
  { kind: "entry"; entry: PageEntry; status: CacheStatus } | { kind: "render"; result: RenderResult };

interface Outcome {
  answer: CacheAnswer;
  /** False when the render must not be handed to the other waiters (Set-Cookie, private). */
  shareable: boolean;
}

interface Invalidation {
  epoch: number;
  at: number;
  tags: Set<string>;
}

/** Re-render attempts when invalidations keep landing on a running render. */
const MAX_ATTEMPTS = 3;
/** Invalidations remembered for renders still running; an older render is assumed outdated. */
const LOG_KEEP_MS = 5 * 60_000;

export class PageCache {
  readonly store: PageStore;
  private readonly inflight = new Inflight<Outcome>();
  private readonly queue: RefreshQueue;
  private readonly now: () => number;
  private readonly retryMs: number;
  private epoch = 0;
  private prunedThrough = 0;
  private log: Invalidation[] = [];
  /** Renders started by the cache (misses and refreshes), for tests and the benchmark. */
  renders = 0;

  constructor(private readonly opts: PageCacheOptions) {
    this.store = new PageStore(opts.maxBytes);
    this.now = opts.now ?? Date.now;
    this.retryMs = opts.retryMs ?? Math.min(opts.ttlMs, 5_000);
    this.queue = new RefreshQueue(opts.concurrency ?? 4, (key) => this.refresh(key));
  }

  /** A fresh entry servable as it is, or undefined (the fast path's whole question). */
  fresh(key: string): PageEntry | undefined {
    const entry = this.store.get(key);
    return entry && isFresh(entry, this.now()) ? entry : undefined;
  }

  /**
   * The answer for a request that came through the Express stack (so the fast path may answer the key
   * from now on).
   */
  async answer(target: CacheTarget): Promise<CacheAnswer> {
    const entry = this.store.get(target.key);
    if (entry && !entry.invalidated) {
      markServedByStack(entry);
      const now = this.now();
      if (now < entry.expiresAt) return { kind: "entry", entry, status: "HIT" };
      this.refreshLater(entry, now);
      return { kind: "entry", entry, status: "STALE" };
    }
    const joined = this.inflight.get(target.key) !== undefined;
    const outcome = await this.renderShared(target, true);
    // A render with a cookie or marked private belongs to the request that started it alone.
    if (joined && !outcome.shareable) return (await this.renderValidated(target, true)).answer;
    return outcome.answer;
  }

  /**
   * The one invalidation entry point, used by both revalidation routes. Returns how many page entries
   * the tags named.
   */
  invalidate(tags: string[]): number {
    const now = this.now();
    this.epoch++;
    this.log.push({ epoch: this.epoch, at: now, tags: new Set(expandTags(tags)) });
    this.pruneLog(now);
    this.opts.invalidateData(tags);
    const keys = this.store.keysFor(expandTags(tags));
    for (const key of keys) {
      markInvalidated(this.store.peek(key)!);
      this.queue.add(key);
    }
    return keys.size;
  }

  /** Adds entries rendered elsewhere (the build pre-pass). */
  seed(entries: Iterable<PageEntry>): number {
    let stored = 0;
    for (const entry of entries) if (this.store.set(entry)) stored++;
    return stored;
  }

  /** Resolves when no background render is queued or running (tests, benchmark). */
  async settled(): Promise<void> {
    await this.queue.idle();
    while (this.inflight.size) await Promise.allSettled(this.inflight.promises());
  }

  private refreshLater(entry: PageEntry, now: number): void {
    if (this.inflight.get(entry.target.key) || !claimRefresh(entry, now, this.retryMs)) return;
    this.queue.add(entry.target.key);
  }

  private async refresh(key: string): Promise<void> {
    const entry = this.store.peek(key);
    if (!entry) return; // evicted or dropped meanwhile
    if (isFresh(entry, this.now())) return; // a visitor's render got there first
    await this.renderShared(entry.target, entry.servedByStack);
  }

  /** `servedByStack`: whether the stored entry may be answered by the fast path (entry.ts). */
  private renderShared(target: CacheTarget, servedByStack: boolean): Promise<Outcome> {
    return this.inflight.run(target.key, () => this.renderValidated(target, servedByStack), undefined);
  }

  private async renderValidated(target: CacheTarget, servedByStack: boolean): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      const startEpoch = this.epoch;
      const renderedAt = this.now();
      let result: RenderResult;
      this.renders++;
      try {
        result = await this.opts.render(target);
      } catch (error) {
        return this.failed(target, 500, error);
      }
      if (result.status >= 500) return this.failed(target, result.status, undefined, result);
      if (!isStorable(result)) {
        // The backend's 404 (unpublished, deactivated), a redirect, a cookie: the old copy must go.
        this.store.delete(target.key);
        return { answer: { kind: "render", result }, shareable: isShareable(result) };
      }
      const entry = await buildEntry(target, result, { renderedAt, ttlMs: this.opts.ttlMs, servedByStack });
      if (this.invalidatedSince(startEpoch, entry.tags)) {
        if (attempt < MAX_ATTEMPTS) continue;
        markInvalidated(entry); // keep it out of service: the next request renders again
      }
      this.store.set(entry);
      return { answer: { kind: "entry", entry, status: "MISS" }, shareable: true };
    }
  }

  /** stale-if-error: the last good copy if there is one, else the failed answer itself. */
  private failed(target: CacheTarget, status: number, error?: unknown, result?: RenderResult): Outcome {
    const old = this.store.peek(target.key);
    const detail = error instanceof Error ? error.message : `HTTP ${status}`;
    if (old) {
      reportWarning("page cache: re-render failed, serving the last good copy", { key: printable(target), detail });
      keepAfterFailedRender(old, this.now(), this.retryMs);
      return { answer: { kind: "entry", entry: old, status: "STALE" }, shareable: true };
    }
    if (error) reportWarning("page cache: render failed", { key: printable(target), detail });
    return {
      answer: { kind: "render", result: result ?? errorResult(status) },
      shareable: result ? isShareable(result) : true,
    };
  }

  private invalidatedSince(startEpoch: number, tags: string[]): boolean {
    if (startEpoch === this.epoch) return false;
    if (startEpoch < this.prunedThrough) return true;
    for (const item of this.log) {
      if (item.epoch > startEpoch && tags.some((tag) => item.tags.has(tag))) return true;
    }
    return false;
  }

  private pruneLog(now: number): void {
    let drop = 0;
    while (drop < this.log.length && now - this.log[drop].at > LOG_KEEP_MS) drop++;
    if (drop) {
      this.prunedThrough = this.log[drop - 1].epoch;
      this.log = this.log.slice(drop);
    }
  }
}

function printable(target: CacheTarget): string {
  return `${target.code} ${target.origin}${target.url}`;
}

function errorResult(status: number): RenderResult {
  return {
    status,
    headers: new Headers({ "content-type": "text/plain; charset=utf-8" }),
    body: Buffer.from("Service temporairement indisponible."),
    tags: [],
  };
}
