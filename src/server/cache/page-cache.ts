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
 * - With a shared store (cache/shared/, several instances): a local miss first asks the shared store, a
 *   fresh render is stamped with its tags' versions and saved there, and after distrust() (this instance
 *   may have missed invalidations) an entry is served again only once the shared store confirmed it.
 * - Renders go through admission (render-pool/admission.ts), in a pool or in this thread: visitors'
 *   misses before refreshes, and only entries a visitor asked for recently are re-rendered at once after
 *   an invalidation, within a budget; the others render on their next request. A render refused or
 *   lost (RenderUnavailable) answers the last good copy as STALE if only the TTL passed, else a 503 with
 *   Retry-After (an entry an invalidation named is never served as it was).
 * - An unknown path answers the practice's one cached 404 page (cache/not-found.ts).
 * - With a warm tier on this machine (cache/disk/, no shared store): every page stored is also written
 *   there, and a local miss reads it back before rendering (one read instead of a render). An invalidation
 *   forgets the pages its tags name there too, before it returns; a read that raced it is not used.
 * - With a shared store and the build pre-pass's pages on this machine: a miss the shared store cannot
 *   answer reads the pre-pass's page, and serves it only once the shared store admitted it (none of its tags
 *   changed since the pre-pass read the backend: SharedPages.admit); an admitted page is saved there for the
 *   other instances. A page it refused is forgotten here and rendered.
 */
import {
  buildEntry,
  claimRefresh,
  isFresh,
  isShareable,
  isStorable,
  keepAfterFailedRender,
  markConfirmed,
  markInvalidated,
  markProvisional,
  markServedByStack,
  markUsed,
  usedWithin,
  type PageEntry,
  type RenderResult,
} from "./entry";
import { Inflight } from "../util/inflight";
import type { CacheTarget } from "./key";
import { PageStore } from "./page-store";
import { RefreshQueue } from "./refresh-queue";
import { reportWarning } from "../monitoring";
import { expandTags } from "../backend/tags";
import { isRenderUnavailable } from "../render/unavailable";
import { notFoundKey, notFoundTarget, storableNotFound, withPageList } from "./not-found";
import { judgedPagePath, isUnknownPath } from "../site/path-index";
import type { Scheme } from "../util/request-scheme";

/** Whether a visitor waits for a render (admission, render-pool/admission.ts, puts visitors first). */
export type Priority = "visitor" | "refresh";

/**
 * Renders a target; `priority` says whether a visitor waits for it; `requestId` names the visitor's request
 * that started it (its log lines carry it: monitoring/log.ts), none for a background refresh.
 */
export type RenderTarget = (target: CacheTarget, priority?: Priority, requestId?: string) => Promise<RenderResult>;

/**
 * A warm tier behind memory on this machine (cache/disk/disk-pages.ts): pages pushed out of memory are read
 * back from it, not rendered again.
 */
export interface WarmPages {
  /** The page held for `key`, or null (never one an invalidation named since it was written). */
  load(key: string): Promise<PageEntry | null>;
  /** Writes a page (in the background). */
  save(entry: PageEntry): void;
  has(key: string): boolean;
  delete(key: string): void;
  /** Forgets the pages the (expanded) tags name; returns their keys. */
  invalidate(tags: string[]): Set<string>;
}

/** What the page cache answered from a stored entry: fresh, stale (refreshed behind it), or just rendered. */
export type CacheStatus = "HIT" | "STALE" | "MISS";

/** Which tier answered: memory, the warm tier on this machine, or the store shared between instances. */
export type Tier = "memory" | "warm" | "shared";

/** What a store shared between instances offers this cache (cache/shared/pages.ts). */
export interface SharedPages {
  /** False while this instance may be missing invalidations (Redis unreachable, subscriber or lease lost). */
  readonly trusted: boolean;
  /** An entry another instance rendered, valid against the current versions; null when none or unreachable. */
  load(target: CacheTarget): Promise<PageEntry | null>;
  /** Stamps a fresh render with its tags' current versions; false when the store cannot vouch for it. */
  stamp(entry: PageEntry): Promise<boolean>;
  /** Whether an entry's stamped versions are still the current ones (false when unreachable). */
  recheck(entry: PageEntry): Promise<boolean>;
  /** Saves a stamped entry for the other instances (in the background). */
  save(entry: PageEntry): void;
  /**
   * Stamps a page rendered elsewhere (the build pre-pass) with its tags' current versions, if none of them
   * was bumped after `readSince` (when its renders began reading the backend): true; false when one was;
   * null when the store cannot vouch for it now (not trusted, unreachable).
   */
  admit(entry: PageEntry, readSince: number): Promise<boolean | null>;
}

