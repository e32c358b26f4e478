/**
 * The instances of one environment agreeing through Redis (docs/decisions/shared-invalidation.md):
 *
 * - Membership: each instance holds a lease (PX 3 s) renewed every second, only while its subscriber
 *   is confirmed subscribed. An instance whose lease lapsed is known dead to the others.
 * - Invalidation (the webhook on any instance): invalidate here, publish on the environment's channel,
 *   wait until every live instance acknowledged (or its lease lapsed), then bump the tags' versions and
 *   answer. Every instance applies the message to its own cache before acknowledging.
 * - Trust: an instance that lost its subscriber, its lease or Redis assumes it missed invalidations:
 *   its data cache is emptied and its pages are served again only once their versions are confirmed
 *   (PageCache.distrust()). Trust comes back only with a confirmed subscription and a renewed lease.
 * - Versions: a page records the versions of its tags; a missing version (evicted, Redis restarted)
 *   reads as "changed just now", so the page is rendered again, never served as valid.
 * - Shared pages: read on a local miss (one round trip, the versions compared inside Redis), written
 *   after a render, with a TTL, and only while Redis's memory is under PAGE_WRITE_LIMIT of its maxmemory:
 *   the specification's Redis evicts any key (allkeys-lru, 128 MB), and pages written up to that limit
 *   evicted the bookkeeping (the join mark, leases, versions): a webhook then waited 3 s. The join mark is
 *   also touched with every lease renewal, so that eviction by anything else takes it last.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { PageEntry } from "../entry";
import type { CacheTarget } from "../key";
import { PROVISIONAL_MS, type PageCache, type SharedPages } from "../page-cache";
import { InvalidationNotConfirmed } from "../revalidate";
import { expandTags } from "../../backend/tags";
import { decodeEntry, encodeEntry } from "./codec";
import { RedisLink, RedisUnavailable } from "./link";
import { sharedNames, type SharedNames } from "./names";

export const LEASE_MS = 3000;
export const RENEW_MS = 1000;
/** How long the webhook waits for acknowledgements (a silent instance's lease lapses within LEASE_MS). */
export const ACK_WAIT_MS = 4000;
/** Trust ends this long before the lease can have lapsed in Redis. */
const LEASE_MARGIN_MS = 500;
/**
 * A Redis that lost its memory (restarted, flushed) also lost the membership: the webhook waits this long
 * after the first instance rejoined, so that every live instance (reconnecting within 2 s) is back first.
 */
export const REJOIN_GRACE_MS = 3000;

/**
 * Pages are written to Redis only while its used memory is under this share of its maxmemory (no limit set:
 * always): eviction then never has to make room for pages, and never takes the bookkeeping.
 */
export const PAGE_WRITE_LIMIT = 0.75;

/** Redis's used memory and maxmemory (0: none), in bytes. */
const MEMORY_SCRIPT = `
local info = redis.call('INFO', 'memory')
return {tonumber(string.match(info, 'used_memory:(%d+)')), tonumber(string.match(info, 'maxmemory:(%d+)'))}`;

