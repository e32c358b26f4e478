/**
 * A small HTTP/1.1 load generator: keep-alive connections over raw sockets, one request in flight per
 * connection, bounded by a duration and a request count, loopback only. Raw sockets keep the generator's
 * own cost low (a node:http client costs about as much as the server under test). Run it in its own
 * process (runLoadInChild) so that it competes with the server for the CPU like any external client does.
 */
import { connect, type Socket } from "node:net";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchPids } from "./machine";
import { reapOnExit } from "../tests/support/reaper";

export interface LoadOptions {
  port: number;
  /** Requests sent round-robin, each a path and a Host header. */
  targets: { path: string; host: string }[];
  connections: number;
  durationMs: number;
  maxRequests?: number;
  headers?: Record<string, string>;
  /** Any method: a flood of OPTIONS is one of the noisy-neighbour shapes (bench/noisy-neighbour.ts). */
  method?: string;
  /** A body sent with every request (its Content-Length added): the invalid contact posts of (k). */
  body?: string;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  statuses: Record<string, number>;
  /** Counts of the X-Cache header values seen. */
  xcache: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  bytes: number;
  errors: number;
}

const CRLFCRLF = Buffer.from("\r\n\r\n");

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const method = opts.method ?? "GET";
  const body = opts.body === undefined ? null : Buffer.from(opts.body, "utf8");
  const extra = Object.entries({ ...opts.headers, ...(body ? { "content-length": String(body.length) } : {}) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const requests = opts.targets.map((t) =>
    Buffer.concat([Buffer.from(`${method} ${t.path} HTTP/1.1\r\nHost: ${t.host}\r\n${extra}\r\n`, "latin1"), body ?? Buffer.alloc(0)]),
  );
  const maxRequests = opts.maxRequests ?? Number.MAX_SAFE_INTEGER;
  const statuses: Record<string, number> = {};
  const xcache: Record<string, number> = {};
  const latencies: number[] = [];
  let sent = 0;
  let done = 0;
  let bytes = 0;
  let errors = 0;
  const start = performance.now();
  const deadline = start + opts.durationMs;

  await Promise.all(
    Array.from(
      { length: opts.connections },
      () =>
        new Promise<void>((resolve) => {
          const socket: Socket = connect({ port: opts.port, host: "127.0.0.1", noDelay: true });
          let buffer: Buffer = Buffer.alloc(0);
          let sentAt = 0;
          const next = () => {
            if (performance.now() >= deadline || sent >= maxRequests) {
              socket.end();
              resolve();
              return;
            }
            const req = requests[sent % requests.length];
            sent++;
            sentAt = performance.now();
            socket.write(req);
          };
          socket.on("connect", next);
          socket.on("error", () => {
            errors++;
            resolve();
          });
          socket.on("close", () => resolve());
          socket.on("data", (chunk: Buffer) => {
            buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
            for (;;) {
              const consumed = parseResponse(buffer, method === "HEAD");
              if (!consumed) return;
              buffer = buffer.subarray(consumed.length);
              done++;
              bytes += consumed.length;
              statuses[consumed.status] = (statuses[consumed.status] ?? 0) + 1;
              if (consumed.xcache) xcache[consumed.xcache] = (xcache[consumed.xcache] ?? 0) + 1;
              latencies.push(performance.now() - sentAt);
              next();
            }
          });
        }),
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  return {
    requests: done,
    seconds,
    rps: done / seconds,
    statuses,
    xcache,
    latencyMs: { p50: round(pick(0.5)), p99: round(pick(0.99)), max: round(latencies.at(-1) ?? 0) },
    bytes,
    errors,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

const CONTENT_LENGTH = Buffer.from("\r\ncontent-length: ");
const X_CACHE = Buffer.from("\r\nx-cache: ");

/** One complete response at the start of `buf`, or null when more bytes are needed. */
export function parseResponse(buf: Buffer, head: boolean): { length: number; status: string; xcache?: string } | null {
  const end = buf.indexOf(CRLFCRLF);
  if (end === -1) return null;
  const status = buf.toString("latin1", 9, 12);
  const bodyStart = end + 4;
  // Fast path: the lower-case header names both servers under test write, found without decoding.
  let xcache: string | undefined;
  const x = buf.indexOf(X_CACHE);
  if (x !== -1 && x < end) xcache = buf.toString("latin1", x + X_CACHE.length, buf.indexOf(13, x + X_CACHE.length));
  if (head || status === "304" || status === "204") return { length: bodyStart, status, xcache };
  const cl = buf.indexOf(CONTENT_LENGTH);
  if (cl !== -1 && cl < end) {
    let length = 0;
    for (let i = cl + CONTENT_LENGTH.length; buf[i] >= 48 && buf[i] <= 57; i++) length = length * 10 + buf[i] - 48;
    if (buf.length < bodyStart + length) return null;
    return { length: bodyStart + length, status, xcache };
  }
  return parseSlow(buf, end, status, xcache);
}

/** Any spelling of the headers, and chunked bodies (renders streamed by Express). */
function parseSlow(
  buf: Buffer,
  end: number,
  status: string,
  xcache?: string,
): { length: number; status: string; xcache?: string } | null {
  const lower = buf.toString("latin1", 0, end).toLowerCase();
  const bodyStart = end + 4;
  if (xcache === undefined) {
    const at = lower.indexOf("\r\nx-cache:");
    if (at !== -1)
      xcache = lower
        .slice(at + 10, lower.indexOf("\r", at + 2) >>> 0)
        .trim()
        .toUpperCase();
  }
  const clAt = lower.indexOf("\r\ncontent-length:");
  if (clAt !== -1) {
    const length = Number(lower.slice(clAt + 17, lower.indexOf("\r", clAt + 2) >>> 0).trim());
    if (buf.length < bodyStart + length) return null;
    return { length: bodyStart + length, status, xcache };
  }
  if (lower.includes("\r\ntransfer-encoding: chunked")) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at);
      if (lineEnd === -1) return null;
      const size = parseInt(buf.toString("latin1", at, lineEnd), 16);
      at = lineEnd + 2 + size + 2;
      if (at > buf.length) return null;
      if (size === 0) return { length: at, status, xcache };
    }
  }
  throw new Error(`response without length: ${lower.slice(0, 200)}`);
}

/** Runs the generator in a child process (the other core), returning its result. */
export function runLoadInChild(opts: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = reapOnExit(spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      stdio: ["pipe", "pipe", "inherit"],
    }));
    // Its CPU is the bench's own, not other work on the machine (bench/machine.ts).
    if (child.pid) benchPids.add(child.pid);
    // Options on stdin: thousands of targets do not fit in argv.
    child.stdin.end(JSON.stringify(opts));
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("exit", (code) => {
      benchPids.delete(child.pid!);
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out) as LoadResult);
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let input = "";
  process.stdin.on("data", (c) => (input += c));
  process.stdin.on("end", () => {
    runLoad(JSON.parse(input) as LoadOptions).then((result) => process.stdout.write(JSON.stringify(result)));
  });
}
