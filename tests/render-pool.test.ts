/**
 * The render pool against the built server (issue 12): renders run in worker threads whose read caches
 * every invalidation reaches before the webhook's answer is used, and a practice's 404 page is rendered
 * once and served for every unknown path, until its page list changes.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECRET, freePort, startFrontend, type Frontend } from "./support/frontend";
import { reapOnExit } from "./support/reaper";
import { until } from "./support/until";
import { backendJson, type DemoBackend } from "./support/demo-backend";
import { get, revalidate, startPair } from "./support/cache";
import { MAX_WAIT_MS } from "../src/server/render-pool/renderer";
import { renderTimeoutMs } from "../src/server/render-pool/config";
import { BACKEND_TIMEOUT_DEFAULT_MS } from "../src/server/env";

let backend: DemoBackend;
let frontend: Frontend;

beforeAll(async () => {
  // Two workers, so that renders of one practice land in both and each has its own read cache.
  ({ backend, frontend } = await startPair({ RENDER_WORKERS: "2" }));
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

const page = (code: string, path: string) => get(frontend.url, `${code}.dev.localhost`, path);

/** The server's render count once no render is running or queued (background re-renders finished). */
async function settledRenders(server: Frontend): Promise<number> {
  await expect.poll(async () => (await server.stats()).rendering, { timeout: 15_000, interval: 100 }).toBe(0);
  return (await server.stats()).renders;
}

async function pathsOf(code: string): Promise<string[]> {
  const { pages } = await backendJson<{ pages: { path: string }[] }>(backend, `/api/v1/websites/sites/${code}/pages/`);
  return pages.map((p) => p.path);
}

describe("read caches in the render workers", () => {
  it("after the webhook's answer, no worker renders a payload the tags named from before", async () => {
    const paths = await pathsOf("martin");
    expect(paths.length).toBeGreaterThanOrEqual(8);
    const [warm, cold] = [paths.slice(0, 4), paths.slice(4, 8)];
    // Rendered at once: both workers read (and keep) martin's config and practice.
    const before = await Promise.all(warm.map((path) => page("martin", path)));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const name = `Cabinet renommé ${Date.now()}`;
    // The demo backend sends the `site:martin` webhook and waits for its answer before answering this.
    await backendJson(backend, "/admin/sites/martin/config", { method: "PATCH", body: JSON.stringify({ name }) });
    const after = await Promise.all([...warm, ...cold].map((path) => page("martin", path)));
    for (const response of after) {
      expect(response.status).toBe(200);
      expect(response.text).toContain(name);
    }
  });
});

