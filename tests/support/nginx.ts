/**
 * Real nginx with the generated configuration (ops/deploy/nginx/generate.ts), on a free port, every
 * environment's upstream pointing at the given instances. With `tls`, HTTPS on a second free port
 * with a certificate from ops/deploy/nginx/self-signed.sh, and the first port redirecting there.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import type { SecureVersion } from "node:tls";
import { join } from "node:path";
import { generateNginxConfig, DEFAULTS } from "../../ops/deploy/nginx/generate";
import { loadRegistry } from "../../src/server/tenancy/registry";
import { freePort } from "./frontend";
import { collectAnswer, type HttpResult } from "./http";

const NGINX = "/usr/sbin/nginx";

export interface TestNginx {
  /** Plain HTTP (only redirects when TLS is on). */
  url: string;
  /** With `tls`: the HTTPS address and the certificate to trust for it. */
  httpsUrl?: string;
  ca?: string;
  /** The directory holding the config, certificate and ACME root (<dir>/acme). */
  configDir: string;
  stop: () => void;
}

/** Names in the test certificate: the registered domains and the preview hosts under "localhost". */
const TLS_HOSTS = ["www.cabinet-dupont.fr", "*.dev.localhost", "*.staging.localhost", "*.prod.localhost", "monitoring.localhost"];

/**
 * The proxy's own main configuration (ops/deploy/nginx/nginx.conf: workers, slots, descriptors), so a test meets the
 * limits production has; only its paths are made this test's.
 */
function mainConfig(dir: string): string {
  let config = readFileSync("ops/deploy/nginx/nginx.conf", "utf8");
  const replace = (from: string, to: string) => {
    if (!config.includes(from)) throw new Error(`ops/deploy/nginx/nginx.conf no longer holds "${from}": update tests/support/nginx.ts`);
    config = config.replace(from, to);
  };
  replace("pid /tmp/nginx.pid;", `daemon on;\npid ${dir}/nginx.pid;`);
  replace("error_log stderr warn;", `error_log ${dir}/error.log warn;`);
  replace(
    "include /etc/practice-proxy/practice-sites.conf;",
    `client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
    uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
    include ${dir}/practice-sites.conf;`,
  );
  return config;
}

/** The basic-authentication credentials of the monitoring server (MONITORING_HTPASSWD holds them, hashed). */
export const MONITORING_CREDENTIALS = "ops:monitoring-test";
const MONITORING_HTPASSWD = "ops:$apr1$pftest01$NzJS5RdD7GftcPRyt9HvG1\n";

/**
 * `rate`: the pages zones' requests per second (a test sending many requests raises it); `monitoring`: the
 * address (host:port) of the monitoring alert UI, served behind basic authentication (none by default, as in
 * ops/deploy/environments.json).
 */
export async function startNginx(upstreams: string[], opts: { rate?: number; tls?: boolean; monitoring?: string } = {}): Promise<TestNginx> {
  const dir = mkdtempSync(join(tmpdir(), "nginx-"));
  const nginx = (...args: string[]) =>
    spawnSync(NGINX, ["-c", join(dir, "nginx.conf"), "-p", dir, ...args], { encoding: "utf8" });
  const port = await freePort();
  const httpsPort = opts.tls ? await freePort() : undefined;
  const certificate = join(dir, "tls.crt");
  const key = join(dir, "tls.key");
  if (opts.tls) {
    execFileSync("ops/deploy/nginx/self-signed.sh", [certificate, key, ...TLS_HOSTS]);
    // nginx's workers (not root) serve the ACME directory inside it; the key stays owner-only.
    chmodSync(dir, 0o755);
  }
  const site = generateNginxConfig({
    ...DEFAULTS,
    registry: loadRegistry("tenants/practices.json"),
    previewDomain: "localhost",
    listen: `127.0.0.1:${port}`,
    upstreams: { prod: upstreams, staging: upstreams, dev: upstreams },
    monitoringHtpasswd: join(dir, "htpasswd"),
    monitoringUpstream: opts.monitoring ?? null,
    rate: opts.rate ?? DEFAULTS.rate,
    tls: httpsPort ? { listen: `127.0.0.1:${httpsPort}`, certificate, key, acmeRoot: join(dir, "acme") } : undefined,
  });
  writeFileSync(join(dir, "practice-sites.conf"), site);
  writeFileSync(join(dir, "htpasswd"), MONITORING_HTPASSWD);
  // nginx's workers (not root) read the htpasswd inside it (a password checked they could not read was a 500).
  if (opts.monitoring) chmodSync(dir, 0o755);
  writeFileSync(join(dir, "nginx.conf"), mainConfig(dir));
  const test = nginx("-t");
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const start = nginx();
  if (start.status !== 0) throw new Error(`nginx did not start:\n${start.stderr}`);
  return {
    url: `http://127.0.0.1:${port}`,
    httpsUrl: httpsPort ? `https://127.0.0.1:${httpsPort}` : undefined,
    ca: opts.tls ? readFileSync(certificate, "utf8") : undefined,
    configDir: dir,
    stop: () => void nginx("-s", "stop"),
  };
}

/** A GET over HTTPS to `nginx.httpsUrl`, SNI and Host set to `host`, trusting only the test certificate. */
export function httpsGet(
  nginx: TestNginx,
  host: string,
  path: string,
  tls: { minVersion?: SecureVersion; maxVersion?: SecureVersion } = {},
): Promise<HttpResult> {
  const url = new URL(nginx.httpsUrl!);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: url.hostname, port: url.port, path, servername: host, ca: nginx.ca, headers: { host, accept: "text/html" }, ...tls },
      collectAnswer(resolve, reject),
    );
    req.on("error", reject);
    req.end();
  });
}
