/**
 * The processes a benchmark runs: the demo backend, the built frontend, the bare server, the pre-pass.
 *
 * The frontend runs as deployed: the environment a deploy gives the container (the prod compose file's, built
 * by ops/deploy/environments.ts) over src/server/env.ts's defaults, so JSON log lines, an access line for every request
 * and the metrics on their own port, as an operator runs it. Its stdout and stderr go to a file under
 * tmp/bench/logs/ (what a container runtime does with them), not a pipe the bench would hold in memory; the
 * bench reads what it needs from the file. BENCH_DIFFERENCES lists the few settings the bench must change, and
 * why; a section that runs something else on purpose passes it and says so in its printout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { freePort } from "../tests/support/frontend";
import { reapOnExit } from "../tests/support/reaper";
import { composeFile, loadEnvironments } from "../ops/deploy/environments";
import { parseEnv } from "../src/server/env";
import { benchPids, processCpuSeconds } from "./machine";
import type { MemoryCage } from "./memory-cage";

export const SECRET = "benchmark-revalidation-secret";

/** Where every bench process writes its stdout and stderr, one file each. */
export const LOGS = resolve("tmp/bench/logs");

export interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
  /** The file the process's stdout and stderr go to. */
  logFile: string;
  /** Everything the process has printed so far (its log file). */
  output: () => string;
  /** The last `bytes` of its log file, for an error message. */
  tail: (bytes?: number) => string;
  stop: () => Promise<void>;
  /** The frontend's internal port (metrics, the operator's commands), when it has one. */
  metricsPort?: number;
}

/**
 * The settings the bench changes from what a deploy sets, each with its reason (printed at the start of a run).
 * PORT and METRICS_PORT are free ports of this machine (several servers run at once).
 */
export const BENCH_DIFFERENCES: Record<string, { value: string | undefined; why: string }> = {
  ENVIRONMENT: { value: "dev", why: "the bench addresses its practices (synthetic ones too) by preview host, {code}.dev.localhost" },
  PREVIEW_DOMAIN: { value: "localhost", why: "the same" },
  METRICS_HOST: { value: "127.0.0.1", why: "no container network: loopback" },
  CACHE_URL: { value: undefined, why: "one instance on its own; (g)-(j) start their own Redis and set it" },
  PREPASS_DIR: { value: "tmp/bench-no-prepass", why: "no pre-rendered pages: the sections fill the cache themselves" },
};

/** What a deploy sets in the frontend's container (ops/deploy/environments.ts: the one place), for `environment`. */
export function deployedEnv(environment: "prod" | "staging" | "dev" = "prod"): Record<string, string> {
  const { services } = composeFile(loadEnvironments(), environment, "bench", "bench.env");
  return { ...(services.frontend as { environment: Record<string, string> }).environment };
}

/** The frontend's environment in the bench: deployed, then the bench's differences, then the section's own. */
export function benchFrontendEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...deployedEnv() };
  for (const [name, { value }] of Object.entries(BENCH_DIFFERENCES)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return { ...env, ...extra };
}

/** The printout's account of how the servers run: what the server resolves from this environment (src/server/env.ts). */
export function describeDeployed(): string {
  const env = benchFrontendEnv();
  const parsed = parseEnv({ ...env, BACKEND_API_URL: "http://127.0.0.1:1/api/v1/websites", REVALIDATION_SECRET: SECRET });
  const set = Object.entries(deployedEnv())
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const differences = Object.entries(BENCH_DIFFERENCES)
    .map(([k, { value, why }]) => `    ${k}=${value ?? "(unset)"}: ${why}`)
    .join("\n");
  return [
    "Servers run as deployed (bench/processes.ts): what ops/deploy/environments.ts gives the prod container,",
    `  ${set}`,
    `  resolved by src/server/env.ts: LOG_FORMAT=${parsed.LOG_FORMAT}, ACCESS_LOG=${parsed.ACCESS_LOG} (an access line for every request),`,
    `  metrics on (METRICS_PORT: a free port per server), stdout and stderr to a file per process under ${relative(process.cwd(), LOGS)}/.`,
    "  The bench changes only:",
    "    PORT, METRICS_PORT: a free port each (several servers at once)",
    differences,
    "  A section that runs something else on purpose says so.",
  ].join("\n");
}

function logFileFor(name: string): string {
  mkdirSync(LOGS, { recursive: true });
  return join(LOGS, `${name}.log`);
}

/**
 * Spawns with stdout and stderr appended to `file` (the child keeps its own descriptor). `detached`: in a
 * session of its own (see startFrontendProcess). Killed when this process ends, however it ends (a bench or a
 * test's child cut at its time limit left its servers running: tests/support/reaper.ts).
 */
function spawnLogged(file: string, args: string[], env: Record<string, string | undefined>, detached = false): ChildProcess {
  const fd = openSync(file, "a");
  try {
    return reapOnExit(spawn(process.execPath, args, { env, stdio: ["ignore", fd, fd], detached }));
  } finally {
    closeSync(fd);
  }
}

function readTail(file: string, bytes: number): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return "";
  }
  const length = Math.min(bytes, size);
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8");
}

