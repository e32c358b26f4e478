/**
 * One server, many practices. The real built server on a port, the demo content backend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontend, runFrontendExpectingFailure, DEFAULT_SECRET, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import {
  ACTIVE_DEMO_PRACTICES,
  INACTIVE_DEMO_PRACTICE,
  backendJson,
  practiceName,
  startBackend,
  type DemoBackend,
} from "./support/demo-backend";
import { loadRegistry } from "../src/server/tenancy/registry";

let backend: DemoBackend;
let frontend: Frontend;
const names: Record<string, string> = {};

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  for (const code of ACTIVE_DEMO_PRACTICES) names[code] = await practiceName(backend, code);
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

function otherNames(code: string): string[] {
  return Object.entries(names)
    .filter(([other]) => other !== code)
    .map(([, name]) => name);
}

describe("a practice per Host", () => {
  it.each(ACTIVE_DEMO_PRACTICES)("%s serves its own homepage on its preview host", async (code) => {
    const res = await http(frontend.url, `${code}.dev.localhost:${frontend.port}`, "/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain(names[code]);
    for (const other of otherNames(code)) expect(res.body).not.toContain(other);
    expect(res.body).not.toContain("/_sites/");
  });

  it.each(ACTIVE_DEMO_PRACTICES)("%s serves its homepage on each registered domain", async (code) => {
    const practice = loadRegistry("tenants/practices.json").practices.find((p) => p.code === code)!;
    for (const domain of practice.domains) {
      const res = await http(frontend.url, domain.toUpperCase(), "/");
      expect(res.status, domain).toBe(200);
      expect(res.body).toContain(names[code]);
    }
  });

  it("answers 404 for the inactive practice, on its preview host and its registered domain", async () => {
    const inactive = await http(frontend.url, `${INACTIVE_DEMO_PRACTICE}.dev.localhost`, "/");
    expect(inactive.status).toBe(404);
    // The product's own page, in French, not Qwik City's generic English "404 Not Found" (issue 27).
    expect(inactive.body).toContain('<html lang="fr">');
    expect(inactive.body).toContain("<h1>Page introuvable</h1>");
    expect(inactive.body).not.toContain("Not Found");
    expect((await http(frontend.url, "www.cabinet-leroy.fr", "/")).status).toBe(404);
  });

  it("answers 404 for a preview code the backend does not know", async () => {
    const res = await http(frontend.url, "inconnu.dev.localhost", "/");
    expect(res.status).toBe(404);
  });

  it.each(["evil.test", "dupont.dev.localhost.evil.test", "dupont.staging.localhost", "127.0.0.1", "localhost"])(
    "answers a plain 404 for the unknown host %s",
    async (host) => {
      const res = await http(frontend.url, host, "/");
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toMatch(/text\/plain/);
      for (const name of Object.values(names)) expect(res.body).not.toContain(name);
    },
  );

  it("answers 404 with no Host header at all", async () => {
    const res = await http(frontend.url, "", "/");
    expect(res.status).toBe(404);
  });

  it.each(["/_sites/martin/", "/_sites/dupont/", "/_sites/martin/q-data.json", "/%5Fsites/martin/", "//_sites/martin/"])(
    "never serves the internal path %s from outside",
    async (path) => {
      for (const host of ["dupont.dev.localhost", "www.cabinet-dupont.fr", "evil.test"]) {
        const res = await http(frontend.url, host, path);
        expect(res.status, `${host}${path}`).toBe(404);
        expect(res.body).not.toContain(names.martin);
      }
    },
  );

  it("ignores X-Forwarded-Host for the choice of practice", async () => {
    const spoofed = await http(frontend.url, "evil.test", "/", { headers: { "x-forwarded-host": "dupont.dev.localhost" } });
    expect(spoofed.status).toBe(404);
    const res = await http(frontend.url, "dupont.dev.localhost", "/", { headers: { "x-forwarded-host": "martin.dev.localhost" } });
    expect(res.status).toBe(200);
    expect(res.body).toContain(names.dupont);
    expect(res.body).not.toContain(names.martin);
    expect(res.body).not.toContain("martin.dev.localhost");
  });

  it("redirects /contact to /contact/ on the public path", async () => {
    const res = await http(frontend.url, "dupont.dev.localhost", "/contact");
    expect(res.status).toBeGreaterThanOrEqual(301);
    expect(res.status).toBeLessThanOrEqual(308);
    expect(res.headers.location).toMatch(/^(https?:\/\/dupont\.dev\.localhost(:\d+)?)?\/contact\/$/);
  });
});

describe("content backend failures", () => {
  it("answers 503 naming nothing internal when the backend breaks the contract, and logs the field", async () => {
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "malformed", match: "/sites/bernard/config/" }) });
    try {
      // The config read by earlier renders sits in the data cache: drop it, and ask for a page never rendered.
      const drop = await http(frontend.url, "127.0.0.1", "/api/revalidate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret: DEFAULT_SECRET, tags: ["site:bernard"] }),
      });
      expect(drop.status).toBe(200);
      const res = await http(frontend.url, "bernard.dev.localhost", "/mentions-legales/");
      expect(res.status).toBe(503);
      expect(res.body).not.toMatch(/127\.0\.0\.1|api\/v1|zod|stack|Error:/i);
      expect(res.body).toContain("<h1>Service temporairement indisponible</h1>");
      await expect.poll(() => frontend.output()).toMatch(/invalid_payload on \/sites\/bernard\/config\/: field \w+/);
    } finally {
      await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
    }
  });

  it("answers 503 when the backend answers 500, and logs each failed read once", async () => {
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "error500", match: "/sites/petit/" }) });
    try {
      // A page never rendered (the homepage may be served from the page cache).
      expect((await http(frontend.url, "petit.dev.localhost", "/mentions-legales/")).status).toBe(503);
      // The site shell's reads too (its cached copy dropped): the layout's and the page's loaders share them,
      // and each failure was logged by both (issue 27: backend errors logged twice per request).
      const drop = await http(frontend.url, "127.0.0.1", "/api/revalidate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret: DEFAULT_SECRET, tags: ["site:petit"] }),
      });
      expect(drop.status).toBe(200);
      // This request's lines only (its id): the webhook's drop may start a background refresh of another
      // page whose own failed reads are logged too, once each, for no request.
      const requestId = `failed-reads-${Date.now()}`;
      expect((await http(frontend.url, "petit.dev.localhost", "/equipe/", { headers: { "x-request-id": requestId } })).status).toBe(503);
      const lines = () => frontend.output().split("\n").filter((l) => l.includes(`"requestId":"${requestId}"`) && l.includes("[error] backend bad_status on /sites/petit/"));
      await expect.poll(() => lines().length).toBeGreaterThan(0);
      expect(lines().length, lines().join("\n")).toBe(new Set(lines().map((l) => /on (\S+):/.exec(l)?.[1])).size);
    } finally {
      await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
    }
  });

  it("answers 503 when the backend is stopped, and keeps running", async () => {
    const ownBackend = await startBackend();
    const ownFrontend = await startFrontend({ backendUrl: ownBackend.url });
    try {
      expect((await http(ownFrontend.url, "martin.dev.localhost", "/")).status).toBe(200);
      await ownBackend.close();
      // A page the cache may hold stays served; a page never rendered needs the backend.
      const cold = await http(ownFrontend.url, "bernard.dev.localhost", "/");
      expect(cold.status).toBe(503);
      expect(cold.body).toContain("indisponible");
      const health = await fetch(`${ownFrontend.url}/healthz`);
      expect(health.status).toBe(200);
      expect((await http(ownFrontend.url, "petit.dev.localhost", "/")).status).toBe(503);
      await expect.poll(() => ownFrontend.output()).toMatch(/backend unreachable on \/sites\/(bernard|petit)\//);
    } finally {
      await ownFrontend.stop();
      await ownBackend.close().catch(() => {});
    }
  });
});

describe("visitors who go away", () => {
  it("survives requests aborted mid-response (an abandoned prefetch of q-data.json)", async () => {
    const { connect } = await import("node:net");
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(frontend.port, "127.0.0.1", () => {
          const path = i % 2 ? "/mentions-legales/q-data.json" : "/contact/";
          socket.write(`GET ${path} HTTP/1.1\r\nHost: dupont.dev.localhost\r\n\r\n`);
          // Close as soon as the first bytes arrive, while the render is still streaming.
          socket.once("data", () => socket.destroy());
          setTimeout(() => socket.destroy(), 200);
        });
        socket.on("close", () => resolve());
        socket.on("error", () => resolve());
      });
    }
    const res = await http(frontend.url, "dupont.dev.localhost", "/");
    expect(res.status).toBe(200);
  });

  it("answers HEAD like GET without a body, and keeps running", async () => {
    for (const path of ["/", "/page-inconnue/", "/contact/"]) {
      const res = await http(frontend.url, "dupont.dev.localhost", path, { method: "HEAD" });
      expect(res.status, path).toBe(path === "/page-inconnue/" ? 404 : 200);
      expect(res.body).toBe("");
    }
    expect((await http(frontend.url, "dupont.dev.localhost", "/")).status).toBe(200);
    expect(frontend.output()).not.toMatch(/unhandled|Unable to render/i);
  });
});

describe("start-up refusals", () => {
  const base = {
    BACKEND_API_URL: "http://127.0.0.1:9/api/v1/websites",
    REVALIDATION_SECRET: DEFAULT_SECRET,
    ENVIRONMENT: "dev",
    // A port nothing listens on: a server that wrongly starts would hold it, not fail the refusal check.
    PORT: "39999",
  };

  it.each(["BACKEND_API_URL", "REVALIDATION_SECRET", "ENVIRONMENT"])("refuses to start without %s, naming it", async (name) => {
    const { code, output } = await runFrontendExpectingFailure({ ...base, [name]: undefined });
    expect(code).toBe(1);
    expect(output).toContain(`${name} is required but not set`);
  });

  it("refuses to start with a malformed practice list, naming the problem", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "tenants-")), "practices.json");
    writeFileSync(file, JSON.stringify([{ code: "a", domains: ["x.fr"] }, { code: "b", domains: ["x.fr"] }]));
    const { code, output } = await runFrontendExpectingFailure({ ...base, TENANTS_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain('host "x.fr" is listed by both "a" and "b"');
  });
});
