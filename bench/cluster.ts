/**
 * Benchmark sections of several instances on one Redis (a dedicated redis-server on a free port, 128 MB,
 * allkeys-lru), side by side with their one-instance baselines from the same run:
 *
 *   (g) cache HIT throughput of one instance with CACHE_URL vs without   target: bench/targets.ts (the hit path stays local)
 *   (h) two instances behind nginx vs one instance behind nginx
 *   (i) webhook-to-fresh across instances: the webhook to A, the page read from B, median and worst of 50
 *   (j) warm-up of a new instance with 300 practices x 25 pages in the shared store
 */
import { runLoadInChild } from "./load";
import {
  fmt,
  host,
  judge,
  judgeThroughput,
  latencySummary,
  medianOf,
  medianRatio,
  note,
  pathsOf,
  ROUNDS,
  synthetic,
  throughput,
  webhookEdits,
  type Measured,
} from "./figures";
import { startFrontendProcess, type Proc } from "./processes";
import { elsewhereText } from "./machine";
import { TARGETS } from "./targets";
import { get } from "../tests/support/cache";
import { startRedis, type TestRedis } from "../tests/support/redis";
import { startNginx } from "../tests/support/nginx";

const page = { path: "/", host: host("dupont") };

export async function clusterSections(backend: Proc, wanted: (section: string) => boolean): Promise<void> {
  if (!["g", "h", "i", "j"].some(wanted)) return;
  const redis = await startRedis();
  const procs: Proc[] = [];
  const start = async (env: Record<string, string> = { CACHE_URL: redis.url(8) }) => {
    const proc = await startFrontendProcess(backend.url, env);
    procs.push(proc);
    await waitReady(proc);
    return proc;
  };
  try {
    if (wanted("g")) await hitWithRedis(await start({}), await start());
    if (wanted("h") || wanted("i")) {
      const a = await start();
      const b = await start();
      if (wanted("h")) await behindNginx(a, b);
      if (wanted("i")) await webhookAcross(backend, a, b);
    }
    for (const p of procs.splice(0)) await p.stop();
    if (wanted("j")) await warmUp(backend, redis, start);
  } finally {
    for (const p of procs) await p.stop();
    await redis.stop();
  }
}

async function waitReady(proc: Proc): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${proc.url}/readyz`)).ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`instance on :${proc.port} not ready:\n${proc.output()}`);
}

async function warmPage(...procs: Proc[]): Promise<void> {
  for (const proc of procs) {
    await get(proc.url, page.host, page.path);
    const hit = await get(proc.url, page.host, page.path);
    if (hit.xcache !== "HIT") throw new Error(`expected a HIT on :${proc.port}, got ${hit.xcache}`);
  }
}

const line = (r: Measured, all: Measured[], cpu = true) =>
  `${fmt(r.rps)} req/s (rounds: ${all.map((x) => fmt(x.rps)).join(", ")})` +
  (cpu ? `, ${fmt(r.cpuUs, 1)} µs server CPU per request` : "") +
  `, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`;

/** (g) alternates more rounds than the others: a 5% target needs the medians of a noisy shared machine. */
const G_ROUNDS = 2 * ROUNDS - 1;

/** (g) The hit path must not talk to Redis: the same HIT with and without CACHE_URL. */
async function hitWithRedis(plain: Proc, shared: Proc): Promise<void> {
  console.log("\n(g) cache HIT of one instance with CACHE_URL vs without, the dupont homepage (brotli)");
  await warmPage(plain, shared);
  const without: Measured[] = [];
  const withRedis: Measured[] = [];
  const measure = async (proc: Proc, into: Measured[]) => {
    const r = await throughput(proc.port, [proc.child.pid!], page);
    if ((r.xcache.HIT ?? 0) !== r.requests) throw new Error(`(g) saw non-hits: ${JSON.stringify(r.xcache)}`);
    into.push(r);
  };
  for (let round = 0; round < G_ROUNDS; round++) {
    // Which one goes first alternates: the second of a pair runs on a machine the first just warmed.
    if (round % 2) {
      await measure(shared, withRedis);
      await measure(plain, without);
    } else {
      await measure(plain, without);
      await measure(shared, withRedis);
    }
  }
  const a = medianOf(without);
  const b = medianOf(withRedis);
  note({ label: "(g) HIT without CACHE_URL", value: line(a, without) });
  note({ label: "(g) HIT with CACHE_URL (Redis)", value: line(b, withRedis) });
  // The verdict is the figure the target names, HIT throughput, each round's pair compared with itself.
  const ratio = medianRatio(withRedis, without);
  const machine = [...without, ...withRedis].map((m) => m.elsewhere);
  judgeThroughput("(g) with / without, req/s", TARGETS.redisHitVsLocal, ratio, `${fmt(ratio * 100, 1)}% (median of the rounds' ratios)`, machine);
  // A diagnosis: server CPU per request is steadier when other work shares the cores (req/s is also bounded by
  // the load generator).
  const cpu = (all: Measured[]) => [...all].map((m) => m.cpuUs).sort((x, y) => x - y)[Math.floor(all.length / 2)];
  note({
    label: "(g) with / without, server CPU per request (without's cost / with's; a diagnosis)",
    value: `${fmt((cpu(without) / cpu(withRedis)) * 100, 1)}% (medians: ${fmt(cpu(without), 1)} vs ${fmt(cpu(withRedis), 1)} µs)`,
  });
}

