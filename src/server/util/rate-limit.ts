/**
 * A fixed-window request counter per client address, in process memory and bounded in size. Used by the
 * contact relay (CONTACT_RATE_LIMIT submissions per CONTACT_RATE_WINDOW_S per address).
 *
 * Per instance: with several instances behind the proxy each counts on its own, so the effective limit
 * is at most the instance count times the setting; the proxy's `general` zone caps the total rate.
 */
import { isIPv4, isIPv6 } from "node:net";
import { LRUCache } from "lru-cache";

export interface RateLimitResult {
  allowed: boolean;
  /** Attempts left in the current window after this one. */
  remaining: number;
  /** Seconds until the window of this key resets (for Retry-After). */
  retryAfterS: number;
}

export interface RateLimiter {
  take(key: string): RateLimitResult;
}

interface Window {
  count: number;
  resetAt: number;
}

export function createRateLimiter(opts: {
  limit: number;
  windowMs: number;
  /** Addresses remembered at most; the least recently seen is forgotten first. */
  maxKeys?: number;
  now?: () => number;
}): RateLimiter {
  const now = opts.now ?? Date.now;
  const windows = new LRUCache<string, Window>({ max: opts.maxKeys ?? 50_000 });
  return {
    take(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + opts.windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterS = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
      return { allowed: w.count <= opts.limit, remaining: Math.max(0, opts.limit - w.count), retryAfterS };
    },
  };
}

/**
 * The key a client is counted under: an IPv4 address as is (IPv4-mapped IPv6 unwrapped), an IPv6
 * address by its /64 network, since one subscriber line usually holds a whole /64 and could otherwise
 * rotate addresses at will. Anything else (no address known) shares one key.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return "unknown";
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
