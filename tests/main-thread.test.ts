/**
 * Issue 26, "the main thread renders nothing": every route shape a visitor can send, against the built
 * server (render pool on, as deployed), answered with the status its route gives it, and after all of them
 * the server's count of main-thread renders is 0, in its [stats] line and in `frontend_main_thread_renders_total`
 * on the internal port. The shapes that used to render on the main thread (the card through `q-data.json`,
 * 404 pages under /api, /webhooks, /build, /assets, an invalid no-JS contact post) are each here.
 * Also: nothing of an invented preview host is written by the 404 watch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startFrontend, type Frontend } from "./support/frontend";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { http } from "./support/http";
import { until } from "./support/until";
import { readNotFoundFiles } from "../src/server/migration-watch/not-found-watch";

let backend: DemoBackend;
let frontend: Frontend;
let metricsPort: number;
let migrations: string;
let dupont: string;

beforeAll(async () => {
  backend = await startBackend();
  metricsPort = await freePort();
  migrations = mkdtempSync(join(tmpdir(), "main-thread-"));
  frontend = await startFrontend({
    backendUrl: backend.url,
    env: { METRICS_PORT: String(metricsPort), MIGRATIONS_DIR: migrations, NOT_FOUND_FLUSH_MS: "200" },
  });
  dupont = `dupont.dev.localhost:${frontend.port}`;
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
  if (migrations) rmSync(migrations, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** [what, method, path, options, expected status, what the body must (or must not) show]. */
type Shape = [string, string, string, { headers?: Record<string, string>; body?: string }, number, (body: string, type: string) => void];

const html404 = (body: string, type: string) => {
  expect(type).toMatch(/^text\/html/);
  expect(body).toContain("Cabinet dentaire Dupont"); // the practice's own 404 page, not a bare text
};
const plain404 = (body: string) => expect(body).toBe("Not Found");
const anything = () => {};

const SHAPES: Shape[] = [
  // Issue 26, High: the card drawn on the main thread through q-data.json.
  ["card through q-data.json", "GET", "/api/og/q-data.json", {}, 404, html404],
  ["card under a sub-path", "GET", "/api/og/x/", {}, 404, html404],
  // Issue 26, Medium: full 404 pages rendered on the main thread.
  ["unknown endpoint", "GET", "/api/nope/", {}, 404, html404],
  ["HEAD of an unknown endpoint", "HEAD", "/api/nope/", {}, 404, (body) => expect(body).toBe("")],
  ["webhook path by GET", "GET", "/webhooks/x/", {}, 404, html404],
  ["missing build file", "GET", "/build/x/", {}, 404, plain404],
  ["missing asset", "GET", "/assets/x/", {}, 404, plain404],
  ["the contact result page reached directly", "GET", "/api/contact/resultat/", {}, 404, html404],
  ["robots through q-data.json", "GET", "/robots.txt/q-data.json", {}, 404, html404],
  ["sitemap under a sub-path", "GET", "/sitemap.xml/x/", {}, 404, html404],
  ["media through q-data.json", "GET", "/api/media/q-data.json", {}, 404, html404],
  ["the Qwik manifest (issue 26, Low)", "GET", "/q-manifest.json", {}, 404, (body) => expect(body).not.toContain("mapping")],
  ["a missing media file of the practice", "GET", "/media/dupont/nope.png", {}, 404, html404],
  ["an unknown page", "GET", "/nope/", {}, 404, html404],
  ["an unknown page without the slash (one 404, not a 301 to a 404: decision 0062)", "GET", "/nope", {}, 404, html404],
  // The routes of the allow-list.
  ["a page", "GET", "/contact/", {}, 200, (body) => expect(body).toContain("<form")],
  ["a page's q-data.json", "GET", "/contact/q-data.json", {}, 200, anything],
  ["robots", "GET", "/robots.txt", {}, 200, (body) => expect(body).toMatch(/User-agent/i)],
  ["sitemap", "GET", "/sitemap.xml", {}, 200, (body) => expect(body).toContain("<urlset")],
  ["the card", "GET", "/api/og", {}, 200, (_body, type) => expect(type).toBe("image/png")],
  ["media", "GET", "/api/media?path=/media/dupont/logo.svg", {}, 200, (_body, type) => expect(type).toBe("image/svg+xml")],
  ["the favicon", "GET", "/favicon.svg", {}, 200, anything],
  ["the relay by GET", "GET", "/api/contact", {}, 405, (body) => expect(body).toContain("POST")],
  [
    "an invalid JSON contact post",
    "POST",
    "/api/contact",
    { headers: { "content-type": "application/json", origin: "ORIGIN" }, body: JSON.stringify({ name: "" }) },
    400,
    (body, type) => {
      expect(type).toMatch(/^application\/json/);
      expect(body).toContain("errors");
    },
  ],
  [
    // Issue 26, Medium: rendered the form page on the main thread; now in the pool, with the visitor's input.
    "an invalid no-JS contact post",
    "POST",
    "/api/contact",
    {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "ORIGIN" },
      body: form({ name: "Jeanne Essai", email: "pas-un-email", message: "Bonjour", consent: "on", elapsed_ms: "5000" }),
    },
    400,
    (body, type) => {
      expect(type).toMatch(/^text\/html/);
      expect(body).toContain("Jeanne Essai");
      expect(body).toContain("<form");
    },
  ],
  ["a PUT on the relay", "PUT", "/api/contact", { body: "{}" }, 405, anything],
];