/** (h) nginx in front of one instance, then of both (on two cores the load generator and nginx take their share). */
async function behindNginx(a: Proc, b: Proc): Promise<void> {
  console.log("\n(h) cache HITs through nginx: one instance vs two");
  await warmPage(a, b);
  const one = await startNginx([`127.0.0.1:${a.port}`], { rate: 1_000_000 });
  const two = await startNginx([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`], { rate: 1_000_000 });
  const ones: Measured[] = [];
  const twos: Measured[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      ones.push(await throughput(Number(new URL(one.url).port), [a.child.pid!], page));
      twos.push(await throughput(Number(new URL(two.url).port), [a.child.pid!, b.child.pid!], page));
    }
  } finally {
    one.stop();
    two.stop();
  }
  const x = medianOf(ones);
  const y = medianOf(twos);
  note({ label: "(h) nginx -> one instance", value: line(x, ones, false) });
  note({ label: "(h) nginx -> two instances", value: line(y, twos, false) });
  note({
    label: "(h) two / one, req/s",
    value: `${fmt((y.rps / x.rps) * 100, 1)}% (nginx, the load generator and both instances share this machine's cores; nginx without its access log, its CPU counted with the other processes)`,
    machine: elsewhereText([...ones, ...twos].map((m) => m.elsewhere)),
  });
}

/** (i) The webhook to A, the page read from B right after its 2xx. */
async function webhookAcross(backend: Proc, a: Proc, b: Proc): Promise<void> {
  console.log("\n(i) webhook-to-fresh across instances, 50 edits (webhook to A, page read from B)");
  const { latencies, fresh } = await webhookEdits(backend, a, b);
  note({ label: "(i) webhook to A -> fresh page from B, median", value: latencySummary(latencies).text });
  judge("(i) read-your-writes across instances", TARGETS.readYourWrites, fresh, `${fresh}/50`);
}

/** (j) 300 practices x 25 pages rendered once by A into the shared store; then a new instance starts. */
async function warmUp(backend: Proc, redis: TestRedis, start: () => Promise<Proc>): Promise<void> {
  console.log("\n(j) warm-up of a new instance, 300 practices x 25 pages in the shared store");
  const codes = await synthetic(backend, 300, 25);
  const paths = await pathsOf(backend, codes[0]);
  const targets = codes.flatMap((code) => paths.map((path) => ({ path, host: host(code) })));
  const a = await start();
  const fill = await runLoadInChild({ port: a.port, targets, connections: 8, durationMs: 300_000, maxRequests: targets.length });
  if ((fill.statuses["200"] ?? 0) !== targets.length) throw new Error(`(j) fill: ${JSON.stringify(fill.statuses)}`);
  await new Promise((r) => setTimeout(r, 1000)); // the last saves are written in the background
  const info = await redis.command("INFO", "memory");
  const used = Number(/used_memory:(\d+)/.exec(info)?.[1]) / 1024 / 1024;
  const evicted = Number(/evicted_keys:(\d+)/.exec(await redis.command("INFO", "stats"))?.[1]);
  const keys = Number((await redis.command("-n", "8", "DBSIZE")).trim());
  await a.stop();
  const started = performance.now();
  const b = await start();
  const ready = (performance.now() - started) / 1000;
  const all = await runLoadInChild({
    port: b.port,
    targets,
    connections: 8,
    durationMs: 300_000,
    maxRequests: targets.length,
    method: "HEAD",
    headers: { "accept-encoding": "gzip, deflate, br" },
  });
  const total = (performance.now() - started) / 1000;
  const hits = all.xcache.HIT ?? 0;
  note({
    label: "(j) shared store after the fill",
    value: `${fmt(keys)} keys, ${fmt(used, 1)} MiB used of 128 MB, ${fmt(evicted)} evicted (filled at ${fmt(fill.rps)} renders/s by one instance)`,
  });
  note({ label: "(j) new instance ready (/readyz)", value: `${fmt(ready, 2)} s after spawn` });
  judge("(j) new instance answered every page", TARGETS.warmUpSeconds, total, `${fmt(total, 1)} s after spawn (${fmt(all.rps)} pages/s)`);
  judge(
    "(j) pages answered from the shared store",
    TARGETS.warmUpHitShare,
    hits / targets.length,
    `${fmt(hits)}/${fmt(targets.length)} HIT from the shared store, ${fmt(all.xcache.MISS ?? 0)} rendered`,
  );
}
