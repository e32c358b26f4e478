/**
 * A bench (or a test that runs one, such as the fuzz run and the soak) that is cut off, by a signal or at its
 * time limit, leaves no process behind: bench/processes.ts registers every child it starts with
 * tests/support/reaper.ts. A loaded `make test` once left two servers running after such a cut.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { until } from "./support/until";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("bench processes", () => {
  it("are killed when the bench that started them is terminated", async () => {
    const script = `
      const { startBackendProcess } = await import("./bench/processes.ts");
      const backend = await startBackendProcess();
      console.log(backend.child.pid);
      setInterval(() => {}, 1000);
    `;
    const bench = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    bench.stdout!.on("data", (c) => (out += c));
    try {
      await until(() => /^\d+\n/.test(out), "the bench's backend started", 30_000);
      const pid = Number(out.trim());
      expect(alive(pid)).toBe(true);
      bench.kill("SIGTERM");
      await until(() => !alive(pid), "the bench's backend gone after its bench was terminated", 10_000);
    } finally {
      bench.kill("SIGKILL");
    }
  }, 60_000);
});
