/**
 * Every Redis key and channel of the shared cache, in one place. Each carries the environment and the
 * deployment's namespace: pub/sub ignores database numbers, so a staging message on a shared Redis must never
 * reach prod, nor one deployment's reach another deployment of the same environment.
 */
import { createHash, randomBytes } from "node:crypto";

export interface SharedNames {
  /** Invalidations, published by the instance that received the webhook. */
  invalidations: string;
  /** Acknowledgements (and the subscription probe) addressed to one instance. */
  acks: (instance: string) => string;
  /** When the first instance joined this Redis (a restarted Redis has none: see REJOIN_GRACE_MS). */
  joined: string;
  /** Set of instance ids that announced themselves; the leases say which are alive. */
  members: string;
  /** One instance's membership lease (expires unless renewed every second). */
  lease: (instance: string) => string;
  /** Prefix of the tag versions: `<prefix><tag>`. */
  versionPrefix: string;
  /**
   * Prefix of the invalidations in flight: `<prefix><tag>` = the webhook's id, from before its message is
   * published until its versions are bumped. No page of such a tag is loaded, admitted or confirmed meanwhile.
   */
  pendingPrefix: string;
  /** A page of the shared store, by its cache key (hashed: keys may be long and hold any byte). */
  page: (cacheKey: string) => string;
  /** One practice's old URLs answering 404, a sorted set of counts (migration-watch/not-found-watch.ts). */
  notFound: (code: string) => string;
}

/**
 * The deployment's namespace: CACHE_NAMESPACE, else a short hash of BACKEND_API_URL. Instances started from
 * one env file agree; a deployment reading another backend gets its own (one reading the same backend shares
 * its content, and so may share its invalidations).
 */
export function cacheNamespace(env: { CACHE_NAMESPACE?: string; BACKEND_API_URL: string }): string {
  return env.CACHE_NAMESPACE ?? createHash("sha256").update(env.BACKEND_API_URL).digest("hex").slice(0, 12);
}

export function sharedNames(environment: string, namespace: string): SharedNames {
  const prefix = `practice-frontend:${environment}:${namespace}:`;
  return {
    invalidations: `${prefix}inval`,
    acks: (instance) => `${prefix}ack:${instance}`,
    joined: `${prefix}joined`,
    members: `${prefix}members`,
    lease: (instance) => `${prefix}lease:${instance}`,
    versionPrefix: `${prefix}v:`,
    pendingPrefix: `${prefix}pending:`,
    page: (cacheKey) => `${prefix}page:${createHash("sha256").update(cacheKey).digest("base64url")}`,
    notFound: (code) => `${prefix}not-found:${code}`,
  };
}

/**
 * A new tag version (and invalidation id): unique across instances, and it says when the tags changed
 * (base-36 milliseconds before the dot), which the pre-pass's admission compares (cache/shared/pages.ts).
 */
export function newVersion(now = Date.now()): string {
  return `${now.toString(36)}.${randomBytes(6).toString("hex")}`;
}

/**
 * The version created for a tag Redis holds none for (never changed since Redis began, or evicted): unique,
 * so no page stamped with a lost version matches it, and "no change known" (time 0).
 */
export function unknownChangeVersion(): string {
  return newVersion(0);
}
