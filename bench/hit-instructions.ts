/**
 * `npm run bench:instructions` (after `npm run build`): the instructions a cache HIT costs the built server, as
 * deployed (bench/processes.ts: JSON access line for every request, metrics on, stdout to a file), and with the
 * access line off and with observability off: counted by valgrind's callgrind over a fixed number of requests.
 *
 * Why instructions beside req/s: the machine is shared (up to seven agents on two cores), and a req/s ratio
 * moves by several points from one minute to the next; the instructions the server executes for the same
 * requests move by well under one percent. They count user-space instructions of the whole server process
 * (every thread, the kernel's share not included): what the hit path itself costs, not what it waits for.
 *
 * How: the server starts under `valgrind --tool=callgrind --instr-atstart=no` (it runs at near-native
 * speed, uninstrumented, through its start and a warm-up long enough for V8 to optimise the hit path);
 * then instrumentation is switched on (callgrind_control), REQUESTS hits are sent, and it is switched off
 * and the counts dumped. The page: dupont's homepage, brotli, as in (a)/(b) (on its own domain, the host the pre-pass renders for). A first render under valgrind
 * takes minutes (V8 compiling the whole bundle, instrumented or not), so the page comes from the build
 * pre-pass, run natively first (PREPASS_DIR): the first request serves it through the stack, and from then on
 * it is a HIT.
 */
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort } from "../tests/support/frontend";
import { runLoadInChild } from "./load";
import { benchFrontendEnv, benchPrepassEnv, LOGS, runPrepassProcess, SECRET, startBackendProcess } from "./processes";
import { fmt } from "./figures";
import { agent, get } from "../tests/support/cache";
import { benchPids } from "./machine";
import { reapOnExit } from "../tests/support/reaper";

const WARMUP = 5_000;
const REQUESTS = 2_000;
const OUT = resolve("tmp/bench/callgrind");
const PREPASS = join(OUT, "prepass");

const MODES: { label: string; env: Record<string, string> }[] = [
  { label: "as deployed (metrics + JSON access line, stdout to a file)", env: {} },
  { label: "metrics on, access line off (ACCESS_LOG=off)", env: { ACCESS_LOG: "off" } },
  { label: "off (METRICS_PORT=0, LOG_FORMAT=off)", env: { METRICS_PORT: "0", LOG_FORMAT: "off" } },
];

function control(pid: number, ...args: string[]): void {
  execFileSync("callgrind_control", [...args, String(pid)], { stdio: "ignore" });
}

/** The total instructions (Ir) of every dump file callgrind wrote for this run. */
function totalIr(prefix: string): number {
  let total = 0;
  for (const name of readdirSync(OUT).filter((n) => n.startsWith(prefix))) {
    const m = /^totals: (\d+)/m.exec(readFileSync(join(OUT, name), "utf8"));
    if (m) total += Number(m[1]);
  }
  return total;
}

/** The host the pre-pass rendered a practice's pages for (its main domain), read from its manifest. */
function prepassHost(code: string): string {
  const manifest = JSON.parse(readFileSync(join(PREPASS, "manifest.json"), "utf8")) as { practices: { code: string; host: string }[] };
  const practice = manifest.practices.find((p) => p.code === code);
  if (!practice) throw new Error(`the pre-pass rendered nothing for ${code}`);
  return practice.host;
}

async function measure(backendUrl: string, mode: (typeof MODES)[number], index: number): Promise<number> {
  const port = await freePort();
  const metricsPort = mode.env.METRICS_PORT === "0" ? 0 : await freePort();
  const prefix = `hit-${index}.`;
  const log = openSync(join(LOGS, `callgrind-${index}-${port}.log`), "a");
  const env = benchFrontendEnv({
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    BACKEND_API_URL: `${backendUrl}/api/v1/websites`,
    REVALIDATION_SECRET: SECRET,
    ...mode.env,
    PREPASS_DIR: PREPASS,
  });
  const child = reapOnExit(spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      "--smc-check=all-non-file",
      `--callgrind-out-file=${join(OUT, `${prefix}%p`)}`,
      process.execPath,
      "server/entry.express.js",
    ],
    { env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", log, log] },
  ));
  closeSync(log);
  benchPids.add(child.pid!);
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 300_000;
    while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error(`${mode.label}: no answer within 300 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = { path: "/", host: prepassHost("dupont") };
    // The pre-pass rendered https pages: the requests say so as the proxy in front would (loopback is trusted).
    const headers = { "accept-encoding": "gzip, deflate, br", "x-forwarded-proto": "https" };
    // The first request is served through the stack from the seeded entry; the next ones are HITs.
    for (let tries = 0; ; tries++) {
      await get(url, page.host, page.path, { headers });
      if ((await get(url, page.host, page.path, { headers })).xcache === "HIT") break;
      if (tries >= 20) throw new Error(`${mode.label}: ${page.host}${page.path} is not a HIT`);
    }
    const load = (n: number) => runLoadInChild({ port, targets: [page], connections: 8, durationMs: 600_000, maxRequests: n, headers });
    await load(WARMUP);
    control(child.pid!, "--instr=on");
    const run = await load(REQUESTS);
    control(child.pid!, "--instr=off");
    control(child.pid!, "--dump");
    if ((run.xcache.HIT ?? 0) !== REQUESTS) throw new Error(`${mode.label}: not all hits: ${JSON.stringify(run.xcache)}`);
    return totalIr(prefix) / REQUESTS;
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    benchPids.delete(child.pid!);
  }
}

async function main() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  mkdirSync(LOGS, { recursive: true });
  const only = process.argv.slice(2).map(Number);
  const backend = await startBackendProcess();
  try {
    const prepass = await runPrepassProcess(benchPrepassEnv(backend, OUT));
    if (prepass.code !== 0) throw new Error(`pre-pass failed:\n${prepass.output}`);
    const results: number[] = [];
    for (const [i, mode] of MODES.entries()) {
      if (only.length && !only.includes(i)) continue;
      const ir = await measure(backend.url, mode, i);
      results[i] = ir;
      console.log(`  instructions per HIT, ${mode.label}: ${fmt(ir)} (callgrind, ${fmt(REQUESTS)} hits after ${fmt(WARMUP)} uncounted)`);
    }
    if (results[0] && results[1]) console.log(`  the access line's own cost: ${fmt(results[0] - results[1])} instructions per HIT`);
  } finally {
    await backend.stop();
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
