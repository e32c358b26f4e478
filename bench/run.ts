/**
 * `npm run bench` (after `npm run build`): the page cache's figures, side by side, in one run.
 * `npm run bench -- b l` runs some sections only ((a) and (b) run together); `npm run bench -- lcp` the LCP gate.
 *
 *   (a) bare node:http answering one fixed buffer (the same page's bytes): the in-process limit
 *   (b) a cache HIT through the product as deployed (the built server, production defaults), judged against (a)
 *   (c) MISS renders per second
 *   (d) webhook-to-fresh latency, median and worst of 50 edits, read-your-writes
 *   (e) RSS with 300 practices x 25 pages cached
 *   (f) pre-pass time for 100 practices x 25 pages, in the main thread and in the render pool
 *   (g)-(j) several instances on one Redis: bench/cluster.ts
 *   (k) noisy neighbour: hits during another practice's storm       (bench/noisy-neighbour.ts)
 *   (l) HIT throughput as deployed vs observability off, and vs bare node:http  (bench/operator-view.ts)
 *   lcp Lighthouse mobile LCP, the median of three runs per page kind (bench/lcp.ts)
 *   scale many practices at an open-loop rate, from a cold start (bench/scale.ts; only when named, with its
 *         options after the names: `npm run bench -- scale --practices 300 --rate 100 --seconds 30`)
 *
 * The targets are bench/targets.ts's, printed at the start; a missed target, or a section that throws, makes
 * the run exit 1. Every server runs as deployed (bench/processes.ts: JSON access line for every request,
 * metrics on, stdout to a file). The servers, the demo backend and the load generator are separate processes
 * on loopback; on a two-core machine they compete for the same cores, and other work on the machine competes
 * too: the printout gives the machine's state at the start and beside every throughput figure
 * (bench/machine.ts).
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { runLoadInChild } from "./load";
import {
  CONNECTIONS,
  failed,
  figures,
  fmt,
  host,
  judge,
  judgeThroughput,
  measuredElsewhere,
  median,
  medianOf,
  warmHit,
  warmEveryAnswer,
  note,
  pathsOf,
  startBareTwin,
  synthetic,
  throughput,
  webhookEdits,
  latencySummary,
  type Measured,
} from "./figures";
import { clusterSections } from "./cluster";
import {
  countLines,
  describeDeployed,
  LOGS,
  rssMiB,
  runPrepassProcess,
  benchPrepassEnv,
  startBackendProcess,
  startFrontendProcess,
  type Proc,
} from "./processes";
import { benchPids, elsewhereText, machineLine, otherRuntime } from "./machine";
import { TARGETS, targetsTable } from "./targets";
import { lcpGate } from "./lcp";
import { agent, get } from "../tests/support/cache";
import { inspectorUrl, memoryAfterGc } from "./inspect";
import { noisyNeighbour } from "./noisy-neighbour";
import { operatorViewCost } from "./operator-view";
import { scaleBench, scaleOptions } from "./scale";

/** Scratch files of one run (page bodies, practice lists, the pre-pass's output), emptied at its start. */
const WORK = resolve("tmp/bench/scratch");
/**
 * (a) and (b) alternate this many rounds (the order alternating too); the median of the rounds' ratios is judged.
 * In a round every server of each side is measured in turn, and the round's ratio is the median server of (b) over
 * the median server of (a).
 */
const AB_ROUNDS = 5;
/**
 * Servers of each side in (a)/(b): identical processes of the same build answer at different rates on this
 * machine (measured 2026-11-27: six as-deployed servers, started alike, at 55% to 82% of the same bare server in
 * one run, the worst and best the same processes in the next run), so one server per side is a draw.
 */
const AB_PROCESSES = 3;
/** (f) alternates the main thread and the pool this many rounds each. */
const PREPASS_ROUNDS = 3;
/** The V8 old-space cap for a 512 MB container (README, "The cache"). */
const HEAP_CAP_MB = 256;
/** (e)'s page store budget: src/server/env.ts's default. */
const PAGE_BUDGET_MB = 128;

