/**
 * The generated reverse-proxy config, checked by real nginx in front of the real server: the Host
 * header reaches the frontend unchanged, unknown hosts get nothing, build assets are immutable, and
 * the `general` zone limits bursts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { startNginx, type TestNginx } from "./support/nginx";
import { practiceName, startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;
let nginx: TestNginx | undefined;
let proxyUrl: string;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  nginx = await startNginx([`127.0.0.1:${frontend.port}`]);
  proxyUrl = nginx.url;
});

afterAll(async () => {
  nginx?.stop();
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

  it("serves build assets as immutable for a year", async () => {
    const asset = readdirSync("dist/build").find((f) => f.endsWith(".js"))!;
    const res = await http(proxyUrl, "dupont.dev.localhost", `/build/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(res.headers["cache-control"]).toContain("max-age=31536000");
  });

  it("limits bursts in the general zone (burst 20, no delay) with 429", async () => {
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

  it("puts the monitoring UI behind basic authentication", async () => {
    const res = await http(proxyUrl, "monitoring.localhost", "/");
    expect(res.status).toBe(401);
  });
});
