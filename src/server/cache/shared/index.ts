/**
 * The shared cache of several instances (CACHE_URL; none without it: one instance, on its own), in three
 * parts over one Redis link (link.ts), every key and channel named in names.ts:
 *
 *   membership.ts     leases, the subscription probe, trust (docs/decisions/0002-shared-invalidation.md)
 *   invalidation.ts   the webhook's invalidation, acknowledged by every live instance
 *   pages.ts          pages rendered by one instance, served by the others (SharedPages of the page cache)
 *
 * It never holds the page cache: the composition root (src/server/services.ts) hands it what to do with an
 * invalidation and with lost trust, and hands its pages to the page cache when that is built. The server
 * entry starts it (connecting is the only thing it does at start).
 */
import type { Env } from "../../env";
import { PROVISIONAL_MS } from "../page-cache";
import { AcknowledgedInvalidation } from "./invalidation";
import { RedisLink } from "./link";
import { Membership } from "./membership";
import { cacheNamespace, sharedNames } from "./names";
import { SharedPageStore } from "./pages";

export { InvalidationNotConfirmed } from "./invalidation";

/** Redis answers in well under a millisecond on a healthy network: a command slower than this is an outage. */
const COMMAND_TIMEOUT_MS = 500;

export interface SharedCacheHooks {
  /** Invalidates this instance's caches (the page cache and its data caches); how many pages the tags named. */
  invalidateHere: (tags: string[]) => number;
  /** This instance may have missed invalidations: no page it holds is served before it is re-checked. */
  distrust: () => void;
  /** Empties the data caches (the backend read caches of this thread and of the render workers). */
  clearData: () => void;
  /** Each Redis command's round trip (the metrics). */
  roundTrip: (ok: boolean, ms: number) => void;
  log?: (line: string) => void;
}

export interface SharedCache {
  readonly pages: SharedPageStore;
  readonly trusted: boolean;
  start(): void;
  /** Resolves once this instance is part of the cluster, or after `ms` (it then serves on its own). */
  whenTrusted(ms: number): Promise<boolean>;
  /** The webhook's invalidation, confirmed on every live instance (else InvalidationNotConfirmed). */
  invalidate(tags: string[]): Promise<number>;
  /**
   * One command on this instance's connection to Redis, bounded by its timeout (the migration watch's counts:
   * the instance keeps its two connections, commands and subscriber, and no third).
   */
  command(args: string[]): Promise<unknown>;
  /**
   * Leaves the cluster at once (webhooks stop waiting for this instance), then runs `beforeClose` on the still
   * open connection (the migration watch's last counts), then closes it.
   */
  stop(beforeClose?: () => Promise<void>): Promise<void>;
}

export function createSharedCache(env: Env, hooks: SharedCacheHooks): SharedCache | undefined {
  if (!env.CACHE_URL) return undefined;
  const log = hooks.log ?? ((line: string) => console.log(line));
  const names = sharedNames(env.ENVIRONMENT, cacheNamespace(env));
  // The link's events reach the membership, built just after it (the link only connects at start()).
  const events = {
    subscriberReady: () => membership.linkEvents.subscriberReady(),
    subscriberLost: () => membership.linkEvents.subscriberLost(),
    roundTrip: hooks.roundTrip,
  };
  const link = new RedisLink(env.CACHE_URL, Math.min(COMMAND_TIMEOUT_MS, env.BACKEND_TIMEOUT_MS), events, log);
  const membership: Membership = new Membership(
    link,
    names,
    {
      environment: env.ENVIRONMENT,
      onDistrust: hooks.distrust,
      clearData: hooks.clearData,
      onMessage: (channel, message) => invalidation.receive(channel, message),
      log,
    },
    PROVISIONAL_MS,
  );
  const invalidation = new AcknowledgedInvalidation(link, names, membership, hooks.invalidateHere);
  const pages = new SharedPageStore(link, names, membership, env.BACKEND_REVALIDATE_TTL * 1000);
  return {
    pages,
    get trusted() {
      return membership.trusted;
    },
    start: () => {
      link.connect();
      membership.start();
    },
    whenTrusted: (ms) => membership.whenTrusted(ms),
    invalidate: (tags) => invalidation.invalidate(tags),
    command: (args) => link.run(args),
    stop: async (beforeClose) => {
      await membership.stop();
      await beforeClose?.();
      await link.close();
    },
  };
}
