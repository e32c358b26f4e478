/** Runs the migration toolkit's command line as an operator does (a child process), without blocking the test's servers. */
import { spawn } from "node:child_process";
import { formatWithOptions } from "node:util";
import { reapOnExit } from "./reaper";

export interface MigrateRun {
  code: number | null;
  out: string;
}

/** `input`: what the operator types, written to the step's stdin (then closed), e.g. the review's keys. */
export function migrate(args: string[], env: Record<string, string> = {}, input?: string): Promise<MigrateRun> & { kill: (signal: NodeJS.Signals) => void } {
  const child = reapOnExit(spawn(process.execPath, ["--import", "tsx", "ops/migrate/cli.ts", ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  }));
  if (input !== undefined) child.stdin!.end(input);
  let out = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  const done = new Promise<MigrateRun>((resolve) => child.once("close", (code) => resolve({ code, out })));
  return Object.assign(done, { kill: (signal: NodeJS.Signals) => void child.kill(signal) });
}

/**
 * The same step run in this process (`main` of ops/migrate/cli.ts), its lines collected as the process's
 * output would be: for the steps whose process semantics a test does not look at (a signal, an exit status
 * as a process, a crawl whose parsing must not block this process's servers). A child process costs about
 * 2 s of CPU to start (tsx loading the toolkit); `make test` ran a dozen of them here. The environment
 * variables given are set for the run and restored after; tests in a file run one at a time.
 */
export async function migrateInProcess(args: string[], env: Record<string, string> = {}): Promise<MigrateRun> {
  const { main } = await import("../../ops/migrate/cli");
  let out = "";
  const add = (line: string) => void (out += `${line}\n`);
  const print = (...parts: unknown[]) => add(formatWithOptions({ colors: false }, ...parts));
  const saved = { log: console.log, error: console.error, warn: console.warn };
  const savedEnv = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  Object.assign(console, { log: print, error: print, warn: print });
  try {
    const code = await main(args, { log: add, progress: add, progressDone: () => {} });
    return { code, out };
  } finally {
    Object.assign(console, saved);
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
