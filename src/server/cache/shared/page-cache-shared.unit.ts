/**
 * The page cache's hooks for a store shared between instances (page-cache.ts, SharedPages), against an
 * in-memory stand-in for Redis: versions, stamped pages, distrust and provisional pages.
 */
import { describe, expect, it, vi } from "vitest";
import { PageCache, PROVISIONAL_MS, type BuildPages, type SharedPages } from "../page-cache";
import { cacheTarget, type CacheTarget } from "../key";
import { buildEntry, type PageEntry } from "../entry";

vi.mock("../../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));

class FakeRedis implements SharedPages {
  trusted = true;
  readonly versions = new Map<string, string>();
  /** When each version was made (0: created for a missing key, no change known). */
  readonly changedAt = new Map<string, number>();
  readonly pages = new Map<string, PageEntry>();
  private counter = 0;
  bump(tag: string, at = 0): string {
    const v = `v${++this.counter}`;
    this.versions.set(tag, v);
    this.changedAt.set(tag, at);
    return v;
  }
  private current(e: PageEntry): boolean {
    return !!e.versions && e.tags.every((t, i) => this.versions.get(t) === e.versions![i]);
  }
  async load(target: CacheTarget) {
    const e = this.pages.get(target.key);
    return e && this.current(e) ? { ...e, invalidated: false } : null;
  }
  async stamp(e: PageEntry) {
    if (!this.trusted) return false;
    e.versions = e.tags.map((t) => this.versions.get(t) ?? this.bump(t));
    return true;
  }
  async recheck(e: PageEntry) {
    return this.trusted && this.current(e);
  }
  save(e: PageEntry) {
    this.pages.set(e.target.key, e);
  }
  async admit(e: PageEntry, readSince: number) {
    if (!this.trusted) return null;
    if (e.tags.some((t) => (this.changedAt.get(t) ?? 0) > readSince)) return false;
    e.versions = e.tags.map((t) => this.versions.get(t) ?? this.bump(t));
    return true;
  }
}

/** The build pre-pass's pages on disk, in memory (cache/disk/disk-pages.ts is tested on its own). */
class FakeBuild implements BuildPages {
  readonly pages = new Map<string, PageEntry>();
  reads = 0;
  constructor(readonly readSince: number | null) {}
  async load(key: string) {
    this.reads++;
    const e = this.pages.get(key);
    return e ? { ...e, tags: [...e.tags] } : null;
  }
  delete(key: string) {
    this.pages.delete(key);
  }
  invalidate(tags: string[]) {
    const keys = new Set([...this.pages.values()].filter((e) => e.tags.some((t) => tags.includes(t))).map((e) => e.target.key));
    for (const key of keys) this.pages.delete(key);
    return keys;
  }
}

const target = cacheTarget("GET", "dupont", "dupont.example", "https", "/tarifs/")!;

function instance(redis: FakeRedis, clock: { now: number }, build?: BuildPages) {
  const content = { body: "tarifs v1" };
  const cache = new PageCache({
    maxBytes: 10_000_000,
    ttlMs: 60_000,
    now: () => clock.now,
    invalidateData: () => {},
    render: async () => ({
      status: 200,
      headers: new Headers({ "content-type": "text/html" }),
      body: Buffer.from(content.body),
      tags: ["site:dupont", "page:tarifs"],
    }),
    shared: redis,
    build,
  });
  return { cache, content };
}

/** The build's copy of the page, rendered at `renderedAt` (the pre-pass read the backend from BUILD_READ_SINCE). */
async function built(renderedAt: number): Promise<PageEntry> {
  const result = { status: 200, headers: new Headers({ "content-type": "text/html" }), body: Buffer.from("tarifs (build)"), tags: ["site:dupont", "page:tarifs"] };
  return buildEntry(target, result, { renderedAt, ttlMs: 60_000, servedByStack: false });
}
const BUILD_READ_SINCE = 900_000;

describe("PageCache with a shared store", () => {
  it("answers another instance's render as a HIT without rendering, unless its versions moved", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const a = instance(redis, clock);
    expect((await a.cache.answer(target)).kind).toBe("entry");
    const b = instance(redis, clock);
    const answer = await b.cache.answer(target);
    expect(answer.kind === "entry" && answer.status).toBe("HIT");
    expect(b.cache.renders).toBe(0);
    redis.bump("page:tarifs");
    const c = instance(redis, clock);
    const rendered = await c.cache.answer(target);
    expect(rendered.kind === "entry" && rendered.status).toBe("MISS");
    expect(c.cache.renders).toBe(1);
  });

  it("refuses a shared page whose tag was invalidated here moments ago (the versions move only after every ack)", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    await instance(redis, clock).cache.answer(target);
    const b = instance(redis, clock);
    b.cache.invalidate(["page:tarifs"]);
    expect((await b.cache.answer(target)).kind === "entry" && b.cache.renders).toBe(1);
  });

  it("after distrust(), serves a held page again only once its versions are confirmed", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const a = instance(redis, clock);
    await a.cache.answer(target);
    a.cache.distrust();
    expect(a.cache.fresh(target.key)).toBeUndefined();
    const confirmed = await a.cache.answer(target);
    expect([confirmed.kind === "entry" && confirmed.status, a.cache.renders]).toEqual(["HIT", 1]);
    expect(a.cache.fresh(target.key)).toBeDefined();
    a.cache.distrust();
    redis.bump("site:dupont");
    a.content.body = "tarifs v2";
    const rendered = await a.cache.answer(target);
    expect([rendered.kind === "entry" && rendered.status, a.cache.renders]).toEqual(["MISS", 2]);
  });

  it("cut off from the others, renders are provisional: fresh briefly, then rendered again, never saved", async () => {
    const redis = new FakeRedis();
    redis.trusted = false;
    const clock = { now: 1_000_000 };
    const a = instance(redis, clock);
    await a.cache.answer(target);
    expect(redis.pages.size).toBe(0);
    clock.now += PROVISIONAL_MS / 2;
    expect(a.cache.fresh(target.key)).toBeDefined();
    clock.now += PROVISIONAL_MS;
    a.content.body = "tarifs v2";
    const again = await a.cache.answer(target);
    expect(again.kind === "entry" && [again.status, a.cache.renders]).toEqual(["MISS", 2]);
  });
});

