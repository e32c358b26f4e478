/**
 * A response that sets a cookie is neither stored nor handed to another visitor. No route of
 * the product sets one today, so this runs the real Express stack and cache front on a port with a
 * render function that does (every other part is the production code).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../src/server/http/app";
import { parseEnv } from "../src/server/env";
import { createRequestServices } from "../src/server/services";
import { PageCache } from "../src/server/cache/page-cache";
import { targetRenderer } from "../src/server/render-pool/target";
import type { RenderRequest } from "../src/server/render/render";
import { get } from "./support/cache";
import { Metrics } from "../src/server/monitoring/metrics";

let server: Server;
let url: string;
let renders = 0;

/** Stands in for Qwik City: /session/ sets a per-render cookie, other paths do not. */
const render: RenderRequest = async (request) => {
  renders++;
  const n = renders;
  await new Promise((r) => setTimeout(r, 20)); // long enough for concurrent requests to meet
  const path = new URL(request.url).pathname;
  const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
  if (path === "/session/") headers.append("set-cookie", `sid=visitor-${n}; HttpOnly`);
  return new Response(`<p>render ${n} of ${path}</p>`, { status: 200, headers });
};

beforeAll(async () => {
  const env = parseEnv({
    BACKEND_API_URL: "http://127.0.0.1:9/api/v1/websites",
    REVALIDATION_SECRET: "a-long-enough-test-secret",
    ENVIRONMENT: "dev",
    PREVIEW_DOMAIN: "localhost",
  });
  const pageCache = new PageCache({
    maxBytes: 1 << 20,
    ttlMs: 60_000,
    render: (target) => targetRenderer(render)(target),
    invalidateData: () => {},
  });
  const services = {
    ...createRequestServices(env),
    // The one render the cache does not ask for (a refused contact post's page): none is made here.
    renderer: { renderOnce: () => Promise.reject(new Error("no form page in this test")) },
    pageCache,
    redirects: { table: new Map(), warnings: [] },
    invalidate: async (tags: string[]) => pageCache.invalidate(tags),
    notFound: { record: () => {} }, // the migration watch: no 404 is asked for here
    metrics: new Metrics(false, []),
  };
  server = createServer(createApp({ services, distDir: "/nonexistent" }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("responses with Set-Cookie", () => {
  it("are rendered for every request and never stored", async () => {
    const first = await get(url, "dupont.dev.localhost", "/session/");
    const second = await get(url, "dupont.dev.localhost", "/session/");
    expect(first.headers["set-cookie"]).toBeDefined();
    expect([first.xcache, second.xcache]).toEqual(["MISS", "MISS"]);
    expect(second.headers["set-cookie"]).not.toEqual(first.headers["set-cookie"]);
  });

  it("are not shared between concurrent requests that waited for the same render", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(url, "martin.dev.localhost", "/session/")));
    const cookies = answers.map((a) => String(a.headers["set-cookie"]));
    expect(new Set(cookies).size).toBe(5);
  });

  it("while a page without a cookie is stored as usual (the control)", async () => {
    const first = await get(url, "dupont.dev.localhost", "/plain/");
    const second = await get(url, "dupont.dev.localhost", "/plain/");
    expect([first.xcache, second.xcache]).toEqual(["MISS", "HIT"]);
    expect(second.text).toBe(first.text);
  });
});
