/**
 * `npm run bench -- scale` (issue 30): many practices on one server, measured as a platform operator would.
 *
 *   - the built server with the production defaults (bench/processes.ts), cold (no pre-pass), on the demo
 *     backend's synthetic practices (every page kind: home, contact, legal, privacy, a service hub, service
 *     details, articles);
 *   - an open-loop load generator (bench/open-loop.ts): `--rate` requests per second whatever the server
 *     answers, the practice picked by Zipf(1.0) over `--practices`, the page by Zipf(1.0) over its pages in
 *     popularity order, Accept-Encoding br, gzip, a request unanswered after 20 s a timeout;
 *   - `--warmup` seconds not counted, then `--seconds` measured; 503s after the first minute of the cold
 *     start are counted over the whole run.
 *
 * Printed: the share answered 200, the answers by X-Cache value (HIT, STALE, MISS, any warm tier's) with their
 * p50/p99, 503s, timeouts, the server's RSS (sampled every second), renders (the server's metrics: done,
 * refused, render time) and backend reads (the demo backend's counters). Judged against bench/targets.ts's
 * scale targets; a miss makes the run exit 1.
 *
 * The issue's measurement is `--practices 3000 --rate 300 --warmup 60 --seconds 180`; the defaults are shorter
 * (a routine run). Options: --practices N --pages N --rate N --warmup S --seconds S --prewarm S (a closed loop of
 * 8 connections over every page first, as the issue's runs B2-D did) --prepass N (the build pre-pass over the N
 * most visited practices first, timed, and the server started on its output, as a deploy starts: the issue's
 * run E; the pre-pass's time, CPU, peak RSS and bytes are printed) --env NAME=VALUE (repeatable: a server setting
 * over the deployed ones, e.g. PAGE_CACHE_MAX_MB=400) --instances N (N servers sharing a dedicated Redis, behind
 * the generated nginx on its round robin, as a deploy runs several instances: renders, backend reads and CPU are
 * summed over the servers, RSS is the largest one's; with --prepass they deploy onto a running environment: its
 * Redis and an instance of the deployment before run when the build does, and a pre-pass page is served once
 * Redis admitted it)
 * --memory-limit MiB (each server in a memory cgroup of this many MiB, as its container: bench/memory-cage.ts; by
 * default the prod container's `memory`, ops/deploy/environments.json; 0: none).
 *
 * Without a pre-pass a cold start's first visit of each page is a render: over 3,000 practices at 300/s, about a
 * fifth of the requests in the measured window of the issue's run are such first visits (a simulation of the
 * same draws), so the share answered from memory or a warm tier stays under 80% however the cache is kept.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  runOpenLoopInChild,
  seeded,
  zipfSampler,
  CONNECTION_ERROR,
  NOT_SENT,
  TIMED_OUT,
  type OpenLoopResult,
} from "./open-loop";
import { runLoadInChild } from "./load";
import { fmt, host, judge, json, measuredElsewhere, note, pathsOf, synthetic } from "./figures";
import { benchPrepassEnv, cpuSeconds, dirBytes, rssMiB, runPrepassProcess, startFrontendProcess, type Proc } from "./processes";
import { startRedis, type TestRedis } from "../tests/support/redis";
import { startNginx, type TestNginx } from "../tests/support/nginx";
import { until } from "../tests/support/until";
import { loadEnvironments, memoryMb } from "../ops/deploy/environments";
import { memoryCage, type MemoryCage } from "./memory-cage";
import { ADMIT_CLOCK_MARGIN_MS } from "../src/server/cache/shared/pages";
import { elsewhereText } from "./machine";
import { TARGETS } from "./targets";

export interface ScaleOptions {
  practices: number;
  pages: number;
  rate: number;
  warmupSeconds: number;
  seconds: number;
  prewarmSeconds: number;
  /** Practices the build pre-pass renders before the server starts (the most visited first); 0: none. */
  prepass: number;
  /** Servers: 1, or several on one Redis (CACHE_URL) behind the generated nginx, as a deploy runs them. */
  instances: number;
  /** Each server's memory limit, MiB, as its container has (bench/memory-cage.ts); 0: none. */
  memoryLimitMiB: number;
  env: Record<string, string>;
}

