/**
 * How often each key was asked for lately, approximately, in a fixed few kilobytes: a count-min sketch (four
 * rows of small counters, a key's estimate the smallest of its four), halved every `10 x width` increments so
 * that old popularity fades (TinyLFU, Einziger et al.; Caffeine's FrequencySketch is the model). The page store
 * asks it whether a newcomer is asked for more often than the entry it would push out (page-store.ts).
 *
 * Counters stop at 15: past that a page is hot, and how hot no longer decides anything.
 */
const DEPTH = 4;
const MAX_COUNT = 15;

export class FrequencySketch {
  private readonly counters: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private additions = 0;

  /** `expectedKeys`: about how many keys the store holds (the sketch is sized to count that many apart). */
  constructor(expectedKeys: number) {
    let width = 256;
    while (width < expectedKeys && width < 1 << 22) width *= 2;
    this.mask = width - 1;
    this.counters = new Uint8Array(width * DEPTH);
    this.sampleSize = 10 * width;
  }

  /** Counts one request for `key`; `hash` is hashOf(key), when the caller kept it (a stored entry does). */
  increment(key: string, hash: number = hashOf(key)): void {
    const h2 = secondHash(hash);
    let added = false;
    for (let row = 0; row < DEPTH; row++) {
      const at = this.slot(row, hash, h2);
      if (this.counters[at] < MAX_COUNT) {
        this.counters[at]++;
        added = true;
      }
    }
    if (added && ++this.additions >= this.sampleSize) this.age();
  }

  /** About how many times `key` was asked for lately (never less than it was, up to 15). */
  frequency(key: string, hash: number = hashOf(key)): number {
    const h2 = secondHash(hash);
    let min = MAX_COUNT;
    for (let row = 0; row < DEPTH; row++) min = Math.min(min, this.counters[this.slot(row, hash, h2)]);
    return min;
  }

  private slot(row: number, h1: number, h2: number): number {
    return row * (this.mask + 1) + ((h1 + Math.imul(row + 1, h2)) & this.mask);
  }

  /** Halves every counter: what was popular a while ago counts for half as much. */
  private age(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] >>= 1;
    this.additions = Math.floor(this.additions / 2);
  }
}

/** A key's 32-bit hash (FNV-1a); the sketch derives its second hash from it (double hashing). */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A remix of the first hash, odd (so that the rows' slots differ), for double hashing. */
function secondHash(h: number): number {
  let g = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  g = Math.imul(g ^ (g >>> 13), 0x45d9f3b);
  return (g ^ (g >>> 16)) | 1;
}