/** (a) and (b): the same page's bytes from bare servers and through the product as deployed (AB_PROCESSES each). */
async function hitThroughput(backend: Proc, frontend: Proc) {
  console.log(`\n(a)/(b) cache hit as deployed vs bare node:http serving the same bytes, the dupont homepage (brotli), ${AB_PROCESSES} servers each`);
  const page = { path: "/", host: host("dupont") };
  const fronts = [frontend];
  const bares: Proc[] = [];
  let raw: Buffer = Buffer.alloc(0);
  try {
    while (fronts.length < AB_PROCESSES) fronts.push(await startFrontendProcess(backend.url));
    for (const f of fronts) await warmEveryAnswer(f, page.host);
    for (const f of fronts.slice(1)) await warmHit(f, page);
    for (let i = 0; i < AB_PROCESSES; i++) {
      const twin = await startBareTwin(frontend, page, WORK);
      bares.push(twin.bare);
      raw = twin.raw;
    }
    // The same requests to the twins (each answers every one with the page's bytes): Node's parser and its headers'
    // objects see the variety of a deployed server's traffic on both sides, not on the product's alone.
    for (const bare of bares) await warmEveryAnswer(bare, page.host);
    const linesBefore = await Promise.all(fronts.map((f) => countLines(f.logFile, '"msg":"access"')));
    // rounds[k] holds round k's measures: as[i] of bare server i, bs[i] of deployed server i.
    const rounds: { as: Measured[]; bs: Measured[] }[] = [];
    for (let round = 0; round < AB_ROUNDS; round++) {
      const as: Measured[] = [];
      const bs: Measured[] = [];
      for (let i = 0; i < AB_PROCESSES; i++) {
        // Which one goes first alternates: the second of a pair runs on a machine the first just warmed.
        const measureA = async () => void (as[i] = await throughput(bares[i].port, [bares[i].child.pid!], page));
        const measureB = async () => {
          const b = await throughput(fronts[i].port, [fronts[i].child.pid!], page);
          if ((b.xcache.HIT ?? 0) !== b.requests) throw new Error(`(b) saw non-hits: ${JSON.stringify(b.xcache)}`);
          bs[i] = b;
        };
        for (const measure of (round + i) % 2 ? [measureB, measureA] : [measureA, measureB]) await measure();
      }
      rounds.push({ as, bs });
    }
    const all = (side: "as" | "bs") => rounds.flatMap((r) => r[side]);
    const line = (side: "as" | "bs") => {
      const perServer = Array.from({ length: AB_PROCESSES }, (_, i) => fmt(medianOf(rounds.map((r) => r[side][i])).rps));
      const m = medianOf(all(side));
      return (
        `${fmt(m.rps)} req/s (median of ${all(side).length} runs; each server's median: ${perServer.join(", ")}), ` +
        `${fmt(m.cpuUs, 1)} µs server CPU per request, p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, ${CONNECTIONS} connections`
      );
    };
    note({ label: "(a) bare node:http, fixed buffer", value: line("as") });
    note({ label: "(b) cache HIT through the product as deployed", value: line("bs") });
    const roundRatios = rounds.map((r) => medianOf(r.bs).rps / medianOf(r.as).rps);
    const ratio = median(roundRatios, (x) => x);
    const machine = [...all("as"), ...all("bs")].map((m) => m.elsewhere);
    judgeThroughput(
      "(b)/(a) in req/s",
      TARGETS.hitVsBare,
      ratio,
      `${fmt(ratio * 100, 1)}% (median of the rounds' ratios, each the median server of (b) over that of (a): ${roundRatios.map((x) => `${fmt(x * 100, 1)}%`).join(", ")})`,
      machine,
    );
    // A diagnosis, not the verdict: with one core each for server and generator, req/s can be capped by the
    // generator; the CPU a request costs the server says how the two compare when the server is the bottleneck.
    note({
      label: "(b)/(a) in server CPU per request (a's cost / b's cost; a diagnosis)",
      value: `${fmt((median(all("as"), (r) => r.cpuUs).cpuUs / median(all("bs"), (r) => r.cpuUs).cpuUs) * 100, 1)}%`,
    });
    // What the deployed servers wrote meanwhile, read from their log files (lines still in a buffer come within a second).
    await new Promise((r) => setTimeout(r, 1500));
    const lines = (await Promise.all(fronts.map((f) => countLines(f.logFile, '"msg":"access"')))).reduce((sum, n, i) => sum + n - linesBefore[i], 0);
    // After the count: this request is none of (b)'s.
    note({ label: "page size", value: `${fmt(raw.length)} bytes brotli (${fmt(Number((await get(frontend.url, page.host, page.path)).raw.length))} identity)` });
    const answered = all("bs").reduce((sum, r) => sum + r.requests + r.warmupRequests, 0);
    note({
      label: "(b) the servers' log files",
      value:
        `${fmt(lines)} access lines for the ${fmt(answered)} requests they answered during (b) ` +
        `(${fronts.map((f) => `${relative(process.cwd(), f.logFile)}, ${fmt(statSync(f.logFile).size / 1024 / 1024, 1)} MiB`).join("; ")})`,
    });
  } finally {
    // Every one stopped, whichever fails to stop.
    await Promise.allSettled([...bares, ...fronts.slice(1)].map((p) => p.stop()));
  }
}