describe("every route shape, answered without a render on the main thread", () => {
  it.each(SHAPES)("%s: %s %s", async (_what, method, path, opts, status, check) => {
    const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, v.replace("ORIGIN", `http://${dupont}`)]));
    const res = await http(frontend.url, dupont, path, { method, headers, body: opts.body });
    expect(res.status, res.body.slice(0, 300)).toBe(status);
    check(res.body, String(res.headers["content-type"] ?? ""));
    if (method === "POST") expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("invented preview hosts: their 404s are not written by the migration watch", async () => {
    for (let i = 0; i < 20; i++) {
      expect((await http(frontend.url, `rtq${i}.dev.localhost:${frontend.port}`, `/probe-${i}/`)).status).toBe(404);
    }
    // A listed practice's 404 is written (the watch works), within its flush period; the invented ones never.
    await http(frontend.url, dupont, "/ancien-formulaire/?nom=Durand_Jeanne&telephone=0612345678&ddn=1985-05-07");
    await until(() => existsSync(join(migrations, "dupont")), "the listed practice's 404 counted");
    expect(readdirSync(migrations)).toEqual(["dupont"]);
    // Never a form's values from a query: names, phones, dates of birth.
    await until(() => readNotFoundFiles(migrations, "dupont").has("/ancien-formulaire/"), "the path counted");
    expect([...readNotFoundFiles(migrations, "dupont").keys()].join(" ")).not.toMatch(/Durand|0612345678|1985/);
    // Every route shape above that the practice's 404 page answered is counted, whichever stage wrote it; the
    // server's own plain 404s are no old site's URL (http/observe.ts, watchNotFound).
    const counted = readNotFoundFiles(migrations, "dupont");
    for (const path of ["/nope/", "/api/nope/", "/webhooks/x/", "/api/contact/resultat/"]) expect(counted.has(path), path).toBe(true);
    for (const path of ["/build/x/", "/assets/x/"]) expect(counted.has(path), path).toBe(false);
  });

  it("after all of it: 0 renders on the main thread, in the stats line and in the metrics", async () => {
    expect((await frontend.stats()).mainThreadRenders).toBe(0);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^frontend_main_thread_renders_total 0$/m);
    expect(frontend.alive()).toBe(true);
  });
});

describe("what the main thread loads", () => {
  /** The packages the built server's entry imports statically, through its own chunks (not its import() calls). */
  function staticPackages(entry: string): Set<string> {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join("server", file), "utf8");
      // Minified: `import{a as b}from"x"`, `import c from"x"`, `import"x"`; never `import("x")`.
      for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport)\s*"([^"]+)"/g)) {
        if (spec.startsWith("./")) visit(spec.slice(2));
        else packages.add(spec);
      }
    };
    visit(entry);
    return packages;
  }

  it("the card's renderers (satori, resvg) only with the first card, in a render worker: not with the server", () => {
    const main = staticPackages("entry.express.js");
    // The walk sees the server's own imports (it would miss a renamed chunk, not a package); the server runs
    // without Express (docs/decisions/0064-hit-path-shapes.md): neither it nor the compression middleware is loaded.
    expect(main.has("proxy-addr")).toBe(true);
    expect(main.has("express")).toBe(false);
    expect(main.has("compression")).toBe(false);
    expect(main.has("satori")).toBe(false);
    expect(main.has("@resvg/resvg-js")).toBe(false);
  });

  it("no thread loads redis or sharp at start: redis with an instance's shared store (CACHE_URL), sharp with the first image", () => {
    // Both sit in the chunk the render workers load too: at start they cost each thread a quarter to half a second
    // of CPU (a deploy's readiness, every test's server). The store's link and the two sharp users import them late.
    for (const entry of ["entry.express.js", "entry.render-worker.js"]) {
      const loaded = staticPackages(entry);
      expect(loaded.has("sanitize-html"), entry).toBe(true);
      expect(loaded.has("redis"), entry).toBe(false);
      expect(loaded.has("sharp"), entry).toBe(false);
    }
  });
});

