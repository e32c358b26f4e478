/**
 * Issue 26: a slowloris against the generated proxy (ops/deploy/nginx/generate.ts and ops/deploy/nginx/nginx.conf, real
 * nginx, the built server behind it), on loopback only. Thousands of connections each send an unfinished
 * request head and nothing more, while a visitor keeps asking a practice's page on new connections: the
 * visitor keeps getting 200 quickly, and nginx closes the slow connections at its header timeout (10 s; the
 * 60 s default held them, and 4,096 slots per worker were not enough). Stops by itself: every socket is
 * destroyed at the end, whatever happened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { startFrontend, type Frontend } from "./support/frontend";
import { startNginx, type TestNginx } from "./support/nginx";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { until } from "./support/until";

/** Slow connections wanted: more than the 8,192 slots of two workers under the old 4,096 each. */
const WANTED = 9000;
/** Descriptors this process keeps for everything else (vitest, the visitor, the servers' pipes). */
const SPARE_FDS = 1500;
/** nginx's client_header_timeout (ops/deploy/nginx/generate.ts) and the slack a busy machine needs on top
 * (9,000 sockets closed by nginx and seen closed here: 14.35 s once under CI beside a second run, so 6 s). */
const HEADER_TIMEOUT_MS = 10_000;
const CLOSE_SLACK_MS = 6_000;
/** What the visitor must get during the attack: every answer 200, each within this long. */
const ANSWER_BOUND_MS = 3_000;

let backend: DemoBackend;
let frontend: Frontend;
let nginx: TestNginx | undefined;
const slow: Socket[] = [];

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  nginx = await startNginx([`127.0.0.1:${frontend.port}`]);
});

afterAll(async () => {
  for (const socket of slow) socket.destroy();
  nginx?.stop();
  await frontend?.stop();
  await backend?.close();
});

/** This process's descriptor limit (ulimit -n), which the slow connections must stay within. */
function fdLimit(): number {
  return Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim());
}

/** One visitor's GET on a new connection (as a new visitor opens one): status and milliseconds, or the failure. */
function visit(port: number, host: string, path: string, timeoutMs: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false, headers: { host, accept: "text/html", connection: "close" }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

describe("nginx under a slowloris (issue 26)", () => {
  it("keeps answering a practice's page while thousands of unfinished request heads are held, and closes them at its header timeout", async () => {
    const port = Number(new URL(nginx!.url).port);
    const count = Math.min(WANTED, fdLimit() - SPARE_FDS);
    // Below this the drill proves little: say so rather than pass quietly.
    expect(count, `ulimit -n is ${fdLimit()}: the drill needs at least ${2000 + SPARE_FDS} descriptors`).toBeGreaterThanOrEqual(2000);

    // The visitor: a page of a practice every 200 ms (under the zone's 10 r/s), from before the attack until after.
    const answers: { at: number; status: number; ms: number }[] = [];
    let visiting = true;
    const visitor = (async () => {
      while (visiting) {
        const at = performance.now();
        answers.push({ at, ...(await visit(port, "www.cabinet-dupont.fr", "/", 2 * ANSWER_BOUND_MS)) });
        await new Promise((r) => setTimeout(r, Math.max(0, 200 - (performance.now() - at))));
      }
    })();

    // The attack: connections opened 200 at a time, each sending the start of a head and then nothing.
    const opened: number[] = [];
    const closed: number[] = [];
    const attackStart = performance.now();
    for (let i = 0; i < count; i += 200) {
      await Promise.all(
        Array.from({ length: Math.min(200, count - i) }, () => {
          return new Promise<void>((resolve) => {
            const socket = connect(port, "127.0.0.1");
            const index = slow.push(socket) - 1;
            socket.on("connect", () => {
              opened[index] = performance.now();
              socket.write("GET / HTTP/1.1\r\nHost: www.cabinet-dupont.fr\r\nUser-Agent: slow");
              resolve();
            });
            socket.on("error", () => resolve());
            socket.on("close", () => (closed[index] = performance.now()));
          });
        }),
      );
    }
    const openMs = performance.now() - attackStart;
    const connected = opened.filter((t) => t !== undefined).length;

    // nginx closes every slow connection at its header timeout (each measured from its own connect).
    // Waited for at most the bound (then the figures are printed and the assertions below say what failed).
    const allClosed = await until(() => slow.every((_, i) => closed[i] !== undefined), "every slow connection closed", HEADER_TIMEOUT_MS + CLOSE_SLACK_MS + 2_000).then(
      () => true,
      () => false,
    );
    visiting = false;
    await visitor;

    const during = answers.filter((a) => a.at >= attackStart);
    const now = performance.now();
    // A connection still open counts as held until now.
    const held = slow.map((_, i) => (opened[i] !== undefined ? (closed[i] ?? now) - opened[i] : 0));
    console.log(
      `slowloris: ${connected} of ${count} slow connections opened in ${Math.round(openMs)} ms; ` +
        `the visitor got ${during.filter((a) => a.status === 200).length}/${during.length} answers 200 meanwhile, ` +
        `p99 ${Math.round(percentile(during.map((a) => a.ms), 99))} ms, max ${Math.round(Math.max(...during.map((a) => a.ms)))} ms; ` +
        `slow connections held ${Math.round(Math.min(...held))}-${Math.round(Math.max(...held))} ms` +
        (allClosed ? "" : `, ${slow.filter((_, i) => closed[i] === undefined).length} still open`),
    );
    expect(connected).toBe(count);
    expect(during.length).toBeGreaterThanOrEqual(20);
    expect(during.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...during.map((a) => a.ms))).toBeLessThanOrEqual(ANSWER_BOUND_MS);
    // A slot for every one: none dropped at once for want of worker connections (4,096 per worker dropped
    // 1,307 of 9,000 within 40 ms: a visitor arriving then is turned away the same way)...
    expect(readFileSync(join(nginx!.configDir, "error.log"), "utf8")).not.toContain("worker_connections are not enough");
    expect(Math.min(...held)).toBeGreaterThanOrEqual(HEADER_TIMEOUT_MS - 2_000);
    // ...and each closed at the header timeout, not held for nginx's default 60 s.
    expect(Math.max(...held)).toBeLessThanOrEqual(HEADER_TIMEOUT_MS + CLOSE_SLACK_MS);
  }, 60_000);
});