function track(child: ChildProcess, logFile: string) {
  if (child.pid) benchPids.add(child.pid);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      benchPids.delete(child.pid!);
      resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const output = () => {
    try {
      return readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  return { output, tail: (bytes = 4000) => readTail(logFile, bytes), stop };
}

/**
 * Counts the lines of a log file that contain `needle` (read as a stream: a bench's log holds one access
 * line per request, hundreds of megabytes).
 */
export async function countLines(file: string, needle: string): Promise<number> {
  const wanted = Buffer.from(needle);
  let count = 0;
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    const buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let at = 0;
    for (;;) {
      const found = buf.indexOf(wanted, at);
      if (found === -1) break;
      count++;
      at = found + wanted.length;
    }
    // A needle cut by the chunk boundary is found in the next round.
    carry = buf.subarray(Math.max(at, buf.length - wanted.length + 1));
  }
  return count;
}

/** Polls `check` until it holds; a process that never gets there is stopped before the error (no stray server). */
async function waitFor(check: () => Promise<boolean>, what: string, output: () => string, stop: () => Promise<void>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${what} did not start:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startBackendProcess(): Promise<Proc> {
  const port = await freePort();
  const logFile = logFileFor(`backend-${port}`);
  const child = spawnLogged(logFile, ["--import", "tsx", "ops/demo/backend/main.ts"], { PATH: process.env.PATH, DEMO_BACKEND_PORT: String(port) });
  const { output, tail, stop } = track(child, logFile);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, "demo backend", output, stop);
  return { child, url, port, logFile, output, tail, stop };
}

/**
 * The built frontend, as deployed (benchFrontendEnv), with a section's own settings over it: `env` may turn
 * the metrics off (METRICS_PORT=0) or the log (LOG_FORMAT=off, ACCESS_LOG=off); the section says so. `name`
 * names its log file (tmp/bench/logs/<name>-<port>.log).
 */
export async function startFrontendProcess(
  backendUrl: string,
  env: Record<string, string> = {},
  name = "frontend",
  /**
   * In a session of its own, as a container has a cgroup of its own (tests/support/frontend.ts does the same):
   * Linux's autogroup then weighs the server's threads against each other only, so its render workers
   * (SCHED_IDLE, docs/decisions/0038-render-worker-scheduling.md) yield to its main thread, not to the bench's
   * load generator and demo backend. bench/scale.ts runs so; the other sections as before.
   */
  ownSession = false,
  /** A container's memory limit around it, from the moment it is spawned (bench/memory-cage.ts). */
  cage?: MemoryCage,
): Promise<Proc> {
  const port = await freePort();
  const metricsPort = env.METRICS_PORT === "0" ? undefined : env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort();
  const logFile = logFileFor(`${name}-${port}`);
  const child = spawnLogged(
    logFile,
    ["server/entry.express.js"],
    {
    PATH: process.env.PATH,
    ...benchFrontendEnv({
      PORT: String(port),
      METRICS_PORT: String(metricsPort ?? 0),
      BACKEND_API_URL: `${backendUrl}/api/v1/websites`,
      REVALIDATION_SECRET: SECRET,
      ...env,
    }),
  },
    ownSession,
  );
  if (cage) {
    try {
      cage.add(child.pid!);
    } catch (error) {
      child.kill("SIGKILL");
      throw error;
    }
  }
  const { output, tail, stop } = track(child, logFile);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, "frontend", output, stop);
  return { child, url, port, logFile, output, tail, stop, metricsPort };
}

export async function startBareServer(bodyFile: string, headers: string[]): Promise<Proc> {
  const logFile = logFileFor(`bare-${Date.now()}`);
  const child = spawnLogged(logFile, ["--import", "tsx", "bench/bare-server.ts", bodyFile, JSON.stringify(headers)], { PATH: process.env.PATH });
  const { output, tail, stop } = track(child, logFile);
  await waitFor(async () => /^\d+\n/.test(output()), "bare server", output, stop);
  const port = Number(output().trim().split("\n")[0]);
  return { child, url: `http://127.0.0.1:${port}`, port, logFile, output, tail, stop };
}

/**
 * A bench's build pre-pass over the demo backend: its environment, writing under `dir` (prepass/, media/), with
 * `extra` over it (TENANTS_FILE, RENDER_WORKERS...). ENVIRONMENT=dev on preview hosts, as the bench's servers
 * run (BENCH_DIFFERENCES), so that a server started on its output seeds from it.
 */
export function benchPrepassEnv(backend: Proc, dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BUILD_API_URL: `${backend.url}/api/v1/websites`,
    ENVIRONMENT: "dev",
    PREVIEW_DOMAIN: "localhost",
    PREPASS_DIR: join(dir, "prepass"),
    MEDIA_CACHE_DIR: join(dir, "media"),
    ...extra,
  };
}

/** What a pre-pass run printed and cost. */
export interface PrepassRun {
  seconds: number;
  output: string;
  code: number | null;
  /** Its peak RSS and CPU share (GNU time's %M and %P), when /usr/bin/time is on the machine. */
  peakRssMiB: number | null;
  cpu: string | null;
}

const GNU_TIME = "/usr/bin/time";

/** Runs the built pre-pass (under GNU time when present: its peak RSS); resolves with wall seconds and its output. */
export function runPrepassProcess(env: Record<string, string>): Promise<PrepassRun> {
  const started = performance.now();
  const timed = existsSync(GNU_TIME);
  const [command, args] = timed
    ? [GNU_TIME, ["-f", "PREPASS-TIME %M %P", process.execPath, "server/entry.prepass.js"]]
    : [process.execPath, ["server/entry.prepass.js"]];
  // The pre-pass is a build step, not a server: its output (a few lines) is read from a pipe.
  const child = reapOnExit(spawn(command, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }));
  let output = "";
  child.stdout?.on("data", (c) => (output += c));
  child.stderr?.on("data", (c) => (output += c));
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      const time = timed ? /PREPASS-TIME (\d+) (\S+)/.exec(output) : null;
      resolve({
        seconds: (performance.now() - started) / 1000,
        output,
        code,
        peakRssMiB: time ? Number(time[1]) / 1024 : null,
        cpu: time ? time[2] : null,
      });
    }),
  );
}

/** Bytes of the files directly in a directory (a pre-pass's output). */
export function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  return total;
}

/** Resident set size of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc, clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  return processCpuSeconds(pid);
}
