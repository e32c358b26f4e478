/**
 * The generated reverse-proxy config, checked by real nginx in front of the real server: the Host
 * header reaches the frontend unchanged, unknown hosts get nothing, build assets are immutable, and
 * the `general` zone limits bursts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateNginxConfig, DEFAULTS } from "../ops/nginx/generate";
import { loadRegistry } from "../src/server/tenancy/registry";
import { freePort, startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { practiceName, startBackend, type DemoBackend } from "./support/demo-backend";

const NGINX = "/usr/sbin/nginx";
let backend: DemoBackend;
let frontend: Frontend;
let dir: string;
let proxyUrl: string;

function nginx(...args: string[]) {
  return spawnSync(NGINX, ["-c", join(dir, "nginx.conf"), "-p", dir, ...args], { encoding: "utf8" });
}

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  dir = mkdtempSync(join(tmpdir(), "nginx-"));
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  const upstream = `127.0.0.1:${frontend.port}`;
  const site = generateNginxConfig({
    ...DEFAULTS,
    registry: loadRegistry("tenants/practices.json"),
    previewDomain: "localhost",
    listen: `127.0.0.1:${port}`,
    upstreams: { prod: upstream, staging: upstream, dev: upstream },
    monitoringHtpasswd: join(dir, "htpasswd"),
  });
  writeFileSync(join(dir, "practice-sites.conf"), site);
  writeFileSync(join(dir, "htpasswd"), "ops:$apr1$8Qm0pV8c$Q2o7n0Yq0VQ0m0g9k6tL2/\n");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
daemon on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/practice-sites.conf;
}
`,
  );
  const test = nginx("-t");
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const start = nginx();
  if (start.status !== 0) throw new Error(`nginx did not start:\n${start.stderr}`);
});

afterAll(async () => {
  if (dir) nginx("-s", "stop");
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