/** (c): distinct cold pages of synthetic practices, each requested once. */
async function missRenders(backend: Proc, frontend: Proc) {
  console.log("\n(c) MISS renders per second (1000 distinct cold pages, 8 connections)");
  const codes = await synthetic(backend, 40, 25);
  const paths = await pathsOf(backend, codes[0]);
  const targets = codes.flatMap((code) => paths.map((path) => ({ path, host: host(code) })));
  const { result: c, elsewhere } = await measuredElsewhere(() =>
    runLoadInChild({
      port: frontend.port,
      targets,
      connections: 8,
      durationMs: 120_000,
      maxRequests: targets.length,
      headers: { "accept-encoding": "gzip, deflate, br" },
    }),
  );
  if ((c.xcache.MISS ?? 0) !== targets.length)
    throw new Error(`(c) expected ${targets.length} misses: ${JSON.stringify(c)}`);
  note({
    label: "(c) MISS renders",
    value: `${fmt(c.rps)} renders/s (${c.requests} pages, p50 ${c.latencyMs.p50} ms, p99 ${c.latencyMs.p99} ms; render, backend reads, brotli + gzip)`,
    machine: elsewhereText([elsewhere]),
  });
}

/** (d): edit in the backend, send the webhook, read the page: time from the webhook to the fresh page. */
async function webhookToFresh(backend: Proc, frontend: Proc) {
  console.log("\n(d) webhook-to-fresh latency, 50 edits of a cached page");
  const { latencies, fresh } = await webhookEdits(backend, frontend, frontend);
  const { median, text } = latencySummary(latencies);
  judge("(d) webhook-to-fresh, median", TARGETS.webhookMedianMs, median, text);
  judge("(d) read-your-writes", TARGETS.readYourWrites, fresh, `${fresh}/50 first requests after the webhook had the edit`);
}

