/**
 * Issue 17, "no cheap way in": request shapes that used to reach a render (on the main thread, outside the
 * render pool and its admission) or make a page-cache key of their own. Against the built server: each is
 * refused or redirected, and the server's render count and page-store key count say nothing was rendered
 * or stored for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontend, type Frontend } from "./support/frontend";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { get } from "./support/cache";
import { rawRequest } from "./support/raw-http";

let backend: DemoBackend;
let frontend: Frontend;
let dupont: string;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  dupont = `dupont.dev.localhost:${frontend.port}`;
  // The pages these tests ask for, cached once through the whole stack.
  for (const path of ["/", "/contact/"]) expect((await get(frontend.url, dupont, path)).status).toBe(200);
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

/** Renders started and keys stored around `run` (every background render finished first). */
async function cost(run: () => Promise<void>): Promise<{ renders: number; keys: number }> {
  const settled = async () => {
    await expect.poll(async () => (await frontend.stats()).rendering, { timeout: 10_000 }).toBe(0);
    return frontend.stats();
  };
  const before = await settled();
  await run();
  const after = await settled();
  return { renders: after.renders - before.renders, keys: after.storeKeys - before.storeKeys };
}

/** One request written as it is on the socket: a request target no client library would send. */
async function raw(target: string, headers = `Host: ${"HOST"}\r\n`) {
  const answer = await rawRequest(frontend.port, [
    { data: `GET ${target} HTTP/1.1\r\n${headers.replace("HOST", dupont)}Connection: close\r\n\r\n` },
  ]);
  const location = /\r\nlocation: ([^\r]*)/i.exec(answer.text)?.[1];
  return { status: answer.status, location };
}

describe("methods a route does not take: 405 with Allow, never a render", () => {
  it.each(["OPTIONS", "PROPFIND", "TRACE", "DELETE", "PUT"])("%s / and %s /contact/", async (method) => {
    const spent = await cost(async () => {
      for (const path of ["/", "/contact/", "/lien-inconnu/"]) {
        const res = await get(frontend.url, dupont, path, { method });
        expect([path, res.status, res.headers.allow]).toEqual([path, 405, "GET, HEAD"]);
      }
    });
    expect(spent).toEqual({ renders: 0, keys: 0 });
  });

  it("is refused before anything else is asked: also on an unknown host (no tenancy lookup, no 404 page)", async () => {
    const res = await get(frontend.url, "inconnu.example.org", "/", { method: "OPTIONS" });
    expect([res.status, res.headers.allow]).toEqual([405, "GET, HEAD"]);
  });

  it("POST only on the contact relay: a page answers 405, the relay still takes its form", async () => {
    const page = await get(frontend.url, dupont, "/contact/", { method: "POST", body: "name=x" });
    expect([page.status, page.headers.allow]).toEqual([405, "GET, HEAD"]);
    const relay = await get(frontend.url, dupont, "/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://${dupont}` },
      body: "{}",
    });
    expect(relay.status).toBe(400);
    const put = await get(frontend.url, dupont, "/api/contact/", { method: "PUT", body: "{}" });
    expect([put.status, put.headers.allow]).toEqual([405, "GET, HEAD, POST"]);
  });
});

describe("Qwik call parameters the site never uses: 400, never a render", () => {
  it.each(["qdata=1", "qfunc=abc", "qaction=send", "x=1&qdata=2"])("/?%s", async (query) => {
    const spent = await cost(async () => {
      const res = await get(frontend.url, dupont, `/?${query}`);
      expect(res.status).toBe(400);
    });
    expect(spent).toEqual({ renders: 0, keys: 0 });
  });
});

describe("request targets with one meaning and another spelling", () => {
  it("raw backslashes are slashes: one 301 to the canonical path, nothing rendered or stored", async () => {
    const spent = await cost(async () => {
      for (const target of ["/zz9\\..\\contact\\", "/contact\\", "/\\contact/"]) {
        expect(await raw(target), target).toEqual({ status: 301, location: "/contact/" });
      }
    });
    expect(spent).toEqual({ renders: 0, keys: 0 });
  });

  it("/\\evil.com/./ is redirected on this site, never to another one", async () => {
    const answer = await raw("/\\evil.com/./");
    expect(answer.status).toBe(301);
    expect(answer.location).toBe("/evil.com/");
  });

  it("a request target with a fragment is a 400, not a second copy of the page", async () => {
    const spent = await cost(async () => {
      expect((await raw("/#r1")).status).toBe(400);
      expect((await raw("/contact/#top")).status).toBe(400);
    });
    expect(spent).toEqual({ renders: 0, keys: 0 });
  });

  it("two Host headers are a 400, also for a page the cache would answer at once", async () => {
    const twice = `Host: HOST\r\nHost: martin.dev.localhost:${frontend.port}\r\n`;
    expect((await raw("/", twice)).status).toBe(400);
    expect((await raw("/lien-inconnu/", twice)).status).toBe(400);
    expect((await raw("/")).status).toBe(200);
  });

  it("an internal path reached through dot segments is a 404, and never named in a Location", async () => {
    for (const target of ["/x/../_sites/martin/", "/%5Fsites/martin/", "/a/./../_sites/dupont/contact/"]) {
      const answer = await raw(target);
      expect(answer, target).toEqual({ status: 404, location: undefined });
    }
  });
});

describe("the social card: one entry per title it draws", () => {
  it("every spelling of a title (spaces, tabs, /api/og or /api/og/) is the entry of that title: one render, one key", async () => {
    const spellings = [
      "/api/og?title=Contact",
      "/api/og/?title=Contact",
      ...Array.from({ length: 30 }, (_, i) => `/api/og?title=${"%20".repeat(i + 1)}Contact${i % 2 ? "%09" : "%20"}`),
      "/api/og?title=Contact&utm_source=x",
    ];
    const spent = await cost(async () => {
      for (const path of spellings) {
        const res = await get(frontend.url, dupont, path);
        expect([path, res.status, res.headers["content-type"]]).toEqual([path, 200, "image/png"]);
      }
    });
    expect(spent).toEqual({ renders: 1, keys: 1 });
  });
});
