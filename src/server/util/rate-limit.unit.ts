import { describe, expect, it } from "vitest";
import { clientKey, createRateLimiter } from "./rate-limit";

describe("createRateLimiter", () => {
  it("allows `limit` attempts per window, then refuses with the time left", () => {
    let t = 1_000_000;
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: () => t });
    expect(limiter.take("a")).toEqual({ allowed: true, remaining: 1, retryAfterS: 60 });
    expect(limiter.take("a").allowed).toBe(true);
    t += 15_000;
    expect(limiter.take("a")).toEqual({ allowed: false, remaining: 0, retryAfterS: 45 });
    expect(limiter.take("b").allowed).toBe(true);
    t += 45_000;
    expect(limiter.take("a")).toEqual({ allowed: true, remaining: 1, retryAfterS: 60 });
  });

  it("forgets the least recently seen address beyond its bound", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2, now: () => 0 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("c");
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("c").allowed).toBe(false);
  });
});

describe("clientKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    [undefined, "unknown"],
    ["not-an-ip", "unknown"],
  ])("%s -> %s", (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});
