/**
 * The pages the instances share through Redis (the page cache's SharedPages, cache/page-cache.ts):
 *
 * - Versions: a page records the versions of its tags; a missing version (evicted, Redis restarted) is
 *   created anew, so a page stamped with the lost one is rendered again, never served as valid. A version
 *   says when its tags changed (the webhook's time, names.ts); one created for a missing key says "no change
 *   known" (time 0).
 * - The build pre-pass's pages are admitted one by one (admit): only while none of their tags changed after
 *   the pre-pass began reading the backend, as far as Redis remembers (docs/decisions/0060-prepass-with-shared-store.md).
 * - A tag being invalidated (its in-flight mark, invalidation.ts) holds its pages back: not loaded, admitted or
 *   confirmed until the versions moved, so an instance that joined after the webhook listed the members (and
 *   was not waited for) takes no old page meanwhile.
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

/**
 * Returns the page if every version it was stamped with is still the current one and none of its tags is being
 * invalidated (KEYS[1] page, ARGV[1] version prefix, ARGV[2] in-flight prefix).
 */
const LOAD_SCRIPT = `
local blob = redis.call('GET', KEYS[1])
if not blob then return false end
local newline = string.find(blob, '\\n', 1, true)
local meta = cjson.decode(string.sub(blob, newline + 1, newline + tonumber(string.sub(blob, 1, newline - 1))))
for i, tag in ipairs(meta.tags) do
  if redis.call('GET', ARGV[1] .. tag) ~= meta.versions[i] then return false end
  if redis.call('EXISTS', ARGV[2] .. tag) == 1 then return false end
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
 * The current versions of ARGV[5..] (prefix ARGV[1]; in-flight prefix ARGV[4]) if none changed after ARGV[3]
 * (epoch ms; a version's time is its base-36 part before the dot) and none is being invalidated, else false;
 * nothing is created unless all pass. A tag without a version is "unchanged" only where Redis remembers the
 * whole time since ARGV[3]: it ran since before it (no restart), the cluster joined it before it (KEYS[1], the
 * join mark: no flush since), and it evicted no key; then its version is created as ARGV[2] (no change known).
 */
const ADMIT_SCRIPT = `
local limit = tonumber(ARGV[3])
local remembers = nil
local function remembered()
  if remembers == nil then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000
    local uptime = tonumber(string.match(redis.call('INFO', 'server'), 'uptime_in_seconds:(%d+)'))
    local evicted = tonumber(string.match(redis.call('INFO', 'stats'), 'evicted_keys:(%d+)'))
    local joined = tonumber(redis.call('GET', KEYS[1]) or '')
    remembers = now - (uptime + 1) * 1000 <= limit and joined ~= nil and joined <= limit and evicted == 0
  end
  return remembers
end
local out = {}
local missing = {}
for i = 5, #ARGV do
  if redis.call('EXISTS', ARGV[4] .. ARGV[i]) == 1 then return false end
  local key = ARGV[1] .. ARGV[i]
  local v = redis.call('GET', key)
  if v then
    local t = tonumber(string.match(v, '^[^.]*'), 36)
    if not t or t > limit then return false end
  else
    if not remembered() then return false end
    v = ARGV[2]
    missing[#missing + 1] = key
  end
  out[#out + 1] = v
end
for _, key in ipairs(missing) do redis.call('SET', key, ARGV[2]) end
return out`;

/**
 * The build machine's clock and the instances' may disagree (hosts keep NTP time, within milliseconds; this
 * allows for a host that drifted): a tag changed this long before the pre-pass began still keeps its pages
 * out, and Redis must have run, and the cluster have joined it, this long before (a refused page is only
 * rendered; an admitted stale one would be served).
 */
export const ADMIT_CLOCK_MARGIN_MS = 10_000;

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
        ["EVAL", LOAD_SCRIPT, "1", this.names.page(target.key), this.names.versionPrefix, this.names.pendingPrefix],
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
      const prefixes = [this.names.versionPrefix, unknownChangeVersion(), limit, this.names.pendingPrefix];
      const args = ["EVAL", ADMIT_SCRIPT, "1", this.names.joined, ...prefixes, ...entry.tags];
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
      // Its versions, then whether any of its tags is being invalidated (an instance rejoining meanwhile).
      const keys = [...entry.tags.map((t) => this.names.versionPrefix + t), ...entry.tags.map((t) => this.names.pendingPrefix + t)];
      const current = await this.link.run<(string | null)[]>(["MGET", ...keys]);
      const n = entry.tags.length;
      return current.slice(0, n).every((v, i) => v !== null && v === entry.versions![i]) && current.slice(n).every((p) => p === null);
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
