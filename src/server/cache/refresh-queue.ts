/**
 * Background re-renders with bounded concurrency: an invalidation naming a thousand pages must not
 * start a thousand renders at once on a two-core machine. A key already waiting is not queued twice;
 * a visitor asking for a queued page does not wait its turn (page-cache.ts renders it at once).
 * `maxWaiting` is the eager budget: past it add() refuses, and the page renders on its next request.
 */
export class RefreshQueue {
  private readonly waiting = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly run: (key: string) => Promise<void>,
    private readonly maxWaiting = Infinity,
  ) {}

  /** Queues a key; false when the queue is at its budget (the key is not queued). */
  add(key: string): boolean {
    if (this.waiting.has(key)) return true;
    if (this.waiting.size >= this.maxWaiting) return false;
    this.waiting.add(key);
    this.pump();
    return true;
  }

  /** Keys waiting for a slot. */
  get queued(): number {
    return this.waiting.size;
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.size > 0) {
      const key = this.waiting.values().next().value as string;
      this.waiting.delete(key);
      this.running++;
      this.run(key)
        .catch(() => {
          /* run() reports its own failures */
        })
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.waiting.size === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }
}
