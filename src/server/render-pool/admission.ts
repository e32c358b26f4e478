/**
 * Render admission: which render runs next when more are asked for than the render pool can run
 * (docs/decisions/0019-admission.md).
 *
 * - Bounded concurrency: at most `concurrency` renders run at once (the pool's capacity).
 * - Fair between practices: each practice has its own queue and the queues are served in turn, so a
 *   practice with a thousand renders waiting gets one slot in turn like a practice with one.
 * - Visitors first: a visitor's miss ("visitor") always goes before a background refresh ("refresh":
 *   after a webhook or a TTL). A visitor who joins a queued refresh of the same key promotes it.
 * - Bounded waits: past `maxQueuedPerPractice` waiting renders of one practice, or `maxQueued` in all,
 *   run() rejects at once with RenderUnavailable (the page cache answers the last good copy or a 503
 *   with Retry-After); a render that waited longer than `maxWaitMs` is refused when its turn comes.
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

interface Job {
  code: string;
  key: string;
  queuedAt: number;
  start: () => void;
  refuse: (error: Error) => void;
}

/** Per-practice FIFO queues, served in turn (a Map keeps the turn order: a served practice goes last). */
class TurnQueues {
  private readonly byCode = new Map<string, Job[]>();
  size = 0;

  push(job: Job): void {
    const queue = this.byCode.get(job.code);
    if (queue) queue.push(job);
    else this.byCode.set(job.code, [job]);
    this.size++;
  }

  countOf(code: string): number {
    return this.byCode.get(code)?.length ?? 0;
  }

  /** The next practice's oldest job; that practice moves to the end of the turn. */
  shift(): Job | undefined {
    const first = this.byCode.entries().next();
    if (first.done) return undefined;
    const [code, queue] = first.value;
    const job = queue.shift()!;
    this.byCode.delete(code);
    if (queue.length) this.byCode.set(code, queue);
    this.size--;
    return job;
  }

  /** Removes and returns the job of a key, if queued. */
  take(code: string, key: string): Job | undefined {
    const queue = this.byCode.get(code);
    const at = queue ? queue.findIndex((job) => job.key === key) : -1;
    if (at === -1) return undefined;
    const [job] = queue!.splice(at, 1);
    if (!queue!.length) this.byCode.delete(code);
    this.size--;
    return job;
  }
}

export class Admission {
  private readonly visitors = new TurnQueues();
  private readonly refreshes = new TurnQueues();
  private readonly now: () => number;
  private running = 0;
  /** Renders refused because a queue was full or a wait too long (stats, benchmark). */
  refused = 0;

  constructor(private readonly opts: AdmissionOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Runs `render` when its turn comes; rejects with RenderUnavailable when it cannot be queued. */
  run<T>(code: string, key: string, priority: Priority, render: () => Promise<T>): Promise<T> {
    const queues = priority === "visitor" ? this.visitors : this.refreshes;
    if (
      this.running >= this.opts.concurrency &&
      (queues.countOf(code) >= this.opts.maxQueuedPerPractice || queues.size >= this.opts.maxQueued)
    ) {
      this.refused++;
      return Promise.reject(new RenderUnavailable("too many renders waiting", 5, false));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        code,
        key,
        queuedAt: this.now(),
        refuse: reject,
        start: () => {
          this.running++;
          render()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              this.pump();
            });
        },
      };
      queues.push(job);
      this.pump();
    });
  }

  /** A visitor now waits for this key's queued refresh: it takes a visitor's place in its practice's queue. */
  promote(code: string, key: string): void {
    const job = this.refreshes.take(code, key);
    if (job) {
      this.visitors.push(job);
      this.pump();
    }
  }

  stats() {
    return { running: this.running, visitors: this.visitors.size, refreshes: this.refreshes.size, refused: this.refused };
  }

  private pump(): void {
    while (this.running < this.opts.concurrency) {
      const job = this.visitors.shift() ?? this.refreshes.shift();
      if (!job) return;
      if (this.now() - job.queuedAt > this.opts.maxWaitMs) {
        this.refused++;
        job.refuse(new RenderUnavailable("waited too long for a render slot", 5, false));
        continue;
      }
      job.start();
    }
  }
}