/**
 * The build pre-pass's pages on this machine, for instances sharing a store (cache/disk/disk-pages.ts with
 * the pre-pass attached, nothing written): a page is served only once the shared store admitted it.
 */
export interface BuildPages {
  load(key: string): Promise<PageEntry | null>;
  delete(key: string): void;
  invalidate(tags: string[]): Set<string>;
  /** When the attached pre-pass began reading the backend (epoch ms); null while none is attached. */
  readonly readSince: number | null;
}

export interface PageCacheOptions {
  maxBytes: number;
  ttlMs: number;
  /** Renders a target with the same render function as everything else (render-pool/renderer.ts). */
  render: RenderTarget;
  /** Runs first in invalidate(): the data cache drops what the tags name. */
  invalidateData: (tags: string[]) => void;
  /** Background renders at once (invalidations, TTL refreshes). */
  concurrency?: number;
  /** A stale entry whose refresh failed starts no new background render for this long. */
  retryMs?: number;
  /** A visitor now waits for this target's queued background render (admission.promote). */
  promote?: (target: CacheTarget) => void;
  /** Background renders waiting at most (the eager budget); past it a page renders on its next request. */
  refreshBudget?: number;
  /** The pages shared with the other instances (cache/shared/pages.ts); none for one instance on its own. */
  shared?: SharedPages;
  /** The warm tier on this machine (cache/disk/), for one instance without a shared store. */
  warm?: WarmPages;
  /** The build pre-pass's pages, admitted one by one by the shared store (with `shared` only). */
  build?: BuildPages;
  now?: () => number;
}

/** What the cache answers: a stored entry, or a render that was not stored (404, 503, Set-Cookie…). */
export type CacheAnswer =
  { kind: "entry"; entry: PageEntry; status: CacheStatus; tier?: Tier } | { kind: "render"; result: RenderResult };

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
/** An invalidated entry is re-rendered at once only if a visitor asked for it this recently. */
const RECENT_MS = 10 * 60_000;
/**
 * A page another instance stored is not taken from the shared store while one of its tags was
 * invalidated here this recently: the versions in Redis are bumped only once every instance acknowledged
 * (up to the webhook's wait, cache/shared/invalidation.ts), so until then an old page still matches them.
 */
const SHARED_QUIET_MS = 10_000;
/**
 * A page rendered while cut off from the other instances is fresh this long, then rendered again: an
 * invalidation this instance cannot hear about delays its pages by at most this much.
 */
export const PROVISIONAL_MS = 2000;
/**
 * A page whose render ends the workers that run it (render-pool/main.ts: lost with two) answers 503 this
 * long without a render: each request for it killed two workers and kept the other practices' renders
 * waiting for their replacements. Any invalidation lifts it (an edit may have fixed the page). At most
 * HELD_MAX pages are held; past that the oldest hold goes.
 */
export const HELD_MS = 60_000;
const HELD_MAX = 1000;

export class PageCache {
  readonly store: PageStore;
  private readonly inflight = new Inflight<Outcome>();
  private readonly queue: RefreshQueue;
  private readonly now: () => number;
  private readonly retryMs: number;
  private epoch = 0;
  private prunedThrough = 0;
  private log: Invalidation[] = [];
  /** Trust generation: an entry is served as it is only if it was stored or confirmed in this one. */
  private gen = 0;
  /** The store shared between instances (with CACHE_URL), handed in when the cache is built. */
  private readonly shared: SharedPages | null;
  /** Keys of pages that kill workers, and until when they answer 503 without a render (HELD_MS). */
  private readonly held = new Map<string, number>();
  /** The warm tier on this machine (cache/disk/), when there is one. */
  private readonly warm: WarmPages | null;
  /** Reads of the warm tier in flight, one per key however many requests wait for it. */
  private readonly warmReads = new Inflight<PageEntry | null>();
  /** The build pre-pass's pages, with a shared store only. */
  private readonly build: BuildPages | null;
  /** Renders started by the cache (misses and refreshes), for tests and the benchmark. */
  renders = 0;
  /** Answers by the tier that held the page (X-Cache says HIT for each: DESIGN.md's values), for the benchmark. */
  readonly answeredFrom: Record<Tier, number> = { memory: 0, warm: 0, shared: 0 };

