/** The page cache with its warm tier on disk (page-cache.ts + disk-pages.ts): what one instance without Redis promises. */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { PageCache, type CacheAnswer, type WarmPages } from "../page-cache";
import { cacheTarget, type CacheTarget } from "../key";
import type { PageEntry, RenderResult } from "../entry";
import { DiskPages } from "./disk-pages";

vi.mock("../../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));

const work = mkdtempSync(join(tmpdir(), "warm-tier-"));
const opened: DiskPages[] = [];
afterEach(() => {
  for (const pages of opened.splice(0)) pages.close();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const target = (path: string): CacheTarget => cacheTarget("GET", "dupont", "dupont.example", "https", path)!;
const PAGE_BYTES = 6_000;

/** A page body that does not compress to nothing: entries of a known, similar size. */
function body(path: string, version: number): string {
  let text = `<p>${path} v${version}</p>`;
  for (let i = 0; text.length < PAGE_BYTES; i++) text += `<i>${(i * 7919 + path.length * 104729) % 1000003}</i>`;
  return text;
}

function setup(opts: { pagesInMemory: number; warm?: WarmPages }) {
  const versions = new Map<string, number>();
  const gone = new Set<string>();
  const renders: string[] = [];
  const render = async (t: CacheTarget): Promise<RenderResult> => {
    renders.push(t.url);
    await new Promise((r) => setTimeout(r, 1));
    if (gone.has(t.url)) return { status: 404, headers: new Headers({ "content-type": "text/html" }), body: Buffer.from("gone"), tags: [] };
    return {
      status: 200,
      headers: new Headers({ "content-type": "text/html; charset=utf-8" }),
      body: Buffer.from(body(t.url, versions.get(t.url) ?? 1)),
      tags: ["site:dupont", `page:${t.url}`],
    };
  };
  const warm = opts.warm ?? new DiskPages({ dir: mkdtempSync(join(work, "d-")), maxBytes: 50_000_000, maxKeys: 10_000, ttlMs: 60_000 });
  if (warm instanceof DiskPages) opened.push(warm);
  // Room for about `pagesInMemory` entries (each ~ its two encodings plus the entry overhead).
  const cache = new PageCache({ maxBytes: opts.pagesInMemory * 5_000, ttlMs: 60_000, render, invalidateData: () => {}, warm });
  return { cache, warm, renders, versions, gone };
}

/** A page of /p0/../p{n-1}/ that memory no longer holds (which one depends on admission: page-store.ts). */
function pushedOut(cache: PageCache, n: number): string {
  const path = Array.from({ length: n }, (_, i) => `/p${i}/`).find((p) => !cache.store.peek(target(p).key));
  if (!path) throw new Error("every page is still in memory");
  return path;
}

const text = (a: CacheAnswer) => (a.kind === "entry" ? gunzipSync(a.entry.gzip!).toString() : a.result.body.toString());
const status = (a: CacheAnswer) => (a.kind === "entry" ? `${a.status} ${a.tier ?? "memory"}` : `render ${a.result.status}`);

describe("the page cache with a warm tier on disk", () => {
  it("reads a page pushed out of memory back from disk instead of rendering it again", async () => {
    const t = setup({ pagesInMemory: 4 });
    for (let i = 0; i < 20; i++) await t.cache.answer(target(`/p${i}/`));
    await (t.warm as DiskPages).idle();
    const out = pushedOut(t.cache, 20);
    const rendered = t.renders.length;
    const again = await t.cache.answer(target(out));
    expect(status(again)).toBe("HIT warm");
    expect(text(again)).toBe(body(out, 1));
    expect(t.renders.length).toBe(rendered);
    expect(t.cache.answeredFrom.warm).toBe(1);
    // Asked for twice now: back in memory, the next request is a memory hit, and the fast path may answer it.
    expect(status(await t.cache.answer(target(out)))).toBe("HIT memory");
    expect(t.cache.fresh(target(out).key)?.servedByStack).toBe(true);
  });

  it("never serves from disk a page an invalidation named (read-your-writes across tiers)", async () => {
    const t = setup({ pagesInMemory: 4 });
    for (let i = 0; i < 20; i++) await t.cache.answer(target(`/p${i}/`));
    await (t.warm as DiskPages).idle();
    const out = pushedOut(t.cache, 20);
    t.versions.set(out, 2);
    // Named only on disk: counted, and gone from there before invalidate() returns.
    expect(t.cache.invalidate([`page:${out}`])).toBe(1);
    const next = await t.cache.answer(target(out));
    expect([status(next), text(next)]).toEqual(["MISS memory", body(out, 2)]);
  });

  it("drops a page's disk copy with its memory copy when the backend says it is gone", async () => {
    const t = setup({ pagesInMemory: 100 });
    await t.cache.answer(target("/a/"));
    await (t.warm as DiskPages).idle();
    expect(t.warm.has(target("/a/").key)).toBe(true);
    t.gone.add("/a/");
    t.cache.invalidate(["page:/a/"]);
    expect(status(await t.cache.answer(target("/a/")))).toBe("render 404");
    expect(t.warm.has(target("/a/").key)).toBe(false);
  });

  it("does not use a disk read that an invalidation overtook", async () => {
    // A warm tier that answers an old copy after the invalidation landed (as a read in flight would).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let old: PageEntry | null = null;
    let armed = false;
    const inner = new DiskPages({ dir: mkdtempSync(join(work, "d-")), maxBytes: 50_000_000, maxKeys: 10_000, ttlMs: 60_000 });
    opened.push(inner);
    const slow: WarmPages = {
      load: async (key) => {
        if (!armed) return inner.load(key);
        old ??= await inner.load(key);
        await gate;
        return old;
      },
      save: (entry) => inner.save(entry),
      has: (key) => inner.has(key),
      delete: (key) => inner.delete(key),
      invalidate: (tags) => inner.invalidate(tags),
    };
    const t = setup({ pagesInMemory: 1, warm: slow });
    for (let i = 0; i < 5; i++) await t.cache.answer(target(`/p${i}/`));
    await inner.idle();
    const out = pushedOut(t.cache, 5);
    armed = true;
    const answer = t.cache.answer(target(out));
    await vi.waitFor(() => expect(old).not.toBeNull());
    t.versions.set(out, 2);
    t.cache.invalidate([`page:${out}`]);
    release();
    expect(text(await answer)).toBe(body(out, 2));
  });
});
