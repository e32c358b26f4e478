/**
 * The one map of environments (ops/deploy/environments.json, or ENVIRONMENTS_FILE): each environment's ref, build
 * constants, instance ports, memory limits and Redis, and the proxy's ports. Read by ops/deploy/deploy.sh (through
 * the commands below), the compose files (generated from it: `compose`), the nginx generator (its upstreams)
 * and the smoke checks (every instance). A port is written once, here.
 *
 *   npx tsx ops/deploy/environments.ts shell ENV              shell assignments for ops/deploy/deploy.sh
 *   npx tsx ops/deploy/environments.ts compose ENV IMAGE ENV_FILE   the environment's compose file (JSON is YAML)
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export type DeployEnv = "prod" | "staging" | "dev";
export const ENVS: DeployEnv[] = ["prod", "staging", "dev"];

export interface Environment {
  /** The branch deployed (null: a tag must be given, prod). */
  ref: string | null;
  buildApiUrl: string;
  buildCmsOrigin: string;
  /**
   * Host ports, on loopback, of the instances: one container each, in this order. A deploy also uses each
   * port + CANDIDATE_OFFSET for the new instance it proves before the switch (candidatePort).
   */
  instancePorts: number[];
  /** The container's memory limit (compose `mem_limit`). */
  memory: string;
  /** V8 old-space cap of the main thread, well under `memory` (V8 sizes itself from the machine's memory). */
  heapMb: number;
  /** Render worker threads (each capped at 64+8 MB of heap, src/server/render-pool/config.ts). */
  renderWorkers: number;
  /** PAGE_CACHE_MAX_MB: the page store's byte budget, outside the V8 heap. */
  pageCacheMb: number;
  /**
   * The shared page store of the instances, a Redis container of the environment on the compose network only
   * (`port` is no longer published on the host: issue 26; kept for the maps that name it); null: none.
   */
  redis: { port?: number; db: number; maxMemoryMb: number } | null;
}

export interface EnvironmentMap {
  /** Prefix of compose projects and container names (default practice-frontend): the drills use their own. */
  project?: string;
  /**
   * nginx `listen` arguments of the proxy: plain HTTP (redirects) and HTTPS; `monitoring`: where the monitoring
   * alert UI (e.g. Grafana) listens on the proxy's host, served as monitoring.<preview domain> behind basic
   * authentication ($DEPLOY_ROOT/proxy/htpasswd, which a deploy requires then); absent or null: no such server.
   */
  proxy: { http: string; https: string; monitoring?: string | null };
  environments: Record<DeployEnv, Environment>;
}

const MEMORY = /^\d+[kmg]$/;
/** A render worker's heap caps, old + young (src/server/render-pool/config.ts). */
export const WORKER_CAPS_MB = 64 + 8;
/** What Node holds outside the V8 heaps and the page store (code, libraries, buffers): measured ~60 MB. */
export const NODE_BASELINE_MB = 64;
const LISTEN = /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}$/;

function fail(message: string): never {
  throw new Error(`environments: ${message}`);
}

function port(value: unknown, what: string): number {
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 65535) fail(`${what} must be a port number, got ${JSON.stringify(value)}`);
  return value as number;
}