describe("the cached 404 page", () => {
  it("answers unknown paths with one render of the practice's 404 page: status 404, noindex, no visitor path in it", async () => {
    const first = await page("dupont", "/lien-mort-alpha/");
    const second = await page("dupont", "/lien-mort-beta/");
    for (const response of [first, second]) {
      expect(response.status).toBe(404);
      expect(response.text).toContain("Page introuvable");
      expect(response.text).toMatch(/<meta name="robots" content="noindex/);
      expect(response.text).not.toContain("lien-mort");
    }
    expect(second.xcache).toBe("HIT");
    expect(second.text).toBe(first.text);
    // Another practice has its own 404 page (its own header, footer and phone number).
    const other = await page("martin", "/lien-mort-alpha/");
    expect(other.status).toBe(404);
    expect(other.text).not.toBe(first.text);
  });

  it("is rendered again when the page list changes: a page published with page tags only", async () => {
    // The webhooks of this test are sent by hand, with the specification's page tags only.
    await backendJson(backend, "/admin/settings", { method: "PUT", body: JSON.stringify({ frontendUrl: null }) });
    try {
      expect((await page("bernard", "/premiere-visite/")).status).toBe(200);
      await backendJson(backend, "/admin/sites/bernard/pages/premiere-visite/unpublish", { method: "POST" });
      expect((await revalidate(frontend, "webhook", ["page:premiere-visite"])).status).toBe(200);
      const gone = await page("bernard", "/premiere-visite/");
      expect(gone.status).toBe(404);
      expect(gone.text).toContain("Page introuvable");
      expect((await page("bernard", "/autre-lien-mort/")).xcache).toBe("HIT");
      await backendJson(backend, "/admin/sites/bernard/pages/premiere-visite/publish", { method: "POST" });
      expect((await revalidate(frontend, "webhook", ["page:premiere-visite"])).status).toBe(200);
      expect((await page("bernard", "/premiere-visite/")).status).toBe(200);
    } finally {
      await backendJson(backend, "/admin/settings", { method: "PUT", body: JSON.stringify({ frontendUrl: frontend.url }) });
    }
  });

  it("answers unknown paths in front of Express once the 404 page is cached: no render, no worker round trip", async () => {
    // petit's 404 page, rendered with the index of petit's paths.
    expect((await page("petit", "/lien-mort-zero/")).status).toBe(404);
    // The earlier tests' background re-renders (a webhook for martin) are done first: renders count them too.
    const before = await settledRenders(frontend);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => page("petit", `/lien-mort-${i}/`)));
    for (const response of answers) {
      expect(response.status).toBe(404);
      expect(response.xcache).toBe("HIT");
      expect(response.text).toContain("Page introuvable");
    }
    // Before the index, each of them cost a render worker's look at the page list (counted as a render).
    expect((await frontend.stats()).renders).toBe(before);
    expect(await settledRenders(frontend)).toBe(before);
  });

  it("with the index warm, leaves to the stack whatever it answers before the cache, and pages stay pages", async () => {
    expect((await page("dupont", "/lien-mort-gamma/")).status).toBe(404);
    // An old URL of dupont's redirect map (migrations/dupont/redirects.json: /cabinet.html), as typed.
    const moved = await page("dupont", "/cabinet/");
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe("/philosophie/");
    // Another practice's media files: refused by the stack as they always were, never the 404 page.
    const media = await page("dupont", "/media/martin/logo/");
    expect(media.status).toBe(404);
    expect(media.text).not.toContain("Page introuvable");
    expect((await page("dupont", "/healthz/")).text).toBe("ok");
    // A team member's page and a slug under another parent (the route redirects it) are no 404.
    const paths = await pathsOf("dupont");
    const team = paths.find((p) => /equipe/.test(p));
    expect(team).toBeDefined();
    const members = [...(await page("dupont", team!)).text.matchAll(new RegExp(`href="(${team}[a-z0-9-]+/)"`, "g"))].map((m) => m[1]);
    expect(members.length).toBeGreaterThan(0);
    expect((await page("dupont", members[0])).status).toBe(200);
    const slug = members[0].slice(team!.length, -1);
    const elsewhere = await page("dupont", `/autre-rubrique/${slug}/`);
    expect(elsewhere.status).toBe(301);
  });

  it("keeps the 404 status on a conditional request (never a 304 for a 404)", async () => {
    const first = await page("petit", "/lien-mort/");
    const again = await get(frontend.url, "petit.dev.localhost", "/lien-mort-2/", {
      headers: { "if-none-match": String(first.etag) },
    });
    expect(again.status).toBe(404);
  });

  it("answers an unknown path without its trailing slash with one 404, cold or warm; a page without its slash gets one 301 to it", async () => {
    // Cold: the practice's pages dropped by a webhook, so the render worker judges the path (site/unknown-page.ts).
    expect((await revalidate(frontend, "webhook", ["site:martin"])).status).toBe(200);
    const cold = await page("martin", "/ancienne-page-sans-barre");
    expect(cold.status).toBe(404);
    expect(cold.text).toContain("Page introuvable");
    // Warm: the 404 page's index judges it in front of Express (cache/page-cache.ts, unknownPath).
    const warm = await page("martin", "/autre-ancienne-page");
    expect(warm).toMatchObject({ status: 404, xcache: "HIT" });
    expect((await page("martin", "/soins/ancien-soin")).status).toBe(404);
    // A page of the practice, spelled without its slash: one 301 to the page, as before.
    const known = (await pathsOf("martin")).find((p) => p !== "/" && p.split("/").length === 3)!;
    const moved = await page("martin", known.slice(0, -1));
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(known);
  });
});

