/**
 * The page cache against the real built server and the demo content backend, whose admin API
 * edits content and fires the revalidation webhook at the frontend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readdirSync } from "node:fs";
import type { Frontend } from "./support/frontend";
import { freePort, startFrontend } from "./support/frontend";
import { backendJson, type DemoBackend } from "./support/demo-backend";
import { backendRequests, get, renderId, revalidate, sleep, startPair } from "./support/cache";

let backend: DemoBackend;
let frontend: Frontend;
const host = (code: string) => `${code}.dev.localhost`;

beforeAll(async () => {
  ({ backend, frontend } = await startPair());
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

const page = (code: string, path: string, headers: Record<string, string> = {}) =>
  get(frontend.url, host(code), path, { headers });

describe("hits, misses and the wire format", () => {
  it("renders a miss once, then serves hits with Age and an ETag, and 304 on If-None-Match", async () => {
    const miss = await page("dupont", "/philosophie/");
    expect(miss.status).toBe(200);
    expect(miss.xcache).toBe("MISS");
    expect(miss.text).toContain("Dupont");
    const hit = await page("dupont", "/philosophie/");
    expect(hit.xcache).toBe("HIT");
    expect(hit.etag).toBe(miss.etag);
    expect(hit.text).toBe(miss.text);
    expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(0);
    // Hits are served in front of Express, with every header the full stack sent on the miss (robots,
    // security headers, content type...), but for those that belong to one response.
    const PER_RESPONSE = new Set(["date", "age", "x-cache", "connection", "keep-alive", "transfer-encoding"]);
    const stable = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([name]) => !PER_RESPONSE.has(name)));
    expect(stable(hit.headers)).toEqual(stable(miss.headers));
    expect(hit.headers["x-robots-tag"]).toBe("noindex");
    expect(hit.headers["content-security-policy"]).toMatch(/frame-ancestors/);
    const notModified = await page("dupont", "/philosophie/", { "if-none-match": hit.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.raw.length).toBe(0);
    expect(notModified.etag).toBe(hit.etag);
  });

  it("stores brotli and gzip once and serves what Accept-Encoding allows, identity otherwise", async () => {
    const identity = await page("dupont", "/tarifs/");
    const br = await page("dupont", "/tarifs/", { "accept-encoding": "gzip, deflate, br" });
    const gzip = await page("dupont", "/tarifs/", { "accept-encoding": "gzip, deflate" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(brotliDecompressSync(br.raw).toString()).toBe(identity.text);
    expect(gunzipSync(gzip.raw).toString()).toBe(identity.text);
    expect(Number(br.headers["content-length"])).toBe(br.raw.length);
    expect(br.raw.length).toBeLessThan(identity.raw.length / 2);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // HEAD: the same headers, no body.
    const head = await get(frontend.url, host("dupont"), "/tarifs/", {
      method: "HEAD",
      headers: { "accept-encoding": "br" },
    });
    expect(head.xcache).toBe("HIT");
    expect(head.headers["content-length"]).toBe(br.headers["content-length"]);
    expect(head.raw.length).toBe(0);
  });

  it("caches q-data.json under its own key", async () => {
    const first = await get(frontend.url, host("martin"), "/tarifs/q-data.json", { headers: { accept: "*/*" } });
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toMatch(/json/);
    expect(first.xcache).toBe("MISS");
    const second = await get(frontend.url, host("martin"), "/tarifs/q-data.json", { headers: { accept: "*/*" } });
    expect(second.xcache).toBe("HIT");
    expect(second.text).toBe(first.text);
  });

  it("ignores ?utm_source=x: the same entry answers", async () => {
    const plain = await page("martin", "/acces/");
    const tracked = await page("martin", "/acces/?utm_source=x&utm_medium=mail");
    expect(tracked.xcache).toBe("HIT");
    expect(tracked.etag).toBe(plain.etag);
  });

  it("never shares an entry between two practices for the same path", async () => {
    const dupont = await page("dupont", "/acces/");
    const martin = await page("martin", "/acces/"); // cached by the previous test
    const bernard = await page("bernard", "/acces/");
    expect(dupont.xcache).toBe("MISS");
    expect(bernard.xcache).toBe("MISS");
    expect(new Set([dupont.etag, martin.etag, bernard.etag]).size).toBe(3);
    expect(dupont.text).toContain("Dupont");
    expect(dupont.text).not.toContain("Martin");
    expect(bernard.text).not.toContain("Martin");
  });

  it("keys by host: a practice's registered domain and preview host get their own entries", async () => {
    const preview = await page("petit", "/tarifs/");
    const domain = await get(frontend.url, "www.cabinet-petit.fr", "/tarifs/");
    expect(preview.xcache).toBe("MISS");
    expect(domain.xcache).toBe("MISS");
    expect(preview.text).toContain("petit.dev.localhost");
    expect(domain.text).not.toContain("petit.dev.localhost");
  });
});

