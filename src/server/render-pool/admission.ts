/**
 * Render admission: which render runs next when more are asked for than the render pool can run
 * (docs/decisions/0019-admission.md; issue 30 for the weighted turns, the deadline and the early refusal).
 *
 * - Bounded concurrency: at most `concurrency` renders run at once (the pool's capacity).
 * - Visitors first: a visitor's miss ("visitor") always goes before a background refresh ("refresh":
 *   after a webhook or a TTL). A visitor who joins a queued refresh of the same key promotes it.
 * - Fair between practices, weighted by demand: each practice has its own queue, and the queues take turns
 *   in proportion to their demand (the visitors waiting on them) up to MAX_WEIGHT turns per turn of a
 *   practice with one visitor waiting (stride scheduling). A popular practice, whose pages many visitors wait
 *   for at once, is served several times a round instead of once per round of every practice waiting; a
 *   practice with a thousand renders asked (a crawler, a storm) gets at most MAX_WEIGHT turns for every one
 *   of a quiet practice. Within a practice, the render most visitors wait for goes first, then the oldest.
 * - Bounded waits, enforced while a render waits: a render not started `maxWaitMs` after it was asked for is
 *   refused then (a timer on the oldest deadline), not when its turn comes; the visitor gets the last good
 *   copy or a 503 with Retry-After within the limit, never a hanging request.
 * - Early refusal: a visitor's render whose expected wait (the renders that go before it, at the pace renders
 *   finish) is past `maxWaitMs` is refused at once, as are renders past `maxQueuedPerPractice` waiting for
 *   one practice or `maxQueued` in all (bounds in keys: the queue's memory).
 * - A render nobody waits for any more is dropped: each visitor's request comes with a signal that aborts
 *   when the visitor leaves; a queued render whose visitors all left (and that no refresh wants) never runs.
 *
 * Every refusal is a RenderUnavailable: the page cache answers the last good copy (STALE) or a 503.
 */
import { RenderUnavailable } from "../render/unavailable";
import type { Priority } from "../cache/page-cache";

export interface AdmissionOptions {
  concurrency: number;
  maxQueuedPerPractice: number;
  maxQueued: number;
  maxWaitMs: number;
  now?: () => number;
}

/** Turns a practice gets for each turn of a practice with one visitor waiting, at most. */
export const MAX_WEIGHT = 8;
/** Joins remembered for renders not queued yet (a visitor joined while the first one's render was being set up). */
const EARLY_JOINS_MAX = 256;
/** The weight of the newest render time in the running mean (an exponential moving average). */
const DURATION_SMOOTHING = 0.1;
/** What Retry-After says at most (and at least 1 s), when the queue's drain time sets it. */
const RETRY_AFTER_MAX_S = 30;

interface Job {
  code: string;
  key: string;
  queuedAt: number;
  /** Visitors waiting whose requests are still open. */
  waiters: number;
  /** A background refresh asked for it: it runs even when no visitor waits. */
  wanted: boolean;
  queues: FairQueues;
  start: () => void;
  refuse: (error: Error) => void;
  /** Stops listening to the visitors' signals. */
  release: (() => void)[];
}

interface PracticeQueue {
  jobs: Job[];
  /** The virtual time of its last turn: its next turn comes 1 / weight later (the lowest goes next). */
  served: number;
}

/** Per-practice queues, taking turns in proportion to their demand (stride scheduling). */
class FairQueues {
  private readonly byCode = new Map<string, PracticeQueue>();
  /** The virtual time of the last turn: a practice that starts waiting counts from here (no credit for idle time). */
  private vtime = 0;
  size = 0;

  push(job: Job): void {
    let practice = this.byCode.get(job.code);
    if (!practice) this.byCode.set(job.code, (practice = { jobs: [], served: this.vtime }));
    practice.jobs.push(job);
    this.size++;
  }

  countOf(code: string): number {
    return this.byCode.get(code)?.jobs.length ?? 0;
  }

  /**
   * The next render: the practice whose next turn comes first (weights as they are now: a visitor who joins
   * brings its practice's turn closer), its render most waited for (then the oldest).
   */
  shift(): Job | undefined {
    let next: PracticeQueue | undefined;
    let nextTurn = Infinity;
    for (const practice of this.byCode.values()) {
      const turn = practice.served + 1 / weight(practice);
      if (turn < nextTurn) [next, nextTurn] = [practice, turn];
    }
    if (!next) return undefined;
    let at = 0;
    for (let i = 1; i < next.jobs.length; i++) if (next.jobs[i].waiters > next.jobs[at].waiters) at = i;
    this.vtime = next.served = nextTurn;
    const job = next.jobs[at];
    this.remove(job);
    return job;
  }

