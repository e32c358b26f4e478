/**
 * Membership and trust of one instance among the instances of its environment
 * (docs/decisions/0002-shared-invalidation.md):
 *
 * - Each instance holds a lease (PX 3 s) renewed every second, only while its subscriber is confirmed
 *   subscribed (a probe published to this instance came back through it). An instance whose lease lapsed
 *   is known dead to the others.
 * - Trust: an instance that lost its subscriber, its lease or Redis assumes it missed invalidations and says
 *   so (`onDistrust`): its data caches are emptied and its pages are served again only once their versions
 *   are confirmed. Trust comes back only with a confirmed subscription and a renewed lease.
 * - With each renewal it touches the join mark, so that eviction (the specification's Redis evicts any key,
 *   allkeys-lru) takes it last; pages leave room for the bookkeeping (pages.ts, PAGE_WRITE_LIMIT).
 */
import { randomUUID } from "node:crypto";
import type { RedisLink } from "./link";
import type { SharedNames } from "./names";

export const LEASE_MS = 3000;
export const RENEW_MS = 1000;
/** Trust ends this long before the lease can have lapsed in Redis. */
const LEASE_MARGIN_MS = 500;

/** Milliseconds since the first instance joined this Redis (KEYS[1]: the join mark), by Redis's clock. */
const CLUSTER_AGE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], now, 'NX')
return now - tonumber(redis.call('GET', KEYS[1]))`;

export interface MembershipHooks {
  environment: string;
  /** This instance may have missed invalidations (it joined, or lost its link): re-check before serving. */
  onDistrust: () => void;
  /** Empties the data caches (they may hold data an unseen invalidation dropped elsewhere). */
  clearData: () => void;
  /** Every message but the subscription probe (invalidations, acknowledgements: invalidation.ts). */
  onMessage: (channel: string, message: string) => void;
  log: (line: string) => void;
}

export class Membership {
  readonly id = randomUUID();
  trusted = false;
  private subscribed = false;
  private probe: string | null = null;
  /** The channels are registered once; node-redis subscribes them again after every reconnection. */
  private listening = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private lapseTimer: NodeJS.Timeout | undefined;
  private readyWaiters: (() => void)[] = [];
  private stopped = false;
  private lastClear = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly names: SharedNames,
    private readonly hooks: MembershipHooks,
    /** Cut off, the data caches are emptied this often too: this instance cannot hear invalidations. */
    private readonly clearEveryMs: number,
  ) {}

  /** The link's subscriber events (link.ts). */
  readonly linkEvents = {
    subscriberReady: () => void this.confirmSubscription(),
    subscriberLost: () => {
      this.subscribed = false;
      this.lapse("subscriber disconnected");
    },
  };

  start(): void {
    this.renewTimer = setInterval(() => {
      if (!this.trusted && Date.now() - this.lastClear >= this.clearEveryMs) this.clearData();
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

  /** Milliseconds since the first instance joined this Redis (a restarted Redis: just now). */
  clusterAgeMs(): Promise<number> {
    return this.link.run<number>(["EVAL", CLUSTER_AGE_SCRIPT, "1", this.names.joined]);
  }

  /** The instances whose lease is alive (the dead ones are logged and removed). */
  async liveMembers(): Promise<string[]> {
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

  /** Of these instances, the ones whose lease lapsed (logged: an operator wants to see an instance go). */
  async lapsed(members: string[]): Promise<string[]> {
    const leases = await this.link.run<(string | null)[]>(["MGET", ...members.map(this.names.lease)]);
    const gone = members.filter((_, i) => leases[i] === null);
    for (const member of gone) this.left(member);
    return gone;
  }

  /** Leaves the cluster (graceful shutdown): webhooks stop waiting for this instance at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    clearTimeout(this.lapseTimer);
    await this.link.run(["DEL", this.names.lease(this.id)]).catch(() => undefined);
    await this.link.run(["SREM", this.names.members, this.id]).catch(() => undefined);
  }

  private left(member: string): void {
    this.hooks.log(`shared cache: instance ${member.slice(0, 8)} left the ${this.hooks.environment} cluster (its lease lapsed)`);
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

  private onMessage(channel: string, message: string): void {
    if (channel !== this.names.invalidations && message === this.probe) {
      this.probe = null;
      this.subscribed = true;
      void this.renew();
      return;
    }
    this.hooks.onMessage(channel, message);
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    if (!this.subscribed) {
      if (this.link.subscriber.isReady) await this.confirmSubscription();
      return;
    }
    const sentAt = Date.now();
    try {
      const [previous] = await Promise.all([
        this.link.run<string | null>(["SET", this.names.lease(this.id), this.id, "PX", String(LEASE_MS), "GET"]),
        this.link.run(["SADD", this.names.members, this.id]),
        this.clusterAgeMs(),
      ]);
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
    this.hooks.onDistrust();
    this.clearData();
    this.hooks.log(`shared cache: instance ${this.id.slice(0, 8)} joined the ${this.hooks.environment} cluster`);
    this.clusterAgeMs().catch(() => undefined);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private clearData(): void {
    this.lastClear = Date.now();
    this.hooks.clearData();
  }

  private lapse(reason: string): void {
    clearTimeout(this.lapseTimer);
    if (!this.trusted) return;
    this.trusted = false;
    this.hooks.onDistrust();
    this.clearData();
    this.hooks.log(`shared cache: ${reason}; pages are re-validated or rendered again before they are served`);
  }
}
