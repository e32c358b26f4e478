/**
 * The page cache's hooks for a store shared between instances (page-cache.ts, SharedPages), against an
 * in-memory stand-in for Redis: versions, stamped pages, distrust and provisional pages.
 */
import { describe, expect, it, vi } from "vitest";
import { PageCache, PROVISIONAL_MS, type SharedPages } from "../page-cache";
import { cacheTarget, type CacheTarget } from "../key";
import type { PageEntry } from "../entry";

vi.mock("../../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));

class FakeRedis implements SharedPages {
  trusted = true;
  readonly versions = new Map<string, string>();
  readonly pages = new Map<string, PageEntry>();
  private counter = 0;
  bump(tag: string): string {
    const v = `v${++this.counter}`;
    this.versions.set(tag, v);
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
}

const target = cacheTarget("GET", "dupont", "dupont.example", "https", "/tarifs/")!;

function instance(redis: FakeRedis, clock: { now: number }) {
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
  });
  return { cache, content };
}

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
