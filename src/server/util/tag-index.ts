/**
 * tag -> keys, so that invalidating a tag costs the number of entries it names, not the size of the
 * store. Both the page store and the data cache keep one beside their entries.
 */
export class TagIndex<K> {
  private readonly byTag = new Map<string, Set<K>>();

  add(key: K, tags: Iterable<string>): void {
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  remove(key: K, tags: Iterable<string>): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(tag);
    }
  }

  /** The union of the keys any of `tags` names. */
  keysFor(tags: Iterable<string>): Set<K> {
    const out = new Set<K>();
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (keys) for (const key of keys) out.add(key);
    }
    return out;
  }

  /** Number of distinct tags indexed (for tests and memory reports). */
  get tagCount(): number {
    return this.byTag.size;
  }

  /** Forgets every key (the read cache after a possibly missed invalidation). */
  clear(): void {
    this.byTag.clear();
  }
}
