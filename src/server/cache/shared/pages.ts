/**
 * The pages the instances share through Redis (the page cache's SharedPages, cache/page-cache.ts):
 *
 * - Versions: a page records the versions of its tags; a missing version (evicted, Redis restarted) is
 *   created anew, so a page stamped with the lost one is rendered again, never served as valid. A version
 *   says when its tags changed (the webhook's time, names.ts); one created for a missing key says "no change
 *   known" (time 0).
 * - The build pre-pass's pages are admitted one by one (admit): only while none of their tags changed after
 *   the pre-pass began reading the backend (docs/decisions/0060-prepass-with-shared-store.md).
 * - Read on a local miss (one round trip, the versions compared inside Redis), written after a render with
 *   a TTL, and only while Redis has room for it (PAGE_WRITE_LIMIT, judged inside Redis at the write).
 * - Nothing is read or vouched for while this instance is not trusted (it may have missed invalidations).
 */
import type { PageEntry } from "../entry";
import type { CacheTarget } from "../key";
import type { SharedPages } from "../page-cache";
import { decodeEntry, encodeEntry } from "./codec";
import type { RedisLink } from "./link";
import type { Membership } from "./membership";
import { unknownChangeVersion, type SharedNames } from "./names";

/** Returns the page if every version it was stamped with is still the current one (KEYS[1] page, ARGV[1] version prefix). */
const LOAD_SCRIPT = `
local blob = redis.call('GET', KEYS[1])
if not blob then return false end
local newline = string.find(blob, '\\n', 1, true)
local meta = cjson.decode(string.sub(blob, newline + 1, newline + tonumber(string.sub(blob, 1, newline - 1))))
for i, tag in ipairs(meta.tags) do
  if redis.call('GET', ARGV[1] .. tag) ~= meta.versions[i] then return false end
end
return blob`;

/** The current versions of ARGV[3..] (prefix ARGV[1]); a missing one is created as ARGV[2] (no change known). */
const STAMP_SCRIPT = `
local out = {}
for i = 3, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  local v = redis.call('GET', key)
  if not v then redis.call('SET', key, ARGV[2]); v = ARGV[2] end
  out[#out + 1] = v
end
return out`;

/**
 * The current versions of ARGV[4..] (prefix ARGV[1]; a missing one created as ARGV[2]) if none changed after
 * ARGV[3] (epoch ms; a version's time is its base-36 part before the dot), else false; nothing is created
 * unless all pass.
 */
const ADMIT_SCRIPT = `
local out = {}
local missing = {}
local limit = tonumber(ARGV[3])
for i = 4, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  local v = redis.call('GET', key)
  if v then
    local t = tonumber(string.match(v, '^[^.]*'), 36)
    if not t or t > limit then return false end
  else
    v = ARGV[2]
    missing[#missing + 1] = key
  end
  out[#out + 1] = v
end
for _, key in ipairs(missing) do redis.call('SET', key, ARGV[2]) end
return out`;

/**
 * The build machine's clock and the instances' may disagree: a tag changed this long before the pre-pass
 * began still keeps its pages out (a refused page is only rendered; an admitted stale one would be served).
 */
export const ADMIT_CLOCK_MARGIN_MS = 60_000;

/**
 * Pages are written to Redis only while its used memory, with the page, stays under this share of its
 * maxmemory (no limit set: always). The specification's Redis evicts any key (allkeys-lru on 128 MB): pages
 * written up to the limit made it evict the cluster's bookkeeping (the join mark: the next webhook waited 3 s).
 * Judged inside Redis at each write, so that no number of writers between two samples can pass it.
 */
export const PAGE_WRITE_LIMIT = 0.75;

/** Stores ARGV[1] at KEYS[1] for ARGV[2] ms if Redis has room for it (ARGV[3]: PAGE_WRITE_LIMIT); 1 if stored. */
const SAVE_SCRIPT = `
local info = redis.call('INFO', 'memory')
local used = tonumber(string.match(info, 'used_memory:(%d+)'))
local max = tonumber(string.match(info, 'maxmemory:(%d+)'))
if max > 0 and used + #ARGV[1] >= max * tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

export class SharedPageStore implements SharedPages {
  constructor(
    private readonly link: RedisLink,
    private readonly names: SharedNames,
    private readonly membership: Membership,
    /** Page TTL: shared pages expire in Redis after twice this (a stale page still spares a render). */
    private readonly ttlMs: number,
  ) {}

  get trusted(): boolean {
    return this.membership.trusted;
  }

  async load(target: CacheTarget): Promise<PageEntry | null> {
    if (!this.trusted) return null;
    try {
      const blob = await this.link.run<Buffer | null>(
        ["EVAL", LOAD_SCRIPT, "1", this.names.page(target.key), this.names.versionPrefix],
        true,
      );
      return blob ? await decodeEntry(blob, target.key, this.ttlMs) : null;
    } catch {
      return null;
    }
  }

  async stamp(entry: PageEntry): Promise<boolean> {
    if (!this.trusted) return false;
    try {
      const args = ["EVAL", STAMP_SCRIPT, "0", this.names.versionPrefix, unknownChangeVersion(), ...entry.tags];
      entry.versions = await this.link.run<string[]>(args);
      return true;
    } catch {
      return false;
    }
  }

  async admit(entry: PageEntry, readSince: number): Promise<boolean | null> {
    if (!this.trusted) return null;
    try {
      const limit = String(readSince - ADMIT_CLOCK_MARGIN_MS);
      const args = ["EVAL", ADMIT_SCRIPT, "0", this.names.versionPrefix, unknownChangeVersion(), limit, ...entry.tags];
      const versions = await this.link.run<string[] | null>(args);
      if (!versions) return false;
      entry.versions = versions;
      return true;
    } catch {
      return null;
    }
  }

  async recheck(entry: PageEntry): Promise<boolean> {
    if (!this.trusted || !entry.versions) return false;
    if (!entry.tags.length) return true;
    try {
      const current = await this.link.run<(string | null)[]>(["MGET", ...entry.tags.map((t) => this.names.versionPrefix + t)]);
      return current.every((v, i) => v !== null && v === entry.versions![i]);
    } catch {
      return false;
    }
  }

  save(entry: PageEntry): void {
    if (!entry.versions) return;
    const blob = encodeEntry(entry as PageEntry & { versions: string[] });
    const args = ["EVAL", SAVE_SCRIPT, "1", this.names.page(entry.target.key), blob, String(this.ttlMs * 2), String(PAGE_WRITE_LIMIT)];
    this.link.run(args).catch(() => undefined);
  }
}
