/** Runs the migration toolkit's command line as an operator does (a child process), without blocking the test's servers. */
import { spawn } from "node:child_process";
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