  /** Takes a job out of its practice's queue (started elsewhere, refused, or abandoned); false if not queued. */
  remove(job: Job): boolean {
    const practice = this.byCode.get(job.code);
    const at = practice ? practice.jobs.indexOf(job) : -1;
    if (at === -1) return false;
    practice!.jobs.splice(at, 1);
    if (!practice!.jobs.length) this.byCode.delete(job.code);
    this.size--;
    return true;
  }

  find(code: string, key: string): Job | undefined {
    return this.byCode.get(code)?.jobs.find((job) => job.key === key);
  }

  /**
   * Renders that would go before one more of `code`: its own queue, and each other practice's turns until
   * then (as many as its weight allows for each of this practice's, at most its whole queue).
   */
  ahead(code: string): number {
    const own = this.byCode.get(code);
    const ownCount = own?.jobs.length ?? 0;
    const ownWeight = own ? weight(own) : 1;
    let count = ownCount;
    for (const [other, practice] of this.byCode) {
      if (other === code) continue;
      count += Math.min(practice.jobs.length, Math.ceil(((ownCount + 1) * weight(practice)) / ownWeight));
    }
    return count;
  }
}

/** A practice's demand (the visitors waiting on its queued renders; a refresh counts one) up to MAX_WEIGHT. */
function weight(practice: PracticeQueue): number {
  let demand = 0;
  for (const job of practice.jobs) demand += Math.max(1, job.waiters);
  return Math.min(MAX_WEIGHT, demand);
}

export class Admission {
  private readonly visitors = new FairQueues();
  private readonly refreshes = new FairQueues();
  /** Every queued job, oldest first: their deadlines come in this order (one timer, on the oldest). */
  private readonly byAge = new Set<Job>();
  private readonly now: () => number;
  private running = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  /** Mean time of a render, start to end (ms); 0 until one ended. */
  private meanRenderMs = 0;
  /** Visitors who joined a render before it was queued: their signals, by key (bounded, oldest dropped). */
  private readonly earlyJoins = new Map<string, AbortSignal[]>();
  /** Refused at once: a queue bound, or the expected wait past the limit (stats, benchmark). */
  refused = 0;
  /** Refused after waiting `maxWaitMs`. */
  expired = 0;
  /** Dropped before they started: every visitor waiting for them left. */
  abandoned = 0;

