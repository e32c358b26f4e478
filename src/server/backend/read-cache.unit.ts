import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { HEAP_BYTES_PER_JSON_BYTE, ReadCache, SINGLE_USE_TTL_SECONDS } from "./read-cache";
import type { Reader } from "../backend/client";
import { pageListTags } from "./tags";

const schema = z.object({ v: z.number() });

/** A backend whose answers the test changes; counts requests per endpoint. */
function fakeBackend() {
  const values = new Map<string, number>();
  const calls = new Map<string, number>();
  let fail = false;
  const read: Reader = async (endpoint) => {
    calls.set(endpoint, (calls.get(endpoint) ?? 0) + 1);
    const v = values.get(endpoint) ?? 0;
    await new Promise((r) => setTimeout(r, 2));
    if (fail) throw new Error("backend down");
    return { v } as never;
  };
  return { values, calls, read, setFail: (f: boolean) => (fail = f) };
}

afterEach(() => vi.useRealTimers());

describe("ReadCache", () => {
  it("coalesces concurrent reads and serves later ones from memory", async () => {
    const backend = fakeBackend();
    const read = new ReadCache({ ttlSeconds: 60 }).wrap(backend.read);
    const results = await Promise.all(Array.from({ length: 20 }, () => read("/sites/a/config/", schema, ["site:a"])));
    expect(results.every((r) => r.v === 0)).toBe(true);
    await read("/sites/a/config/", schema, ["site:a"]);
    expect(backend.calls.get("/sites/a/config/")).toBe(1);
  });

  it("drops what the tags name and nothing of another practice", async () => {
    const backend = fakeBackend();
    const cache = new ReadCache({ ttlSeconds: 60 });
    const read = cache.wrap(backend.read);
    await read("/sites/a/config/", schema, ["site:a"]);
    await read("/sites/b/config/", schema, ["site:b"]);
    await read("/sites/a/pages/home/", schema, ["site:a", "page:home", "site:a:page:home"]);
    expect(cache.invalidate(["site:a:page:home"])).toBe(1);
    expect(cache.invalidate(["site:a"])).toBe(1);
    await read("/sites/b/config/", schema, ["site:b"]);
    expect(backend.calls.get("/sites/b/config/")).toBe(1);
    await read("/sites/a/config/", schema, ["site:a"]);
    expect(backend.calls.get("/sites/a/config/")).toBe(2);
  });

  it("drops page lists when a page tag names a page (publication, path and title live there)", async () => {
    const backend = fakeBackend();
    const cache = new ReadCache({ ttlSeconds: 60 });
    const read = cache.wrap(backend.read);
    await read("/sites/a/pages/", schema, pageListTags("a"));
    await read("/sites/b/pages/", schema, pageListTags("b"));
    expect(cache.invalidate(["site:a:page:new-page"])).toBe(1); // a's list only
    expect(cache.invalidate(["page:new-page"])).toBe(1); // every list: b's was the one left
    expect(cache.size).toBe(0);
  });

  it("does not store a read that an invalidation overtook, and does not hand it to later readers", async () => {
    const backend = fakeBackend();
    const cache = new ReadCache({ ttlSeconds: 60 });
    const read = cache.wrap(backend.read);
    backend.values.set("/x/", 1);
    const early = read("/x/", schema, ["site:a"]);
    await new Promise((r) => setTimeout(r, 0)); // the request left with v=1
    backend.values.set("/x/", 2);
    cache.invalidate(["site:a"]);
    const late = read("/x/", schema, ["site:a"]);
    expect((await early).v).toBe(1);
    expect((await late).v).toBe(2);
    expect((await read("/x/", schema, ["site:a"])).v).toBe(2);
  });

  it("clear() forgets everything, running reads included (an instance that may have missed invalidations)", async () => {
    const backend = fakeBackend();
    const cache = new ReadCache({ ttlSeconds: 60 });
    const read = cache.wrap(backend.read);
    await read("/sites/a/config/", schema, ["site:a"]);
    backend.values.set("/sites/a/config/", 1);
    const running = read("/sites/b/config/", schema, ["site:b"]);
    cache.clear();
    expect(cache.size).toBe(0);
    expect((await read("/sites/a/config/", schema, ["site:a"])).v).toBe(1);
    await running;
    // The read that was running when the cache was cleared was not stored: the next one asks again.
    await read("/sites/b/config/", schema, ["site:b"]);
    expect([backend.calls.get("/sites/a/config/"), backend.calls.get("/sites/b/config/")]).toEqual([2, 2]);
    // Invalidation still finds what was stored after the clear.
    expect(cache.invalidate(["site:a"])).toBe(1);
  });

  it("never caches a failure", async () => {
    const backend = fakeBackend();
    const read = new ReadCache({ ttlSeconds: 60 }).wrap(backend.read);
    backend.setFail(true);
    await expect(read("/y/", schema, [])).rejects.toThrow("backend down");
    backend.setFail(false);
    expect((await read("/y/", schema, [])).v).toBe(0);
    expect(backend.calls.get("/y/")).toBe(2);
  });

  it("keeps a single page's payload briefly, shared payloads for the whole TTL", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const backend = fakeBackend();
    const read = new ReadCache({ ttlSeconds: 3600 }).wrap(backend.read);
    await read("/sites/a/config/", schema, ["site:a"]);
    await read("/sites/a/pages/x/", schema, ["site:a"], false);
    vi.setSystemTime(Date.now() + (SINGLE_USE_TTL_SECONDS + 1) * 1000);
    await read("/sites/a/config/", schema, ["site:a"]);
    await read("/sites/a/pages/x/", schema, ["site:a"], false);
    expect(backend.calls.get("/sites/a/config/")).toBe(1);
    expect(backend.calls.get("/sites/a/pages/x/")).toBe(2);
  });

  it("expires entries after the TTL", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const backend = fakeBackend();
    const read = new ReadCache({ ttlSeconds: 2 }).wrap(backend.read);
    await read("/z/", schema, []);
    vi.setSystemTime(Date.now() + 2_500);
    await read("/z/", schema, []);
    expect(backend.calls.get("/z/")).toBe(2);
  });

  it("is bounded in bytes: past its budget the least recently used payloads go, and leave the tag index", async () => {
    const backend = fakeBackend();
    // Each payload ({"v":0}, 7 bytes of JSON) is counted at its estimated heap cost; room for three.
    const cache = new ReadCache({ ttlSeconds: 3600, maxBytes: 3 * 7 * HEAP_BYTES_PER_JSON_BYTE });
    const read = cache.wrap(backend.read);
    for (const code of ["a", "b", "c"]) await read(`/sites/${code}/config/`, schema, [`site:${code}`]);
    await read("/sites/a/config/", schema, ["site:a"]); // a used again: b is now the oldest
    await read("/sites/d/config/", schema, ["site:d"]);
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(3 * 7 * HEAP_BYTES_PER_JSON_BYTE);
    await read("/sites/a/config/", schema, ["site:a"]);
    await read("/sites/b/config/", schema, ["site:b"]);
    expect(backend.calls.get("/sites/a/config/")).toBe(1);
    expect(backend.calls.get("/sites/b/config/")).toBe(2);
    // The evicted payload's tags went with it: invalidating them names only what is held.
    expect(cache.invalidate(["site:c"])).toBe(0);
  });
});