  constructor(private readonly opts: PageCacheOptions) {
    this.shared = opts.shared ?? null;
    this.warm = opts.warm ?? null;
    this.build = (this.shared && opts.build) || null;
    // A page memory pushes out that the warm tier no longer holds (its segment dropped) is written again.
    this.store = new PageStore(opts.maxBytes, (entry) => {
      if (this.warm && !entry.invalidated && !this.warm.has(entry.target.key)) this.warm.save(entry);
    });
    this.now = opts.now ?? Date.now;
    this.retryMs = opts.retryMs ?? Math.min(opts.ttlMs, 5_000);
    this.queue = new RefreshQueue(opts.concurrency ?? 4, (key) => this.refresh(key), opts.refreshBudget);
  }

  /** A fresh entry servable as it is, or undefined (the fast path's whole question). */
  fresh(key: string): PageEntry | undefined {
    const entry = this.store.get(key);
    const now = this.now();
    if (!entry || entry.gen !== this.gen || !isFresh(entry, now)) return undefined;
    markUsed(entry, now);
    return entry;
  }

  /**
   * The practice's fresh 404 page for this host, when the index it was rendered with proves `url` is no
   * page (cache/not-found.ts), its trailing slash added if only that is missing (judgedPagePath): the fast
   * path's question for a key it does not hold.
   */
  unknownPath(code: string, scheme: Scheme, authority: string, url: string): PageEntry | undefined {
    const path = judgedPagePath(url);
    if (path === null) return undefined;
    const entry = this.fresh(notFoundKey(code, scheme, authority));
    return entry?.pathIndex && isUnknownPath(entry.pathIndex, path) ? entry : undefined;
  }

  /**
   * This instance may have missed invalidations (its link to the other instances dropped or came back):
   * no entry held now is served before the shared store confirms it (or it is rendered again).
   */
  distrust(): void {
    this.gen++;
  }

  /**
   * The answer for a request that came through the Express stack (so the fast path may answer the key
   * from now on).
   */
  async answer(target: CacheTarget, requestId?: string): Promise<CacheAnswer> {
    let entry = this.store.get(target.key);
    let tier: Tier = "memory";
    if (!entry && this.warm) {
      entry = (await this.warmReads.run(target.key, () => this.loadWarm(target.key), undefined)) ?? undefined;
      if (entry) tier = "warm";
    }
    if (entry && !entry.invalidated && entry.gen !== this.gen) await this.recheck(entry);
    if (entry?.provisional && this.now() >= entry.expiresAt) markInvalidated(entry);
    if (entry && !entry.invalidated) {
      markServedByStack(entry);
      const now = this.now();
      markUsed(entry, now);
      this.answeredFrom[tier]++;
      if (now < entry.expiresAt) return { kind: "entry", entry, status: "HIT", tier };
      this.refreshLater(entry, now);
      return { kind: "entry", entry, status: "STALE", tier };
    }
    const heldFor = this.heldFor(target.key);
    if (heldFor) return { kind: "render", result: errorResult(503, heldFor) };
    const joined = this.inflight.get(target.key) !== undefined;
    if (joined) this.opts.promote?.(target);
    if (entry) markUsed(entry, this.now());
    const outcome = await this.renderShared(target, true, "visitor", !entry, requestId);
    // A render with a cookie or marked private belongs to the request that started it alone.
    if (joined && !outcome.shareable) return (await this.renderValidated(target, true, "visitor", requestId)).answer;
    // A page another tier held past its TTL is served once more and refreshed behind it.
    if (outcome.answer.kind === "entry" && outcome.answer.status === "STALE") this.refreshLater(outcome.answer.entry, this.now());
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
    this.held.clear();
    this.opts.invalidateData(tags);
    const expanded = expandTags(tags);
    const keys = this.store.keysFor(expanded);
    for (const key of keys) {
      const entry = this.store.peek(key)!;
      markInvalidated(entry);
      // Pages nobody asked for lately (or past the budget) are not re-rendered now: on their next request.
      if (usedWithin(entry, now, RECENT_MS)) this.queue.add(key);
    }
    // The warm tier forgets them too, now: read-your-writes holds across tiers.
    if (this.warm) for (const key of this.warm.invalidate(expanded)) keys.add(key);
    // So do the build's pages: none of them is admitted again once its tags changed.
    this.build?.invalidate(expanded);
    return keys.size;
  }

  /** Adds entries rendered elsewhere (tests; the build pre-pass is read through the warm tier or admitted: prepass/store.ts). */
  seed(entries: Iterable<PageEntry>): number {
    let stored = 0;
    for (const entry of entries) {
      markConfirmed(entry, this.gen);
      if (this.store.set(entry)) stored++;
    }
    return stored;
  }

  /** Renders running or waiting for a background slot: 0 once the cache is quiet (the `[stats]` line). */
  get rendering(): number {
    return this.inflight.size + this.queue.queued;
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
    if (this.heldFor(key)) return; // it ends the workers that render it
    await this.renderShared(entry.target, entry.servedByStack, "refresh");
  }

