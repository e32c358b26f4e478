/**
 * Security headers on every response of the real server, refusals of the tenancy layer
 * included; frame-ancestors follows BUILD_CMS_ORIGIN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { joinedCluster, startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { PERMISSIONS_POLICY } from "../src/server/http/security-headers";
import { inlineScriptHashes, resourcePolicy } from "../src/server/render/content-security-policy";
import { startRedis, type TestRedis } from "./support/redis";
import { until } from "./support/until";

const CMS = "https://cms.example.org";
let backend: DemoBackend;
let frontend: Frontend;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: CMS } });
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

const RESOURCE_CSP = `default-src 'none'; frame-ancestors 'self' ${CMS}; base-uri 'none'; form-action 'none'`;

/** The directives of a policy by name (a name given twice is a failure of its own). */
function directives(policy: string | string[] | undefined): Record<string, string[]> {
  expect(typeof policy, "exactly one Content-Security-Policy header").toBe("string");
  const out: Record<string, string[]> = {};
  for (const directive of (policy as string).split(";").map((d) => d.trim()).filter(Boolean)) {
    const [name, ...sources] = directive.split(/\s+/);
    expect(out[name], `directive ${name} given twice`).toBeUndefined();
    out[name] = sources;
  }
  return out;
}

/** A rendered page's policy: no inline script but those of this very body, named by hash. */
function expectPagePolicy(res: { headers: Record<string, string | string[] | undefined>; body: string }, scripts = true): void {
  const csp = directives(res.headers["content-security-policy"]);
  expect(csp["default-src"]).toEqual(["'none'"]);
  expect(csp["frame-ancestors"]).toEqual(["'self'", CMS]);
  expect(csp["script-src"]).not.toContain("'unsafe-inline'");
  expect(csp["script-src"]).not.toContain("'unsafe-eval'");
  const hashes = inlineScriptHashes(res.body);
  // Qwik's pages carry inline scripts (the qwikloader at least); a page without them names none.
  expect(hashes.length > 0).toBe(scripts);
  expect(csp["script-src"].filter((s) => s.startsWith("'sha256-"))).toEqual(hashes);
}

describe("security headers", () => {
  const asset = () => `/build/${readdirSync("dist/build").find((f) => f.endsWith(".js"))}`;

  it.each([
    ["an unknown host (tenancy 404)", "inconnu.example.org", () => "/", 404],
    ["the internal prefix (tenancy 404)", "dupont.dev.localhost", () => "/_sites/martin/", 404],
    ["the health check", "anything.example", () => "/healthz", 200],
    ["a build asset", "dupont.dev.localhost", asset, 200],
    ["robots.txt", "www.cabinet-dupont.fr", () => "/robots.txt", 200],
    ["a redirect", "www.cabinet-dupont.fr", () => "/honoraires.html", 301],
    ["a refused media request", "www.cabinet-dupont.fr", () => "/api/media?path=/etc/passwd", 400],
    ["a media file", "www.cabinet-dupont.fr", () => "/api/media?path=%2Fmedia%2Fdupont%2Fhero-480w.webp", 200],
  ])("on %s", async (_name, host, path, status) => {
    const res = await http(frontend.url, host, path());
    expect(res.status).toBe(status);
    expect(res.headers["content-security-policy"]).toBe(RESOURCE_CSP);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  });

  it.each([
    ["a page", "dupont.dev.localhost", "/", 200, true],
    ["a practice's 404 page", "dupont.dev.localhost", "/nulle-part/", 404, true],
    ["an inactive practice (a page without script)", "www.cabinet-leroy.fr", "/", 404, false],
  ])("%s: a policy naming its inline scripts by hash, the other headers of every response", async (_name, host, path, status, scripts) => {
    const res = await http(frontend.url, host, path);
    expect(res.status).toBe(status);
    expectPagePolicy(res, scripts);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  });

  it("a cache hit (the fast path in front of Express) replays the page's one policy, byte for byte", async () => {
    const path = "/?csp-hit";
    const first = await http(frontend.url, "martin.dev.localhost", path);
    expectPagePolicy(first);
    let hit = first;
    // The fast path answers an entry once it was served through the stack: poll until it does.
    await until(async () => (hit = await http(frontend.url, "martin.dev.localhost", path)).headers["x-cache"] === "HIT", "a HIT");
    expect(hit.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    expect(hit.body).toBe(first.body);
    expectPagePolicy(hit);
    const notModified = await http(frontend.url, "martin.dev.localhost", path, { headers: { "if-none-match": String(hit.headers.etag) } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
  });

  it("frames only 'self' when BUILD_CMS_ORIGIN is not set", async () => {
    const bare = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: "" } });
    try {
      const res = await http(bare.url, "dupont.dev.localhost", "/");
      expect(directives(res.headers["content-security-policy"])["frame-ancestors"]).toEqual(["'self'"]);
      expect((await http(bare.url, "dupont.dev.localhost", "/robots.txt")).headers["content-security-policy"]).toBe(
        resourcePolicy({ cmsOrigin: undefined }),
      );
    } finally {
      await bare.stop();
    }
  });

  it("a page from the shared store (another instance's render, through Redis) keeps its policy", async () => {
    let redis: TestRedis | undefined;
    let one: Frontend | undefined;
    let two: Frontend | undefined;
    try {
      redis = await startRedis({ maxmemory: "16mb" });
      const env = { BUILD_CMS_ORIGIN: CMS, CACHE_URL: redis.url(0) };
      [one, two] = await Promise.all([startFrontend({ backendUrl: backend.url, env }), startFrontend({ backendUrl: backend.url, env })]);
      // Both joined the cluster (an instance not yet trusted renders for itself instead of reading Redis).
      for (const instance of [one, two]) await joinedCluster(instance);
      const rendered = await http(one.url, "bernard.dev.localhost", "/");
      expectPagePolicy(rendered);
      // The page is written to Redis after the answer: wait for it there.
      await until(async () => (await redis!.command("--scan", "--pattern", "*:page:*")).trim() !== "", "the page in Redis");
      // The second instance has not rendered it: it loads the stored page (cache/shared/codec.ts).
      const loaded = await http(two.url, "bernard.dev.localhost", "/");
      expect(loaded.body).toBe(rendered.body);
      expect(loaded.headers["content-security-policy"]).toBe(rendered.headers["content-security-policy"]);
    } finally {
      await one?.stop();
      await two?.stop();
      await redis?.stop();
    }
  }, 60_000);

  it("warns at start when a production instance has no BUILD_CMS_ORIGIN", async () => {
    const prod = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: "", ENVIRONMENT: "prod" } });
    try {
      expect(prod.output()).toContain("[warn] security headers: BUILD_CMS_ORIGIN is empty");
    } finally {
      await prod.stop();
    }
  });
});
