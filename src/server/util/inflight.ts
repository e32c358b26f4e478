/**
 * Work in flight by key: concurrent callers asking for the same key share one promise, which is forgotten
 * when it settles. The page cache coalesces renders with it, the backend read cache backend reads. `meta`
 * (the read's tags) lets an invalidation drop running work, so that a later caller starts afresh and the
 * dropped work can tell it must not store its result.
 */
export class Inflight<V, M = undefined> {
  private readonly running = new Map<string, { promise: Promise<V>; meta: M }>();

  get(key: string): Promise<V> | undefined {
    return this.running.get(key)?.promise;
  }

  /** The promise running under `key`, or `start()` begun under it. */
  run(key: string, start: () => Promise<V>, meta: M): Promise<V> {
    const running = this.running.get(key);
    if (running) return running.promise;
    const entry = { promise: start(), meta };
    this.running.set(key, entry);
    const forget = () => {
      if (this.running.get(key) === entry) this.running.delete(key);
    };
    entry.promise.then(forget, forget);
    return entry.promise;
  }

  /** Whether `promise` still runs under `key` (it was not dropped, nor replaced after a drop). */
  isCurrent(key: string, promise: Promise<V>): boolean {
    return this.running.get(key)?.promise === promise;
  }

  /** Forgets the running work whose meta matches. */
  dropWhere(test: (meta: M) => boolean): void {
    for (const [key, entry] of this.running) if (test(entry.meta)) this.running.delete(key);
  }

  get size(): number {
    return this.running.size;
  }

  promises(): Promise<V>[] {
    return [...this.running.values()].map((entry) => entry.promise);
  }
}