  /** An entry held before distrust(): confirmed by the shared store, or marked for a re-render. */
  private async recheck(entry: PageEntry): Promise<void> {
    const gen = this.gen;
    const current = this.shared ? await this.shared.recheck(entry) : false;
    if (entry.invalidated) return; // an invalidation landed meanwhile
    if (current && gen === this.gen) markConfirmed(entry, gen);
    else markInvalidated(entry);
  }

  /**
   * A page from the warm tier for a local miss, stored in memory, unless an invalidation named one of its tags
   * while it was read (or memory got a newer copy meanwhile: that one).
   */
  private async loadWarm(key: string): Promise<PageEntry | null> {
    const startEpoch = this.epoch;
    const loaded = await this.warm!.load(key);
    const held = this.store.peek(key);
    if (held) return held;
    if (!loaded || this.invalidatedSince(startEpoch, loaded.tags)) return null;
    this.keep(loaded, this.gen);
    return loaded;
  }

  /** Holds a page read from another tier for a request that came through the stack, confirmed in `gen`. */
  private keep(loaded: PageEntry, gen: number): void {
    markConfirmed(loaded, gen);
    markServedByStack(loaded);
    this.store.set(loaded);
  }

  /** Forgets a page in every tier of this machine (the backend's 404, an unpublished page). */
  private drop(key: string): void {
    this.store.delete(key);
    this.warm?.delete(key);
    this.build?.delete(key);
  }

  /** A valid page from the shared store for a local miss, unless one of its tags was just invalidated here. */
  private async loadShared(target: CacheTarget): Promise<Outcome | null> {
    const gen = this.gen;
    const loaded = await this.shared!.load(target);
    if (!loaded || gen !== this.gen || this.invalidatedWithin(SHARED_QUIET_MS, loaded.tags)) return null;
    this.keep(loaded, gen);
    this.answeredFrom.shared++;
    return { answer: { kind: "entry", entry: loaded, status: this.ageOf(loaded), tier: "shared" }, shareable: true };
  }

  /** HIT, or STALE for a page read from another tier past its TTL (answer() then has it refreshed). */
  private ageOf(entry: PageEntry): "HIT" | "STALE" {
    return this.now() < entry.expiresAt ? "HIT" : "STALE";
  }

  /**
   * The build pre-pass's page for a miss the shared store could not answer, once the shared store admitted
   * it (then saved there for the others); a page refused is forgotten here, so it is asked about once.
   */
  private async admitBuilt(target: CacheTarget): Promise<Outcome | null> {
    const readSince = this.build!.readSince;
    // Untrusted, the shared store admits nothing: the page is not even read from disk.
    if (readSince === null || !this.shared!.trusted) return null;
    const gen = this.gen;
    const startEpoch = this.epoch;
    const loaded = await this.build!.load(target.key);
    if (!loaded) return null;
    const raced = () => gen !== this.gen || this.invalidatedSince(startEpoch, loaded.tags);
    if (raced() || this.invalidatedWithin(SHARED_QUIET_MS, loaded.tags)) return null;
    const admitted = await this.shared!.admit(loaded, readSince);
    if (admitted === false) this.build!.delete(target.key);
    if (!admitted || raced()) return null;
    this.keep(loaded, gen);
    this.shared!.save(loaded);
    this.answeredFrom.warm++;
    return { answer: { kind: "entry", entry: loaded, status: this.ageOf(loaded), tier: "warm" }, shareable: true };
  }

  /**
   * `servedByStack`: whether the stored entry may be answered by the fast path (entry.ts). `miss`: nothing
   * is held for the key, so the shared store may have it (one round trip instead of a render).
   */
  private renderShared(
    target: CacheTarget,
    servedByStack: boolean,
    priority: Priority,
    miss = false,
    requestId?: string,
  ): Promise<Outcome> {
    return this.inflight.run(
      target.key,
      async () =>
        (miss && this.shared && (await this.loadShared(target))) ||
        (miss && this.build && (await this.admitBuilt(target))) ||
        this.renderValidated(target, servedByStack, priority, requestId),
      undefined,
    );
  }