describe("one practice's oversized payload", () => {
  it("fails that page alone: refused before parsing, no worker lost, the other practices' renders answer 200", async () => {
    // A 21 MB rich-text block exhausted a worker's heap while it was parsed, and the other renders on it failed;
    // 5.4 MB is past the bound (backend/http.ts), the admin API takes it.
    const huge = `<p>${"Texte très long. ".repeat(300_000)}</p>`;
    await backendJson(backend, "/admin/settings", { method: "PUT", body: JSON.stringify({ frontendUrl: null }) });
    try {
      await backendJson(backend, "/admin/sites/bernard/pages/tarifs", {
        method: "PATCH",
        body: JSON.stringify({ blocks: [{ type: "rich_text", value: { html: huge } }] }),
      });
      const before = (await frontend.stats()).heapUsed;
      const answers = await Promise.all([
        page("bernard", "/tarifs/"),
        ...["/", "/contact/", "/equipe/"].flatMap((path) => [page("martin", path), page("petit", path)]),
      ]);
      expect(answers[0].status).toBe(503);
      expect(answers.slice(1).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      await expect.poll(() => frontend.output()).toMatch(/backend invalid_payload on \/sites\/bernard\/pages\/tarifs\/: body over \d+ bytes/);
      expect(frontend.output()).not.toMatch(/render worker exited/);
      expect(frontend.alive()).toBe(true);
      expect((await frontend.stats()).heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await backendJson(backend, "/admin/reset", { method: "POST" });
      await backendJson(backend, "/admin/settings", { method: "PUT", body: JSON.stringify({ frontendUrl: frontend.url }) });
    }
  });
});

describe("without a pool (RENDER_WORKERS=0)", () => {
  it("answers unknown paths with the practice's one cached 404 page too, in front of Express", async () => {
    const alone = await startFrontend({ backendUrl: backend.url, env: { RENDER_WORKERS: "0" } });
    try {
      const ask = (path: string) => get(alone.url, "petit.dev.localhost", path);
      const first = await ask("/lien-mort-un/");
      expect(first.status).toBe(404);
      const before = await settledRenders(alone);
      for (const path of ["/lien-mort-deux/", "/lien-mort-trois/"]) {
        const answer = await ask(path);
        expect(answer).toMatchObject({ status: 404, xcache: "HIT", text: first.text });
      }
      expect((await alone.stats()).renders).toBe(before);
    } finally {
      await alone.stop();
    }
  });
});

describe("scheduling", () => {
  /** Scheduling policy and nice of each thread of the server (/proc/<pid>/task/<tid>/stat, fields 41 and 19). */
  function threads(pid: number) {
    return readdirSync(`/proc/${pid}/task`).map((tid) => {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
      return { tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) };
    });
  }
  const SCHED_OTHER = 0;
  const SCHED_IDLE = 5;

  it("runs both render workers under SCHED_IDLE and the main thread, which answers hits, at normal priority", async () => {
    expect((await page("dupont", "/")).status).toBe(200);
    const all = threads(frontend.pid);
    expect(all.find((t) => t.tid === frontend.pid)).toMatchObject({ policy: SCHED_OTHER, nice: 0 });
    expect(all.filter((t) => t.policy === SCHED_IDLE)).toHaveLength(2);
  });

  // Issue 30: under SCHED_IDLE, a render worker whose core a thread of normal priority holds gets no CPU at
  // all, and renders ran into their time limit. One session (one autogroup, as a container's CPU group) and
  // one core: the server, then a busy loop of normal priority beside it. The floor (cpu-floor.ts) moves the
  // starving worker to nice 10 while it renders, and back to SCHED_IDLE after.
  it("gives a starving render worker a floor: a new page renders while a busy loop holds the server's only core", async () => {
    const port = await freePort();
    const flag = join(mkdtempSync(join(tmpdir(), "cpu-floor-")), "start");
    const script = [
      "taskset -c 0 node server/entry.express.js &",
      `(while [ ! -e "$FLAG" ]; do sleep 0.05; done; touch "$FLAG.on"; exec taskset -c 0 sh -c 'while :; do :; done') &`,
      "wait",
    ].join("\n");
    const session = reapOnExit(spawn("sh", ["-c", script], {
      env: {
        PATH: process.env.PATH, FLAG: flag, PORT: String(port), ENVIRONMENT: "dev", PREVIEW_DOMAIN: "localhost",
        BACKEND_API_URL: `${backend.url}/api/v1/websites`, REVALIDATION_SECRET: DEFAULT_SECRET, BUILD_CMS_ORIGIN: backend.url,
        METRICS_PORT: "0", RENDER_WORKERS: "1", LOG_FORMAT: "off",
      },
      stdio: "ignore",
      detached: true,
    }), { group: true });
    try {
      const url = `http://127.0.0.1:${port}`;
      await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok === true, "the server listening");
      const server = Number(execFileSync("pgrep", ["-s", String(session.pid), "-f", "^node server/entry.express.js"], { encoding: "utf8" }).trim().split("\n")[0]);
      // A first page while the core is free: the worker is warm (its first render compiles the bundle).
      expect((await get(url, "dupont.dev.localhost", "/")).status).toBe(200);
      const worker = () => threads(server).filter((t) => t.nice === 10);
      expect(worker()).toHaveLength(1);
      // Under SCHED_IDLE once the pool is idle (on a busy machine the floor may have moved it for that render).
      await until(() => worker().every((t) => t.policy === SCHED_IDLE), "the worker under SCHED_IDLE before the busy loop");
      writeFileSync(flag, "");
      await until(() => existsSync(`${flag}.on`), "the busy loop started");
      // A page never rendered, while the busy loop holds the core: the worker is seen in the normal class.
      let promoted = false;
      const watch = setInterval(() => (promoted ||= worker().some((t) => t.policy === SCHED_OTHER)), 20);
      const started = performance.now();
      const answer = await get(url, "dupont.dev.localhost", "/contact/").finally(() => clearInterval(watch));
      const ms = performance.now() - started;
      expect(answer.status, `${ms} ms`).toBe(200);
      expect(promoted).toBe(true);
      // Nothing in flight: back under SCHED_IDLE, the hits' core left to the main thread again.
      await until(() => worker().every((t) => t.policy === SCHED_IDLE), "the worker back under SCHED_IDLE");
    } finally {
      process.kill(-session.pid!, "SIGKILL");
    }
  }, 60_000);
});