/** (e): RSS of a fresh server once 300 practices x 25 pages are cached. */
async function rssAtScale(backend: Proc) {
  console.log("\n(e) RSS with 300 practices x 25 pages cached");
  const codes = await synthetic(backend, 300, 25);
  const paths = await pathsOf(backend, codes[0]);
  const targets = codes.flatMap((code) => paths.map((path) => ({ path, host: host(code) })));
  // Run as a 512 MB container should run it (README, "The cache"): V8's heap capped at 256 MB, or V8
  // grows its heap far past the live set on a machine with plenty of memory; the page store's budget is
  // env.ts's default (128 MB), as before, not the prod container's. The inspector lets the benchmark read
  // the live set after a full GC, beside the RSS as it is.
  console.log(
    `  (e) runs NODE_OPTIONS=--max-old-space-size=${HEAP_CAP_MB} --inspect --expose-gc and PAGE_CACHE_MAX_MB=${PAGE_BUDGET_MB} ` +
      "(a 512 MB container), not the prod container's 1 GB settings; the rest as deployed",
  );
  const frontend = await startFrontendProcess(
    backend.url,
    { NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB} --inspect=127.0.0.1:0 --expose-gc`, PAGE_CACHE_MAX_MB: String(PAGE_BUDGET_MB) },
    "frontend-e",
  );
  try {
    const pid = frontend.child.pid!;
    const idle = rssMiB(pid);
    const fill = await runLoadInChild({
      port: frontend.port,
      targets,
      connections: 8,
      durationMs: 300_000,
      maxRequests: targets.length,
    });
    if ((fill.statuses["200"] ?? 0) !== targets.length) throw new Error(`(e) fill: ${JSON.stringify(fill.statuses)}`);
    const check = await runLoadInChild({
      port: frontend.port,
      targets,
      connections: 8,
      durationMs: 120_000,
      maxRequests: targets.length,
      method: "HEAD",
    });
    const cached = check.xcache.HIT ?? 0;
    // A sample of what one page costs in the store (brotli + gzip bodies).
    let sample = 0;
    const step = Math.floor(targets.length / 50);
    for (let i = 0; i < 50; i++) {
      const t = targets[i * step];
      const br = await get(frontend.url, t.host, t.path, { method: "HEAD", headers: { "accept-encoding": "br" } });
      const gz = await get(frontend.url, t.host, t.path, { method: "HEAD", headers: { "accept-encoding": "gzip" } });
      sample += Number(br.headers["content-length"]) + Number(gz.headers["content-length"]);
    }
    const full = rssMiB(pid);
    const ws = inspectorUrl(frontend.output());
    const live = ws ? await memoryAfterGc(ws) : null;
    const mib = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MiB`;
    note({ label: "(e) pages cached", value: `${cached}/${targets.length} (filled at ${fmt(fill.rps)} renders/s)` });
    note({
      label: "(e) stored bodies per page",
      value: `${fmt(sample / 50 / 1024, 1)} KiB (brotli + gzip, mean of 50)`,
    });
    note({ label: "(e) RSS idle after start", value: `${fmt(idle)} MiB` });
    judge(
      "(e) RSS with every page cached",
      TARGETS.rssMiB,
      cached === targets.length ? full : NaN,
      `${fmt(full)} MiB (node --max-old-space-size=${HEAP_CAP_MB})` + (cached === targets.length ? "" : `: only ${cached} pages cached`),
    );
    if (live) {
      note({
        label: "(e) after a full GC",
        value: `RSS ${mib(live.rss)}: V8 heap used ${mib(live.heapUsed)} of ${mib(live.heapTotal)}, buffers outside the heap ${mib(live.arrayBuffers)}`,
      });
    }
  } finally {
    await frontend.stop();
  }
}

/** (f): the built pre-pass over 100 registered (preview-host) practices of 25 pages. */
async function prepassTime(backend: Proc) {
  console.log("\n(f) pre-pass, 100 practices x 25 pages");
  const codes = await synthetic(backend, 100, 25);
  const tenants = join(WORK, "practices.json");
  writeFileSync(tenants, JSON.stringify(codes.map((code) => ({ code, domains: [] }))));
  // Side by side: rendering in the pre-pass's main thread (RENDER_WORKERS=0, as before the render pool)
  // and in the pool (one worker per CPU). The two alternate over PREPASS_ROUNDS rounds (the demo backend
  // gets faster as it warms up, which would favour whichever runs second) and the medians are reported.
  const modes = [
    { label: "in the main thread (RENDER_WORKERS=0)", workers: "0", seconds: [] as number[] },
    { label: "in the render pool (default)", workers: "", seconds: [] as number[] },
  ];
  let responses = "";
  for (let round = 0; round < PREPASS_ROUNDS; round++) {
    for (const mode of round % 2 ? [...modes].reverse() : modes) {
      const run = await runPrepassProcess(benchPrepassEnv(backend, WORK, { TENANTS_FILE: tenants, RENDER_WORKERS: mode.workers }));
      const summary = /prepass: (\d+) pages of (\d+) practices/.exec(run.output);
      if (run.code !== 0 || !summary || Number(summary[1]) < 2500 || Number(summary[2]) !== 100) {
        throw new Error(`pre-pass failed:\n${run.output}`);
      }
      responses = summary[1];
      mode.seconds.push(run.seconds);
    }
  }
  for (const mode of modes) {
    const seconds = median(mode.seconds, (x) => x);
    judge(
      `(f) pre-pass ${mode.label}`,
      TARGETS.prepassSeconds,
      seconds,
      `${fmt(seconds, 1)} s for ${responses} responses of 100 practices (25 pages, robots.txt and sitemap.xml ` +
        `each; ${fmt(Number(responses) / seconds)} per second, process start included; median of ` +
        `${mode.seconds.map((x) => fmt(x, 1)).join(", ")} s)`,
    );
  }
  const [inProcess, pooled] = modes.map((mode) => median(mode.seconds, (x) => x));
  judge("(f) pre-pass in the pool vs in the main thread", TARGETS.prepassPoolSpeedup, inProcess / pooled, `${fmt(inProcess / pooled, 2)}x as fast`);
}