  private async renderValidated(
    target: CacheTarget,
    servedByStack: boolean,
    priority: Priority,
    requestId?: string,
  ): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      const startEpoch = this.epoch;
      const startGen = this.gen;
      const renderedAt = this.now();
      let result: RenderResult;
      this.renders++;
      try {
        result = await this.opts.render(target, priority, requestId);
      } catch (error) {
        return this.failed(target, isRenderUnavailable(error) ? 503 : 500, error);
      }
      if (result.status >= 500) return this.failed(target, result.status, undefined, result);
      if (result.unknownPage) {
        // No page of the practice: its one cached 404 page, unless the page list changed meanwhile.
        if (this.invalidatedSince(startEpoch, withPageList(target.code, result.tags)) && attempt < MAX_ATTEMPTS) continue;
        this.drop(target.key); // a page unpublished since: its old copy must go
        return { answer: await this.answer(notFoundTarget(target)), shareable: true };
      }
      const notFound = storableNotFound(target, result);
      if (notFound) result = notFound;
      else if (!isStorable(result)) {
        // The backend's 404 (unpublished, deactivated), a redirect, a cookie: the old copy must go.
        this.drop(target.key);
        return { answer: { kind: "render", result }, shareable: isShareable(result) };
      }
      const entry = await buildEntry(target, result, { renderedAt, ttlMs: this.opts.ttlMs, servedByStack });
      // Stamped before the check below: a version bumped by then was acknowledged (and logged) here first.
      // The cached 404 page stays with this instance (the shared store keeps 200s only).
      const stamped = this.shared && !notFound ? await this.shared.stamp(entry) : false;
      if (this.invalidatedSince(startEpoch, entry.tags) || startGen !== this.gen) {
        if (attempt < MAX_ATTEMPTS) continue;
        markInvalidated(entry); // keep it out of service: the next request renders again
      }
      markConfirmed(entry, startGen);
      if (this.shared && !this.shared.trusted) markProvisional(entry, PROVISIONAL_MS);
      this.store.set(entry);
      if (stamped && !entry.invalidated) this.shared!.save(entry);
      if (this.warm && !entry.invalidated) this.warm.save(entry);
      return { answer: { kind: "entry", entry, status: "MISS" }, shareable: true };
    }
  }

  /** stale-if-error: the last good copy if there is one, else the failed answer itself. */
  private failed(target: CacheTarget, status: number, error?: unknown, result?: RenderResult): Outcome {
    const old = this.store.peek(target.key);
    const detail = error instanceof Error ? error.message : `HTTP ${status}`;
    // A full queue under a storm is expected: no event per refused render.
    const report = !isRenderUnavailable(error) || error.reportable;
    // A render that never ran (refused, lost with its worker) says nothing about the backend: an entry an
    // invalidation named stays out of service (read-your-writes), only a merely stale one is served.
    if (old && !(isRenderUnavailable(error) && old.invalidated)) {
      if (report) reportWarning("page cache: re-render failed, serving the last good copy", { key: printable(target), detail });
      keepAfterFailedRender(old, this.now(), this.retryMs);
      return { answer: { kind: "entry", entry: old, status: "STALE" }, shareable: true };
    }
    if (error && report) reportWarning("page cache: render failed", { key: printable(target), detail });
    if (isRenderUnavailable(error) && error.killsWorkers) {
      if (this.held.size >= HELD_MAX) this.held.delete(this.held.keys().next().value!);
      this.held.set(target.key, this.now() + HELD_MS);
    }
    const retryAfter = isRenderUnavailable(error) ? error.retryAfterSeconds : undefined;
    return {
      answer: { kind: "render", result: result ?? errorResult(status, retryAfter) },
      shareable: result ? isShareable(result) : true,
    };
  }

  /** Seconds a held page still answers 503 without a render (0: not held). */
  private heldFor(key: string): number {
    const until = this.held.get(key);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.held.delete(key);
    return 0;
  }

  private invalidatedSince(startEpoch: number, tags: string[]): boolean {
    if (startEpoch === this.epoch) return false;
    if (startEpoch < this.prunedThrough) return true;
    for (const item of this.log) {
      if (item.epoch > startEpoch && tags.some((tag) => item.tags.has(tag))) return true;
    }
    return false;
  }

  /** Whether an invalidation in the last `ms` named one of the tags. */
  private invalidatedWithin(ms: number, tags: string[]): boolean {
    const since = this.now() - ms;
    for (let i = this.log.length - 1; i >= 0 && this.log[i].at > since; i--) {
      if (tags.some((tag) => this.log[i].tags.has(tag))) return true;
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

function errorResult(status: number, retryAfterSeconds?: number): RenderResult {
  const headers = new Headers({ "content-type": "text/plain; charset=utf-8" });
  if (retryAfterSeconds) headers.set("retry-after", String(retryAfterSeconds));
  return {
    status,
    headers,
    body: Buffer.from("Service temporairement indisponible."),
    tags: [],
  };
}
