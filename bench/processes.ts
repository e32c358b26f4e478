/** The processes a benchmark runs: the demo backend, the built frontend, the bare server, the pre-pass. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { freePort } from "../tests/support/frontend";

export const SECRET = "benchmark-revalidation-secret";

export interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

function track(child: ChildProcess) {
  let output = "";
  child.stdout?.on("data", (c) => (output += c));
  child.stderr?.on("data", (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  return { output: () => output, stop };
}

async function waitFor(check: () => Promise<boolean>, what: string, output: () => string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${what} did not start:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startBackendProcess(): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "ops/demo-backend/main.ts"], {
    env: { PATH: process.env.PATH, DEMO_BACKEND_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, "demo backend", output);
  return { child, url, port, output, stop };
}

export async function startFrontendProcess(backendUrl: string, env: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ["server/entry.express.js"], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      ENVIRONMENT: "dev",
      PREVIEW_DOMAIN: "localhost",
      BACKEND_API_URL: `${backendUrl}/api/v1/websites`,
      REVALIDATION_SECRET: SECRET,
      PREPASS_DIR: "tmp/bench-no-prepass",
      // Several servers at once (the cluster sections) must not share the internal port's default, and an
      // access line per request would fill this process's memory: both off unless a section asks (bench/operator-view.ts).
      METRICS_PORT: "0",
      LOG_FORMAT: "off",
      ...env,
    },
    // QUIET_STDOUT: the access log goes to /dev/null, as a container runtime's log pipe would take it.
    stdio: ["ignore", env.QUIET_STDOUT ? "ignore" : "pipe", "pipe"],
  });
  const { output, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, "frontend", output);
  return { child, url, port, output, stop };
}

export async function startBareServer(bodyFile: string, headers: string[]): Promise<Proc> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/bare-server.ts", bodyFile, JSON.stringify(headers)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const { output, stop } = track(child);
  await waitFor(async () => /^\d+\n/.test(output()), "bare server", output);
  const port = Number(output().trim().split("\n")[0]);
  return { child, url: `http://127.0.0.1:${port}`, port, output, stop };
}

/** Runs the built pre-pass; resolves with wall seconds and its output. */
export function runPrepassProcess(
  env: Record<string, string>,
): Promise<{ seconds: number; output: string; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["server/entry.prepass.js"], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output } = track(child);
  return new Promise((resolve) =>
    child.once("exit", (code) => resolve({ seconds: (performance.now() - started) / 1000, output: output(), code })),
  );
}

/** Resident set size of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc, clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
