/**
 * Security headers on every response of the real server, refusals of the tenancy layer
 * included; frame-ancestors follows BUILD_CMS_ORIGIN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { PERMISSIONS_POLICY } from "../src/server/http/security-headers";

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

const EXPECTED_CSP = `frame-ancestors 'self' ${CMS}; base-uri 'self'; object-src 'none'; form-action 'self'`;

describe("security headers", () => {
  const asset = () => `/build/${readdirSync("dist/build").find((f) => f.endsWith(".js"))}`;

  it.each([
    ["a page", "dupont.dev.localhost", () => "/", 200],
    ["a practice's 404 page", "dupont.dev.localhost", () => "/nulle-part/", 404],
    ["an unknown host (tenancy 404)", "inconnu.example.org", () => "/", 404],
    ["the internal prefix (tenancy 404)", "dupont.dev.localhost", () => "/_sites/martin/", 404],
    ["an inactive practice", "www.cabinet-leroy.fr", () => "/", 404],
    ["the health check", "anything.example", () => "/healthz", 200],
    ["a build asset", "dupont.dev.localhost", asset, 200],
    ["robots.txt", "www.cabinet-dupont.fr", () => "/robots.txt", 200],
    ["a redirect", "www.cabinet-dupont.fr", () => "/honoraires.html", 301],
    ["a refused media request", "www.cabinet-dupont.fr", () => "/api/media?path=/etc/passwd", 400],
  ])("on %s", async (_name, host, path, status) => {
    const res = await http(frontend.url, host, path());
    expect(res.status).toBe(status);
    expect(res.headers["content-security-policy"]).toBe(EXPECTED_CSP);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  });

  it("frames only 'self' when BUILD_CMS_ORIGIN is not set", async () => {
    const bare = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: "" } });
    try {
      const res = await http(bare.url, "dupont.dev.localhost", "/");
      expect(res.headers["content-security-policy"]).toBe("frame-ancestors 'self'; base-uri 'self'; object-src 'none'; form-action 'self'");
    } finally {
      await bare.stop();
    }
  });

  it("warns at start when a production instance has no BUILD_CMS_ORIGIN", async () => {
    const prod = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: "", ENVIRONMENT: "prod" } });
    try {
      expect(prod.output()).toContain("[warn] security headers: BUILD_CMS_ORIGIN is empty");
    } finally {
      await prod.stop();
    }
  });
});
