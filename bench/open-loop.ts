/**
 * An open-loop HTTP/1.1 load generator (bench/scale.ts): requests leave at a fixed rate whatever the server
 * answers, as visitors and crawlers do, so a slow server faces a growing number of requests in flight instead
 * of a load that slows down with it (bench/load.ts's closed loop). Each request picks a practice by Zipf(s)
 * over N practices (rank 1 the most visited) and a page of it by Zipf(s) over the practice's pages in their
 * popularity order (home, contact, ...), from a seeded generator: the same sequence every run.
 *
 * A request goes on an idle keep-alive connection, else a new one (up to `maxConnections`: past it the request
 * counts as not sent). One not answered within `timeoutMs` counts as a timeout and its connection is closed.
 * A request on a kept-alive connection that the server (or nginx, after its 15 s keepalive_timeout) closes before
 * any byte of the answer is sent once more on a new connection, as a browser does (RFC 9112 9.3.1, the rule of
 * ops/operator/request.ts), and counted (`resent`); its latency runs from the first send.
 * Run in its own process (runOpenLoopInChild): it competes for the CPU like an external client.
 */
import { connect, type Socket } from "node:net";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchPids } from "./machine";
import { parseResponse } from "./load";
import { reapOnExit } from "../tests/support/reaper";

export interface OpenLoopOptions {
  port: number;
  /** Requests per second, sent at even intervals. */
  rate: number;
  durationMs: number;
  /** Host headers of the practices, most visited first. */
  hosts: string[];
  /** Paths of a practice's pages, most visited first (the same for every practice). */
  paths: string[];
  /** The Zipf exponent of both choices (1.0: the issue's). */
  zipf: number;
  seed: number;
  timeoutMs: number;
  maxConnections: number;
  headers?: Record<string, string>;
}

/**
 * One record per request, in columns (compact as JSON): when it was sent (ms since the start), its latency in
 * ms (-1: timed out, -2: connection error, -3: not sent, no connection free), its status (0 when none) and
 * its X-Cache value (an index in `xcacheNames`, -1 when none).
 */
export interface OpenLoopResult {
  sentAtMs: number[];
  latencyMs: number[];
  status: number[];
  xcache: number[];
  xcacheNames: string[];
  /** Practice rank (0 = most visited) of each request. */
  practice: number[];
  /** Requests sent once more after a kept-alive connection closed before any byte of their answer. */
  resent: number;
  /** Page rank (0 = most visited, an index into the paths) of each request. */
  page: number[];
  maxOpenConnections: number;
}

export const TIMED_OUT = -1;
export const CONNECTION_ERROR = -2;
export const NOT_SENT = -3;