  constructor(private readonly opts: AdmissionOptions) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Runs `render` when its turn comes; rejects with RenderUnavailable when it cannot be queued, waited too
   * long, or every visitor waiting for it left (`signal`: aborts when the visitor who asked leaves).
   */
  run<T>(code: string, key: string, priority: Priority, render: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const queues = priority === "visitor" ? this.visitors : this.refreshes;
    if (this.running >= this.opts.concurrency) {
      const refusal = this.refusal(queues, code, priority);
      if (refusal) {
        this.refused++;
        return Promise.reject(refusal);
      }
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        code,
        key,
        queuedAt: this.now(),
        waiters: 0,
        // A refresh, or a render whose caller does not say when its visitor leaves: never dropped.
        wanted: priority === "refresh" || !signal,
        queues,
        release: [],
        refuse: reject,
        start: () => {
          this.running++;
          const startedAt = this.now();
          render()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              this.observe(this.now() - startedAt);
              this.pump();
            });
        },
      };
      if (signal) this.join(job, signal);
      for (const early of this.earlyJoins.get(key) ?? []) this.join(job, early);
      this.earlyJoins.delete(key);
      if (!job.wanted && job.waiters === 0) {
        // Every visitor it was for has left already.
        this.abandoned++;
        reject(new RenderUnavailable("the visitors waiting for this render left", 5, false));
        return;
      }
      queues.push(job);
      this.byAge.add(job);
      this.pump();
      this.armDeadline();
    });
  }

  /**
   * A visitor now waits for this key's render (the page cache joined a render in flight): a queued refresh
   * takes a visitor's place in its practice's queue, and the visitor's signal keeps a queued render wanted.
   */
  promote(code: string, key: string, signal?: AbortSignal): void {
    const job = this.visitors.find(code, key) ?? this.refreshes.find(code, key);
    if (!job) {
      // Not queued: running already (nothing to do), or not queued yet (the first visitor's render is being
      // set up): remembered, so that render counts this visitor too.
      if (!signal || signal.aborted) return;
      if (this.earlyJoins.size >= EARLY_JOINS_MAX && !this.earlyJoins.has(key))
        this.earlyJoins.delete(this.earlyJoins.keys().next().value!);
      this.earlyJoins.set(key, [...(this.earlyJoins.get(key) ?? []), signal]);
      return;
    }
    if (signal) this.join(job, signal);
    if (job.queues === this.refreshes) {
      this.refreshes.remove(job);
      job.queues = this.visitors;
      this.visitors.push(job);
      this.pump();
    }
  }

  stats() {
    return {
      running: this.running,
      visitors: this.visitors.size,
      refreshes: this.refreshes.size,
      refused: this.refused,
      expired: this.expired,
      abandoned: this.abandoned,
      meanRenderMs: Math.round(this.meanRenderMs),
    };
  }

  /** Why a new render cannot wait, or null when it can. */
  private refusal(queues: FairQueues, code: string, priority: Priority): RenderUnavailable | null {
    if (queues.countOf(code) >= this.opts.maxQueuedPerPractice || queues.size >= this.opts.maxQueued) {
      return new RenderUnavailable("too many renders waiting", this.retryAfterSeconds(), false);
    }
    // A refresh has no visitor waiting: it may wait its turn (its count bounds above and the deadline apply).
    if (priority === "visitor" && this.expectedWaitMs(code) > this.opts.maxWaitMs) {
      return new RenderUnavailable("a render would wait too long", this.retryAfterSeconds(), false);
    }
    return null;
  }

  /**
   * The wait of one more visitor's render of `code`: the renders that go before it, at the pace renders end
   * (Little's law: with every slot busy, `concurrency` renders end per mean render time).
   */
  private expectedWaitMs(code: string): number {
    return ((this.visitors.ahead(code) + 1) * this.meanRenderMs) / this.opts.concurrency;
  }

  /** What Retry-After says: the time the queue takes to drain, from 1 s to RETRY_AFTER_MAX_S (5 s before any render ended). */
  private retryAfterSeconds(): number {
    if (!this.meanRenderMs) return 5;
    const drainMs = ((this.visitors.size + this.refreshes.size) * this.meanRenderMs) / this.opts.concurrency;
    return Math.min(RETRY_AFTER_MAX_S, Math.max(1, Math.ceil(drainMs / 1000)));
  }

  private observe(durationMs: number): void {
    this.meanRenderMs = this.meanRenderMs
      ? this.meanRenderMs + DURATION_SMOOTHING * (durationMs - this.meanRenderMs)
      : durationMs;
  }

  /** Counts a visitor waiting for a job; when the last one leaves before the job started, the job is dropped. */
  private join(job: Job, signal: AbortSignal): void {
    if (signal.aborted) return;
    job.waiters++;
    const leave = () => {
      job.waiters--;
      if (job.waiters > 0 || job.wanted || !job.queues.remove(job)) return;
      this.byAge.delete(job);
      this.abandoned++;
      this.settle(job);
      job.refuse(new RenderUnavailable("the visitors waiting for this render left", 5, false));
    };
    signal.addEventListener("abort", leave, { once: true });
    job.release.push(() => signal.removeEventListener("abort", leave));
  }

  private settle(job: Job): void {
    for (const release of job.release.splice(0)) release();
  }

  private pump(): void {
    while (this.running < this.opts.concurrency) {
      const job = this.visitors.shift() ?? this.refreshes.shift();
      if (!job) return;
      this.byAge.delete(job);
      this.settle(job);
      job.start();
    }
  }

  /** Refuses every job past its deadline, and sets the timer for the next one. */
  private expire = (): void => {
    this.timer = null;
    this.timerAt = Infinity;
    const now = this.now();
    for (const job of this.byAge) {
      if (now - job.queuedAt < this.opts.maxWaitMs) break;
      this.byAge.delete(job);
      job.queues.remove(job);
      this.expired++;
      this.settle(job);
      job.refuse(new RenderUnavailable("waited too long for a render slot", this.retryAfterSeconds(), false));
    }
    this.armDeadline();
  };

  /** One timer, at the oldest queued job's deadline (jobs that started or left meanwhile are skipped then). */
  private armDeadline(): void {
    const oldest = this.byAge.values().next();
    if (oldest.done) return;
    const at = oldest.value.queuedAt + this.opts.maxWaitMs;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.expire, Math.max(0, at - this.now()));
    // Waiting renders do not keep a process alive on their own (a server has its listener; tests end).
    this.timer.unref();
  }
}
