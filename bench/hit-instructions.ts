/**
 * `npm run bench:instructions` (after `npm run build`): the instructions a cache HIT costs the built server, as
 * deployed (bench/processes.ts: JSON access line for every request, metrics on, stdout to a file), and with the
 * access line off and with observability off, and what the bare node:http twin of section (a) costs to send the
 * same bytes: counted by valgrind's callgrind over a fixed number of requests. `npm run bench:instructions -- 0 3`
 * measures the first and the last only.
 *
 * Why instructions beside req/s: the machine is shared (up to seven agents on two cores), and a req/s ratio
 * moves by several points from one minute to the next; the instructions the server executes for the same
 * requests move by well under one percent. They count user-space instructions of the whole server process
 * (every thread, the kernel's share not included): what the hit path itself costs, not what it waits for.
 *
 * Instructions alone misled (issue 28, 2026-11-28): the deployed server ran 14% fewer instructions per HIT than the
 * twin and still answered 10% fewer requests a second. callgrind's cache and branch models (`--cache-sim=yes
 * --branch-sim=yes`, a 32 KiB instruction cache as this machine's) told why: 27% more instruction-cache misses, 45% more
 * data-cache read misses and 34% more mispredicted branches than the twin. A HIT runs Node's HTTP code and the
 * product's stages between them, and the more distinct code a request runs, the more of it is fetched anew each time.
 * So each subject's line gives the misses and mispredictions beside the instructions. And every subject, twin included,
 * first answers every kind of request the deployed server answers (warmEveryAnswer, as `npm run bench -- b` does):
 * a process that served only HITs keeps Node's code fitted to them alone, which no deployed server is.
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
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort } from "../tests/support/frontend";
import { runLoadInChild } from "./load";
import { benchFrontendEnv, benchPrepassEnv, LOGS, runPrepassProcess, SECRET, startBackendProcess } from "./processes";
import { fmt, warmEveryAnswer } from "./figures";
import { agent, get } from "../tests/support/cache";
import { benchPids, otherRuntime } from "./machine";
import { readPrepassSummary } from "../src/server/prepass/store";
import { reapOnExit } from "../tests/support/reaper";

/**
 * Long enough for V8 to be done compiling the hit path: after 5,000, TurboFan was still at work during the counted
 * requests (its compiler's functions among the differences), and the access line's cost read 30,000 instructions
 * where it is 5,000 (issue 28, 2026-11-27).
 */
const WARMUP = 40_000;
const REQUESTS = 5_000;
const OUT = resolve("tmp/bench/callgrind");
const PREPASS = join(OUT, "prepass");

/** A server measured: the built frontend with a mode's settings, or the bare twin serving what the frontend sent. */
interface Subject {
  label: string;
  /** The program and arguments node runs under valgrind, on `port`. */
  args: (port: number) => string[];
  env: (port: number) => Promise<Record<string, string>>;
}

const TWIN = join(OUT, "twin");

function frontend(label: string, modeEnv: Record<string, string>): Subject {
  return {
    label,
    args: () => ["server/entry.express.js"],
    env: async (port) =>
      benchFrontendEnv({
        PORT: String(port),
        METRICS_PORT: modeEnv.METRICS_PORT ?? String(await freePort()),
        BACKEND_API_URL: `${backendUrl}/api/v1/websites`,
        REVALIDATION_SECRET: SECRET,
        ...modeEnv,
        PREPASS_DIR: PREPASS,
      }),
  };
}

let backendUrl = "";

const SUBJECTS: Subject[] = [
  frontend("as deployed (metrics + JSON access line, stdout to a file)", {}),
  frontend("metrics on, access line off (ACCESS_LOG=off)", { ACCESS_LOG: "off" }),
  frontend("off (METRICS_PORT=0, LOG_FORMAT=off)", { METRICS_PORT: "0", LOG_FORMAT: "off" }),
  {
    label: "bare node:http, the same bytes (bench/bare-server.ts: the deployed server's HIT, saved by the first run)",
    args: (port) => ["--import", "tsx", "bench/bare-server.ts", join(TWIN, "body"), readFileSync(join(TWIN, "headers.json"), "utf8"), String(port)],
    env: async () => ({}),
  },
];

function control(pid: number, ...args: string[]): void {
  execFileSync("callgrind_control", [...args, String(pid)], { stdio: "ignore" });
}

/** What callgrind counted, per HIT: instructions, first-level instruction and data-read cache misses, mispredicted branches. */
interface Counts {
  instructions: number;
  instructionMisses: number;
  dataMisses: number;
  mispredicted: number;
}

/**
 * The totals of every dump file callgrind wrote for this run, by the names its `events:` line gives them (Ir, I1mr,
 * D1mr, Bcm and Bim: conditional and indirect branches mispredicted), divided by `requests`.
 */
function totals(prefix: string, requests: number): Counts {
  const sum = new Map<string, number>();
  for (const name of readdirSync(OUT).filter((n) => n.startsWith(prefix))) {
    const text = readFileSync(join(OUT, name), "utf8");
    const events = /^events: (.+)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
    const values = /^totals: (.+)$/m.exec(text)?.[1].trim().split(/\s+/).map(Number) ?? [];
    events.forEach((event, i) => sum.set(event, (sum.get(event) ?? 0) + (values[i] ?? 0)));
  }
  const per = (event: string) => (sum.get(event) ?? Number.NaN) / requests;
  return { instructions: per("Ir"), instructionMisses: per("I1mr"), dataMisses: per("D1mr"), mispredicted: per("Bcm") + per("Bim") };
}

