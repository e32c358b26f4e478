/**
 * The cache's HTTP front and Express middleware over a real PageCache with a fake render. Both are request
 * listeners (or run in one), so they are served by node:http on port 0 and asked with node:http requests,
 * which may set the Host header.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, request, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseRegistry, type HostRules } from "../tenancy";
import { buildEntry, type RenderResult } from "../cache/entry";
import { cacheHitStage, cacheMiddleware } from "./cache-front";
import { beginState, createPipeline, stateOf, tenantOf } from "./pipeline";
import { stack } from "./stack";
import { sendText } from "./respond";
import { cacheTarget, type CacheTarget } from "../cache/key";
import { PageCache } from "../cache/page-cache";
import { NOT_FOUND_PATH } from "../cache/not-found";

vi.mock("../monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));

const HOST = "www.cabinet-dupont.fr";
const rules: HostRules = {
  registry: parseRegistry([{ code: "dupont", domains: [HOST] }]),
  environment: "test",
  previewDomain: undefined,
};
/** What the Express stack sets on every response, replayed by the front on a hit. */
const STACK_HEADERS = ["x-content-type-options", "nosniff", "x-robots-tag", "noindex"];
const TTL_MS = 60_000;

/** A page cache over a fake render: path -> status and body, every render counted. */
function setup() {
  let clock = 1_000_000;
  const pages = new Map<string, { status: number; body: string; headers?: Record<string, string> }>();
  const rendered: string[] = [];
  /** While set, renders wait for it (a re-render still running). */
  let gate: Promise<void> | null = null;
  const cache = new PageCache({
    maxBytes: 1_000_000,
    ttlMs: TTL_MS,
    now: () => clock,
    invalidateData: () => {},
    render: async (target) => {
      rendered.push(target.url);
      if (gate) await gate;
      const page = pages.get(target.url) ?? { status: 404, body: "introuvable" };
      return renderResult(page.status, page.body, page.headers);
    },
  });
  const hold = () => {
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    return () => {
      gate = null;
      release();
    };
  };
  return { cache, pages, rendered, hold, tick: (ms: number) => (clock += ms), now: () => clock };
}

function renderResult(status: number, body: string, headers: Record<string, string> = {}): RenderResult {
  return {
    status,
    headers: new Headers({ "content-type": "text/html; charset=utf-8", ...headers }),
    body: Buffer.from(body),
    tags: ["site:dupont"],
  };
}

/** The test server speaks plain HTTP, so its requests are http ones (the scheme the front and Express see). */
const target = (path: string): CacheTarget => cacheTarget("GET", "dupont", HOST, "http", path)!;

/** Stores an entry as the build pre-pass does: rendered elsewhere, not yet served through the stack. */
async function seedUnserved(cache: PageCache, path: string, body: string, now: number): Promise<void> {
  const entry = await buildEntry(target(path), renderResult(200, body), {
    renderedAt: now,
    ttlMs: TTL_MS,
    servedByStack: false,
  });
  expect(cache.seed([entry])).toBe(1);
}

/** The stack behind the front: records the requests it got and answers them itself. */
function fakeStack(): { listener: RequestListener; got: string[] } {
  const got: string[] = [];
  return {
    got,
    listener: (req, res) => {
      got.push(`${req.method} ${req.headers.host} ${req.url}`);
      res.writeHead(299, { "x-from": "stack" });
      res.end("stack");
    },
  };
}

/**
 * The cache hit stage under test, in the pipeline (its tenant stage over the test's practice list), with the
 * test's stack headers (and, if given, a redirect map's rule).
 */