export const SCALE_DEFAULTS: ScaleOptions = {
  practices: 3000,
  pages: 24,
  rate: 300,
  warmupSeconds: 20,
  seconds: 60,
  prewarmSeconds: 0,
  prepass: 0,
  instances: 1,
  memoryLimitMiB: memoryMb(loadEnvironments().environments.prod.memory),
  env: {},
};

const ZIPF = 1.0;
const SEED = 30;
const TIMEOUT_MS = 20_000;
/** Connections the generator may open: more than the rate times the timeout never helps. */
const MAX_CONNECTIONS = 4000;
const FIRST_MINUTE_MS = 60_000;
const SCRATCH = resolve("tmp/bench/scratch");

/** Reads `--name value` options (after the section names) into ScaleOptions. */
export function scaleOptions(args: string[]): ScaleOptions {
  const opts: ScaleOptions = { ...SCALE_DEFAULTS, env: {} };
  const numeric: Record<string, keyof Omit<ScaleOptions, "env">> = {
    "--practices": "practices",
    "--pages": "pages",
    "--rate": "rate",
    "--warmup": "warmupSeconds",
    "--seconds": "seconds",
    "--prewarm": "prewarmSeconds",
    "--prepass": "prepass",
    "--instances": "instances",
    "--memory-limit": "memoryLimitMiB",
  };
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    const value = args[i + 1];
    if (name === "--env" && value?.includes("=")) {
      const at = value.indexOf("=");
      opts.env[value.slice(0, at)] = value.slice(at + 1);
      i++;
    } else if (numeric[name] && value !== undefined && Number.isFinite(Number(value)) && Number(value) >= 0) {
      opts[numeric[name]] = Number(value);
      i++;
    } else
      throw new Error(
        `scale: unknown option or missing value: ${name} (options: ${[...Object.keys(numeric), "--env"].join(" ")})`,
      );
  }
  return opts;
}

/** The servers under load and the port the generator sends to (the server's, or nginx's in front of several). */
interface Fleet {
  port: number;
  servers: Proc[];
  /** Each server's memory cgroup (none without a limit). */
  cages: MemoryCage[];
  stop: () => Promise<void>;
}

/**
 * One server, or `instances` on a dedicated Redis behind the generated nginx (round robin), each in a session of
 * its own as in its container (bench/processes.ts, startFrontendProcess), in a memory cgroup of `limitMiB`.
 */
async function startFleet(
  backend: Proc,
  env: Record<string, string>,
  instances: number,
  limitMiB: number,
  redis?: TestRedis,
): Promise<Fleet> {
  const cages: MemoryCage[] = [];
  const cage = (i: number) => {
    if (!limitMiB) return undefined;
    const made = memoryCage(`bench-scale-${i}`, limitMiB * 1024 * 1024);
    cages.push(made);
    return made;
  };
  const uncage = () => {
    for (const made of cages) made.remove();
  };
  if (!redis) {
    try {
      const server = await startFrontendProcess(backend.url, env, "frontend-scale", true, cage(1));
      return { port: server.port, servers: [server], cages, stop: async () => (await server.stop(), uncage()) };
    } catch (error) {
      uncage();
      throw error;
    }
  }
  const servers: Proc[] = [];
  let nginx: TestNginx | undefined;
  const stop = async () => {
    nginx?.stop();
    for (const server of servers) await server.stop();
    uncage();
  };
  try {
    for (let i = 0; i < instances; i++) {
      const server = await startFrontendProcess(backend.url, { ...env, CACHE_URL: redis.url(10) }, `frontend-scale-${i + 1}`, true, cage(i + 1));
      servers.push(server);
      // Ready once it has joined the others (lifecycle.ts): what a deploy waits for.
      await until(async () => (await fetch(`${server.url}/readyz`)).ok, `instance ${i + 1} ready`, 30_000);
    }
    nginx = await startNginx(servers.map((server) => `127.0.0.1:${server.port}`), { rate: 1_000_000 });
    return { port: Number(new URL(nginx.url).port), servers, cages, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Several instances deploy onto a running environment: its Redis, and an instance of the deployment before,
 * are up when the build runs (the shared store admits a pre-pass page only where Redis remembers the whole time
 * since the build: docs/decisions/0060-prepass-with-shared-store.md). The earlier instance stops once the new
 * ones are ready, as a deploy's switch does.
 */
async function runningEnvironment(backend: Proc, env: Record<string, string>): Promise<{ redis: TestRedis; earlier: Proc | null }> {
  const redis = await startRedis();
  try {
    const earlier = await startFrontendProcess(backend.url, { ...env, CACHE_URL: redis.url(10) }, "frontend-scale-earlier", true);
    await until(async () => (await fetch(`${earlier.url}/readyz`)).ok, "the earlier instance ready", 30_000);
    // Running for longer than the clocks' margin before the build begins, as an environment between deploys is.
    const joined = Date.now();
    await until(() => Date.now() > joined + ADMIT_CLOCK_MARGIN_MS + 1000, "the environment running before the build", 30_000);
    return { redis, earlier };
  } catch (error) {
    await redis.stop();
    throw error;
  }
}

/** The servers' Prometheus expositions, summed by metric name and the labels kept (others summed over). */
async function scrape(fleet: Fleet): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const server of fleet.servers) {
    const text = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
    addExposition(sums, text);
  }
  return sums;
}

function addExposition(sums: Map<string, number>, text: string): void {
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-z_]+)(?:\{([^}]*)\})? ([0-9.e+-]+|NaN|\+Inf)$/.exec(line);
    if (!m) continue;
    const labels = (m[2] ?? "")
      .split(",")
      .filter((l) => /^(outcome|le)=/.test(l))
      .join(",");
    const key = labels ? `${m[1]}{${labels}}` : m[1];
    sums.set(key, (sums.get(key) ?? 0) + Number(m[3]));
  }
}

