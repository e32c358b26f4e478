/**
 * The shared store's scripts against a real Redis (cache/shared/pages.ts, invalidation.ts's in-flight marks):
 * which of the build pre-pass's pages Redis admits, and that a tag being invalidated holds its pages back from
 * every load, admission and confirmation until its versions moved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type TestRedis } from "./support/redis";
import { until } from "./support/until";
import { RedisLink } from "../src/server/cache/shared/link";
import { ADMIT_CLOCK_MARGIN_MS, SharedPageStore } from "../src/server/cache/shared/pages";
import { newVersion, sharedNames } from "../src/server/cache/shared/names";
import type { Membership } from "../src/server/cache/shared/membership";
import { buildEntry, type PageEntry } from "../src/server/cache/entry";
import { cacheTarget } from "../src/server/cache/key";

let redis: TestRedis;
let link: RedisLink;
const names = sharedNames("test", "admission");
const trusted = { trusted: true } as Membership;

beforeAll(async () => {
  redis = await startRedis();
  link = new RedisLink(redis.url(), 2000, { subscriberReady: () => {}, subscriberLost: () => {}, roundTrip: () => {} }, () => {});
  link.connect();
  await until(() => link.reachable, "Redis connected");
});

afterAll(async () => {
  await link?.close();
  await redis?.stop();
});

/** A store on an empty Redis (this file's own redis-server). */
async function freshStore(): Promise<SharedPageStore> {
  await link.run(["FLUSHDB"]);
  return new SharedPageStore(link, names, trusted, 60_000);
}

const page = (path: string, tags: string[]): Promise<PageEntry> =>
  buildEntry(
    cacheTarget("GET", "dupont", "dupont.example", "https", path)!,
    { status: 200, headers: new Headers({ "content-type": "text/html" }), body: Buffer.from(`<p>${path}</p>`), tags },
    { renderedAt: Date.now(), ttlMs: 60_000, servedByStack: false },
  );

/** The cluster's join mark (when its first instance joined this Redis). */
async function cluster(joinedAt: number) {
  await link.run(["SET", names.joined, String(joinedAt)]);
}

describe("admit: a build page is served only where Redis knows none of its tags changed since the build read the backend", () => {
  // Redis started just now: the build "read" after it, so its whole memory covers the time since.
  const readSince = () => Date.now() + 2 * ADMIT_CLOCK_MARGIN_MS;

  it("admits tags Redis never saw when it remembers the whole time since, and creates their versions once", async () => {
    const store = await freshStore();
    await cluster(Date.now());
    const since = readSince();
    const a = await page("/a/", ["site:dupont", "page:a"]);
    expect(await store.admit(a, since)).toBe(true);
    const b = await page("/b/", ["site:dupont", "page:b"]);
    expect(await store.admit(b, since)).toBe(true);
    // One version for the shared tag, "no change known" (time 0), as both pages recorded it.
    const shared = (e: PageEntry) => e.versions![e.tags.indexOf("site:dupont")];
    expect(shared(a)).toBe(shared(b));
    expect(shared(a).startsWith("0.")).toBe(true);
  });

  it("refuses a tag Redis does not know when the cluster joined it after the build (a flushed or new Redis)", async () => {
    const store = await freshStore();
    const since = readSince();
    await cluster(since); // after the limit (readSince less the clock margin)
    expect(await store.admit(await page("/a/", ["site:dupont"]), since)).toBe(false);
    await link.run(["DEL", names.joined]);
    expect(await store.admit(await page("/a/", ["site:dupont"]), since)).toBe(false);
  });

  it("refuses a tag changed after the build began reading, or within the clocks' margin before; admits one changed earlier", async () => {
    const store = await freshStore();
    await cluster(Date.now());
    const since = readSince();
    await link.run(["SET", names.versionPrefix + "page:late", newVersion(since + 1)]);
    await link.run(["SET", names.versionPrefix + "page:margin", newVersion(since - ADMIT_CLOCK_MARGIN_MS / 2)]);
    const early = newVersion(since - 2 * ADMIT_CLOCK_MARGIN_MS);
    await link.run(["SET", names.versionPrefix + "page:early", early]);
    expect(await store.admit(await page("/late/", ["page:late"]), since)).toBe(false);
    expect(await store.admit(await page("/margin/", ["page:margin"]), since)).toBe(false);
    const ok = await page("/early/", ["page:early"]);
    expect(await store.admit(ok, since)).toBe(true);
    expect(ok.versions).toEqual([early]);
  });

  it("creates nothing when one tag refuses the page", async () => {
    const store = await freshStore();
    await cluster(Date.now());
    const since = readSince();
    await link.run(["SET", names.versionPrefix + "page:late", newVersion(since + 1)]);
    expect(await store.admit(await page("/x/", ["site:never-seen", "page:late"]), since)).toBe(false);
    expect(await link.run(["EXISTS", names.versionPrefix + "site:never-seen"])).toBe(0);
  });

  it("admits nothing and refuses nothing while this instance is not trusted", async () => {
    await freshStore();
    const store = new SharedPageStore(link, names, { trusted: false } as Membership, 60_000);
    expect(await store.admit(await page("/a/", ["site:dupont"]), readSince())).toBeNull();
  });
});

describe("a tag being invalidated holds its pages back", () => {
  it("from a load, an admission and a confirmation, until its mark is gone", async () => {
    const store = await freshStore();
    await cluster(Date.now());
    const entry = await page("/tarifs/", ["site:dupont", "page:tarifs"]);
    expect(await store.stamp(entry)).toBe(true);
    store.save(entry);
    await until(async () => (await store.load(entry.target)) !== null, "the page saved");
    await link.run(["SET", names.pendingPrefix + "page:tarifs", "webhook-1", "PX", "10000"]);
    expect(await store.load(entry.target)).toBeNull();
    expect(await store.recheck(entry)).toBe(false);
    expect(await store.admit(await page("/tarifs/", ["site:dupont", "page:tarifs"]), Date.now() + 2 * ADMIT_CLOCK_MARGIN_MS)).toBe(false);
    await link.run(["DEL", names.pendingPrefix + "page:tarifs"]);
    expect(await store.load(entry.target)).not.toBeNull();
    expect(await store.recheck(entry)).toBe(true);
  });
});
