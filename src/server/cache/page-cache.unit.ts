import { beforeEach, describe, expect, it, vi } from "vitest";
import { HELD_MS, PageCache, type CacheAnswer } from "./page-cache";
import { RenderUnavailable } from "../render/unavailable";
import { cacheTarget, type CacheTarget } from "./key";
import type { RenderResult } from "./entry";
import { pageListTags } from "../backend/tags";
import { gunzipSync } from "node:zlib";

vi.mock("../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));
import { reportWarning } from "../monitoring";

/** A content "backend" the fake render reads: path -> [status, body, tags]. */
type Page = { status: number; body: string; tags: string[]; headers?: Record<string, string> };

function setup(opts: { ttlMs?: number } = {}) {
  const pages = new Map<string, Page>();
  let clock = 1_000_000;
  const renderStarted: string[] = [];
  let gate: Promise<void> | null = null;
  const dataInvalidations: string[][] = [];
  const cache = new PageCache({
    maxBytes: 10_000_000,
    ttlMs: opts.ttlMs ?? 60_000,
    now: () => clock,
    invalidateData: (tags) => dataInvalidations.push(tags),
    render: async (target) => {
      renderStarted.push(target.url);
      // Read "the backend" before waiting, like a render that fetched and is still rendering.
      const page = pages.get(`${target.code}${target.url}`);
      if (gate) await gate;
      await new Promise((r) => setTimeout(r, 1));
      if (!page) return result(404, "not found", []);
      return result(page.status, page.body, page.tags, page.headers);
    },
  });
  return {
    cache,
    pages,
    renderStarted,
    dataInvalidations,
    tick: (ms: number) => (clock += ms),
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

function result(status: number, body: string, tags: string[], headers: Record<string, string> = {}): RenderResult {
  return {
    status,
    headers: new Headers({ "content-type": "text/html; charset=utf-8", ...headers }),
    body: Buffer.from(body),
    tags,
  };
}

const target = (code: string, path: string): CacheTarget => cacheTarget("GET", code, `${code}.example`, "https", path)!;

function bodyOf(answer: CacheAnswer): string {
  if (answer.kind === "render") return answer.result.body.toString();
  return gunzipSync(answer.entry.gzip!).toString();
}
const statusOf = (answer: CacheAnswer) => (answer.kind === "entry" ? answer.status : `render ${answer.result.status}`);

describe("PageCache", () => {
  beforeEach(() => vi.mocked(reportWarning).mockClear());

  it("renders a miss once however many requests wait, then serves hits", async () => {
    const t = setup();
    t.pages.set("dupont/", { status: 200, body: "home v1", tags: ["site:dupont", "page:home"] });
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.cache.answer(target("dupont", "/"))));
    expect(t.cache.renders).toBe(1);
    expect(answers.every((a) => statusOf(a) === "MISS" && bodyOf(a) === "home v1")).toBe(true);
    expect(statusOf(await t.cache.answer(target("dupont", "/")))).toBe("HIT");
    expect(t.cache.fresh(target("dupont", "/").key)).toBeDefined();
  });

  it("invalidates exactly the entries a tag names, and re-renders them in the background", async () => {
    const t = setup();
    t.pages.set("dupont/", {
      status: 200,
      body: "d home",
      tags: ["site:dupont", "page:home", "site:dupont:page:home"],
    });
    t.pages.set("martin/", {
      status: 200,
      body: "m home",
      tags: ["site:martin", "page:home", "site:martin:page:home"],
    });
    t.pages.set("dupont/contact/", { status: 200, body: "d contact", tags: ["site:dupont", "page:contact"] });
    for (const [code, path] of [
      ["dupont", "/"],
      ["martin", "/"],
      ["dupont", "/contact/"],
    ]) {
      await t.cache.answer(target(code, path));
    }
    expect(t.cache.invalidate(["site:martin:page:home"])).toBe(1);
    expect(t.dataInvalidations).toEqual([["site:martin:page:home"]]);
    expect(t.cache.fresh(target("martin", "/").key)).toBeUndefined();
    expect(t.cache.fresh(target("dupont", "/").key)).toBeDefined();
    await t.cache.settled();
    expect(t.cache.fresh(target("martin", "/").key)).toBeDefined();
    expect(t.cache.invalidate(["page:home"])).toBe(2);
    expect(t.cache.invalidate(["site:dupont"])).toBe(2);
    expect(t.cache.invalidate(["site:leroy"])).toBe(0);
  });

  it("reaches a render that lists a practice's pages (the sitemap) with any page tag of that practice", async () => {
    const t = setup();
    t.pages.set("dupont/sitemap.xml", { status: 200, body: "<urlset/>", tags: pageListTags("dupont") });
    t.pages.set("dupont/a/", { status: 200, body: "a", tags: ["site:dupont", "page:a", "site:dupont:page:a"] });
    await t.cache.answer(target("dupont", "/sitemap.xml"));
    await t.cache.answer(target("dupont", "/a/"));
    expect(t.cache.invalidate(["site:martin:page:new"])).toBe(0);
    expect(t.cache.invalidate(["site:dupont:page:new"])).toBe(1); // a page published: the sitemap only
    expect(t.cache.invalidate(["page:new"])).toBe(1);
    expect(t.cache.invalidate(["page:a"])).toBe(2);
  });

  it("never serves the old content after invalidate(): a request waits for the re-render", async () => {
    const t = setup();
    t.pages.set("dupont/a/", { status: 200, body: "v1", tags: ["page:a"] });
    await t.cache.answer(target("dupont", "/a/"));
    t.pages.set("dupont/a/", { status: 200, body: "v2", tags: ["page:a"] });
    t.cache.invalidate(["page:a"]);
    const answer = await t.cache.answer(target("dupont", "/a/"));
    expect(bodyOf(answer)).toBe("v2");
    await t.cache.settled();
    expect(t.cache.renders).toBe(2); // the background re-render and the visitor shared one render
  });

  it("renders again when an invalidation lands on a render that is already running", async () => {
    const t = setup();
    t.pages.set("dupont/a/", { status: 200, body: "v1", tags: ["page:a"] });
    const release = t.hold();
    const first = t.cache.answer(target("dupont", "/a/"));
    await new Promise((r) => setTimeout(r, 5));
    // The render has read v1; the content changes and the webhook arrives before it finishes.
    t.pages.set("dupont/a/", { status: 200, body: "v2", tags: ["page:a"] });
    t.cache.invalidate(["page:a"]);
    const second = t.cache.answer(target("dupont", "/a/"));
    release();
    expect(bodyOf(await second)).toBe("v2");
    expect(bodyOf(await first)).toBe("v2");
    expect(bodyOf(await t.cache.answer(target("dupont", "/a/")))).toBe("v2");
  });

  it("serves the last good copy when the re-render fails, and reports it", async () => {
    const t = setup();
    t.pages.set("dupont/a/", { status: 200, body: "good", tags: ["page:a"] });
    await t.cache.answer(target("dupont", "/a/"));
    t.pages.set("dupont/a/", { status: 503, body: "backend down", tags: [] });
    t.cache.invalidate(["page:a"]);
    const answer = await t.cache.answer(target("dupont", "/a/"));
    expect(statusOf(answer)).toBe("STALE");
    expect(bodyOf(answer)).toBe("good");
    expect(reportWarning).toHaveBeenCalledWith(
      "page cache: re-render failed, serving the last good copy",
      expect.anything(),
    );
    // Without an old copy a failure is answered as it is, and nothing is stored.
    t.pages.set("dupont/cold/", { status: 503, body: "backend down", tags: [] });
    expect(statusOf(await t.cache.answer(target("dupont", "/cold/")))).toBe("render 503");
    expect(t.cache.store.peek(target("dupont", "/cold/").key)).toBeUndefined();
  });

  it("drops the entry when the backend says 404 after an invalidation", async () => {
    const t = setup();
    t.pages.set("dupont/a/", { status: 200, body: "published", tags: ["page:a"] });
    await t.cache.answer(target("dupont", "/a/"));
    t.pages.delete("dupont/a/");
    t.cache.invalidate(["page:a"]);
    expect(statusOf(await t.cache.answer(target("dupont", "/a/")))).toBe("render 404");
    expect(t.cache.store.peek(target("dupont", "/a/").key)).toBeUndefined();
  });

  it("serves stale once after the TTL while one background render refreshes", async () => {
    const t = setup({ ttlMs: 1000 });
    t.pages.set("dupont/a/", { status: 200, body: "v1", tags: ["page:a"] });
    await t.cache.answer(target("dupont", "/a/"));
    t.pages.set("dupont/a/", { status: 200, body: "v2", tags: ["page:a"] });
    t.tick(1001);
    const stale = await Promise.all([1, 2, 3].map(() => t.cache.answer(target("dupont", "/a/"))));
    expect(stale.map(statusOf)).toEqual(["STALE", "STALE", "STALE"]);
    expect(bodyOf(stale[0])).toBe("v1");
    await t.cache.settled();
    expect(t.cache.renders).toBe(2);
    const fresh = await t.cache.answer(target("dupont", "/a/"));
    expect([statusOf(fresh), bodyOf(fresh)]).toEqual(["HIT", "v2"]);
  });

  it("neither stores nor shares a response that sets a cookie", async () => {
    const t = setup();
    t.pages.set("dupont/c/", { status: 200, body: "with cookie", tags: ["page:c"], headers: { "set-cookie": "s=1" } });
    const answers = await Promise.all([1, 2, 3].map(() => t.cache.answer(target("dupont", "/c/"))));
    expect(answers.map(statusOf)).toEqual(["render 200", "render 200", "render 200"]);
    expect(t.cache.renders).toBe(3);
    expect(t.cache.store.count).toBe(0);
  });

  it("does not store a response marked private or no-store", async () => {
    const t = setup();
    t.pages.set("dupont/p/", { status: 200, body: "x", tags: [], headers: { "cache-control": "private, max-age=0" } });
    await t.cache.answer(target("dupont", "/p/"));
    expect(t.cache.store.count).toBe(0);
  });
});

describe("a page whose render kills workers (issue 26: a 3.88 MB payload killed two workers per request)", () => {
  it("answers 503 without a render for HELD_MS, then renders again; an invalidation lifts it at once", async () => {
    let clock = 1_000_000;
    const started: string[] = [];
    let poison = true;
    const cache = new PageCache({
      maxBytes: 10_000_000,
      ttlMs: 60_000,
      now: () => clock,
      invalidateData: () => {},
      render: async (target) => {
        started.push(target.url);
        if (poison && target.url === "/lourde/") throw new RenderUnavailable("render worker exited (code 134)", 5, true, true);
        return result(200, `<p>${target.url}</p>`, ["page:lourde"]);
      },
    });
    const lourde = cacheTarget("GET", "dupont", "dupont.example", "https", "/lourde/")!;
    const statusOf = async () => {
      const a = await cache.answer(lourde);
      return a.kind === "render" ? a.result.status : (a.entry.status ?? 200);
    };
    expect(await statusOf()).toBe(503);
    expect(started).toEqual(["/lourde/"]);
    for (let i = 0; i < 10; i++) expect(await statusOf()).toBe(503);
    const held = await cache.answer(lourde);
    expect(held.kind === "render" && held.result.headers.get("retry-after")).toBe(String(HELD_MS / 1000));
    expect(started).toEqual(["/lourde/"]); // no render while held
    // Another page of the practice still renders.
    await cache.answer(cacheTarget("GET", "dupont", "dupont.example", "https", "/contact/")!);
    expect(started).toEqual(["/lourde/", "/contact/"]);
    clock += HELD_MS;
    expect(await statusOf()).toBe(503);
    expect(started.filter((u) => u === "/lourde/")).toHaveLength(2); // tried again once the hold ran out
    // An edit (its webhook) lifts the hold: the fixed page renders on the next request.
    poison = false;
    cache.invalidate(["page:lourde"]);
    expect(await statusOf()).toBe(200);
  });

  it("a render refused for load (a full queue) holds nothing", async () => {
    const started: string[] = [];
    const cache = new PageCache({
      maxBytes: 10_000_000,
      ttlMs: 60_000,
      invalidateData: () => {},
      render: async (target) => {
        started.push(target.url);
        throw new RenderUnavailable("too many renders waiting", 5, false);
      },
    });
    const t = cacheTarget("GET", "dupont", "dupont.example", "https", "/x/")!;
    await cache.answer(t);
    await cache.answer(t);
    expect(started).toHaveLength(2);
  });
});