describe("static build assets", () => {
  it("are served immutable for a year, on any practice host, never through the page cache", async () => {
    const file = readdirSync("dist/build").find((f) => f.endsWith(".js"))!;
    for (const code of ["dupont", "martin"]) {
      const res = await page(code, `/build/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.xcache).toBeUndefined();
    }
  });
});

describe("coalescing", () => {
  it("answers 200 concurrent requests on a cold page with one render and one backend fetch per resource", async () => {
    const { codes } = await backendJson<{ codes: string[] }>(backend, "/admin/synthetic", {
      method: "POST",
      body: JSON.stringify({ practices: 1, pages: 3 }),
    });
    const code = codes[0];
    await backendJson(backend, "/admin/stats/reset", { method: "POST" });
    const answers = await Promise.all(Array.from({ length: 200 }, () => page(code, "/")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Every answer carries the same render's container id: one render served them all.
    const ids = new Set(answers.map((a) => renderId(a.text)));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBeTruthy();
    const requests = Object.entries(await backendRequests(backend)).filter(([key]) => key.includes(`/sites/${code}/`));
    expect(requests.length).toBeGreaterThanOrEqual(5); // config, practice, nav, pages, the page
    for (const [key, count] of requests) expect(count, key).toBe(1);
    // Another page of the same practice reads config, practice, nav and page list from the data cache:
    // only its own payload is fetched.
    const { pages } = await backendJson<{ pages: { path: string; slug: string }[] }>(
      backend,
      `/api/v1/websites/sites/${code}/pages/`,
    );
    const other = pages.find((p) => p.path !== "/")!;
    await backendJson(backend, "/admin/stats/reset", { method: "POST" });
    expect((await page(code, other.path)).status).toBe(200);
    const fetched = Object.keys(await backendRequests(backend)).filter((key) => key.includes(`/sites/${code}/`));
    expect(fetched).toEqual([`GET /api/v1/websites/sites/${code}/pages/${other.slug}/`]);
  });
});

describe("invalidation by tag", () => {
  const WATCHED: [string, string][] = [
    ["dupont", "/"],
    ["dupont", "/implantologie/implant-unitaire/"],
    ["dupont", "/contact/"],
    ["martin", "/"],
    ["martin", "/implantologie/implant-unitaire/"],
    ["petit", "/implantologie/implant-unitaire/"],
    ["bernard", "/contact/"],
  ];

  async function etags(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const [code, path] of WATCHED) {
      const res = await page(code, path);
      expect(res.status).toBe(200);
      out.set(`${code} ${path}`, res.etag!);
    }
    return out;
  }

  /** Which watched entries were re-rendered (a render has a new container id, so a new ETag). */
  async function reRendered(tags: string[]): Promise<{ invalidated: number; changed: string[] }> {
    const before = await etags();
    const answer = await revalidate(frontend, "api", tags);
    expect(answer.status).toBe(200);
    const after = await etags();
    const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k);
    return { invalidated: answer.json.invalidated!, changed: changed.sort() };
  }

  it("site:<code>:page:<slug> names one page of one practice", async () => {
    const { invalidated, changed } = await reRendered(["site:dupont:page:implant-unitaire"]);
    expect(changed).toEqual(["dupont /implantologie/implant-unitaire/"]);
    expect(invalidated).toBe(1);
  });

  it("page:<slug> names that page on every practice, and nothing else", async () => {
    const { changed } = await reRendered(["page:implant-unitaire"]);
    expect(changed).toEqual([
      "dupont /implantologie/implant-unitaire/",
      "martin /implantologie/implant-unitaire/",
      "petit /implantologie/implant-unitaire/",
    ]);
  });

  it("site:<code> names everything of one practice and nothing of another", async () => {
    const { invalidated, changed } = await reRendered(["site:martin"]);
    expect(changed).toEqual(["martin /", "martin /implantologie/implant-unitaire/"]);
    expect(invalidated).toBeGreaterThanOrEqual(2); // martin pages cached by earlier tests count too
  });

  it("a page tag of a practice also reaches its sitemap, which lists its pages (a publication), and nothing else", async () => {
    const sitemap = await page("dupont", "/sitemap.xml");
    expect(sitemap.status).toBe(200);
    const { invalidated, changed } = await reRendered(["site:dupont:page:a-page-just-published"]);
    expect(changed).toEqual([]);
    expect(invalidated).toBe(1); // the sitemap, the only cached dupont entry that lists pages
    expect((await page("dupont", "/sitemap.xml")).status).toBe(200);
    expect((await page("martin", "/sitemap.xml")).xcache).toBe("MISS");
    expect(await revalidate(frontend, "api", ["site:dupont:page:another"])).toMatchObject({ json: { invalidated: 1 } });
    expect((await revalidate(frontend, "api", ["page:another"])).json.invalidated).toBe(2);
  });

  it("a tag naming nothing cached invalidates nothing", async () => {
    const { invalidated, changed } = await reRendered(["site:leroy", "site:leroy:page:contact"]);
    expect(changed).toEqual([]);
    expect(invalidated).toBe(0);
  });
});

describe("freshness after a change (the demo loop)", () => {
  it("read-your-writes: an edit through the admin API is in the very next request, page and q-data.json", async () => {
    const before = await page("dupont", "/premiere-visite/");
    expect(before.status).toBe(200);
    await page("dupont", "/premiere-visite/q-data.json");
    for (let i = 0; i < 3; i++) {
      const title = `Première visite, édition ${Date.now()}-${i}`;
      const edit = await backendJson<{ webhook: { status: number } }>(
        backend,
        "/admin/sites/dupont/pages/premiere-visite",
        {
          method: "PATCH",
          body: JSON.stringify({ title }),
        },
      );
      expect(edit.webhook.status).toBe(200);
      const after = await page("dupont", "/premiere-visite/");
      expect(after.text).toContain(title);
      expect((await page("dupont", "/premiere-visite/q-data.json")).text).toContain(title);
    }
  });

  it("unpublishing a page answers 404 after the webhook; publishing brings it back", async () => {
    expect((await page("bernard", "/premiere-visite/")).status).toBe(200);
    await backendJson(backend, "/admin/sites/bernard/pages/premiere-visite/unpublish", { method: "POST" });
    expect((await page("bernard", "/premiere-visite/")).status).toBe(404);
    expect((await page("bernard", "/premiere-visite/")).status).toBe(404);
    await backendJson(backend, "/admin/sites/bernard/pages/premiere-visite/publish", { method: "POST" });
    const back = await page("bernard", "/premiere-visite/");
    expect(back.status).toBe(200);
  });

  it("deactivating a practice answers 404 on its cached pages after the webhook", async () => {
    expect((await page("petit", "/contact/")).status).toBe(200);
    expect((await page("petit", "/contact/")).xcache).toBe("HIT");
    await backendJson(backend, "/admin/sites/petit/active", {
      method: "POST",
      body: JSON.stringify({ is_active: false }),
    });
    expect((await page("petit", "/contact/")).status).toBe(404);
    expect((await page("petit", "/")).status).toBe(404);
    await backendJson(backend, "/admin/sites/petit/active", {
      method: "POST",
      body: JSON.stringify({ is_active: true }),
    });
    expect((await page("petit", "/contact/")).status).toBe(200);
  });
});

describe("backend failures", () => {
  it("keeps serving cached pages, answers 503 for cold ones, caches nothing from the failure", async () => {
    const cached = await page("bernard", "/tarifs/");
    expect(cached.status).toBe(200);
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "error500" }) });
    try {
      const hit = await page("bernard", "/tarifs/");
      expect([hit.status, hit.xcache]).toEqual([200, "HIT"]);
      const cold = await page("bernard", "/orthodontie/orthodontie-enfant/");
      expect(cold.status).toBe(503);
      expect((await page("bernard", "/orthodontie/orthodontie-enfant/")).status).toBe(503);
      // Invalidated while the backend fails: the last good copy, as STALE, and the failure reported.
      expect((await revalidate(frontend, "webhook", ["site:bernard:page:tarifs"])).status).toBe(200);
      const stale = await page("bernard", "/tarifs/");
      expect([stale.status, stale.xcache]).toEqual([200, "STALE"]);
      expect(stale.text).toBe(cached.text);
      expect(frontend.output()).toContain("page cache: re-render failed, serving the last good copy");
    } finally {
      await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
    }
    const recovered = await page("bernard", "/orthodontie/orthodontie-enfant/");
    expect([recovered.status, recovered.xcache]).toEqual([200, "MISS"]);
  });

  it("answers 503 for cold pages when the backend cannot be reached at all", async () => {
    const orphan = await startFrontend({ backendUrl: "http://127.0.0.1:9" });
    try {
      const res = await get(orphan.url, host("dupont"), "/");
      expect(res.status).toBe(503);
      expect((await get(orphan.url, host("dupont"), "/")).xcache).toBe("MISS");
    } finally {
      await orphan.stop();
    }
  });
});

describe("time-based revalidation", () => {
  it("serves a page older than BACKEND_REVALIDATE_TTL stale once, then fresh", async () => {
    // This frontend receives no webhook: only time can refresh it.
    const timed = await startFrontend({ backendUrl: backend.url, env: { BACKEND_REVALIDATE_TTL: "1" } });
    try {
      const v1 = await get(timed.url, host("martin"), "/philosophie/");
      expect(v1.xcache).toBe("MISS");
      const title = `Notre philosophie ${Date.now()}`;
      await backendJson(backend, "/admin/sites/martin/pages/philosophie", {
        method: "PATCH",
        body: JSON.stringify({ title }),
      });
      expect((await get(timed.url, host("martin"), "/philosophie/")).text).not.toContain(title);
      // Hits until the TTL has passed; the first answer after it is the stale copy.
      let stale = await get(timed.url, host("martin"), "/philosophie/");
      for (let i = 0; i < 100 && stale.xcache === "HIT"; i++) {
        await sleep(50);
        stale = await get(timed.url, host("martin"), "/philosophie/");
      }
      expect(stale.xcache).toBe("STALE");
      expect(stale.text).not.toContain(title);
      // The refresh renders in the background, at idle priority: on a busy machine (another test run beside
      // this one) the other processes' threads come first, and it took up to 20 s. Polled until the test's limit.
      let fresh = await get(timed.url, host("martin"), "/philosophie/");
      while (!fresh.text.includes(title)) {
        await sleep(50);
        fresh = await get(timed.url, host("martin"), "/philosophie/");
      }
      expect(fresh.xcache).toBe("HIT");
      expect(fresh.text).toContain(title);
    } finally {
      await timed.stop();
    }
  }, 60_000); // about 4 s alone
});

describe("memory", () => {
  /** A value of the server's metrics (METRICS_PORT), summed over its label sets. */
  async function metric(port: number, name: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return text
      .split("\n")
      .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
  }

  it("holds the byte budget when more pages are rendered than fit, and reads the rest back from disk, not rendering them again", async () => {
    const { codes } = await backendJson<{ codes: string[] }>(backend, "/admin/synthetic", {
      method: "POST",
      // 80 pages of about 35 KB (and their compressed copies): several times what 1 MB holds.
      body: JSON.stringify({ practices: 8, pages: 10 }),
    });
    const metricsPort = await freePort();
    const small = await startFrontend({ backendUrl: backend.url, env: { PAGE_CACHE_MAX_MB: "1", METRICS_PORT: String(metricsPort) } });
    try {
      const paths: [string, string][] = [];
      const { pages } = await backendJson<{ pages: { path: string }[] }>(
        backend,
        `/api/v1/websites/sites/${codes[0]}/pages/`,
      );
      for (const code of codes) for (const p of pages) paths.push([code, p.path]);
      expect(paths.length).toBe(80);
      for (const [code, path] of paths) expect((await get(small.url, host(code), path)).status).toBe(200);
      const storeBytes = await metric(metricsPort, "frontend_page_store_bytes");
      expect(storeBytes).toBeLessThanOrEqual(1024 * 1024);
      expect(await metric(metricsPort, "frontend_page_store_keys")).toBeLessThan(paths.length);
      // Every page again: those memory pushed out come back from the warm tier on disk, none is rendered again.
      const renders = await metric(metricsPort, "frontend_renders_total");
      for (const [code, path] of paths) {
        const again = await get(small.url, host(code), path, { headers: { "accept-encoding": "br" } });
        expect([again.status, again.xcache], `${code}${path}`).toEqual([200, "HIT"]);
      }
      expect(await metric(metricsPort, "frontend_renders_total")).toBe(renders);
      expect(await metric(metricsPort, "frontend_page_store_bytes")).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      await small.stop();
    }
  }, 90_000); // 160 requests one after another, 80 of them misses: about 4 s alone, over 12 s with two runs at once
});
