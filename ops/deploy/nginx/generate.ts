/**
 * Generates the reverse-proxy configuration from tenants/practices.json, the single source of truth
 * for registered hosts, so the proxy's server names can never drift from what the frontend resolves.
 *
 *   npx tsx ops/deploy/nginx/generate.ts [--out FILE] [--preview-domain D] [--upstream env=host:port[,host:port…] ...]
 *
 * An environment runs one or several instances (README, "Several instances"): each upstream lists them all;
 * a request that meets a refused connection, a timeout or a 502/503 (an instance dying or draining) is
 * passed to the next instance. POSTs are not retried (nginx's default for non-idempotent methods): a
 * contact message the dying instance already relayed must not be sent twice, and the backend retries its
 * own webhook.
 *
 * With --tls-certificate and --tls-key (docs/decisions/0041-tls-at-the-proxy.md), every server answers on
 * HTTPS (--https-listen, default 443) with HSTS, and port 80 only redirects there (301), keeping
 * /.well-known/acme-challenge/ reachable so a certificate can be renewed over plain HTTP. The certificate
 * files are the operator's: this script only names them, never writes them, so regenerating the config on
 * each deploy keeps them (ops/deploy/nginx/self-signed.sh makes one for dev and tests).
 *
 * Output goes in nginx's http context (e.g. /etc/nginx/conf.d/practice-sites.conf).
 */
import { writeFileSync } from "node:fs";
import { loadRegistry, type Registry } from "../../../src/server/tenancy/registry";
import { loadEnvironments, upstreams, type DeployEnv } from "../environments";

export type { DeployEnv };

/** HTTPS at the proxy: certificate and key are paths on the proxy's machine (PEM). */
export interface TlsOptions {
  /** nginx `listen` argument of the TLS servers, e.g. "443" or "127.0.0.1:8443". */
  listen: string;
  certificate: string;
  key: string;
  /** Served on plain HTTP for ACME HTTP-01 challenges (certificate renewal). */
  acmeRoot: string;
}

/** Two years, subdomains included: the preload list's minimum, sent on HTTPS answers only (RFC 6797 7.2). */
export const HSTS = "max-age=63072000; includeSubDomains";

export interface NginxOptions {
  registry: Registry;
  /** Preview hosts {code}.{env}.{previewDomain} are routed to that environment's container. */
  previewDomain: string;
  /** Where each environment's instances listen (the compose files publish on loopback). */
  upstreams: Record<DeployEnv, string[]>;
  listen: string;
  /** htpasswd file guarding the monitoring alert UI. */
  monitoringHtpasswd: string;
  /**
   * Where the monitoring alert UI listens, served behind basic auth as monitoring.<preview domain>; null: no
   * such server (nothing answered there: a vhost to an address nobody listens on answered 401, then 502).
   */
  monitoringUpstream: string | null;
  /** Requests per second per client address in each environment's `pages_<env>` zone (assets: five times it). */
  rate: number;
  /** HTTPS on `tls.listen` and `listen` redirecting there; absent: plain HTTP on `listen` only. */
  tls?: TlsOptions;
}

export const DEFAULTS: Omit<NginxOptions, "registry"> = {
  previewDomain: "preview.example.org",
  // Every instance of every environment, from the one map (ops/deploy/environments.json).
  upstreams: upstreams(loadEnvironments()),
  listen: "80",
  monitoringHtpasswd: "/etc/nginx/htpasswd/monitoring",
  monitoringUpstream: loadEnvironments().proxy.monitoring ?? null,
  rate: 10,
};

const ENVS: DeployEnv[] = ["prod", "staging", "dev"];

/**
 * Requests in progress at once from one client address, per environment. nginx counts a connection here only
 * once its request head is read (an unfinished head is bounded by client_header_timeout, not by this), and
 * each HTTP/2 stream on its own: what it caps is slow bodies and slow readers held by one address. A page
 * load over HTTP/2 asks the page and a few dozen /build/ files at once; an office or a mobile carrier puts
 * many visitors behind one address: 64 leaves them room and keeps one address to 64 of the proxy's slots.
 */
export const CONN_PER_ADDRESS = 64;
/** /build/ files at once from one address: a first visit loads at most the 44 files of the build (dist/build). */
export const ASSET_BURST = 100;

/**
 * One zone of each kind per environment: the proxy serves every environment, and a flood of dev preview
 * hosts must not spend production's allowance (or the other way). 10 MB holds ~160,000 addresses per zone.
 */
function limitZones(rate: number): string {
  const zones = ENVS.map(
    (env) => `limit_req_zone $binary_remote_addr zone=pages_${env}:10m rate=${rate}r/s;
limit_req_zone $binary_remote_addr zone=assets_${env}:10m rate=${rate * 5}r/s;
limit_conn_zone $binary_remote_addr zone=conn_${env}:10m;`,
  ).join("\n");
  return `# Per address and environment: pages, /build/ files (five times the pages' rate, a first visit's files in
# the burst), and requests in progress.
${zones}
limit_req_status 429;
limit_conn_status 429;`;
}