const SECTIONS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "lcp", "scale"];
/** Sections that run only when named (minutes of load of their own). */
const ON_DEMAND = new Set(["scale"]);

/** Runs one section; a section that throws is reported, counted as a missed target, and the next one runs. */
async function section(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    console.error(`\n(${name}) failed:`, error);
    failed(`(${name}) the section ran to its end`, `it threw: ${(error as Error).message.split("\n")[0]}`);
  }
}

async function main() {
  const runtime = otherRuntime(process.version);
  if (runtime) throw new Error(runtime);
  rmSync(WORK, { recursive: true, force: true });
  rmSync(LOGS, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const startedAt = new Date();
  console.log(`Benchmark, ${startedAt.toISOString()}: ${machineLine()}.`);
  console.log(
    "The server under test, the demo backend and the load generator are separate processes on loopback and\n" +
      "compete for the same cores (the load generator takes a good share of one core during (a) and (b)), and with\n" +
      "any other work on the machine: each throughput figure says what the other processes used meanwhile.",
  );
  console.log(describeDeployed());
  console.log(targetsTable());
  // Section names, then options (`--name value`, the scale section's).
  const args = process.argv.slice(2);
  const firstOption = args.findIndex((arg) => arg.startsWith("--"));
  const names = firstOption === -1 ? args : args.slice(0, firstOption);
  const scale = scaleOptions(firstOption === -1 ? [] : args.slice(firstOption));
  const only = new Set(names.map((s) => s.replace(/[()]/g, "").toLowerCase()));
  const unknown = [...only].filter((name) => !SECTIONS.includes(name));
  if (unknown.length) throw new Error(`unknown section ${unknown.join(", ")}: the sections are ${SECTIONS.join(", ")}`);
  const wanted = (name: string) => only.has(name) || (only.size === 0 && !ON_DEMAND.has(name));
  const backend = await startBackendProcess();
  const procs: Proc[] = [backend];
  try {
    if (["a", "b", "c", "d"].some(wanted)) {
      const frontend = await startFrontendProcess(backend.url);
      procs.push(frontend);
      if (wanted("a") || wanted("b")) await section("a/b", () => hitThroughput(backend, frontend));
      if (wanted("c")) await section("c", () => missRenders(backend, frontend));
      if (wanted("d")) await section("d", () => webhookToFresh(backend, frontend));
      await frontend.stop();
    }
    if (wanted("e")) await section("e", () => rssAtScale(backend));
    if (wanted("f")) await section("f", () => prepassTime(backend));
    if (["g", "h", "i", "j"].some(wanted)) await section("g-j", () => clusterSections(backend, wanted));
    if (wanted("k")) await section("k", () => noisyNeighbour(backend, (code) => pathsOf(backend, code)));
    if (wanted("l")) await section("l", () => operatorViewCost(backend));
    if (wanted("lcp")) await section("lcp", () => lcpGate(backend));
    if (wanted("scale")) await section("scale", () => scaleBench(backend, scale));
  } finally {
    for (const p of procs.reverse()) await p.stop();
    agent.destroy();
  }
  console.log(`\nSummary (${startedAt.toISOString()} to ${new Date().toISOString()}; at the end: ${machineLine()})`);
  const judged = figures.filter((f) => f.met !== undefined);
  for (const f of judged) {
    const verdict = f.notJudged ? "NOT JUDGED" : f.met ? "met       " : "NOT met   ";
    console.log(`  ${verdict}  ${f.label}: ${f.value} (target ${f.target})${f.notJudged ? ` (${f.notJudged})` : ""}`);
  }
  const missed = judged.filter((f) => !f.met && !f.notJudged).length;
  const notJudged = judged.filter((f) => f.notJudged).length;
  console.log(`  servers' logs: ${relative(process.cwd(), LOGS)}/`);
  if (missed + notJudged > 0) {
    console.log(`\n${judged.length - missed - notJudged} of ${judged.length} targets met, ${missed} NOT met, ${notJudged} not judged (exit 1).`);
    process.exitCode = 1;
  } else console.log(`\n${judged.length} of ${judged.length} targets met.`);
}

// Interrupted (Ctrl-C, a timeout): the servers and load generators it started stop with it.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const pid of benchPids) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        /* gone already */
      }
    }
    process.exit(130);
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