/** mulberry32: a small seeded generator, good enough to pick pages. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sampler of ranks 0..n-1 with P(k) proportional to 1/(k+1)^s. */
export function zipfSampler(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / Math.pow(k + 1, s);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

interface Conn {
  socket: Socket;
  buffer: Buffer;
  /** The request in flight: its record index, its text, when it first left, its timer. */
  index: number;
  request: string;
  sentAt: number;
  timer: NodeJS.Timeout | null;
  /** Answers this connection has carried: a closed connection that had some is a kept-alive one. */
  answered: number;
}

export async function runOpenLoop(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  const random = seeded(opts.seed);
  const pickPractice = zipfSampler(opts.hosts.length, opts.zipf, random);
  const pickPage = zipfSampler(opts.paths.length, opts.zipf, random);
  const extra = Object.entries(opts.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const result: OpenLoopResult = {
    sentAtMs: [],
    latencyMs: [],
    status: [],
    xcache: [],
    xcacheNames: [],
    practice: [],
    resent: 0,
    page: [],
    maxOpenConnections: 0,
  };
  const xcacheIds = new Map<string, number>();
  const idle: Conn[] = [];
  let open = 0;
  let outstanding = 0;
  const start = performance.now();
  const total = Math.floor((opts.rate * opts.durationMs) / 1000);
  let allSent!: () => void;
  const finished = new Promise<void>((resolve) => (allSent = resolve));

  const record = (index: number, latency: number, status: number, xcache?: string) => {
    result.latencyMs[index] = latency;
    result.status[index] = status;
    let id = -1;
    if (xcache !== undefined) {
      id = xcacheIds.get(xcache) ?? -1;
      if (id === -1) {
        id = result.xcacheNames.push(xcache) - 1;
        xcacheIds.set(xcache, id);
      }
    }
    result.xcache[index] = id;
  };
  const settle = () => {
    outstanding--;
    if (outstanding === 0 && result.sentAtMs.length === total) allSent();
  };

  const closeConn = (conn: Conn) => {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    const at = idle.indexOf(conn);
    if (at !== -1) idle.splice(at, 1);
    if (!conn.socket.destroyed) {
      conn.socket.destroy();
    }
  };

  const newConn = (): Conn => {
    const socket = connect({ port: opts.port, host: "127.0.0.1", noDelay: true });
    const conn: Conn = { socket, buffer: Buffer.alloc(0), index: -1, request: "", sentAt: 0, timer: null, answered: 0 };
    open++;
    result.maxOpenConnections = Math.max(result.maxOpenConnections, open);
    const fail = () => {
      if (conn.index === -1) return;
      const index = conn.index;
      conn.index = -1;
      if (conn.timer) clearTimeout(conn.timer);
      conn.timer = null;
      if (conn.answered > 0 && conn.buffer.length === 0) {
        // Closed under a request that got no byte of an answer, on a connection kept alive: once more, anew.
        result.resent++;
        sendOn(newConn(), index, conn.request, conn.sentAt);
        return;
      }
      record(index, CONNECTION_ERROR, 0);
      settle();
    };
    socket.on("error", fail);
    socket.on("close", () => {
      open--;
      fail();
      closeConn(conn);
    });
    socket.on("data", (chunk: Buffer) => {
      conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
      const response = parseResponse(conn.buffer, false);
      if (!response || conn.index === -1) return;
      conn.buffer = conn.buffer.subarray(response.length);
      record(conn.index, performance.now() - conn.sentAt, Number(response.status), response.xcache);
      conn.index = -1;
      conn.answered++;
      if (conn.timer) clearTimeout(conn.timer);
      conn.timer = null;
      settle();
      idle.push(conn);
    });
    return conn;
  };

  const send = (index: number, request: string) => {
    const conn = idle.pop() ?? (open < opts.maxConnections ? newConn() : null);
    if (!conn) {
      record(index, NOT_SENT, 0);
      settle();
      return;
    }
    sendOn(conn, index, request, performance.now());
  };

  /** `request` on `conn`; `sentAt`: when it first left (a request sent once more keeps its first time). */
  const sendOn = (conn: Conn, index: number, request: string, sentAt: number) => {
    conn.index = index;
    conn.request = request;
    conn.sentAt = sentAt;
    conn.timer = setTimeout(() => {
      if (conn.index !== index) return;
      record(index, TIMED_OUT, 0);
      conn.index = -1;
      settle();
      closeConn(conn);
    }, Math.max(0, opts.timeoutMs - (performance.now() - sentAt)));
    conn.socket.write(request);
  };

  // Requests leave on schedule: each tick sends every request whose time has come (a late tick catches up).
  const interval = 1000 / opts.rate;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now() - start;
      while (result.sentAtMs.length < total && result.sentAtMs.length * interval <= now) {
        const index = result.sentAtMs.length;
        const practice = pickPractice();
        const page = pickPage();
        const path = opts.paths[page];
        result.sentAtMs.push(Math.round(index * interval));
        result.practice.push(practice);
        result.page.push(page);
        outstanding++;
        send(index, `GET ${path} HTTP/1.1\r\nHost: ${opts.hosts[practice]}\r\n${extra}\r\n`);
      }
      if (result.sentAtMs.length < total)
        setTimeout(tick, Math.max(0, Math.min(interval, (result.sentAtMs.length * interval - now) | 0)));
      else resolve();
    };
    tick();
  });
  if (outstanding > 0) await finished;
  for (const conn of [...idle]) closeConn(conn);
  return result;
}

/** Runs the generator in a child process, returning its records. */
export function runOpenLoopInChild(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  return new Promise((resolve, reject) => {
    const child = reapOnExit(spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      stdio: ["pipe", "pipe", "inherit"],
    }));
    // Its CPU is the bench's own, not other work on the machine (bench/machine.ts).
    if (child.pid) benchPids.add(child.pid);
    child.stdin.end(JSON.stringify(opts));
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("exit", (code) => {
      benchPids.delete(child.pid!);
      if (code !== 0) return reject(new Error(`open-loop generator exited with ${code}`));
      resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OpenLoopResult);
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let input = "";
  process.stdin.on("data", (c) => (input += c));
  process.stdin.on("end", () => {
    runOpenLoop(JSON.parse(input) as OpenLoopOptions).then((result) => process.stdout.write(JSON.stringify(result)));
  });
}