/**
 * Slow clients (issue 26: 8,400 connections with an unfinished request head, opened in 0.9 s, held every
 * worker connection for nginx's default 60 s: no practice answered for 12 s). A connection costs a slot until
 * it has sent its head; these bound how long. The slots themselves are sized in ops/deploy/nginx/nginx.conf.
 */
const SLOW_CLIENTS = `# A request head is a few hundred bytes, one packet: 10 s covers a phone on a poor network (and, on
# nginx 1.22, the TLS handshake before it), and frees a slot held by an unfinished head 6 times sooner
# than the default 60 s.
client_header_timeout 10s;
# Between two reads of a body (at most client_max_body_size, 64k: a contact message): the same 10 s.
client_body_timeout 10s;
# Between two writes to a client that stopped reading: an answer is at most a few hundred KB.
send_timeout 10s;
# An idle kept-alive connection also holds a slot: 15 s covers a visitor's next click on most pages,
# the default 75 s held idle slots five times longer.
keepalive_timeout 15s;
# A timed-out connection is reset, not closed gracefully: its buffers are freed at once instead of
# waiting in FIN_WAIT for a client that does not read.
reset_timedout_connection on;`;

/** The port part of an nginx `listen` argument ("443", "127.0.0.1:8443", "[::]:443"). */
function listenPort(listen: string): string {
  return /(\d+)(\s.*)?$/.exec(listen)?.[1] ?? listen;
}

/** Mozilla's "intermediate" profile: TLS 1.2 with forward-secret AEAD ciphers, and TLS 1.3. */
const TLS_SETTINGS = `ssl_protocols TLSv1.2 TLSv1.3;
ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305;
ssl_prefer_server_ciphers off;
ssl_session_cache shared:TLS:10m;
ssl_session_timeout 1d;
# Tickets off: rotating their key needs a restart, and a stolen key would decrypt past sessions.
ssl_session_tickets off;
# HSTS is the proxy's alone (it knows the answer went out over TLS): an instance's copy is dropped.
proxy_hide_header Strict-Transport-Security;`;

/**
 * The `listen` lines of a server that serves content: HTTPS when TLS is on (the certificate comes from
 * the http context; HTTP/2 is set once, on the catch-all's listen, as it belongs to the socket), else
 * plain HTTP. HSTS sits in every location that adds a header of
 * its own, since nginx's add_header in a location drops the server's.
 */
function serving(opts: NginxOptions): { listen: string; hsts: string } {
  if (!opts.tls) return { listen: `    listen ${opts.listen};`, hsts: "" };
  return {
    listen: `    listen ${opts.tls.listen} ssl;`,
    hsts: `\n        add_header Strict-Transport-Security "${HSTS}" always;`,
  };
}

function proxyLocations(env: DeployEnv, hsts: string): string {
  // Every location that reaches the instances is limited: per address, in this environment's own zones.
  const limits = `limit_conn conn_${env} ${CONN_PER_ADDRESS};`;
  return `
    # Hashed build assets: the instance marks the files it has immutable for a year (express.static); its 404
    # for a name it does not have keeps its own headers (nginx adding "immutable" there made a 404 stick in
    # every cache for a year). A first visit fetches a few dozen of them at once: a zone of their own.
    location /build/ {
        ${limits}
        limit_req zone=assets_${env} burst=${ASSET_BURST} nodelay;
        proxy_pass http://frontend_${env};${hsts}
    }

    location / {
        ${limits}
        limit_req zone=pages_${env} burst=20 nodelay;
        proxy_pass http://frontend_${env};${hsts}
    }`;
}

/** TLS on: the certificate, the settings, the HTTP -> HTTPS redirect and the TLS catch-all. */
function tlsServers(opts: NginxOptions, tls: TlsOptions, hosts: string[]): { http: string; servers: string } {
  const port = listenPort(tls.listen);
  const target = port === "443" ? "https://$host$request_uri" : `https://$host:${port}$request_uri`;
  return {
    http: `
ssl_certificate ${tls.certificate};
ssl_certificate_key ${tls.key};
${TLS_SETTINGS}
`,
    servers: `
# Plain HTTP: every known host is sent to HTTPS (301); ACME challenges stay reachable for renewals.
server {
    listen ${opts.listen};
    server_name
${hosts.map((h) => `        ${h}`).join("\n")};
    location /.well-known/acme-challenge/ {
        root ${tls.acmeRoot};
    }
    location / {
        return 301 ${target};
    }
}

# HTTPS for any other host: the handshake is refused, so no certificate is shown to a scanner.
server {
    listen ${tls.listen} ssl http2 default_server;
    server_name _;
    ssl_reject_handshake on;
}
`,
  };
}

