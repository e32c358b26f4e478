/**
 * The generated reverse-proxy config, checked by real nginx in front of the real server: the Host
 * header reaches the frontend unchanged, unknown hosts get nothing, build assets are immutable (a missing
 * one never is), every location is limited per address in its environment's zones, and nginx sets the
 * request id. With TLS on (as deployed): pages over HTTPS with HSTS, plain
 * HTTP redirected, unknown names refused at the handshake, old protocol versions refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { startFrontend, type Frontend } from "./support/frontend";
import { until } from "./support/until";
import { ASSET_BURST, CONN_PER_ADDRESS } from "../ops/deploy/nginx/generate";
import { http } from "./support/http";
import { httpsGet, MONITORING_CREDENTIALS, startNginx, type TestNginx } from "./support/nginx";
import { practiceName, startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;
let nginx: TestNginx | undefined;
let tlsNginx: TestNginx | undefined;
let proxyUrl: string;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  // The demo backend stands in for the monitoring alert UI (any HTTP server behind the basic authentication).
  nginx = await startNginx([`127.0.0.1:${frontend.port}`], { monitoring: new URL(backend.url).host });
  proxyUrl = nginx.url;
  tlsNginx = await startNginx([`127.0.0.1:${frontend.port}`], { tls: true });
});

/** The instance's access lines so far (LOG_FORMAT=json, one JSON object per request). */
function accessLines(): Record<string, unknown>[] {
  return frontend
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{") && l.includes('"msg":"access"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

afterAll(async () => {
  nginx?.stop();
  tlsNginx?.stop();
  await frontend?.stop();
  await backend?.close();
});

describe("nginx in front of the frontend", () => {
  it("passes the Host through: preview hosts and registered domains reach their practice", async () => {
    const dupont = await practiceName(backend, "dupont");
    const martin = await practiceName(backend, "martin");
    const preview = await http(proxyUrl, "martin.dev.localhost", "/");
    expect(preview.status).toBe(200);
    expect(preview.body).toContain(martin);
    const domain = await http(proxyUrl, "www.cabinet-dupont.fr", "/");
    expect(domain.status).toBe(200);
    expect(domain.body).toContain(dupont);
    const spoof = await http(proxyUrl, "www.cabinet-dupont.fr", "/", { headers: { "x-forwarded-host": "martin.dev.localhost" } });
    expect(spoof.body).toContain(dupont);
    expect(spoof.body).not.toContain(martin);
  });

  it("gives unknown hosts no answer at all", async () => {
    await expect(http(proxyUrl, "evil.test", "/")).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(http(proxyUrl, "dupont.dev.localhost.evil.test", "/")).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it("serves build assets as immutable for a year, and a missing one is never marked so", async () => {
    const asset = readdirSync("dist/build").find((f) => f.endsWith(".js"))!;
    const res = await http(proxyUrl, "dupont.dev.localhost", `/build/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // A 404 kept for a year would outlive the deploy that adds the file (the instance answers a missing build
    // file with a plain 404, no-store, whatever its spelling).
    for (const [path, status] of [["/build/q-no-such-file.js/", 404], ["/build/q-no-such-file.js", 404]] as const) {
      const missing = await http(proxyUrl, "dupont.dev.localhost", path);
      expect(missing.status).toBe(status);
      expect(String(missing.headers["cache-control"] ?? ""), path).not.toMatch(/immutable|max-age=31536000/);
      expect(missing.headers.expires, path).toBeUndefined();
    }
  });

  it("limits /build/ too, per address and environment: a first visit's files pass, a flood gets 429", async () => {
    const asset = readdirSync("dist/build").find((f) => f.endsWith(".js"))!;
    // Waves of 40 at once (under the 64 requests in progress allowed per address), back to back: the burst
    // (100) passes, then the zone refills at 50 r/s only.
    const statuses: number[] = [];
    for (let wave = 0; wave < 5; wave++) {
      statuses.push(
        ...(await Promise.all(Array.from({ length: 40 }, async () => (await http(proxyUrl, "martin.staging.localhost", `/build/${asset}`)).status))),
      );
    }
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(ASSET_BURST);
    expect(passed).toBeLessThan(200);
    expect(statuses.filter((s) => s === 429).length).toBe(200 - passed);
    const log = readFileSync(join(nginx!.configDir, "error.log"), "utf8");
    expect(log).toMatch(/limiting requests, excess: .* by zone "assets_staging"/);
    // The pages of the environment keep their own allowance, and another environment's zones are untouched.
    expect((await http(proxyUrl, "martin.staging.localhost", "/healthz")).status).toBe(200);
    expect(log).not.toMatch(/zone "(assets|pages|conn)_prod"/);
  });

  it("caps the requests in progress from one address (limit_conn: 429 past 64 at once)", async () => {
    // Requests held in progress: a POST whose body never comes (nginx reads it, up to client_body_timeout,
    // before it proxies anything). On /build/, whose burst (100) lets every one reach the connection limit.
    const extra = 6;
    const answers: string[] = [];
    const sockets = Array.from({ length: CONN_PER_ADDRESS + extra }, (_, i) => {
      const socket = connect(Number(new URL(proxyUrl).port), "127.0.0.1");
      answers[i] = "";
      socket.on("data", (chunk) => (answers[i] += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.write("POST /build/held HTTP/1.1\r\nHost: petit.dev.localhost\r\nContent-Length: 1000\r\n\r\n");
      return socket;
    });
    try {
      await until(() => answers.filter((a) => a.startsWith("HTTP/1.1 429")).length === extra, `${extra} answers 429`);
      // The others are still held, unanswered: exactly 64 in progress at once.
      expect(answers.filter((a) => a !== "" && !a.startsWith("HTTP/1.1 429"))).toEqual([]);
      expect(answers.filter((a) => a === "")).toHaveLength(CONN_PER_ADDRESS);
      expect(readFileSync(join(nginx!.configDir, "error.log"), "utf8")).toMatch(/limiting connections by zone "conn_dev"/);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("sets its own X-Request-Id: a client's never reaches the instance's access line or the answer", async () => {
    const chosen = "client-chosen-id-26";
    // A path of this test's own (a 404), so its access line is told from every other.
    const path = "/request-id-26/";
    const res = await http(proxyUrl, "www.cabinet-dupont.fr", path, { headers: { "x-request-id": chosen } });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.headers)).not.toContain(chosen);
    expect(res.body).not.toContain(chosen);
    // The instance logs nginx's $request_id (32 hex digits) as the request's id.
    await until(() => accessLines().some((l) => l.path === path), "the access line of this request");
    const line = accessLines().find((l) => l.path === path)!;
    expect(line.id).toMatch(/^[0-9a-f]{32}$/);
    expect(frontend.output()).not.toContain(chosen);
  });

  it("limits bursts in the environment's pages zone (burst 20, no delay) with 429", async () => {
    // Sent at once, so the 10 r/s zone cannot refill between requests however loaded the machine is.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async () => (await http(proxyUrl, "bernard.dev.localhost", "/healthz")).status),
    );
    // Earlier tests spent a few tokens of the same client address: about 20 pass at once, the rest get 429.
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(12);
    expect(passed).toBeLessThanOrEqual(22);
    expect(statuses.filter((s) => s === 429).length).toBe(40 - passed);
  });

  it("puts the monitoring UI behind basic authentication, and serves none where the map names none", async () => {
    expect((await http(proxyUrl, "monitoring.localhost", "/healthz")).status).toBe(401);
    const wrong = { authorization: `Basic ${Buffer.from("ops:wrong").toString("base64")}` };
    expect((await http(proxyUrl, "monitoring.localhost", "/healthz", { headers: wrong })).status).toBe(401);
    const right = { authorization: `Basic ${Buffer.from(MONITORING_CREDENTIALS).toString("base64")}` };
    expect((await http(proxyUrl, "monitoring.localhost", "/healthz", { headers: right })).status).toBe(200);
    // No proxy.monitoring (the default map): the name is an unknown host, closed without an answer.
    await expect(http(tlsNginx!.url, "monitoring.localhost", "/")).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});

describe("nginx with TLS in front of the frontend", () => {
  const HSTS = "max-age=63072000; includeSubDomains";

  it("serves pages over HTTPS with a verified certificate and HSTS, the assets too", async () => {
    const dupont = await practiceName(backend, "dupont");
    const page = await httpsGet(tlsNginx!, "www.cabinet-dupont.fr", "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain(dupont);
    expect(page.headers["strict-transport-security"]).toBe(HSTS);
    const preview = await httpsGet(tlsNginx!, "martin.dev.localhost", "/");
    expect(preview.status).toBe(200);
    expect(preview.body).toContain(await practiceName(backend, "martin"));
    expect(preview.headers["strict-transport-security"]).toBe(HSTS);
    // The asset location adds a header of its own, which would drop a server-level HSTS.
    const asset = readdirSync("dist/build").find((f) => f.endsWith(".js"))!;
    const built = await httpsGet(tlsNginx!, "dupont.dev.localhost", `/build/${asset}`);
    expect(built.status).toBe(200);
    expect(built.headers["cache-control"]).toContain("immutable");
    expect(built.headers["strict-transport-security"]).toBe(HSTS);
  });

  it("redirects plain HTTP to HTTPS (301, no HSTS) but serves ACME challenges", async () => {
    const port = new URL(tlsNginx!.httpsUrl!).port;
    const res = await http(tlsNginx!.url, "www.cabinet-dupont.fr", "/contact?x=1");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`https://www.cabinet-dupont.fr:${port}/contact?x=1`);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    const preview = await http(tlsNginx!.url, "martin.dev.localhost", "/");
    expect(preview.headers.location).toBe(`https://martin.dev.localhost:${port}/`);
    // The challenge directory is the one the generator was given (tests/support/nginx.ts: <dir>/acme).
    const conf = tlsNginx!.configDir;
    mkdirSync(join(conf, "acme/.well-known/acme-challenge"), { recursive: true });
    writeFileSync(join(conf, "acme/.well-known/acme-challenge/token1"), "token1.thumbprint");
    const acme = await http(tlsNginx!.url, "www.cabinet-dupont.fr", "/.well-known/acme-challenge/token1");
    expect(acme.status).toBe(200);
    expect(acme.body).toBe("token1.thumbprint");
    await expect(http(tlsNginx!.url, "evil.test", "/")).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it("refuses the handshake for unknown names and for TLS older than 1.2", async () => {
    await expect(httpsGet(tlsNginx!, "evil.test", "/")).rejects.toThrow(/alert|unrecognized name|EPROTO|ECONNRESET/i);
    await expect(
      httpsGet(tlsNginx!, "www.cabinet-dupont.fr", "/", { minVersion: "TLSv1", maxVersion: "TLSv1.1" }),
    ).rejects.toThrow(/protocol|version|EPROTO|alert/i);
    const modern = await httpsGet(tlsNginx!, "www.cabinet-dupont.fr", "/healthz", { minVersion: "TLSv1.3" });
    expect(modern.status).toBe(200);
  });
});
