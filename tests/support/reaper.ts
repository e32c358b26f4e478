/**
 * Every child process a test file starts is registered here and killed when the test process ends, however
 * it ends: afterAll hooks stop what they started, but a worker that vitest tears down (a timeout, Ctrl-C, a
 * crash) runs no hook, and a server left behind holds its port and its CPU for as long as nobody notices.
 *
 * A child started `detached` leads a process group of its own (a shell and the jobs it started, vite and its
 * helpers, a server in a session of its own): the whole group is killed, not the leader alone. A test whose shell ran
 * a server and a busy loop timed out, and its server outlived the run (its shell was killed, the server was not).
 */
import type { ChildProcess } from "node:child_process";

const children = new Set<ChildProcess>();
/** Leaders of process groups (spawned `detached`) still running. */
const groups = new Set<number>();

/**
 * Kills a process group. Safe while its leader runs or any member does: Linux gives no new process a pid still used
 * as a group's id, so `-pgid` names this group only.
 */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // The group is gone already (ESRCH).
  }
}

function killAll(): void {
  for (const pgid of groups) killGroup(pgid);
  groups.clear();
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

/**
 * Kills `child` when this process ends, unless it has exited by then; with `group` (a child spawned `detached`), its
 * whole process group: when this process ends, or when the leader exits first. Returns `child`.
 */
export function reapOnExit<T extends ChildProcess>(child: T, opts: { group?: boolean } = {}): T {
  const pgid = opts.group ? child.pid : undefined;
  if (pgid !== undefined) groups.add(pgid);
  children.add(child);
  child.once("exit", () => {
    children.delete(child);
    // What its leader left running goes with it (and the group's id is then free for another process: forgotten).
    if (pgid !== undefined && groups.delete(pgid)) killGroup(pgid);
  });
  return child;
}
