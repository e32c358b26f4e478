/**
 * GET /api/media, the live media proxy, on the real server with the demo backend: what it
 * serves, what it refuses (SSRF and traversal attempts), resizing, and backend failures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { startFrontend, type Frontend } from "./support/frontend";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { httpBytes } from "./support/http-bytes";

let backend: DemoBackend;
let frontend: Frontend;
let host: string;
/** A server that must never be reached through the proxy: every request it gets is an SSRF. */
let canary: Server;
let canaryHits = 0;
let canaryOrigin: string;

beforeAll(async () => {
  canary = createServer((_req, res) => {
    canaryHits += 1;
    res.writeHead(200, { "content-type": "image/png" }).end("canary");
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryOrigin = `127.0.0.1:${(canary.address() as AddressInfo).port}`;
  backend = await startBackend();
  // The product's backend timeout (4 s): a shorter one would fail a busy machine's ordinary media fetches.
  frontend = await startFrontend({ backendUrl: backend.url });
  host = `dupont.dev.localhost:${frontend.port}`;
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
  canary?.closeAllConnections();
  await new Promise((resolve) => canary?.close(resolve));
});

beforeEach(async () => {
  await backendJson(backend, "/admin/reset", { method: "POST" });
});

/** Through the host of the active practice whose folder the path names (a practice's folder is served on its
 * own hosts only), dupont's for any other folder. */
const media = (query: string) => {
  const owner = /path=%2Fmedia%2F(dupont|martin|bernard|petit)%2F/.exec(query)?.[1];
  return httpBytes(frontend.url, owner ? `${owner}.dev.localhost:${frontend.port}` : host, `/api/media?${query}`);
};
const path = (p: string) => `path=${encodeURIComponent(p)}`;

describe("serving", () => {
  it.each([
    ["/media/dupont/logo.svg", "image/svg+xml"],
    ["/media/martin/logo.png", "image/png"],
    ["/media/bernard/logo.jpg", "image/jpeg"],
    ["/media/shared/implant.webp", "image/webp"],
  ])("streams %s with its type, length and long cache headers", async (p, type) => {
    const file = readFileSync(`ops/demo/backend${p}`);
    const res = await media(path(p));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe(type);
    expect(res.body.equals(file)).toBe(true);
    if (type !== "image/svg+xml") expect(Number(res.headers["content-length"])).toBe(file.byteLength);
    expect(res.headers["cache-control"]).toBe("public, max-age=604800, stale-while-revalidate=86400");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("keeps a small file in memory: the next answer is the same file and headers without asking the backend", async () => {
    const p = "/media/shared/aligneurs-960w.webp";
    const first = await media(path(p));
    expect(first.status).toBe(200);
    expect(first.headers["x-media-cache"]).toBe("MISS");
    const stats = await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats");
    for (const method of ["GET", "HEAD"] as const) {
      const again = await httpBytes(frontend.url, host, `/api/media?${path(p)}`, { method });
      expect(again.status, `${method} ${again.body.toString().slice(0, 200)}`).toBe(200);
      expect(again.headers["x-media-cache"]).toBe("HIT");
      expect(again.body.equals(method === "GET" ? first.body : Buffer.alloc(0))).toBe(true);
      for (const name of ["content-type", "content-length", "cache-control", "etag", "last-modified"]) {
        expect(again.headers[name], name).toBe(first.headers[name]);
      }
    }
    expect(await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats")).toEqual(stats);
  });

  it("gives an SVG a policy that keeps it inert when opened on its own", async () => {
    const res = await media(path("/media/dupont/logo.svg"));
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it("passes a 404 through", async () => {
    const res = await media(path("/media/dupont/absent.png"));
    expect(res.status).toBe(404);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
  });

  it("serves a practice's folder on its own hosts only; a folder of no practice on every host", async () => {
    const through = (h: string, p: string) => httpBytes(frontend.url, h, `/api/media?${path(p)}`);
    expect((await through("www.centre-dentaire-martin.fr", "/media/dupont/logo.svg")).status).toBe(404);
    expect((await through("www.cabinet-dupont.fr", "/media/dupont/logo.svg")).status).toBe(200);
    expect((await through("www.centre-dentaire-martin.fr", "/media/shared/implant.webp")).status).toBe(200);
  });

  it("never serves an inactive practice's files through an active practice's host", async () => {
    const files = readdirSync("ops/demo/backend/media/leroy").filter((name) => name.includes("."));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const res = await media(path(`/media/leroy/${file}`));
      expect([file, res.status]).toEqual([file, 404]);
    }
  });
});

describe("resizing (w)", () => {
  it.each([
    ["/media/shared/implant.webp", 480, "webp"],
    ["/media/martin/logo.png", 160, "png"],
    ["/media/dupont/og.jpg", 640, "jpeg"],
  ])("%s at w=%s keeps its format and width, then comes from the cache", async (p, w, format) => {
    const first = await media(`${path(p)}&w=${w}`);
    expect(first.status).toBe(200);
    expect(first.headers["x-media-cache"]).toBe("MISS");
    expect(Number(first.headers["content-length"])).toBe(first.body.byteLength);
    const meta = await sharp(first.body).metadata();
    expect(meta.format).toBe(format);
    expect(meta.width).toBe(w);
    const original = await sharp(readFileSync(`ops/demo/backend${p}`)).metadata();
    expect(first.body.byteLength).toBeLessThan(readFileSync(`ops/demo/backend${p}`).byteLength);
    expect(meta.height).toBe(Math.round((original.height! * w) / original.width!));

    const stats = await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats");
    const second = await media(`${path(p)}&w=${w}`);
    expect(second.headers["x-media-cache"]).toBe("HIT");
    expect(second.body.equals(first.body)).toBe(true);
    expect(await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats")).toEqual(stats);
  });

  it("never enlarges a small image", async () => {
    const res = await media(`${path("/media/martin/logo.png")}&w=1600`);
    expect((await sharp(res.body).metadata()).width).toBe(320);
  });

  it("serves an SVG as it is", async () => {
    const res = await media(`${path("/media/dupont/logo.svg")}&w=160`);
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync("ops/demo/backend/media/dupont/logo.svg"))).toBe(true);
  });

  it("passes a 404 through", async () => {
    expect((await media(`${path("/media/none.webp")}&w=320`)).status).toBe(404);
  });
});

describe("refusals (400, nothing fetched)", () => {
  const attempts = () => [
    "",
    "url=http://127.0.0.1:4000/media/dupont/logo.svg",
    path(`http://${canaryOrigin}/media/x.png`),
    path(`//${canaryOrigin}/media/x.png`),
    `path=%2F%2F${canaryOrigin}%2Fmedia%2Fx.png`,
    path(`/media/@${canaryOrigin}/x.png`),
    path(`/media/x.png@${canaryOrigin}`),
    path(`\\\\${canaryOrigin}\\media\\x.png`),
    path(`/\\${canaryOrigin}/media/x.png`),
    path("file:///etc/passwd"),
    path("gopher://127.0.0.1:6379/_INFO"),
    path("javascript:alert(1)//x.png"),
    path("data:image/png;base64,AAAA"),
    path("/api/v1/websites/sites/dupont/config/"),
    path("/media/../api/v1/websites/sites/dupont/config/x.png"),
    path("/media/dupont/../../admin/stats.png"),
    path("/media/%2e%2e/admin/stats.png"),
    path("/media/%2E%2E%2Fadmin%2Fstats.png"),
    path("/media/dupont%2F..%2F..%2Fadmin.png"),
    path("/media/%252e%252e/admin.png"),
    "path=/media/%252e%252e/admin.png",
    "path=%2Fmedia%2F%25252e%25252e%2Fadmin.png",
    path("/media/..%5cadmin.png"),
    path("/media/..\\admin.png"),
    path("/media/%c0%ae%c0%ae/admin.png"),
    path("/media/x%00.png"),
    path("/media/x.png%0d%0aX-Injected:%201"),
    path("/media/dupont/logo.svg?x=1"),
    path("/media/dupont/logo.svg#x"),
    path("/media/.env.png"),
    path("/media/dupont/logo.gif"),
    path("/media/dupont/"),
    `${path("/media/dupont/logo.svg")}&${path("/media/martin/logo.png")}`,
    `${path("/media/shared/implant.webp")}&w=333`,
    `${path("/media/shared/implant.webp")}&w=-480`,
    `${path("/media/shared/implant.webp")}&w=480&w=960`,
  ];

  it("refuses every SSRF and traversal attempt", async () => {
    await backendJson(backend, "/admin/stats/reset", { method: "POST" });
    const answers: [string, number][] = [];
    for (const query of attempts()) answers.push([query, (await media(query)).status]);
    expect(answers.filter(([, status]) => status !== 400)).toEqual([]);
    expect(canaryHits).toBe(0);
    const stats = await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats");
    expect(Object.keys(stats.requests).filter((key) => !key.includes("/admin"))).toEqual([]);
  });

  it("names the problem in the answer", async () => {
    const res = await media(path("/media/%2e%2e/admin.png"));
    expect(JSON.parse(res.body.toString())).toEqual({ error: "`path` must not leave /media/" });
  });
});

describe("backend failures", () => {
  it("times out (504) when the backend is slow", async () => {
    // Slower than the product's 4 s timeout by far: the frontend gives up at its timeout, about 4 s.
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "slow", delayMs: 12_000, match: "/media/" }) });
    const started = Date.now();
    // Files no earlier test asked for: one already served would be answered from memory (a HIT).
    const res = await media(path("/media/dupont/favicon.svg"));
    expect(res.status).toBe(504);
    // At the timeout, not when the backend answered.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("answers 502 when the backend fails", async () => {
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "error500", match: "/media/" }) });
    expect((await media(path("/media/shared/gencives.webp"))).status).toBe(502);
    expect((await media(`${path("/media/shared/sourire.webp")}&w=320`)).status).toBe(502);
    expect(frontend.output()).toMatch(/\[error\] media: backend answered 500 for \/media\/shared\/gencives\.webp/);
  });
});
