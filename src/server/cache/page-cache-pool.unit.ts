/**
 * The page cache's rules for renders in a pool (issue 12): refused renders, the cached 404 page,
 * priorities, the eager budget. The classic promises are in page-cache.unit.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { gunzipSync } from "node:zlib";
import { PageCache, type CacheAnswer } from "./page-cache";
import { cacheTarget, type CacheTarget } from "./key";
import type { RenderResult } from "./entry";
import type { Priority } from "./page-cache";
import { NOT_FOUND_PATH } from "./not-found";
import { RenderUnavailable } from "../render/unavailable";

vi.mock("../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));
import { reportWarning } from "../monitoring";

type Behaviour = { body: string; tags: string[] } | "unknown" | "overloaded" | "not-found-page";

function setup() {
  let clock = 1_000_000;
  const site = new Map<string, Behaviour>();
  const calls: { url: string; priority: Priority | undefined }[] = [];
  const promoted: string[] = [];
  const cache = new PageCache({
    maxBytes: 10_000_000,
    ttlMs: 60_000,
    now: () => clock,
    invalidateData: () => {},
    promote: (target) => promoted.push(target.url),
    render: async (target, priority) => {
      calls.push({ url: target.url, priority });
      await new Promise((r) => setTimeout(r, 1));
      const behaviour = site.get(target.url) ?? (target.url === NOT_FOUND_PATH ? "not-found-page" : "unknown");
      if (behaviour === "overloaded") throw new RenderUnavailable("too many renders waiting", 7, false);
      if (behaviour === "unknown") return { ...html(404, "", ["site:dupont"]), unknownPage: true };
      if (behaviour === "not-found-page") return html(404, `404 page v${calls.length}`, ["site:dupont"]);
      return html(200, behaviour.body, behaviour.tags);
    },
  });
  return { cache, site, calls, promoted, tick: (ms: number) => (clock += ms) };
}

function html(status: number, body: string, tags: string[]): RenderResult {
  return { status, headers: new Headers({ "content-type": "text/html; charset=utf-8" }), body: Buffer.from(body), tags };
}

const target = (path: string): CacheTarget => cacheTarget("GET", "dupont", "dupont.example", "https", path)!;
const bodyOf = (a: CacheAnswer) =>
  a.kind === "render" ? a.result.body.toString() : gunzipSync(a.entry.gzip!).toString();
const statusOf = (a: CacheAnswer) => (a.kind === "entry" ? `${a.entry.status ?? 200} ${a.status}` : `render ${a.result.status}`);

describe("PageCache with a render pool", () => {
  it("answers a refused render with a 503 and Retry-After when it has no copy, without an error event", async () => {
    const t = setup();
    t.site.set("/a/", "overloaded");
    const answer = await t.cache.answer(target("/a/"));
    expect(statusOf(answer)).toBe("render 503");
    expect(answer.kind === "render" && answer.result.headers.get("retry-after")).toBe("7");
    expect(t.cache.store.count).toBe(0);
    expect(reportWarning).not.toHaveBeenCalled();
  });

  it("answers a refused refresh of a stale page with the last good copy as STALE", async () => {
    const t = setup();
    t.site.set("/a/", { body: "v1", tags: ["page:a"] });
    await t.cache.answer(target("/a/"));
    t.site.set("/a/", "overloaded");
    t.tick(60_001);
    expect(statusOf(await t.cache.answer(target("/a/")))).toBe("200 STALE");
    await t.cache.settled();
    const answer = await t.cache.answer(target("/a/"));
    expect([statusOf(answer), bodyOf(answer)]).toEqual(["200 STALE", "v1"]);
  });

  it("never serves the old copy of a page a webhook named when its re-render is refused: 503, then the new content", async () => {
    const t = setup();
    t.site.set("/a/", { body: "v1", tags: ["page:a"] });
    await t.cache.answer(target("/a/"));
    t.site.set("/a/", "overloaded");
    t.cache.invalidate(["page:a"]);
    await t.cache.settled();
    expect(statusOf(await t.cache.answer(target("/a/")))).toBe("render 503");
    t.site.set("/a/", { body: "v2", tags: ["page:a"] });
    expect(bodyOf(await t.cache.answer(target("/a/")))).toBe("v2");
  });

  it("answers every unknown path with the practice's one 404 page, rendered once and kept with status 404", async () => {
    const t = setup();
    const answers = [];
    for (const path of ["/nope/", "/other/", "/x/y/", "/nope/"]) answers.push(await t.cache.answer(target(path)));
    expect(answers.map(statusOf)).toEqual(["404 MISS", "404 HIT", "404 HIT", "404 HIT"]);
    expect(new Set(answers.map(bodyOf))).toEqual(new Set(["404 page v2"]));
    expect(t.calls.filter((c) => c.url === NOT_FOUND_PATH)).toHaveLength(1);
    // Nothing is stored under the unknown paths themselves: one entry per practice and host.
    expect(t.cache.store.count).toBe(1);
  });

  it("renders the 404 page again after a change to the page list, and not after another practice's", async () => {
    const t = setup();
    await t.cache.answer(target("/nope/"));
    expect(t.cache.invalidate(["site:martin:page:new"])).toBe(0);
    expect(t.cache.invalidate(["site:dupont:page:new"])).toBe(1); // a page published: it may be this path
    await t.cache.settled();
    t.site.set("/nope/", { body: "now a page", tags: ["page:nope"] });
    expect(bodyOf(await t.cache.answer(target("/nope/")))).toBe("now a page");
    expect(t.cache.invalidate(["page:anything"])).toBe(1);
  });

  it("renders visitors' misses as visitors and refreshes as refreshes, and promotes a refresh a visitor joins", async () => {
    const t = setup();
    t.site.set("/a/", { body: "v1", tags: ["page:a"] });
    await t.cache.answer(target("/a/"));
    t.cache.invalidate(["page:a"]);
    await t.cache.answer(target("/a/"));
    expect(t.calls.map((c) => c.priority)).toEqual(["visitor", "refresh"]);
    expect(t.promoted).toEqual(["/a/"]);
  });

  it("re-renders at once only pages a visitor asked for recently; the others render on their next request", async () => {
    const t = setup();
    t.site.set("/old/", { body: "old v1", tags: ["site:dupont"] });
    t.site.set("/recent/", { body: "recent v1", tags: ["site:dupont"] });
    await t.cache.answer(target("/old/"));
    t.tick(11 * 60_000);
    await t.cache.answer(target("/recent/"));
    t.site.set("/old/", { body: "old v2", tags: ["site:dupont"] });
    t.site.set("/recent/", { body: "recent v2", tags: ["site:dupont"] });
    t.calls.length = 0;
    expect(t.cache.invalidate(["site:dupont"])).toBe(2);
    await t.cache.settled();
    expect(t.calls.map((c) => c.url)).toEqual(["/recent/"]);
    // The old page is not served as it was: its next request renders it.
    expect(t.cache.fresh(target("/old/").key)).toBeUndefined();
    const old = await t.cache.answer(target("/old/"));
    expect([statusOf(old), bodyOf(old)]).toEqual(["200 MISS", "old v2"]);
  });
});
