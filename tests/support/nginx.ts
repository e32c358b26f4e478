/**
 * Real nginx with the generated configuration (ops/nginx/generate.ts), on a free port, every
 * environment's upstream pointing at the given instances.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateNginxConfig, DEFAULTS } from "../../ops/nginx/generate";
import { loadRegistry } from "../../src/server/tenancy/registry";
import { freePort } from "./frontend";

const NGINX = "/usr/sbin/nginx";

export interface TestNginx {
  url: string;
  stop: () => void;
}

/** `rate`: the general zone's requests per second (a test sending many requests raises it). */
export async function startNginx(upstreams: string[], opts: { rate?: number } = {}): Promise<TestNginx> {
  const dir = mkdtempSync(join(tmpdir(), "nginx-"));
  const nginx = (...args: string[]) =>
    spawnSync(NGINX, ["-c", join(dir, "nginx.conf"), "-p", dir, ...args], { encoding: "utf8" });
  const port = await freePort();
  const site = generateNginxConfig({
    ...DEFAULTS,
    registry: loadRegistry("tenants/practices.json"),
    previewDomain: "localhost",
    listen: `127.0.0.1:${port}`,
    upstreams: { prod: upstreams, staging: upstreams, dev: upstreams },
    monitoringHtpasswd: join(dir, "htpasswd"),
    rate: opts.rate ?? DEFAULTS.rate,
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
  return { url: `http://127.0.0.1:${port}`, stop: () => void nginx("-s", "stop") };
}