function countsText(c: Counts): string {
  return `${fmt(c.instructions)} instructions, ${fmt(c.instructionMisses)} instruction-cache misses, ${fmt(c.dataMisses)} data-cache read misses, ${fmt(c.mispredicted)} mispredicted branches`;
}

/** The host the pre-pass rendered a practice's pages for (its main domain), read from its summary. */
function prepassHost(code: string): string {
  const practice = readPrepassSummary(PREPASS)?.practices.find((p) => p.code === code);
  if (!practice) throw new Error(`the pre-pass rendered nothing for ${code}`);
  return practice.host;
}

/** What the bare twin sends: the HIT's bytes and headers (bar Date and the connection's), as bench/figures.ts's twin. */
function saveTwin(hit: { raw: Buffer; headers: Record<string, unknown> }): void {
  mkdirSync(TWIN, { recursive: true });
  const headers: string[] = [];
  for (const [name, value] of Object.entries(hit.headers)) {
    if (["date", "connection", "keep-alive"].includes(name) || value === undefined) continue;
    headers.push(name, String(value));
  }
  writeFileSync(join(TWIN, "body"), hit.raw);
  writeFileSync(join(TWIN, "headers.json"), JSON.stringify(headers));
}

async function measure(subject: Subject, index: number): Promise<Counts> {
  const port = await freePort();
  const prefix = `hit-${index}.`;
  const log = openSync(join(LOGS, `callgrind-${index}-${port}.log`), "a");
  const child = reapOnExit(spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      "--smc-check=all-non-file",
      // The processor's caches and branch predictor, modelled (the file's top says why).
      "--cache-sim=yes",
      "--branch-sim=yes",
      `--callgrind-out-file=${join(OUT, `${prefix}%p`)}`,
      process.execPath,
      ...subject.args(port),
    ],
    { env: { PATH: process.env.PATH, ...(await subject.env(port)) }, stdio: ["ignore", log, log] },
  ));
  closeSync(log);
  benchPids.add(child.pid!);
  try {
    const url = `http://127.0.0.1:${port}`;
    const page = { path: "/", host: prepassHost("dupont") };
    // The pre-pass rendered https pages: the requests say so as the proxy in front would (loopback is trusted).
    const headers = { "accept-encoding": "gzip, deflate, br", "x-forwarded-proto": "https" };
    const deadline = Date.now() + 300_000;
    while (!(await get(url, page.host, page.path, { headers }).then((r) => r.status === 200, () => false))) {
      if (Date.now() > deadline) throw new Error(`${subject.label}: no answer within 300 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The first request is served through the stack from the seeded entry; the next ones are HITs (the twin
    // sends the HIT's own headers).
    for (let tries = 0; ; tries++) {
      const hit = await get(url, page.host, page.path, { headers });
      if (hit.xcache === "HIT") {
        if (index === 0) saveTwin(hit);
        break;
      }
      if (tries >= 20) throw new Error(`${subject.label}: ${page.host}${page.path} is not a HIT`);
    }
    const load = (n: number) => runLoadInChild({ port, targets: [page], connections: 8, durationMs: 600_000, maxRequests: n, headers });
    // Every kind of answer first, as a deployed server has given them (the file's top says why); then the HITs.
    await warmEveryAnswer({ url }, page.host);
    await load(WARMUP);
    control(child.pid!, "--instr=on");
    const run = await load(REQUESTS);
    control(child.pid!, "--instr=off");
    control(child.pid!, "--dump");
    if ((run.xcache.HIT ?? 0) !== REQUESTS) throw new Error(`${subject.label}: not all hits: ${JSON.stringify(run.xcache)}`);
    return totals(prefix, REQUESTS);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    benchPids.delete(child.pid!);
  }
}

async function main() {
  const runtime = otherRuntime(process.version);
  if (runtime) throw new Error(runtime);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  mkdirSync(LOGS, { recursive: true });
  const only = process.argv.slice(2).map(Number);
  // The twin sends what the deployed server sent: measured first, whichever subjects are asked for.
  if (only.length && !only.includes(0)) only.push(0);
  const backend = await startBackendProcess();
  backendUrl = backend.url;
  try {
    const prepass = await runPrepassProcess(benchPrepassEnv(backend, OUT));
    if (prepass.code !== 0) throw new Error(`pre-pass failed:\n${prepass.output}`);
    const results: Counts[] = [];
    for (const [i, subject] of SUBJECTS.entries()) {
      if (only.length && !only.includes(i)) continue;
      results[i] = await measure(subject, i);
      console.log(`  per HIT, ${subject.label}: ${countsText(results[i])} (callgrind, ${fmt(REQUESTS)} hits after every kind of answer and ${fmt(WARMUP)} hits uncounted)`);
    }
    if (results[0] && results[1]) console.log(`  the access line's own cost: ${fmt(results[0].instructions - results[1].instructions)} instructions, ${fmt(results[0].instructionMisses - results[1].instructionMisses)} instruction-cache misses per HIT`);
    if (results[0] && results[3]) {
      const share = (key: keyof Counts) => `${((100 * results[3][key]) / results[0][key]).toFixed(1)}%`;
      console.log(
        `  bare node:http / as deployed, per HIT: instructions ${share("instructions")}, instruction-cache misses ${share("instructionMisses")}, ` +
          `data-cache read misses ${share("dataMisses")}, mispredicted branches ${share("mispredicted")} (a diagnosis; the verdict is the bench's req/s)`,
      );
    }
  } finally {
    await backend.stop();
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