/** Milliseconds since the first instance joined this Redis (KEYS[1]: the join mark), by Redis's clock. */
const CLUSTER_AGE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], now, 'NX')
return now - tonumber(redis.call('GET', KEYS[1]))`;

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

/** The current versions of ARGV[3..] (prefix ARGV[1]); a missing one is created as ARGV[2]: "changed just now". */
const STAMP_SCRIPT = `
local out = {}
for i = 3, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  local v = redis.call('GET', key)
  if not v then redis.call('SET', key, ARGV[2]); v = ARGV[2] end
  out[#out + 1] = v
end
return out`;

interface InvalidationMessage {
  id: string;
  from: string;
  tags: string[];
}

export interface CoordinatorOptions {
  url: string;
  environment: string;
  /** The deployment's namespace within the environment (names.ts, cacheNamespace). */
  namespace: string;
  pageCache: PageCache;
  /** Empties the backend data cache (it may hold data an unseen invalidation dropped elsewhere). */
  clearData: () => void;
  /** Page TTL: shared pages expire in Redis after twice this (a stale page still spares a render). */
  ttlMs: number;
  /** Per-command bound: no request waits longer than this for Redis. */
  commandTimeoutMs: number;
  log?: (line: string) => void;
}

const newVersion = () => `${Date.now().toString(36)}.${randomBytes(6).toString("hex")}`;

export class SharedCache implements SharedPages {
  readonly id = randomUUID();
  private readonly names: SharedNames;
  private readonly link: RedisLink;
  private readonly log: (line: string) => void;
  trusted = false;
  private subscribed = false;
  private probe: string | null = null;
  /** The channels are registered once; node-redis subscribes them again after every reconnection. */
  private listening = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private lapseTimer: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<string, { pending: Set<string>; wake: () => void }>();
  private readyWaiters: (() => void)[] = [];
  private stopped = false;
  private lastClear = 0;
  /** Whether Redis has room for pages (PAGE_WRITE_LIMIT), as of the last lease renewal. */
  private roomForPages = false;

  constructor(private readonly opts: CoordinatorOptions) {
    this.names = sharedNames(opts.environment, opts.namespace);
    this.log = opts.log ?? console.log;
    this.link = new RedisLink(opts.url, opts.commandTimeoutMs, {
      subscriberReady: () => void this.confirmSubscription(),
      subscriberLost: () => {
        this.subscribed = false;
        this.lapse("subscriber disconnected");
      },
    }, this.log);
  }

  /** Connects and starts renewing the lease; never throws (Redis down is served through). */
  start(): void {
    this.opts.pageCache.share(this);
    this.link.connect();
    this.renewTimer = setInterval(() => {
      // Cut off, the data cache is emptied every PROVISIONAL_MS too: it cannot hear invalidations either.
      if (!this.trusted && Date.now() - this.lastClear >= PROVISIONAL_MS) this.clearData();
      void this.renew();
    }, RENEW_MS).unref();
  }

  /** Resolves once this instance is part of the cluster, or after `ms` (it then serves on its own). */
  whenTrusted(ms: number): Promise<boolean> {
    if (this.trusted) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * The webhook: invalidates here, then across instances. Resolves with the number of page entries named
   * here once every live instance applied it; throws InvalidationNotConfirmed when that cannot be known.
   */
  async invalidate(tags: string[]): Promise<number> {
    const named = this.opts.pageCache.invalidate(tags);
    if (!this.trusted) throw new InvalidationNotConfirmed("Redis is unreachable from this instance");
    const id = newVersion();
    const pending = new Set<string>();
    try {
      const age = await this.link.run<number>(["EVAL", CLUSTER_AGE_SCRIPT, "1", this.names.joined]);
      if (age < REJOIN_GRACE_MS) await new Promise((r) => setTimeout(r, REJOIN_GRACE_MS - age));
    } catch (error) {
      throw new InvalidationNotConfirmed((error as Error).message);
    }
    let wake = () => {};
    this.waiting.set(id, { pending, wake: () => wake() });
    try {
      for (const member of await this.liveMembers()) if (member !== this.id) pending.add(member);
      const message: InvalidationMessage = { id, from: this.id, tags };
      await this.link.run(["PUBLISH", this.names.invalidations, JSON.stringify(message)]);
      const deadline = Date.now() + ACK_WAIT_MS;
      while (pending.size && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 250);
        });
        if (!pending.size) break;
        // Whoever has not answered yet and whose lease lapsed is dead: not waited for.
        const leases = await this.link.run<(string | null)[]>(["MGET", ...[...pending].map(this.names.lease)]);
        [...pending].forEach((member, i) => leases[i] === null && pending.delete(member) && this.left(member));
      }
      // Bumped after the acknowledgements: from now on every older page fails the version check.
      const expanded = expandTags(tags);
      await this.link.run(["MSET", ...expanded.flatMap((tag) => [this.names.versionPrefix + tag, id])]);
    } catch (error) {
      if (error instanceof RedisUnavailable) throw new InvalidationNotConfirmed(error.message);
      throw error;
    } finally {
      this.waiting.delete(id);
    }
    if (pending.size) throw new InvalidationNotConfirmed(`${pending.size} live instance(s) did not acknowledge in time`);
    return named;
  }

  // --- SharedPages: the page cache's hooks -------------------------------------------------------

  async load(target: CacheTarget): Promise<PageEntry | null> {
    if (!this.trusted) return null;
    try {
      const blob = await this.link.run<Buffer | null>(
        ["EVAL", LOAD_SCRIPT, "1", this.names.page(target.key), this.names.versionPrefix],
        true,
      );
      return blob ? await decodeEntry(blob, target.key, this.opts.ttlMs) : null;
    } catch {
      return null;
    }
  }

  async stamp(entry: PageEntry): Promise<boolean> {
    if (!this.trusted) return false;
    try {
      const args = ["EVAL", STAMP_SCRIPT, "0", this.names.versionPrefix, newVersion(), ...entry.tags];
      entry.versions = await this.link.run<string[]>(args);
      return true;
    } catch {
      return false;
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
    if (!entry.versions || !this.roomForPages) return;
    const ttl = String(this.opts.ttlMs * 2);
    const blob = encodeEntry(entry as PageEntry & { versions: string[] });
    this.link.run(["SET", this.names.page(entry.target.key), blob, "PX", ttl]).catch(() => undefined);
  }

  /** Leaves the cluster (graceful shutdown): webhooks stop waiting for this instance at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    clearTimeout(this.lapseTimer);
    await this.link.run(["DEL", this.names.lease(this.id)]).catch(() => undefined);
    await this.link.run(["SREM", this.names.members, this.id]).catch(() => undefined);
    await this.link.close();
  }

  // --- Membership and trust ------------------------------------------------------------------------

  private async liveMembers(): Promise<string[]> {
    const members = await this.link.run<string[]>(["SMEMBERS", this.names.members]);
    if (!members.length) return [];
    const leases = await this.link.run<(string | null)[]>(["MGET", ...members.map(this.names.lease)]);
    const dead = members.filter((_, i) => leases[i] === null);
    if (dead.length) {
      for (const member of dead) this.left(member);
      this.link.run(["SREM", this.names.members, ...dead]).catch(() => undefined);
    }
    return members.filter((_, i) => leases[i] !== null);
  }

  /** An operator wants to see an instance go (a crash, a stop): logged by the instance that notices. */
  private left(member: string): void {
    this.log(`shared cache: instance ${member.slice(0, 8)} left the ${this.opts.environment} cluster (its lease lapsed)`);
  }

  /** A subscriber that (re)connected is trusted once a probe published to this instance came back through it. */
  private async confirmSubscription(): Promise<void> {
    if (!this.listening) {
      this.listening = true;
      const channels = [this.names.invalidations, this.names.acks(this.id)];
      await this.link.subscriber
        .subscribe(channels, (message, channel) => this.onMessage(channel, message))
        .catch(() => (this.listening = false));
    }
    this.probe = `probe:${randomUUID()}`;
    await this.link.run(["PUBLISH", this.names.acks(this.id), this.probe]).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    if (!this.subscribed) {
      if (this.link.subscriber.isReady) await this.confirmSubscription();
      return;
    }
    const sentAt = Date.now();
    try {
      const [previous, , [used, max]] = await Promise.all([
        this.link.run<string | null>(["SET", this.names.lease(this.id), this.id, "PX", String(LEASE_MS), "GET"]),
        this.link.run(["SADD", this.names.members, this.id]),
        this.link.run<[number, number]>(["EVAL", MEMORY_SCRIPT, "0"]),
        this.link.run(["EVAL", CLUSTER_AGE_SCRIPT, "1", this.names.joined]),
      ]);
      this.roomForPages = max === 0 || used < max * PAGE_WRITE_LIMIT;
      if (!this.subscribed) return;
      // Our lease had lapsed (or was evicted): the others may have stopped waiting for us.
      if (previous === null && this.trusted) this.lapse("membership lease lapsed");
      clearTimeout(this.lapseTimer);
      this.lapseTimer = setTimeout(() => this.lapse("membership lease not renewed"), sentAt + LEASE_MS - LEASE_MARGIN_MS - Date.now()).unref();
      if (!this.trusted) this.trust();
    } catch {
      // The lapse timer ends trust before the lease can have lapsed in Redis.
    }
  }

  private trust(): void {
    this.trusted = true;
    // Whatever was stored while untrusted is checked against the versions before it is served again.
    this.opts.pageCache.distrust();
    this.clearData();
    this.log(`shared cache: instance ${this.id.slice(0, 8)} joined the ${this.opts.environment} cluster`);
    this.link.run(["EVAL", CLUSTER_AGE_SCRIPT, "1", this.names.joined]).catch(() => undefined);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private clearData(): void {
    this.lastClear = Date.now();
    this.opts.clearData();
  }

  private lapse(reason: string): void {
    clearTimeout(this.lapseTimer);
    if (!this.trusted) return;
    this.trusted = false;
    this.opts.pageCache.distrust();
    this.clearData();
    this.log(`shared cache: ${reason}; pages are re-validated or rendered again before they are served`);
  }

  private onMessage(channel: string, message: string): void {
    if (channel === this.names.invalidations) {
      let parsed: InvalidationMessage;
      try {
        parsed = JSON.parse(message) as InvalidationMessage;
      } catch {
        return;
      }
      if (parsed.from === this.id || !Array.isArray(parsed.tags)) return;
      this.opts.pageCache.invalidate(parsed.tags.filter((t) => typeof t === "string"));
      const ack = JSON.stringify({ id: parsed.id, member: this.id });
      this.link.run(["PUBLISH", this.names.acks(parsed.from), ack]).catch(() => undefined);
      return;
    }
    if (message === this.probe) {
      this.probe = null;
      this.subscribed = true;
      void this.renew();
      return;
    }
    try {
      const ack = JSON.parse(message) as { id: string; member: string };
      const waiting = this.waiting.get(ack.id);
      if (waiting?.pending.delete(ack.member) && !waiting.pending.size) waiting.wake();
    } catch {
      /* not an acknowledgement */
    }
  }
}