const front = (cache: PageCache, next: RequestListener, redirected = (_code: string, _url: string) => false) =>
  createPipeline({
    rules: () => false,
    tenant: tenantOf(rules),
    cacheHit: cacheHitStage(cache, { stackHeaders: STACK_HEADERS, trust: () => false, redirected }),
    app: next,
    onResponse: [],
    requestId: () => "id",
  });

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(listener: RequestListener): Promise<number> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** node:http rather than fetch: the test sets the Host header. */
function send(
  port: number,
  path: string,
  opts: { method?: string; host?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        port,
        host: "127.0.0.1",
        path,
        method: opts.method ?? "GET",
        headers: { host: opts.host ?? HOST, ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("cacheHitStage", () => {
  /** The front on a port, over a cache holding one page already answered through the stack. */
  async function frontOverServedPage(path: string, body: string) {
    const t = setup();
    t.pages.set(path, { status: 200, body });
    await t.cache.answer(target(path)); // a request through the stack: rendered and stored
    const stack = fakeStack();
    const port = await listen(front(t.cache, stack.listener));
    return { t, stack, port };
  }

  it("answers a fresh entry the stack has served, replaying the stack's headers, without calling the stack", async () => {
    const { t, stack, port } = await frontOverServedPage("/soins/", "<h1>Nos soins</h1>");

    const hit = await send(port, "/soins/?utm_source=newsletter");
    expect(stack.got).toEqual([]);
    expect(hit.status).toBe(200);
    expect(hit.body).toBe("<h1>Nos soins</h1>");
    expect(hit.headers).toMatchObject({
      "x-cache": "HIT",
      "x-content-type-options": "nosniff",
      "x-robots-tag": "noindex",
      "content-type": "text/html; charset=utf-8",
    });
    expect(t.rendered).toEqual(["/soins/"]);

    const head = await send(port, "/soins/", { method: "HEAD" });
    expect(head).toMatchObject({ status: 200, body: "" });
    expect(head.headers["x-cache"]).toBe("HIT");
    expect(stack.got).toEqual([]);
  });

  it("asks the redirect map once for an entry's own URL, every time for another spelling, and passes a mapped one", async () => {
    const t = setup();
    t.pages.set("/", { status: 200, body: "accueil" });
    await t.cache.answer(target("/"));
    const asked: string[] = [];
    const stack = fakeStack();
    const port = await listen(front(t.cache, stack.listener, (_code, url) => (asked.push(url), url === "/?page_id=12")));
    for (let i = 0; i < 3; i++) expect((await send(port, "/")).headers["x-cache"]).toBe("HIT");
    // `/?page_id=12` has the key of `/` (the query counts for nothing), but the map names it: the stack answers.
    expect((await send(port, "/?page_id=12")).body).toBe("stack");
    expect((await send(port, "/")).headers["x-cache"]).toBe("HIT");
    expect((await send(port, "/?page_id=12")).body).toBe("stack");
    // Another spelling of the page's key (a tracking query) is asked every time: nothing of it is kept.
    expect((await send(port, "/?utm_source=x")).headers["x-cache"]).toBe("HIT");
    expect((await send(port, "/?utm_source=x")).headers["x-cache"]).toBe("HIT");
    // "/" (the entry's own URL, no redirect) is asked once.
    expect(asked).toEqual(["/", "/?page_id=12", "/?page_id=12", "/?utm_source=x", "/?utm_source=x"]);
    expect(stack.got).toEqual([`GET ${HOST} /?page_id=12`, `GET ${HOST} /?page_id=12`]);
  });

  it("passes an entry the stack has not served yet (a pre-pass seed) to the stack", async () => {
    const t = setup();
    await seedUnserved(t.cache, "/", "seed", t.now());
    const stack = fakeStack();
    const port = await listen(front(t.cache, stack.listener));
    const answer = await send(port, "/");
    expect(answer.body).toBe("stack");
    expect(stack.got).toEqual([`GET ${HOST} /`]);
  });

  it("passes to the stack what it must not answer: stale, unknown host, POST, a path never cached", async () => {
    const { t, stack, port } = await frontOverServedPage("/", "accueil");

    await send(port, "/", { host: "www.unknown-practice.fr" });
    await send(port, "/", { method: "POST" });
    await send(port, "/api/contact");
    t.tick(TTL_MS);
    await send(port, "/");
    expect(stack.got).toEqual([
      "GET www.unknown-practice.fr /",
      `POST ${HOST} /`,
      `GET ${HOST} /api/contact`,
      `GET ${HOST} /`,
    ]);
  });

  it("passes an invalidated entry to the stack while its re-render runs, and answers the new one after", async () => {
    const { t, stack, port } = await frontOverServedPage("/", "accueil");
    const release = t.hold();
    t.pages.set("/", { status: 200, body: "accueil modifié" });
    expect(t.cache.invalidate(["site:dupont"])).toBe(1);
    await send(port, "/");
    expect(stack.got).toEqual([`GET ${HOST} /`]);
    release();
    await t.cache.settled();
    expect((await send(port, "/")).body).toBe("accueil modifié");
    expect(stack.got).toHaveLength(1);
  });

  it("answers a page's own URL it remembers the key of as before: per host, and never once its entry is gone", async () => {
    const { t, stack, port } = await frontOverServedPage("/", "accueil");
    // The first hit learns the key, the next ones use it.
    for (let i = 0; i < 3; i++) expect((await send(port, "/")).headers["x-cache"]).toBe("HIT");
    // Another spelling of the same host is the same key; another port is another host, never this entry.
    expect((await send(port, "/", { host: HOST.toUpperCase() })).body).toBe("accueil");
    await send(port, "/", { host: `${HOST}:8443` });
    expect(stack.got).toEqual([`GET ${HOST}:8443 /`]);
    // Invalidated: passed to the stack while it renders again, then the new page under the key remembered.
    const release = t.hold();
    t.pages.set("/", { status: 200, body: "accueil modifié" });
    expect(t.cache.invalidate(["site:dupont"])).toBe(1);
    await send(port, "/");
    expect(stack.got).toHaveLength(2);
    release();
    await t.cache.settled();
    expect(await send(port, "/")).toMatchObject({ status: 200, body: "accueil modifié", headers: { "x-cache": "HIT" } });
    expect(stack.got).toHaveLength(2);
  });
});

describe("cacheMiddleware", () => {
  /** The handler among the app's with the tenant already resolved, as in app.ts; the next handler answers 299. */
  function app(cache: PageCache): RequestListener {
    const handlers = stack(
      [
        (req, _res, next) => {
          const state = stateOf(req) ?? beginState(req, () => "test");
          if (req.headers.host === HOST) state.tenant = { code: "dupont", host: HOST };
          next();
        },
        cacheMiddleware(cache, () => false),
      ],
      (error) => {
        throw error;
      },
      (req, res) => sendText(res, 299, `next ${req.method} ${req.url}`),
    );
    return handlers;
  }

  it("renders a miss, stores it, and answers the next request from the store", async () => {
    const t = setup();
    t.pages.set("/contact/", { status: 200, body: "<h1>Contact</h1>" });
    const port = await listen(app(t.cache));
    const miss = await send(port, "/contact/");
    expect(miss).toMatchObject({ status: 200, body: "<h1>Contact</h1>" });
    expect(miss.headers["x-cache"]).toBe("MISS");
    const hit = await send(port, "/contact/");
    expect(hit).toMatchObject({ status: 200, body: "<h1>Contact</h1>" });
    expect(hit.headers["x-cache"]).toBe("HIT");
    expect(t.rendered).toEqual(["/contact/"]);
  });

  it("sends a render it did not store as it is, rendering it again next time", async () => {
    const t = setup();
    const port = await listen(app(t.cache));
    const notFound = await send(port, "/disparu/");
    expect(notFound).toMatchObject({ status: 404, body: "introuvable" });
    expect(notFound.headers["x-cache"]).toBe("MISS");
    const head = await send(port, "/disparu/", { method: "HEAD" });
    expect(head).toMatchObject({ status: 404, body: "" });
    expect(t.rendered).toEqual(["/disparu/", "/disparu/"]);
  });

  it("leaves to the next handler a request without a tenant, a POST and a path never cached", async () => {
    const t = setup();
    const port = await listen(app(t.cache));
    expect((await send(port, "/", { host: "www.unknown-practice.fr" })).body).toBe("next GET /");
    expect((await send(port, "/", { method: "POST" })).body).toBe("next POST /");
    expect((await send(port, "/api/contact")).body).toBe("next GET /api/contact");
    expect(t.rendered).toEqual([]);
  });

  it("opens a seeded entry to the front once the stack has served it", async () => {
    const t = setup();
    await seedUnserved(t.cache, "/", "seed", t.now());
    const behind = app(t.cache);
    const throughStack: string[] = [];
    const port = await listen(
      front(t.cache, (req, res) => {
        throughStack.push(req.url!);
        behind(req, res);
      }),
    );
    const first = await send(port, "/");
    expect(first).toMatchObject({ status: 200, body: "seed" });
    expect(first.headers["x-cache"]).toBe("HIT");
    const second = await send(port, "/");
    expect(second).toMatchObject({ status: 200, body: "seed" });
    expect(second.headers["x-robots-tag"]).toBe("noindex");
    expect(throughStack).toEqual(["/"]);
    expect(t.rendered).toEqual([]);
  });
});

describe("cacheHitStage and unknown paths", () => {
  /**
   * A cache whose render finds every path but the practice's pages unknown (as a render worker does) and
   * renders the 404 page with the index of the practice's paths; one unknown path already went through the stack.
   */
  async function frontOverNotFound(redirected?: (code: string, url: string) => boolean) {
    const rendered: string[] = [];
    let gate: Promise<void> | null = null;
    const cache = new PageCache({
      maxBytes: 1_000_000,
      ttlMs: TTL_MS,
      invalidateData: () => {},
      render: async (t) => {
        rendered.push(t.url);
        if (gate) await gate;
        if (t.url === NOT_FOUND_PATH) {
          return { ...renderResult(404, "introuvable"), pathIndex: { pagePaths: new Set(["/", "/soins/"]), slugs: new Set(["soins"]) } };
        }
        return { ...renderResult(404, ""), unknownPage: true };
      },
    });
    const first = await cache.answer(target("/lien-mort/"));
    expect(first).toMatchObject({ kind: "entry", entry: { status: 404 } });
    const stack = fakeStack();
    const port = await listen(front(cache, stack.listener, redirected));
    /** Renders wait until the returned function is called. */
    const hold = () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return release;
    };
    return { cache, rendered, stack, port, hold };
  }

  it("answers a path the practice's 404 page proves unknown, without the stack or a render", async () => {
    const { rendered, stack, port } = await frontOverNotFound();
    const answer = await send(port, "/autre-lien-mort/", { headers: { "accept-encoding": "identity" } });
    expect(answer).toMatchObject({ status: 404, body: "introuvable" });
    expect(answer.headers).toMatchObject({ "x-cache": "HIT", "x-robots-tag": "noindex" });
    expect(stack.got).toEqual([]);
    expect(rendered).toEqual(["/lien-mort/", NOT_FOUND_PATH]);
  });

  it("passes to the stack a page, a path ending in a known slug, a path it may not judge, and a redirect map's path", async () => {
    const { stack, port } = await frontOverNotFound((_code, url) => url === "/ancien-lien/");
    for (const path of ["/soins/", "/ailleurs/soins/", "/Lien-Mort/", "/ancien-lien/", "/healthz/"]) await send(port, path);
    expect(stack.got).toEqual(["/soins/", "/ailleurs/soins/", "/Lien-Mort/", "/ancien-lien/", "/healthz/"].map((p) => `GET ${HOST} ${p}`));
  });

  it("passes unknown paths to the stack while the invalidated 404 page (its page list changed) renders again", async () => {
    const { cache, stack, port, hold } = await frontOverNotFound();
    const release = hold();
    cache.invalidate(["site:dupont"]);
    await send(port, "/autre-lien-mort/");
    expect(stack.got).toEqual([`GET ${HOST} /autre-lien-mort/`]);
    release();
    await cache.settled();
    await send(port, "/encore-un/");
    expect(stack.got).toHaveLength(1);
  });
});