describe("a flood of renders (issue 30)", () => {
  it("answers every request within the wait limit: rendered, or a 503 with Retry-After, never a request left hanging", async () => {
    // 60 cold pages at once, every backend read 3 s (under the backend's 4 s limit): a render takes two reads
    // in a row at least, 6 s; 8 render at once (2 workers x 4), the rest wait or are refused.
    const { codes } = await backendJson<{ codes: string[] }>(backend, "/admin/synthetic", {
      method: "POST",
      body: JSON.stringify({ practices: 20, pages: 3 }),
    });
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "slow", delayMs: 3_000, match: "synth-" }) });
    try {
      const paths = await pathsOf(codes[0]);
      const started = performance.now();
      const answers = await Promise.all(
        codes.flatMap((code) =>
          paths.map(async (path) => {
            const response = await page(code, path);
            return { response, ms: performance.now() - started };
          }),
        ),
      );
      // Refused by admission (the page cache's plain 503), or rendered (a page, or the render's own 503 when a
      // backend read overran its limit on a busy machine).
      const refused = answers.filter(({ response }) => response.status === 503 && String(response.headers["content-type"]).startsWith("text/plain"));
      expect(refused.length).toBeGreaterThan(0);
      expect(answers.length - refused.length).toBeGreaterThan(0);
      // Refused at once, or when its wait limit passed: not when a slot freed after it (6 s renders: 12 s).
      expect(refused.filter(({ ms }) => ms >= MAX_WAIT_MS + 1_000).map(({ ms }) => Math.round(ms))).toEqual([]);
      expect(refused.filter(({ response }) => !(Number(response.headers["retry-after"]) >= 1))).toEqual([]);
      // And a render that started ends within its own time limit: nothing waits longer than both.
      // (The server runs with the default backend timeout.)
      const limit = MAX_WAIT_MS + renderTimeoutMs({ BACKEND_TIMEOUT_MS: BACKEND_TIMEOUT_DEFAULT_MS });
      expect(Math.max(...answers.map(({ ms }) => ms))).toBeLessThan(limit);
    } finally {
      await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
      await settledRenders(frontend);
      await backendJson(backend, "/admin/synthetic", { method: "DELETE" });
    }
  }, 60_000);
});
