/**
 * (l) What the operator's view costs a cache HIT, end to end: HIT throughput of five servers side by side, in
 * one run, the same page (dupont's homepage, brotli), the rounds rotating which one goes first (the one measured
 * after a quiet spell profits; the machine's speed drifts from one minute to the next):
 *   bare        node:http answering the same bytes from one Buffer (bench/bare-server.ts)
 *   off         the built server with observability off: METRICS_PORT=0, LOG_FORMAT=off
 *   no access   metrics on, JSON log lines, ACCESS_LOG=off (what an operator who logs at the proxy runs)
 *   deployed    the production defaults (bench/processes.ts): metrics on, a JSON access line for every
 *               request, stdout to a file
 *   sentry      the same with error tracking on (SENTRY_DSN set, to a local address nothing listens on: the
 *               SDK's work per request is measured, nothing is sent during HITs)
 * Judged (bench/targets.ts) on each round's req/s ratio, the median of the rounds: deployed / off and
 * no access / off (issue 19's ">= 97% of without"), deployed / bare (issue 28's ">= 90% of node:http"), sentry /
 * deployed (issue 28: error tracking does not cost the hit path).
 * Printed beside them as diagnoses, never as the verdict: server CPU per request, and the request observer's
 * own CPU measured in this process on fake request and response objects (observerCostUs).
 */
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdirSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fmt, host, judgeThroughput, median, medianOf, medianRatio, note, startBareTwin, throughput, warmHit, type Measured } from "./figures";
import { countLines, startFrontendProcess, type Proc } from "./processes";
import { TARGETS } from "./targets";
import { AccessLog, requestId } from "../src/server/monitoring/access";
import { createPipeline } from "../src/server/http/pipeline";
import { observers, type Observers } from "../src/server/http/observe";
import { Metrics } from "../src/server/monitoring/metrics";

/** A DSN on a local port nothing listens on (the discard port): the SDK starts and works, and sends nowhere. */
const LOCAL_DSN = "http://bench@127.0.0.1:9/1";

/** Rounds of the five in turn; the ratios are taken within each round and their median judged. */
const ROUNDS = 7;

/**
 * A diagnosis: what the request pipeline's on-response consumers (src/server/http/observe.ts) add to one request,
 * in this process: the same fake request and response objects answered by a pipeline without consumers and
 * by one with the metrics, then with the metrics and the access line (written to a sink that drops it:
 * formatting and batching, not the write), alternately in blocks, the differences of the medians (they may
 * come out below 0: noise). It leaves out everything a real request pays around them (the socket, the kernel,
 * the write, the allocation pressure), so it is never the verdict.
 */
function observerCostUs(): { metrics: number; accessLine: number } {
  const metrics = new Metrics(true, ["dupont"]);
  const pipeline = (observe: Observers) =>
    createPipeline({
      rules: () => false,
      tenant: (h) => (h.startsWith("dupont") ? { code: "dupont", authority: h } : null),
      cacheHit: (_req, res) => {
        res.statusCode = 200;
        return true;
      },
      app: () => {},
      onResponse: observers(observe),
      requestId,
    });
  const bareListener = pipeline({ accessLog: null, metrics: null });
  const metricsListener = pipeline({ accessLog: null, metrics });
  const accessListener = pipeline({ accessLog: new AccessLog({ keepsChunk: false, write: () => {} }), metrics });
  const socket = { bytesWritten: 0 };
  const block = (handle: (req: IncomingMessage, res: ServerResponse) => void, n: number) => {
    const started = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const req = { headers: { host: "dupont.dev.localhost" }, socket, url: "/", method: "GET" } as unknown as IncomingMessage;
      const res = new EventEmitter() as unknown as ServerResponse & { statusCode: number; getHeader: () => string; writableFinished: boolean };
      res.getHeader = () => "HIT";
      res.writableFinished = true;
      // Node's response knows its request (the pipeline's one "close" listener reads it there).
      Object.assign(res, { req });
      handle(req, res);
      res.emit("close");
    }
    const used = process.cpuUsage(started);
    return (used.user + used.system) / n;
  };
  const bare: number[] = [];
  const withMetrics: number[] = [];
  const withAccess: number[] = [];
  for (let round = 0; round < 10; round++) {
    bare.push(block(bareListener, 20_000));
    withMetrics.push(block(metricsListener, 20_000));
    withAccess.push(block(accessListener, 20_000));
  }
  const m = (xs: number[]) => median(xs, (x) => x);
  return { metrics: m(withMetrics) - m(bare), accessLine: m(withAccess) - m(withMetrics) };
}

