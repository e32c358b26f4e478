/**
 * `npm run bench:twin-shapes` (after `npm run build`): what node:http's own code costs a HIT in a process that has
 * done something else first. A diagnosis of section (b)'s gap (issue 28), not a target: the bare twin of section (a)
 * runs Node's HTTP code on one shape of request and response only, so V8 optimises it for that shape; the product's
 * process also runs Express (its endpoints, the page cache's misses), the compression middleware and the render
 * pool's threads. The same twin is measured as it is and after each of those (bench/twin-shapes-server.ts), server CPU
 * per request from /proc, wrk -t1 -c32, rounds rotated. The HIT's bytes are the product's own: the dupont homepage
 * (brotli), fetched from the built server first.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpuSeconds, startBackendProcess, startFrontendProcess } from "./processes";
import { freePort } from "../tests/support/frontend";
import { agent, get } from "../tests/support/cache";
import { reapOnExit } from "../tests/support/reaper";
import { machineLine } from "./machine";

const VARIANTS = ["", "express", "plain", "compression", "workers", "timers", "express,workers,timers"];
const ROUNDS = 8;
const SECONDS = 3;
const OUT = resolve("tmp/bench/twin-shapes");
const HOST = "dupont.dev.localhost";

/** wrk's request count for one round. */
function load(port: number, seconds: number): number {
  const out = execFileSync("wrk", ["-t1", "-c32", `-d${seconds}s`, "-H", `Host: ${HOST}`, "-H", "Accept-Encoding: gzip, deflate, br", `http://127.0.0.1:${port}/`], { encoding: "utf8" });
  return Number(/(\d+) requests in/.exec(out)![1]);
}

/** The product's HIT of the dupont homepage: its body and headers (bar Date and the connection's), as the twin sends. */
async function productHit(): Promise<{ body: string; headers: string[] }> {
  const backend = await startBackendProcess();
  const frontend = await startFrontendProcess(backend.url);
  try {
    for (let tries = 0; tries < 20; tries++) {
      const hit = await get(frontend.url, HOST, "/", { headers: { "accept-encoding": "gzip, deflate, br" } });
      if (hit.xcache !== "HIT") continue;
      const headers: string[] = [];
      for (const [name, value] of Object.entries(hit.headers)) {
        if (!["date", "connection", "keep-alive"].includes(name) && value !== undefined) headers.push(name, String(value));
      }
      mkdirSync(OUT, { recursive: true });
      writeFileSync(join(OUT, "body"), hit.raw);
      return { body: join(OUT, "body"), headers };
    }
    throw new Error("the dupont homepage is not a HIT");
  } finally {
    await frontend.stop();
    await backend.stop();
  }
}

async function main() {
  const { body, headers } = await productHit();
  const servers: { label: string; port: number; child: ChildProcess }[] = [];
  try {
    for (const shapes of VARIANTS) {
      const port = await freePort();
      const child = reapOnExit(
        spawn(process.execPath, ["--import", "tsx", "bench/twin-shapes-server.ts", body, JSON.stringify(headers), String(port)], {
          env: { PATH: process.env.PATH, SHAPES: shapes },
          stdio: ["ignore", "pipe", "inherit"],
        }),
      );
      await new Promise<void>((listening) => child.stdout!.once("data", () => listening()));
      servers.push({ label: shapes || "(nothing else: section (a)'s twin)", port, child });
      // The 200 requests of the other shapes, then the twin's own warm-up.
      load(port, SECONDS);
    }
    console.log(machineLine());
    const cpu: number[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (k + round) % servers.length;
        const before = cpuSeconds(servers[i].child.pid!);
        const requests = load(servers[i].port, SECONDS);
        cpu[i].push((1e6 * (cpuSeconds(servers[i].child.pid!) - before)) / requests);
      }
    }
    // The lowest of the rounds beside the median: on a shared machine a round only ever costs more than the code's
    // own, when another process took the core's caches or the hypervisor its time.
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const lowest = (a: number[]) => Math.min(...a);
    for (const [i, s] of servers.entries()) {
      const ratio = median(cpu[i].map((x, round) => cpu[0][round] / x));
      console.log(
        `  ${s.label.padEnd(40)} ${lowest(cpu[i]).toFixed(1)} µs server CPU per HIT at the lowest, ${median(cpu[i]).toFixed(1)} the median (rounds ${cpu[i].map((x) => x.toFixed(1)).join(", ")});` +
          ` the bare twin's cost / this: ${((100 * lowest(cpu[0])) / lowest(cpu[i])).toFixed(1)}% at the lowest, ${(100 * ratio).toFixed(1)}% the median of the rounds' ratios`,
      );
    }
  } finally {
    for (const s of servers) s.child.kill("SIGTERM");
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
