/**
 * The reaper (reaper.ts) stops what a test file started, its process groups included: a shell's background job, a
 * server in a session of its own, once the shell is killed or the test process ends without its hooks.
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { reapOnExit } from "./reaper";
import { until } from "./until";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A detached shell that starts a background job and waits for it; resolves with the shell and the job's pid. */
async function shellWithJob(group: boolean) {
  const shell = reapOnExit(spawn("sh", ["-c", "sleep 120 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"], detached: true }), { group });
  const job = await new Promise<number>((resolve) => shell.stdout!.once("data", (c: Buffer) => resolve(Number(String(c).trim()))));
  return { shell, job };
}

describe("the reaper", () => {
  it("kills what a detached shell left running when the shell is killed; without `group`, the job outlives it", async () => {
    const grouped = await shellWithJob(true);
    const loose = await shellWithJob(false);
    try {
      grouped.shell.kill("SIGKILL");
      loose.shell.kill("SIGKILL");
      await until(() => !alive(grouped.job), "the grouped shell's job killed with it");
      await until(() => loose.shell.exitCode !== null || loose.shell.signalCode !== null, "the loose shell gone");
      expect(alive(loose.job)).toBe(true);
    } finally {
      process.kill(loose.job, "SIGKILL");
    }
  });

  it("kills a registered group when the test process ends without running any hook", async () => {
    // A test process of its own (tsx, as vitest runs TypeScript): it registers a shell's group, prints the job's pid,
    // and exits at once.
    const script = `
      import { spawn } from "node:child_process";
      import { reapOnExit } from "./tests/support/reaper.ts";
      const shell = reapOnExit(spawn("sh", ["-c", "sleep 120 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"], detached: true }), { group: true });
      shell.stdout.once("data", (c) => { console.log(String(c).trim()); process.exit(0); });
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    const job = Number(run.stdout.trim());
    expect(job, run.stderr).toBeGreaterThan(0);
    // (Killed, it is gone once reaped: until then a signal 0 still finds it.)
    await until(() => !alive(job), "the job killed with the test process");
  });
});
