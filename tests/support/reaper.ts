/**
 * Every child process a test file starts is registered here and killed when the test process ends, however
 * it ends: afterAll hooks stop what they started, but a worker that vitest tears down (a timeout, Ctrl-C, a
 * crash) runs no hook, and a server left behind holds its port and its CPU for as long as nobody notices.
 */
import type { ChildProcess } from "node:child_process";

const children = new Set<ChildProcess>();

function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
}

process.once("exit", killAll);
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

/** Kills `child` when this process ends, unless it has exited by then. Returns `child`. */
export function reapOnExit<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}
