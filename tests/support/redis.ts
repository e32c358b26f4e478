/**
 * A dedicated redis-server for one test file, on a free port, configured like the specification's shared
 * store (128 MB, allkeys-lru, no persistence), so that stopping and restarting it disturbs nobody else.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "./frontend";
import { reapOnExit } from "./reaper";

export interface TestRedis {
  port: number;
  url: (db?: number) => string;
  /** Starts (again) on the same port; an empty store after a restart (no persistence). */
  start: () => Promise<void>;
  stop: () => Promise<void>;
  /** One command through redis-cli, answered as its text output (INFO, DBSIZE…). */
  command: (...args: string[]) => Promise<string>;
}

/** `maxmemory`: the specification's 128mb unless a test needs memory pressure sooner. */
export async function startRedis(opts: { maxmemory?: string } = {}): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const command = async (...args: string[]) => {
    const run = spawnSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8", timeout: 5000 });
    if (run.status !== 0) throw new Error(`redis-cli ${args.join(" ")}: ${run.stderr || run.status}`);
    return run.stdout;
  };
  const redis: TestRedis = {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    command,
    start: async () => {
      child = reapOnExit(spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--maxmemory", opts.maxmemory ?? "128mb",
          "--maxmemory-policy", "allkeys-lru"],
        { stdio: "ignore" },
      ));
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          if ((await command("PING")).startsWith("PONG")) return;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > deadline) throw new Error("redis-server did not start within 10 s");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once("exit", r));
      running.kill("SIGKILL");
      await exited;
    },
  };
  await redis.start();
  return redis;
}