/** Reads and checks the map: a wrong entry stops a deploy before anything runs. */
export function loadEnvironments(file = process.env.ENVIRONMENTS_FILE || resolve(import.meta.dirname, "environments.json")): EnvironmentMap {
  const raw = JSON.parse(readFileSync(file, "utf8")) as EnvironmentMap;
  if (!raw.proxy || !LISTEN.test(String(raw.proxy.http)) || !LISTEN.test(String(raw.proxy.https))) {
    fail(`${file}: proxy.http and proxy.https must be ports or address:port`);
  }
  if (raw.proxy.monitoring != null && !/^[A-Za-z0-9.-]+:\d{1,5}$/.test(raw.proxy.monitoring)) fail(`${file}: proxy.monitoring must be host:port or null`);
  if (raw.project !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(raw.project)) fail(`${file}: project must be lower-case letters, digits and -`);
  const seen = new Map<number, string>();
  for (const env of ENVS) {
    const e = raw.environments?.[env];
    if (!e) fail(`${file}: environment ${env} is missing`);
    if (!Array.isArray(e.instancePorts) || e.instancePorts.length < 1) fail(`${env}.instancePorts needs at least one port`);
    const ports = e.instancePorts.map((p, i) => port(p, `${env}.instancePorts[${i}]`));
    // The candidates' ports are taken too: a deploy must never start a new instance on another's port.
    ports.push(...ports.map((p, i) => port(candidatePort(p), `${env}.instancePorts[${i}] + ${CANDIDATE_OFFSET} (its candidate's port)`)));
    for (const p of ports) {
      if (seen.has(p)) fail(`port ${p} is used by both ${seen.get(p)} and ${env}`);
      seen.set(p, env);
    }
    if (!MEMORY.test(e.memory)) fail(`${env}.memory must look like 512m or 1g, got ${e.memory}`);
    for (const key of ["heapMb", "renderWorkers", "pageCacheMb"] as const) {
      if (!Number.isInteger(e[key]) || e[key] < 0) fail(`${env}.${key} must be a whole number`);
    }
    // The worst case, every cap reached at once, must fit: the main heap, the page bodies (outside the heap),
    // each render worker's heap caps, and Node's own memory (code, buffers, stacks).
    const worst = e.heapMb + e.pageCacheMb + e.renderWorkers * WORKER_CAPS_MB + NODE_BASELINE_MB;
    if (worst >= memoryMb(e.memory)) fail(`${env}: heapMb + pageCacheMb + ${WORKER_CAPS_MB} per render worker + ${NODE_BASELINE_MB} = ${worst} MB must stay under memory (${e.memory})`);
    for (const key of ["buildApiUrl", "buildCmsOrigin"] as const) {
      if (!/^https?:\/\/[^\s'"$`\\]+$/.test(e[key])) fail(`${env}.${key} must be an http(s) URL`);
    }
    if (e.ref !== null && !/^[A-Za-z0-9._/-]+$/.test(e.ref)) fail(`${env}.ref may hold letters, digits and . _ / - only`);
    if (e.redis && e.redis.port !== undefined) port(e.redis.port, `${env}.redis.port`);
    if (e.redis && !(Number.isInteger(e.redis.db) && e.redis.db >= 0 && e.redis.db <= 15)) fail(`${env}.redis.db must be a database 0-15`);
  }
  return raw;
}

export function memoryMb(memory: string): number {
  const n = Number.parseInt(memory, 10);
  return memory.endsWith("g") ? n * 1024 : memory.endsWith("k") ? n / 1024 : n;
}

/** Where nginx reaches each environment's instances: their loopback ports (the proxy uses the host network). */
export function upstreams(map: EnvironmentMap): Record<DeployEnv, string[]> {
  return Object.fromEntries(ENVS.map((env) => [env, map.environments[env].instancePorts.map((p) => `127.0.0.1:${p}`)])) as Record<DeployEnv, string[]>;
}

/**
 * A deploy starts each new instance beside the running one, as the service `<name>-next` on its instance port +
 * CANDIDATE_OFFSET, and proves it (ready, smoke checks) before the old one is touched (ops/deploy/deploy.sh).
 */
export const CANDIDATE_OFFSET = 1000;
export const candidatePort = (instancePort: number) => instancePort + CANDIDATE_OFFSET;
export const candidateName = (service: string) => `${service}-next`;

/** The instances' compose service names: frontend, frontend-2, ... (the first keeps the historical name). */
export function serviceName(index: number): string {
  return index === 0 ? "frontend" : `frontend-${index + 1}`;
}

/**
 * The environment's compose file. Generated, not written by hand, so ports and limits come from the map
 * only. JSON is YAML: `docker compose` and `podman-compose` read it as it is.
 */
export function composeFile(map: EnvironmentMap, env: DeployEnv, image: string, envFile: string) {
  const e = map.environments[env];
  const project = map.project ?? "practice-frontend";
  const services: Record<string, unknown> = {};
  // Each instance, and its candidate: the same image, env file, network and limits on another port, started
  // only by a deploy (`up --no-deps <name>-next`), removed once the instance is switched or refused.
  const instances = e.instancePorts.flatMap((p, i) => [
    { name: serviceName(i), hostPort: p },
    { name: candidateName(serviceName(i)), hostPort: candidatePort(p) },
  ]);
  for (const { name, hostPort } of instances) {
    services[name] = {
      // Named, not numbered by the engine: ops/deploy/deploy.sh and the drills address each instance (docker compose
      // and podman-compose number them differently).
      container_name: `${project}-${env}-${name}`,
      image,
      env_file: [envFile],
      environment: {
        ENVIRONMENT: env,
        PORT: "3000",
        NODE_OPTIONS: `--max-old-space-size=${e.heapMb}`,
        RENDER_WORKERS: String(e.renderWorkers),
        PAGE_CACHE_MAX_MB: String(e.pageCacheMb),
        // Metrics and the operator's commands (docs/operations.md) on the container's network only: the port
        // is published nowhere and nginx never proxies it; a Prometheus on the compose network scrapes :9464.
        METRICS_HOST: "0.0.0.0",
        METRICS_PORT: "9464",
        LOG_FORMAT: "json",
        // CACHE_URL comes from the env file: it carries the Redis password (a secret, never in this file).
        // `compose` checks it names this map's Redis (cacheUrlProblem), so the topology stays the map's.
      },
      ports: [`127.0.0.1:${hostPort}:3000`],
      mem_limit: e.memory,
      // No swap beyond the limit: a container over it is killed, as the specification's limit means.
      memswap_limit: e.memory,
      restart: "unless-stopped",
      read_only: true,
      tmpfs: ["/tmp"],
      // No healthcheck here: the image's HEALTHCHECK (/readyz) is the one definition, so the two cannot
      // disagree (docs/decisions/0042-containers.md); podman-compose 1.0.3 also mangles a CMD-form test.
      // The server drains within SHUTDOWN_GRACE_MS (docs/decisions/0001-readiness-and-shutdown.md); then SIGKILL.
      stop_grace_period: "15s",
      ...(e.redis ? { depends_on: ["redis"] } : {}),
    };
  }
  if (e.redis) {
    services.redis = {
      container_name: `${project}-${env}-redis`,
      image: "docker.io/library/redis:7-bookworm",
      // The password is read from the env file's CACHE_URL in the container (redisCommand): never in this file.
      env_file: [envFile],
      command: ["sh", "-c", redisCommand(e.redis.maxMemoryMb)],
      // Not published: only the instances, on the compose network, reach it (issue 26: on the host's loopback,
      // without a password, any local process could rewrite a page an instance then served).
      mem_limit: `${e.redis.maxMemoryMb + 64}m`,
      restart: "unless-stopped",
      read_only: true,
      tmpfs: ["/tmp"],
    };
  }
  return { services };
}

/** Who may use the Redis: letters and digits (no escaping in a URL or redis.conf), 32 at least (openssl rand -hex 16). */
export const REDIS_PASSWORD = /^[A-Za-z0-9]{32,256}$/;

/**
 * The Redis container's command (sh -c, `$$` is compose's escaped `$`): the password is taken from the env
 * file's CACHE_URL (redis://:<password>@redis:6379/<db>) and handed to redis-server on its standard input,
 * never in its arguments (which `ps` on the host shows). A cache, not a database: nothing is saved, the oldest
 * pages make room. With a password, Redis's protected mode (on by default) lets the network's clients in.
 */
export function redisCommand(maxMemoryMb: number): string {
  return [
    'pass="$${CACHE_URL#redis://:}"; pass="$${pass%%@*}"',
    `case "$$pass" in ""|*[!A-Za-z0-9]*) echo "redis: CACHE_URL in the env file must be redis://:<password>@redis:6379/<db>, the password letters and digits" >&2; exit 1;; esac`,
    `exec redis-server - --save "" --appendonly no --maxmemory ${maxMemoryMb}mb --maxmemory-policy allkeys-lru <<EOF`,
    "requirepass $$pass",
    "EOF",
  ].join("\n");
}

/**
 * What is wrong with an env file's CACHE_URL for this environment, or null: where the map has a Redis, it must
 * be that Redis (the compose service, its database) with a password; where it has none, there must be none
 * (an instance would wait for a Redis that is not there). Never prints the password.
 */
export function cacheUrlProblem(map: EnvironmentMap, env: DeployEnv, envFileText: string): string | null {
  const line = envFileText.split(/\r?\n/).filter((l) => /^CACHE_URL=/.test(l)).at(-1);
  const value = line?.slice("CACHE_URL=".length).trim().replace(/^(["'])(.*)\1$/, "$2") ?? "";
  const redis = map.environments[env].redis;
  if (!redis) return value ? `${env} has no Redis in the environment map: remove CACHE_URL from the env file` : null;
  const wanted = `redis://:<password>@redis:6379/${redis.db}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `the env file must set CACHE_URL=${wanted} (the password: openssl rand -hex 32)`;
  }
  const password = decodeURIComponent(url.password);
  if (url.protocol !== "redis:" || url.hostname !== "redis" || (url.port || "6379") !== "6379" || url.pathname !== `/${redis.db}` || url.username) {
    return `the env file's CACHE_URL must name this environment's Redis: ${wanted}`;
  }
  if (!REDIS_PASSWORD.test(password)) return `the env file's CACHE_URL needs a password of at least 32 letters and digits: ${wanted} (openssl rand -hex 32)`;
  return null;
}

/** Shell-safe single-quoted word. */
function q(value: string | number): string {
  return `'${String(value).replace(/'/g, "'\\''")}'`;
}

export function shellAssignments(map: EnvironmentMap, env: DeployEnv): string {
  const e = map.environments[env];
  const lines = [
    `PROJECT_NAME=${q(map.project ?? "practice-frontend")}`,
    `MAP_REF=${q(e.ref ?? "")}`,
    `BUILD_API_URL=${q(e.buildApiUrl)}`,
    `BUILD_CMS_ORIGIN=${q(e.buildCmsOrigin)}`,
    `INSTANCE_PORTS=(${e.instancePorts.map(q).join(" ")})`,
    `INSTANCE_SERVICES=(${e.instancePorts.map((_, i) => q(serviceName(i))).join(" ")})`,
    `CANDIDATE_PORTS=(${e.instancePorts.map((p) => q(candidatePort(p))).join(" ")})`,
    `CANDIDATE_SERVICES=(${e.instancePorts.map((_, i) => q(candidateName(serviceName(i)))).join(" ")})`,
    `HAS_REDIS=${e.redis ? 1 : 0}`,
    `PROXY_HTTP=${q(map.proxy.http)}`,
    `PROXY_HTTPS=${q(map.proxy.https)}`,
    `PROXY_MONITORING=${q(map.proxy.monitoring ?? "")}`,
  ];
  return lines.join("\n") + "\n";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const [command, env, ...rest] = process.argv.slice(2);
    const map = loadEnvironments();
    const known = (value: string | undefined): DeployEnv => {
      if (!ENVS.includes(value as DeployEnv)) fail(`ENV must be dev, staging or prod, got '${value ?? ""}'`);
      return value as DeployEnv;
    };
    if (command === "shell") process.stdout.write(shellAssignments(map, known(env)));
    else if (command === "compose") {
      const [image, envFile] = rest;
      if (!image || !envFile) fail("compose ENV IMAGE ENV_FILE");
      const problem = cacheUrlProblem(map, known(env), readFileSync(envFile, "utf8"));
      if (problem) fail(`${envFile}: ${problem}`);
      process.stdout.write(JSON.stringify(composeFile(map, known(env), image, envFile), null, 2) + "\n");
    } else fail(`unknown command '${command ?? ""}' (shell, compose)`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
