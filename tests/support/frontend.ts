/**
 * Starts the built production server (server/entry.express.js) as a child process on a free port, the
 * way an operator runs it, with the environment a test chooses.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { reapOnExit } from "./reaper";
import { until } from "./until";

export interface Frontend {
  url: string;
  port: number;
  pid: number;
  /** Everything the process printed, for assertions on log lines. */
  output: () => string;
  /** The server's `[stats]` line (page-store keys and bytes, renders started, heap), asked for with SIGUSR2. */
  stats: () => Promise<Record<string, number>>;
  /** Whether the process is still running. */
  alive: () => boolean;
  stop: () => Promise<void>;
  /** Sends a signal (SIGKILL: a crash) and resolves once the process is gone. */
  kill: (signal: NodeJS.Signals) => Promise<number | null>;
}

/**
 * The messages of a server's output: a JSON log line (LOG_FORMAT=json, monitoring/log.ts) as its `msg`,
 * any other line as it is. For assertions on a message's exact text, quotes included.
 */
export function logMessages(output: string): string {
  return output
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) return line;
      try {
        return String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
      } catch {
        return line;
      }
    })
    .join("\n");
}

export const DEFAULT_SECRET = "integration-test-revalidation-secret";

/**
 * A port no server holds, for a process that binds it later, taken below the kernel's ephemeral range. A port the
 * kernel hands out for `listen(0)` comes from the range it also gives every outgoing connection its local port, so
 * between the probe and the server's own listen any client socket of the machine (the tests' own requests) could
 * take it: a frontend of tests/prepass.test.ts exited with EADDRINUSE on such a port. Below the range only another
 * listener can, and the probe (on every interface, as the server listens) sees those.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORT_FLOOR + Math.floor(Math.random() * (low - PORT_FLOOR));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${PORT_FLOOR} and ${low}`);
}

/** Ports under this are services' (and need no root only above 1024): the probe picks from here up. */
const PORT_FLOOR = 20_000;

/** The first port of the kernel's ephemeral range (Linux's default 32768 where it cannot be read). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > PORT_FLOOR + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    // Every interface, IPv6 and IPv4 alike, as the frontend listens (no host given).
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * Waits until an instance with CACHE_URL has joined the shared store's cluster (its log says so). Not /readyz:
 * readiness stops waiting for the join after a while, and an instance not yet trusted renders for itself instead
 * of reading Redis (a CI run saw a test's second instance do so).
 */
export async function joinedCluster(frontend: Frontend): Promise<void> {
  await until(async () => /shared cache: instance \w+ joined the \w+ cluster/.test(logMessages(frontend.output())), "the instance to join the shared store's cluster");
}

/** Starts the server and waits until it answers; `port` when the pages must be rendered for a known port. */
export async function startFrontend(opts: { backendUrl: string; env?: Record<string, string>; port?: number }): Promise<Frontend> {
  const frontend = launchFrontend({ ...opts, port: opts.port ?? (await freePort()) });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const code = await Promise.race([frontend.exited, new Promise((r) => setTimeout(r, 100, "running"))]);
    if (code !== "running") throw new Error(`frontend exited with ${code} before listening:\n${frontend.output()}`);
    try {
      if ((await fetch(`${frontend.url}/healthz`)).ok) return frontend;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await frontend.kill("SIGKILL");
      throw new Error(`frontend did not answer /healthz within 15 s:\n${frontend.output()}`);
    }
  }
}

/**
 * Spawns the server on `port` and returns at once, before it listens (startFrontend waits for it): for a
 * test that watches what the server answers from its very first moment, e.g. /readyz before the backend
 * probe has answered.
 */
export function launchFrontend(opts: { backendUrl: string; env?: Record<string, string>; port: number }): Frontend & {
  /** The exit code once the process has exited. */
  exited: Promise<number | null>;
} {
  if (!existsSync("server/entry.express.js")) {
    throw new Error("server/entry.express.js is missing: run `npm run build` before the integration tests");
  }
  const { port } = opts;
  let output = "";
  const child: ChildProcess = reapOnExit(spawn(process.execPath, ["server/entry.express.js"], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      ENVIRONMENT: "dev",
      PREVIEW_DOMAIN: "localhost",
      BACKEND_API_URL: `${opts.backendUrl}/api/v1/websites`,
      REVALIDATION_SECRET: DEFAULT_SECRET,
      BUILD_CMS_ORIGIN: opts.backendUrl,
      // The internal port's default (9464) would be shared by every test's server: off unless a test asks.
      METRICS_PORT: "0",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // A session of its own, as a container has a cgroup of its own: Linux's autogroup then weighs the
    // server's threads against each other only, so its render workers (SCHED_IDLE by design) yield to their
    // own main thread, not to every test runner and browser on the machine (with two test runs side by
    // side they starved, and renders answered 503).
    detached: true,
  }), { group: true });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    exited,
    port,
    pid: child.pid!,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    stats: async () => {
      const seen = output.length;
      child.kill("SIGUSR2");
      const deadline = Date.now() + 5000;
      for (;;) {
        // A JSON log line (LOG_FORMAT=json) ends the message with a quote.
        const line = /\[stats\] ([^"\n]*)["\n]/.exec(output.slice(seen))?.[1];
        if (line) return Object.fromEntries(line.split(" ").map((f) => [f.split("=")[0], Number(f.split("=")[1])]));
        if (Date.now() > deadline) throw new Error("no [stats] line within 5 s");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
      }
      expectJsonLines(output, opts.env?.LOG_FORMAT);
    },
  };
}

/**
 * The rule a container's log collector needs, held by every test's server: with JSON logs (the default),
 * every line it wrote, on stdout and stderr, is a JSON object (monitoring/log.ts), a refusal to start included.
 */
function expectJsonLines(output: string, format: string | undefined): void {
  if ((format ?? "json") !== "json") return;
  const plain = output.split("\n").filter((line) => line !== "" && !(line.startsWith("{") && line.endsWith("}")));
  if (plain.length > 0) throw new Error(`the server wrote ${plain.length} line(s) that are not JSON:\n${plain.slice(0, 10).join("\n")}`);
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and its log's messages. */
export async function runFrontendExpectingFailure(env: Record<string, string | undefined>) {
  const child = reapOnExit(spawn(process.execPath, ["server/entry.express.js"], {
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  }));
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 10_000);
    child.once("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expectJsonLines(output, env.LOG_FORMAT);
  return { code, output: logMessages(output) };
}