export async function operatorViewCost(backend: Proc): Promise<void> {
  console.log("\n(l) cache HIT throughput as deployed vs observability off vs bare node:http, the dupont homepage (brotli)");
  console.log("  (l) runs on purpose, beside the deployed server: the same server with observability off, and with the access line off");
  const page = { path: "/", host: host("dupont") };
  const work = resolve("tmp/bench/scratch");
  mkdirSync(work, { recursive: true });
  const servers: Proc[] = [];
  try {
    const off = await startFrontendProcess(backend.url, { METRICS_PORT: "0", LOG_FORMAT: "off" }, "frontend-l-off");
    servers.push(off);
    const noAccess = await startFrontendProcess(backend.url, { ACCESS_LOG: "off" }, "frontend-l-no-access-line");
    servers.push(noAccess);
    const deployed = await startFrontendProcess(backend.url, {}, "frontend-l-deployed");
    servers.push(deployed);
    const sentry = await startFrontendProcess(backend.url, { SENTRY_DSN: LOCAL_DSN }, "frontend-l-sentry");
    servers.push(sentry);
    const { bare } = await startBareTwin(deployed, page, work);
    servers.push(bare);
    for (const server of [off, noAccess, sentry]) await warmHit(server, page);
    const modes = [
      { label: "bare node:http, the same bytes", proc: bare, rounds: [] as Measured[] },
      { label: "off (METRICS_PORT=0, LOG_FORMAT=off)", proc: off, rounds: [] as Measured[] },
      { label: "metrics on, access line off (ACCESS_LOG=off)", proc: noAccess, rounds: [] as Measured[] },
      { label: "as deployed (metrics + JSON access line, stdout to a file)", proc: deployed, rounds: [] as Measured[] },
      { label: "as deployed with error tracking on (SENTRY_DSN set)", proc: sentry, rounds: [] as Measured[] },
    ];
    const linesBefore = await countLines(deployed.logFile, '"msg":"access"');
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with the next one: every mode goes first, second, third and last in turn.
      const order = modes.map((_, i) => (i + round) % modes.length);
      for (const i of order) {
        const { proc } = modes[i];
        const m = await throughput(proc.port, [proc.child.pid!], page);
        if (i > 0 && (m.xcache.HIT ?? 0) !== m.requests) throw new Error(`(l) saw non-hits: ${JSON.stringify(m.xcache)}`);
        if ((m.statuses["200"] ?? 0) !== m.requests) throw new Error(`(l) saw other statuses: ${JSON.stringify(m.statuses)}`);
        modes[i].rounds.push(m);
      }
    }
    const [bareMode, offMode, noAccessMode, deployedMode, sentryMode] = modes;
    for (const mode of modes) {
      const m = medianOf(mode.rounds);
      note({
        label: `(l) HIT, ${mode.label}`,
        value: `${fmt(m.rps)} req/s (rounds: ${mode.rounds.map((x) => fmt(x.rps)).join(", ")}), ${fmt(m.cpuUs, 1)} µs server CPU per request, p99 ${m.latencyMs.p99} ms`,
      });
    }
    const ratioText = (of: Measured[], to: Measured[]) => {
      const ratio = medianRatio(of, to);
      const cpu = median(of.map((r, k) => to[k].cpuUs / r.cpuUs), (x) => x);
      return {
        ratio,
        text:
          `${fmt(ratio * 100, 1)}% (median of the rounds' ratios: ${of.map((r, k) => fmt((r.rps / to[k].rps) * 100, 1)).join(", ")}); ` +
          `in server CPU per request ${fmt(cpu * 100, 1)}% (a diagnosis)`,
      };
    };
    const machine = modes.flatMap((mode) => mode.rounds.map((r) => r.elsewhere));
    const deployedVsOff = ratioText(deployedMode.rounds, offMode.rounds);
    judgeThroughput("(l) as deployed / observability off, HIT req/s", TARGETS.observedVsOff, deployedVsOff.ratio, deployedVsOff.text, machine);
    const noAccessVsOff = ratioText(noAccessMode.rounds, offMode.rounds);
    judgeThroughput(
      "(l) metrics on, access line off / observability off, HIT req/s",
      TARGETS.metricsVsOff,
      noAccessVsOff.ratio,
      noAccessVsOff.text,
      machine,
    );
    const deployedVsBare = ratioText(deployedMode.rounds, bareMode.rounds);
    judgeThroughput("(l) as deployed / bare node:http, HIT req/s", TARGETS.hitVsBare, deployedVsBare.ratio, deployedVsBare.text, machine);
    const sentryVsDeployed = ratioText(sentryMode.rounds, deployedMode.rounds);
    judgeThroughput(
      "(l) as deployed with error tracking on / as deployed, HIT req/s",
      TARGETS.errorTrackingVsDeployed,
      sentryVsDeployed.ratio,
      sentryVsDeployed.text,
      machine,
    );
    const offVsBare = ratioText(offMode.rounds, bareMode.rounds);
    note({ label: "(l) observability off / bare node:http, HIT req/s (for comparison)", value: offVsBare.text });

    // Diagnoses: where the difference goes.
    const cpu = (mode: (typeof modes)[number]) => medianOf(mode.rounds).cpuUs;
    note({
      label: "(l) the access line's own cost (a diagnosis)",
      value: `${fmt(cpu(deployedMode) - cpu(noAccessMode), 1)} µs server CPU per HIT (as deployed ${fmt(cpu(deployedMode), 1)} µs, access line off ${fmt(cpu(noAccessMode), 1)} µs; medians)`,
    });
    const own = observerCostUs();
    note({
      label: "(l) the on-response consumers' own CPU per HIT, in this process on fake objects (a diagnosis, not the verdict)",
      value:
        `metrics ${fmt(own.metrics, 2)} µs, the access line (formatted and batched, not written) ${fmt(own.accessLine, 2)} µs ` +
        `(off's HIT costs ${fmt(cpu(offMode), 1)} µs of server CPU end to end)`,
    });
    if (noAccess.metricsPort) {
      const sample = await (await fetch(`http://127.0.0.1:${noAccess.metricsPort}/metrics`)).text();
      const wanted = /^(frontend_http_requests_total|frontend_page_store_|frontend_render_workers_alive|process_resident_memory_bytes)/;
      console.log("  /metrics of the access-line-off server after the run (a sample):");
      for (const line of sample.split("\n").filter((l) => wanted.test(l))) console.log(`    ${line}`);
    }
    // What the deployed server wrote: read from its log file once it has stopped (its buffered lines flushed).
    await deployed.stop();
    const lines = (await countLines(deployed.logFile, '"msg":"access"')) - linesBefore;
    const answered = deployedMode.rounds.reduce((sum, r) => sum + r.requests + r.warmupRequests, 0);
    note({
      label: "(l) the deployed server's log file",
      value: `${fmt(lines)} access lines for the ${fmt(answered)} requests it answered during the rounds (${relative(process.cwd(), deployed.logFile)})`,
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}
