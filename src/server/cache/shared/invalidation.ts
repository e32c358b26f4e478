/**
 * Acknowledged invalidation across the instances of one environment (docs/decisions/0002-shared-invalidation.md):
 * the webhook on any instance invalidates there, publishes on the environment's channel, waits until every
 * live instance acknowledged (or its lease lapsed), then bumps the tags' versions and answers. Every instance
 * applies a message to its own cache before acknowledging. When that cannot be known (Redis unreachable, an
 * instance silent), the webhook's caller is told so (InvalidationNotConfirmed: the route answers 503 and the
 * backend sends it again).
 */
import { expandTags } from "../../backend/tags";
import { RedisUnavailable, type RedisLink } from "./link";
import { newVersion, type SharedNames } from "./names";
import { LEASE_MS, type Membership } from "./membership";

/** How long the webhook waits for acknowledgements (a silent instance's lease lapses within LEASE_MS). */
export const ACK_WAIT_MS = LEASE_MS + 1000;
/**
 * A Redis that lost its memory (restarted, flushed) also lost the membership: the webhook waits this long
 * after the first instance rejoined, so that every live instance (reconnecting within 2 s) is back first.
 */
export const REJOIN_GRACE_MS = 3000;

/**
 * An invalidation in flight holds its tags' pages back this long at most (its versions are bumped within the
 * acknowledgements' wait after the rejoin grace; a webhook that failed half-way leaves its marks to expire).
 */
export const PENDING_MS = REJOIN_GRACE_MS + ACK_WAIT_MS + 5000;

/** Marks ARGV[4..] in flight (prefix ARGV[1]) with the invalidation's id ARGV[2] for ARGV[3] ms. */
const MARK_PENDING_SCRIPT = `
for i = 4, #ARGV do redis.call('SET', ARGV[1] .. ARGV[i], ARGV[2], 'PX', ARGV[3]) end
return 1`;

/** Clears the marks of ARGV[3..] that are still this invalidation's (ARGV[2]): a later one keeps its own. */
const CLEAR_PENDING_SCRIPT = `
for i = 3, #ARGV do
  local key = ARGV[1] .. ARGV[i]
  if redis.call('GET', key) == ARGV[2] then redis.call('DEL', key) end
end
return 1`;

/** An invalidation applied here but not confirmed on every instance. */
export class InvalidationNotConfirmed extends Error {}

interface InvalidationMessage {
  id: string;
  from: string;
  tags: string[];
}

export class AcknowledgedInvalidation {
  private readonly waiting = new Map<string, { pending: Set<string>; wake: () => void }>();

  constructor(
    private readonly link: RedisLink,
    private readonly names: SharedNames,
    private readonly membership: Membership,
    /** Invalidates this instance's caches; returns how many page entries the tags named. */
    private readonly apply: (tags: string[]) => number,
  ) {}

  /**
   * The webhook: invalidates here, then across instances. Resolves with the number of page entries named
   * here once every live instance applied it; throws InvalidationNotConfirmed when that cannot be known.
   */
  async invalidate(tags: string[]): Promise<number> {
    const named = this.apply(tags);
    if (!this.membership.trusted) throw new InvalidationNotConfirmed("Redis is unreachable from this instance");
    const id = newVersion();
    const pending = new Set<string>();
    try {
      const age = await this.membership.clusterAgeMs();
      if (age < REJOIN_GRACE_MS) await new Promise((r) => setTimeout(r, REJOIN_GRACE_MS - age));
    } catch (error) {
      throw new InvalidationNotConfirmed((error as Error).message);
    }
    let wake = () => {};
    this.waiting.set(id, { pending, wake: () => wake() });
    const expanded = expandTags(tags);
    try {
      // Marked in flight before anyone hears of it: an instance that joins after the list of members below
      // (it would not be waited for) takes no old page of these tags from Redis until the versions move.
      await this.link.run(["EVAL", MARK_PENDING_SCRIPT, "0", this.names.pendingPrefix, id, String(PENDING_MS), ...expanded]);
      for (const member of await this.membership.liveMembers()) if (member !== this.membership.id) pending.add(member);
      const message: InvalidationMessage = { id, from: this.membership.id, tags };
      await this.link.run(["PUBLISH", this.names.invalidations, JSON.stringify(message)]);
      const deadline = Date.now() + ACK_WAIT_MS;
      while (pending.size && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 250);
        });
        if (!pending.size) break;
        // Whoever has not answered yet and whose lease lapsed is dead: not waited for.
        for (const member of await this.membership.lapsed([...pending])) pending.delete(member);
      }
      // Bumped after the acknowledgements: from now on every older page fails the version check.
      await this.link.run(["MSET", ...expanded.flatMap((tag) => [this.names.versionPrefix + tag, id])]);
      await this.link.run(["EVAL", CLEAR_PENDING_SCRIPT, "0", this.names.pendingPrefix, id, ...expanded]);
    } catch (error) {
      if (error instanceof RedisUnavailable) throw new InvalidationNotConfirmed(error.message);
      throw error;
    } finally {
      this.waiting.delete(id);
    }
    if (pending.size) throw new InvalidationNotConfirmed(`${pending.size} live instance(s) did not acknowledge in time`);
    return named;
  }

  /** A message on this instance's channels: another instance's invalidation, or an acknowledgement of ours. */
  receive(channel: string, message: string): void {
    if (channel === this.names.invalidations) {
      let parsed: InvalidationMessage;
      try {
        parsed = JSON.parse(message) as InvalidationMessage;
      } catch {
        return;
      }
      if (parsed.from === this.membership.id || !Array.isArray(parsed.tags)) return;
      this.apply(parsed.tags.filter((t) => typeof t === "string"));
      const ack = JSON.stringify({ id: parsed.id, member: this.membership.id });
      this.link.run(["PUBLISH", this.names.acks(parsed.from), ack]).catch(() => undefined);
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