describe("PageCache with a shared store and the build pre-pass's pages", () => {
  it("serves the build's page without a render once the shared store admitted it, and saves it for the others", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const build = new FakeBuild(BUILD_READ_SINCE);
    build.pages.set(target.key, await built(950_000));
    const a = instance(redis, clock, build);
    const answer = await a.cache.answer(target);
    expect(answer.kind === "entry" && [answer.status, answer.tier, a.cache.renders]).toEqual(["HIT", "warm", 0]);
    const saved = redis.pages.get(target.key)!;
    expect(saved.versions).toEqual(saved.tags.map((t) => redis.versions.get(t)));
    const b = instance(redis, clock);
    const fromShared = await b.cache.answer(target);
    expect(fromShared.kind === "entry" && [fromShared.status, fromShared.tier, b.cache.renders]).toEqual(["HIT", "shared", 0]);
  });

  it("renders instead when one of the page's tags changed after the pre-pass began reading, and asks once", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    redis.bump("page:tarifs", BUILD_READ_SINCE + 1); // an edit acknowledged by the running instances after the build
    const build = new FakeBuild(BUILD_READ_SINCE);
    build.pages.set(target.key, await built(950_000));
    const a = instance(redis, clock, build);
    const answer = await a.cache.answer(target);
    expect(answer.kind === "entry" && [answer.status, a.cache.renders]).toEqual(["MISS", 1]);
    expect(build.pages.has(target.key)).toBe(false);
  });

  it("admits a page whose tags changed before the pre-pass began, stamped with their current versions", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const before = redis.bump("page:tarifs", BUILD_READ_SINCE - 120_000);
    const build = new FakeBuild(BUILD_READ_SINCE);
    build.pages.set(target.key, await built(950_000));
    const answer = await instance(redis, clock, build).cache.answer(target);
    const entry = answer.kind === "entry" ? answer.entry : null;
    expect(entry?.versions?.[entry.tags.indexOf("page:tarifs")]).toBe(before);
  });

  it("forgets the build's page its tags name on an invalidation here, and without trust admits nothing", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const build = new FakeBuild(BUILD_READ_SINCE);
    build.pages.set(target.key, await built(950_000));
    const a = instance(redis, clock, build);
    a.cache.invalidate(["page:tarifs"]);
    expect(build.pages.size).toBe(0);
    const untrusted = new FakeRedis();
    untrusted.trusted = false;
    const other = new FakeBuild(BUILD_READ_SINCE);
    other.pages.set(target.key, await built(950_000));
    const b = instance(untrusted, clock, other);
    const answer = await b.cache.answer(target);
    expect(answer.kind === "entry" && [answer.status, b.cache.renders]).toEqual(["MISS", 1]);
    expect(other.pages.has(target.key)).toBe(true); // not refused: asked again once trusted
    expect(other.reads).toBe(0); // nor read from disk meanwhile
  });

  it("reads nothing from the build's pages while none is attached", async () => {
    const redis = new FakeRedis();
    const build = new FakeBuild(null);
    build.pages.set(target.key, await built(950_000));
    const a = instance(redis, { now: 1_000_000 }, build);
    expect((await a.cache.answer(target)).kind === "entry" && a.cache.renders).toBe(1);
  });

  it("answers a build page past its TTL STALE, and refreshes it behind the answer", async () => {
    const redis = new FakeRedis();
    const clock = { now: 1_000_000 };
    const build = new FakeBuild(BUILD_READ_SINCE);
    build.pages.set(target.key, await built(clock.now - 61_000)); // rendered more than a TTL (60 s) ago
    const a = instance(redis, clock, build);
    const answer = await a.cache.answer(target);
    expect(answer.kind === "entry" && [answer.status, answer.tier]).toEqual(["STALE", "warm"]);
    await a.cache.settled();
    expect(a.cache.renders).toBe(1);
    const after = await a.cache.answer(target);
    expect(after.kind === "entry" && after.status).toBe("HIT");
  });
});