export function generateNginxConfig(opts: NginxOptions): string {
  const domains = [...opts.registry.byHost.keys()].sort();
  const preview = opts.previewDomain.replace(/\./g, "\\.");
  // max_fails=1: one refused connection takes an instance out of rotation for fail_timeout.
  const upstreams = ENVS.map((env) => {
    const servers = opts.upstreams[env].map((s) => `    server ${s} max_fails=1 fail_timeout=5s;`).join("\n");
    return `upstream frontend_${env} {\n${servers}\n    keepalive 32;\n}`;
  }).join("\n\n");
  const { listen, hsts } = serving(opts);
  const previewNames = ENVS.map((env) => `~^[a-z0-9-]+\\.${env}\\.${preview}$`);
  const monitoringName = opts.monitoringUpstream ? [`monitoring.${opts.previewDomain}`] : [];
  const tls = opts.tls && tlsServers(opts, opts.tls, [...domains, ...previewNames, ...monitoringName]);
  const previewServers = ENVS.map(
    (env, i) => `
# Preview hosts of ${env}: any {code}.${env}.${opts.previewDomain}; the frontend asks the backend whether the code exists.
server {
${listen}
    server_name ${previewNames[i]};
${proxyLocations(env, hsts)}
}`,
  ).join("\n");
  return `# Generated by ops/deploy/nginx/generate.ts from tenants/practices.json: do not edit by hand.
# ${domains.length} registered domains of ${opts.registry.practices.length} practices.

${limitZones(opts.rate)}
${SLOW_CLIENTS}

${upstreams}

# Tenant resolution depends on the Host header: pass it through unchanged. Forwarded-host headers from
# the client are cleared (the frontend ignores them anyway).
proxy_http_version 1.1;
proxy_set_header Host $host;
proxy_set_header Connection "";
proxy_set_header X-Forwarded-For $remote_addr;
proxy_set_header X-Forwarded-Proto $scheme;
proxy_set_header X-Forwarded-Host "";
proxy_set_header Forwarded "";
# nginx's own id for each request, never the client's: the instances log it as the request's id
# (src/server/monitoring/access.ts), so a client cannot choose the id an operator searches for.
proxy_set_header X-Request-Id $request_id;
proxy_read_timeout 30s;
# An instance that is dying (refused, reset, 502) or draining (503) hands the request to the next one.
proxy_next_upstream error timeout http_502 http_503;
proxy_next_upstream_tries 3;
proxy_next_upstream_timeout 10s;
client_max_body_size 64k;
${tls ? tls.http : ""}
# Any other host: close the connection without an answer (there is no default practice).
server {
    listen ${opts.listen} default_server;
    server_name _;
    return 444;
}
${tls ? tls.servers : ""}
# Real practice domains: production.
server {
${listen}
    server_name
${domains.map((d) => `        ${d}`).join("\n")};
${proxyLocations("prod", hsts)}
}
${previewServers}
${
  opts.monitoringUpstream
    ? `
# The monitoring alert UI, behind basic authentication (practice domains are served without it).
server {
${listen}
    server_name ${monitoringName[0]};
    auth_basic "Monitoring";
    auth_basic_user_file ${opts.monitoringHtpasswd};
    location / {
        proxy_pass http://${opts.monitoringUpstream};${hsts}
    }
}
`
    : ""
}`;
}

function parseArgs(argv: string[]) {
  const opts = { ...DEFAULTS, upstreams: { ...DEFAULTS.upstreams } };
  let out: string | undefined;
  let tenants = "tenants/practices.json";
  const tls: Partial<TlsOptions> = { listen: "443", acmeRoot: "/var/www/acme" };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === "--out") out = value;
    else if (flag === "--tenants") tenants = value;
    else if (flag === "--preview-domain") opts.previewDomain = value;
    else if (flag === "--listen") opts.listen = value;
    else if (flag === "--monitoring-htpasswd") opts.monitoringHtpasswd = value;
    else if (flag === "--monitoring-upstream") opts.monitoringUpstream = value || null;
    else if (flag === "--tls-certificate") tls.certificate = value;
    else if (flag === "--tls-key") tls.key = value;
    else if (flag === "--https-listen") tls.listen = value;
    else if (flag === "--acme-root") tls.acmeRoot = value;
    else if (flag === "--upstream") {
      const [env, targets] = value.split("=");
      if (!ENVS.includes(env as DeployEnv) || !targets) {
        throw new Error(`--upstream takes env=host:port[,host:port…], got ${value}`);
      }
      opts.upstreams[env as DeployEnv] = targets.split(",");
    } else throw new Error(`unknown option ${flag}`);
  }
  if (!tls.certificate !== !tls.key) throw new Error("--tls-certificate and --tls-key go together");
  const withTls: Omit<NginxOptions, "registry"> = tls.certificate ? { ...opts, tls: tls as TlsOptions } : opts;
  return { opts: withTls, out, tenants };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { opts, out, tenants } = parseArgs(process.argv.slice(2));
    const config = generateNginxConfig({ ...opts, registry: loadRegistry(tenants) });
    if (out) writeFileSync(out, config);
    else process.stdout.write(config);
  } catch (error) {
    console.error(`nginx config: ${(error as Error).message}`);
    process.exit(1);
  }
}