/** The quantile of a histogram's counts between two scrapes, linear within its bucket (Prometheus' estimate). */
function histogramQuantile(before: Map<string, number>, after: Map<string, number>, name: string, q: number): number {
  const buckets: { le: number; count: number }[] = [];
  for (const [key, value] of after) {
    const m = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\}$`).exec(key);
    if (m) buckets.push({ le: m[1] === "+Inf" ? Infinity : Number(m[1]), count: value - (before.get(key) ?? 0) });
  }
  buckets.sort((a, b) => a.le - b.le);
  const total = buckets.at(-1)?.count ?? 0;
  if (!total) return NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const { le, count } of buckets) {
    if (count >= rank)
      return le === Infinity ? lower : lower + ((le - lower) * (rank - below)) / Math.max(1, count - below);
    lower = le;
    below = count;
  }
  return NaN;
}

const delta = (before: Map<string, number>, after: Map<string, number>, key: string) =>
  (after.get(key) ?? 0) - (before.get(key) ?? 0);

async function backendReads(backend: Proc): Promise<number> {
  const { requests } = await json<{ requests: Record<string, number> }>(`${backend.url}/admin/stats`);
  return Object.entries(requests)
    .filter(([name]) => name.includes("/api/"))
    .reduce((sum, [, n]) => sum + n, 0);
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

/** The measured requests' figures, from the generator's records. */
export function summarise(result: OpenLoopResult, fromMs: number) {
  const byXcache = new Map<string, number[]>();
  let sent = 0;
  let ok = 0;
  let unavailable = 0;
  let timeouts = 0;
  let errors = 0;
  let notSent = 0;
  const statuses: Record<string, number> = {};
  for (let i = 0; i < result.sentAtMs.length; i++) {
    if (result.sentAtMs[i] < fromMs) continue;
    sent++;
    const latency = result.latencyMs[i];
    if (latency === TIMED_OUT) timeouts++;
    else if (latency === CONNECTION_ERROR) errors++;
    else if (latency === NOT_SENT) notSent++;
    const status = result.status[i];
    if (status) statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 503) unavailable++;
    if (status !== 200) continue;
    ok++;
    const name = result.xcacheNames[result.xcache[i]] ?? "(none)";
    let list = byXcache.get(name);
    if (!list) byXcache.set(name, (list = []));
    list.push(latency);
  }
  for (const list of byXcache.values()) list.sort((a, b) => a - b);
  const renders = byXcache.get("MISS")?.length ?? 0;
  return { sent, ok, unavailable, timeouts, errors, notSent, statuses, byXcache, fromCache: ok - renders };
}

/**
 * The 200s of the first request for each page in the run, when the server started seeded by the pre-pass with
 * nothing in memory: each was read from the warm tier (later requests of a page pushed out of memory are too,
 * but cannot be told apart here: X-Cache says HIT for every tier).
 */
function firstVisits(result: OpenLoopResult, fromMs: number, pages: number): number[] {
  const seen = new Set<number>();
  const latencies: number[] = [];
  for (let i = 0; i < result.sentAtMs.length; i++) {
    const page = result.practice[i] * pages + result.page[i];
    if (seen.has(page)) continue;
    seen.add(page);
    if (result.sentAtMs[i] >= fromMs && result.status[i] === 200) latencies.push(result.latencyMs[i]);
  }
  return latencies.sort((a, b) => a - b);
}

/** 503s answered after the first minute of the cold start. */
function lateUnavailable(result: OpenLoopResult): number {
  let count = 0;
  for (let i = 0; i < result.sentAtMs.length; i++)
    if (result.sentAtMs[i] >= FIRST_MINUTE_MS && result.status[i] === 503) count++;
  return count;
}

/** The most visited practices' requests: answered 200, and timed out (a popular practice starved shows here). */
function topPractices(result: OpenLoopResult, fromMs: number, top: number) {
  let sent = 0;
  let ok = 0;
  let timeouts = 0;
  for (let i = 0; i < result.sentAtMs.length; i++) {
    if (result.sentAtMs[i] < fromMs || result.practice[i] >= top) continue;
    sent++;
    if (result.status[i] === 200) ok++;
    if (result.latencyMs[i] === TIMED_OUT) timeouts++;
  }
  return { sent, ok, timeouts };
}

/**
 * The build pre-pass over `codes` (codes[0] the most visited), as a build runs it; its time, CPU, peak RSS and
 * bytes printed. Resolves with the server settings that start a server on its output.
 */
async function prepass(backend: Proc, codes: string[]): Promise<Record<string, string>> {
  const dir = resolve(SCRATCH, "scale-prepass");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tenants = resolve(dir, "practices.json");
  writeFileSync(tenants, JSON.stringify(codes.map((code) => ({ code, domains: [] }))));
  const env = benchPrepassEnv(backend, dir, {
    TENANTS_FILE: tenants,
    // The origin the bench's requests use (plain http to the preview host, no proxy in front), as `make demo`
    // sets it: the default, https://{host}, is what nginx forwards, and a page rendered for another origin is
    // another cache key (a first run without this seeded 78,000 pages and served none of them).
    BUILD_PREPASS_ORIGINS: "http://{host}",
  });
  const run = await runPrepassProcess(env);
  const summary = /prepass: (\d+) pages of (\d+) practices/.exec(run.output);
  if (run.code !== 0 || !summary) throw new Error(`scale: the pre-pass failed:\n${run.output.slice(-3000)}`);
  note({
    label: "(scale) the build pre-pass",
    value:
      `${fmt(Number(summary[1]))} pages of ${fmt(Number(summary[2]))} practices in ${fmt(run.seconds, 1)} s ` +
      `(${fmt(Number(summary[1]) / run.seconds)} pages/s), CPU ${run.cpu ?? "not measured"}, peak RSS ` +
      `${run.peakRssMiB === null ? "not measured" : `${fmt(run.peakRssMiB)} MiB`}, ${fmt(dirBytes(env.PREPASS_DIR) / 1024 / 1024, 1)} MiB written`,
  });
  return { PREPASS_DIR: env.PREPASS_DIR };
}

const pct = (part: number, whole: number) => `${fmt((part / whole) * 100, 1)}%`;

export async function scaleBench(backend: Proc, opts: ScaleOptions): Promise<void> {
  const { practices, pages, rate, warmupSeconds, seconds } = opts;
  console.log(
    `\n(scale) ${fmt(practices)} practices x ${pages} pages, ${rate} requests/s open loop, Zipf(${ZIPF}) over practices and pages, ` +
      `${warmupSeconds} s warm-up then ${seconds} s measured, from a cold start` +
      (opts.prepass ? ` seeded by the build pre-pass of the ${fmt(opts.prepass)} most visited practices` : "") +
      (opts.prewarmSeconds ? ` (after ${opts.prewarmSeconds} s of closed-loop warming, 8 connections)` : ""),
  );
  const envText = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
  if (envText.length) console.log(`  (scale) the server runs with ${envText.join(" ")} over the deployed settings`);
  const codes = await synthetic(backend, practices, pages);
  const paths = await pathsOf(backend, codes[0]);
  const hosts = codes.map(host);
  // The practices are the platform's own (listed): each has its admission queue, as in production. Unlisted
  // codes would share one queue (render-pool/renderer.ts, AdmissionBucket).
  mkdirSync(SCRATCH, { recursive: true });
  const tenants = resolve(SCRATCH, "scale-practices.json");
  writeFileSync(tenants, JSON.stringify(codes.map((code) => ({ code, domains: [] }))));
  // Several instances: their Redis runs before the build (with a pre-pass, an instance of the deployment before too).
  const environment = opts.instances > 1 ? (opts.prepass ? await runningEnvironment(backend, { TENANTS_FILE: tenants, ...opts.env }) : { redis: await startRedis(), earlier: null }) : null;
  let fleet: Fleet;
  try {
    const seed = opts.prepass ? await prepass(backend, codes.slice(0, opts.prepass)) : {};
    fleet = await startFleet(backend, { TENANTS_FILE: tenants, ...seed, ...opts.env }, opts.instances, opts.memoryLimitMiB, environment?.redis);
    await environment?.earlier?.stop();
  } catch (error) {
    await environment?.earlier?.stop();
    await environment?.redis.stop();
    throw error;
  }
  if (environment?.earlier) note({ label: "(scale) the deployment before", value: "one instance on the same Redis from before the build, stopped once the new ones were ready" });
  note({
    label: "(scale) memory limit",
    value: opts.memoryLimitMiB
      ? `${fmt(opts.memoryLimitMiB)} MiB for each server, in a memory cgroup of its own (as its container: podman run --memory)`
      : "none (--memory-limit 0)",
  });
  if (fleet.servers.length > 1)
    note({ label: "(scale) servers", value: `${fleet.servers.length} on one Redis (CACHE_URL) behind the generated nginx (round robin)` });
  try {
    const pids = fleet.servers.map((server) => server.child.pid!);
    /** The largest server's RSS (each has its container's limit). */
    const largestRss = () => Math.max(...pids.map((pid) => rssMiB(pid)));
    const serversCpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    if (opts.prepass) {
      const seeded = /page cache: seeded (\d+) pages/.exec(fleet.servers[0].output())?.[1];
      note({ label: "(scale) the server's start", value: `${seeded ? fmt(Number(seeded)) : "no"} pages seeded from the pre-pass, RSS ${fmt(largestRss())} MiB` });
    }
    if (opts.prewarmSeconds) {
      // The issue's B2: 8 connections over pages drawn as the open loop draws them (the same popularity).
      const random = seeded(SEED + 1);
      const pickPractice = zipfSampler(hosts.length, ZIPF, random);
      const pickPage = zipfSampler(paths.length, ZIPF, random);
      const targets = Array.from({ length: 20_000 }, () => ({ host: hosts[pickPractice()], path: paths[pickPage()] }));
      const warm = await runLoadInChild({
        port: fleet.port,
        targets,
        connections: 8,
        durationMs: opts.prewarmSeconds * 1000,
        headers: { "accept-encoding": "br, gzip" },
      });
      note({
        label: "(scale) closed-loop warming",
        value: `${fmt(warm.requests)} requests, ${fmt(warm.rps)} req/s, ${JSON.stringify(warm.xcache)}`,
      });
    }
    const rss: { at: number; mib: number }[] = [];
    const startedAt = performance.now();
    const sampler = setInterval(() => rss.push({ at: performance.now() - startedAt, mib: largestRss() }), 1000);
    const metricsBefore = { value: await scrape(fleet) };
    const readsBefore = { value: await backendReads(backend) };
    const cpuBefore = { value: serversCpu() };
    // The measured window's counters start when the warm-up ends.
    const warmedUp = setTimeout(() => {
      void (async () => {
        metricsBefore.value = await scrape(fleet);
        readsBefore.value = await backendReads(backend);
        cpuBefore.value = serversCpu();
      })();
    }, warmupSeconds * 1000);
    const { result, elsewhere } = await measuredElsewhere(() =>
      runOpenLoopInChild({
        port: fleet.port,
        rate,
        durationMs: (warmupSeconds + seconds) * 1000,
        hosts,
        paths,
        zipf: ZIPF,
        seed: SEED,
        timeoutMs: TIMEOUT_MS,
        maxConnections: MAX_CONNECTIONS,
        headers: { "accept-encoding": "br, gzip" },
      }),
    );
    clearInterval(sampler);
    clearTimeout(warmedUp);
    const wall = (performance.now() - startedAt) / 1000 - warmupSeconds;
    const metricsAfter = await scrape(fleet);
    const reads = (await backendReads(backend)) - readsBefore.value;
    const serverCpu = serversCpu() - cpuBefore.value;

    const s = summarise(result, warmupSeconds * 1000);
    const measuredRss = rss.filter((r) => r.at >= warmupSeconds * 1000).map((r) => r.mib);
    const allRss = rss.map((r) => r.mib);
    const maxRss = Math.max(...allRss);
    const late503 = lateUnavailable(result);
    const runSeconds = warmupSeconds + seconds;
    const rendersOk = delta(metricsBefore.value, metricsAfter, 'frontend_renders_total{outcome="ok"}');
    const rendersFailed = delta(metricsBefore.value, metricsAfter, 'frontend_renders_total{outcome="failed"}');
    const rendersRefused = delta(metricsBefore.value, metricsAfter, 'frontend_renders_total{outcome="refused"}');
    const renderP50 =
      histogramQuantile(metricsBefore.value, metricsAfter, "frontend_render_duration_seconds", 0.5) * 1000;
    const renderP99 =
      histogramQuantile(metricsBefore.value, metricsAfter, "frontend_render_duration_seconds", 0.99) * 1000;
    const waitP50 =
      histogramQuantile(metricsBefore.value, metricsAfter, "frontend_render_queue_wait_seconds", 0.5) * 1000;
    const waitP99 =
      histogramQuantile(metricsBefore.value, metricsAfter, "frontend_render_queue_wait_seconds", 0.99) * 1000;

    const machine = elsewhereText([elsewhere]);
    note({
      label: "(scale) requests measured",
      value:
        `${fmt(s.sent)} (${fmt(s.sent / seconds)}/s): ${JSON.stringify(s.statuses)}, ${fmt(s.timeouts)} timeouts (20 s), ` +
        `${fmt(s.errors)} connection errors, ${fmt(s.notSent)} not sent (${fmt(MAX_CONNECTIONS)} connections busy), ` +
        `${fmt(result.resent)} sent once more (a kept-alive connection closed under them, the whole run); ` +
        `at most ${fmt(result.maxOpenConnections)} connections open`,
      machine,
    });
    for (const [name, list] of [...s.byXcache].sort((a, b) => b[1].length - a[1].length)) {
      note({
        label: `(scale) 200 answered ${name}`,
        value: `${fmt(list.length)} (${pct(list.length, s.ok)} of the 200s), p50 ${fmt(percentile(list, 0.5), 1)} ms, p99 ${fmt(percentile(list, 0.99), 1)} ms`,
      });
    }
    const top = topPractices(result, warmupSeconds * 1000, 10);
    note({
      label: "(scale) the 10 most visited practices",
      value: `${fmt(top.sent)} requests, ${pct(top.ok, top.sent)} answered 200, ${fmt(top.timeouts)} timeouts`,
    });
    note({
      label: "(scale) renders in the measured window (server metrics)",
      value:
        `${fmt(rendersOk)} done (${fmt(rendersOk / wall, 1)}/s), ${fmt(rendersFailed)} failed, ${fmt(rendersRefused)} refused; ` +
        `render time p50 ${fmt(renderP50, 1)} ms, p99 ${fmt(renderP99, 1)} ms; queue wait p50 ${fmt(waitP50, 1)} ms, p99 ${fmt(waitP99, 1)} ms ` +
        `(histogram estimates)`,
    });
    note({ label: "(scale) backend reads in the measured window", value: `${fmt(reads)} (${fmt(reads / wall, 1)}/s)` });
    note({
      label: "(scale) server CPU in the measured window",
      value: `${fmt((serverCpu / wall) * 100)}% of one core (main thread and render workers${pids.length > 1 ? `, the ${pids.length} servers summed` : ""})`,
    });
    note({
      label: pids.length > 1 ? "(scale) RSS of the largest server" : "(scale) RSS",
      value: `${fmt(Math.min(...measuredRss))}-${fmt(Math.max(...measuredRss))} MiB measured, at most ${fmt(maxRss)} MiB over the run`,
    });
    if (opts.prepass) {
      const first = firstVisits(result, warmupSeconds * 1000, paths.length);
      note({
        label: "(scale) first visits of a page in the measured window (read from the warm tier: the pre-pass's pages)",
        value: `${fmt(first.length)}, p50 ${fmt(percentile(first, 0.5), 1)} ms, p99 ${fmt(percentile(first, 0.99), 1)} ms`,
      });
    }
    const missList = s.byXcache.get("MISS") ?? [];
    judge(
      "(scale) requests answered 200",
      TARGETS.scaleOk,
      s.ok / s.sent,
      `${pct(s.ok, s.sent)} (${fmt(s.ok)} of ${fmt(s.sent)})`,
    );
    judge(
      "(scale) requests answered from memory or the warm tier (200, not a render)",
      TARGETS.scaleFromCache,
      s.fromCache / s.sent,
      `${pct(s.fromCache, s.sent)} of the requests (${pct(s.fromCache, s.ok)} of the 200s)`,
    );
    if (missList.length)
      judge(
        "(scale) renders' answers (MISS), p50",
        TARGETS.scaleRenderP50Ms,
        percentile(missList, 0.5),
        `${fmt(percentile(missList, 0.5), 1)} ms (p99 ${fmt(percentile(missList, 0.99), 1)} ms)`,
      );
    else if (s.ok === s.sent)
      // A p50 of no render is no figure: every request was answered 200 without one (a run seeded by the
      // pre-pass); the target is judged by the runs that render.
      note({ label: "(scale) renders' answers (MISS)", value: `none: all ${fmt(s.sent)} requests were answered 200 without a render` });
    else judge("(scale) renders' answers (MISS), p50", TARGETS.scaleRenderP50Ms, NaN, "no render answered 200");
    judge("(scale) RSS over the run", TARGETS.scaleRssMiB, maxRss, `${fmt(maxRss)} MiB at most`);
    if (fleet.cages.length) {
      const peaks = fleet.cages.map((c) => c.peak());
      const kills = fleet.cages.reduce((sum, c) => sum + c.oomKills(), 0);
      judge(
        "(scale) servers killed for lack of memory inside their limit",
        TARGETS.scaleOomKills,
        kills,
        `${fmt(kills)}; the most a server's cgroup held at once ` +
          `${peaks.every((p) => p !== null) ? `${fmt(Math.max(...(peaks as number[])) / 1024 / 1024)} MiB (with the file pages it read, which the kernel reclaims under the limit)` : "not reported by the kernel"}`,
      );
    }
    if (runSeconds * 1000 > FIRST_MINUTE_MS) {
      judge(
        "(scale) 503s after the first minute of the cold start",
        TARGETS.scaleLate503,
        late503,
        `${fmt(late503)} in the last ${fmt(runSeconds - FIRST_MINUTE_MS / 1000)} s of the run`,
      );
    } else
      note({ label: "(scale) 503s after the first minute", value: `not measured: the run lasted ${runSeconds} s` });
    console.log(
      `  (scale) as the issue's table: | ${fmt(practices)} practices, ${rate}/s | ${pct(s.ok, s.sent)} 200 | ${pct(s.fromCache, s.ok)} not MISS among the 200s | ` +
        `HIT ${fmt(percentile(s.byXcache.get("HIT") ?? [], 0.5), 1)} / ${fmt(percentile(s.byXcache.get("HIT") ?? [], 0.99))} ms | ` +
        `MISS ${fmt(percentile(missList, 0.5), 1)} / ${fmt(percentile(missList, 0.99))} ms | ${fmt(s.unavailable)} / ${fmt(s.timeouts)} | ` +
        `${fmt(Math.min(...measuredRss))}-${fmt(Math.max(...measuredRss))} MB |`,
    );
  } finally {
    await fleet.stop();
    await environment?.redis.stop();
  }
}
