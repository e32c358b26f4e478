/**
 * The structured log (pino): one JSON object per line on stdout, what a container's log collector parses.
 * `LOG_FORMAT=pretty` (make demo, make dev) prints the same lines human-readable through pino-pretty, a
 * development dependency loaded only then.
 *
 * The access lines, one for every request, cache hits included: the access log (access.ts) formats them
 * itself and hands them over in batches (at most every second, or 256 lines, or 64 KiB), each batch written at once, in
 * order, as nginx writes its buffered access log. Not through an asynchronous destination: one that is still
 * writing a batch when the process exits loses it, and the batch written at exit overtakes it (a review found
 * both); one write per 64 KiB costs the hit path little. What waits is written on shutdown (flushLog) and
 * when the process exits. Every other line is written synchronously too (createLogger says why).
 *
 * Every other line of the process (console.log/warn/error: the start, the probe, the shared store, the
 * `[stats]` line, a library's own) becomes a JSON line too (routeConsole): its text is the `msg`, unchanged
 * but for JSON's escaping of quotes. The warnings the specification names keep their text.
 *
 * With JSON logs, whatever still reaches process.stdout or process.stderr (a `console.log` a module took
 * before routeConsole ran, a library writing to the stream, Node's own warnings) becomes a JSON line as well
 * (routeStreams): a line that is not JSON stops `jq` and the collector, so no door is left open.
 */
import pino, { type Logger } from "pino";
import { formatWithOptions } from "node:util";
import { AsyncLocalStorage } from "node:async_hooks";
import { writeSync } from "node:fs";
import { AccessLog } from "./access";

export type LogFormat = "json" | "pretty" | "off";

let logger: Logger | null = null;
let accessLog: AccessLog | null = null;

export async function createLogger(format: LogFormat): Promise<Logger | null> {
  if (format === "off") return (logger = accessLog = null);
  const options = { base: undefined, messageKey: "msg", timestamp: pino.stdTimeFunctions.isoTime };
  const withId = { ...options, mixin: requestIdMixin };
  const pretty = format === "pretty" ? await import("pino-pretty").then((m) => m.default, () => null) : null;
  if (pretty) {
    // pino-pretty's stream reads JSON lines: the access lines are printed through it too.
    const stream = pretty({ colorize: true, translateTime: "HH:MM:ss.l", ignore: "time" });
    logger = pino(withId, stream);
    accessLog = new AccessLog({ keepsChunk: true, write: (chunk) => stream.write(chunk) });
  } else {
    // pino-pretty is a development dependency: a production image asked for "pretty" logs JSON.
    // Warnings, errors and the other lines are written at once (sync): they are rare, and a line that is
    // on stdout when the call returns is what an operator (and a test) reading the log expects. Access
    // lines are batched by the access log, and each batch written at once (see the top of this file).
    logger = pino(withId, pino.destination({ dest: 1, sync: true }));
    // Bytes in, bytes out: the access log hands over encoded chunks (access.ts says why), written as they are,
    // before write() returns, so the access log's own buffer is written (no copy per batch).
    accessLog = new AccessLog({ keepsChunk: false, write: (chunk) => writeFully(chunk, (b, at, n) => writeSync(1, b, at, n)) });
  }
  // No access line lost when the process ends, however it ends (a fatal error exits from the process guard).
  process.once("exit", flushLog);
  return logger;
}

export function getLogger(): Logger | null {
  return logger;
}

/** The access log (batched writes), null when logging is off. */
export function getAccessLog(): AccessLog | null {
  return accessLog;
}

/** Writes what is buffered (on shutdown, and when the process exits). */
export function flushLog(): void {
  accessLog?.flush();
}

/** How long a write waits before it tries again when stdout is full (a non-blocking pipe answers EAGAIN). */
const FULL_WAIT_MS = 10;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `chunk` before it returns, as SonicBoom's synchronous mode does: a partial write goes on from where
 * it stopped; a full pipe (EAGAIN) is waited for (the process blocks, as a synchronous log does: no line lost and
 * nothing queued without bound). Any other error (stdout closed) drops the chunk: there is nowhere to say so.
 */
export function writeFully(chunk: Uint8Array, write: (bytes: Uint8Array, at: number, length: number) => number): void {
  let at = 0;
  while (at < chunk.length) {
    let written = 0;
    try {
      written = write(chunk, at, chunk.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EBUSY") return;
    }
    // Nothing written (a full pipe, or a write of 0 bytes): wait, then go on, never spin.
    if (written > 0) at += written;
    else Atomics.wait(sleeper, 0, 0, FULL_WAIT_MS);
  }
}

/**
 * The request a render runs for (its X-Request-Id, or the generated one), in the thread that renders it: a
 * render worker's lines then carry the id of the visitor's request that caused the render, as the access
 * line does. A background refresh runs for no request, and its lines carry none.
 */
const renderRequest = new AsyncLocalStorage<string>();

/** Runs `fn` (a render) with `requestId` on every line it logs. */
export function withRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId ? renderRequest.run(requestId, fn) : fn();
}

/** The request the current render runs for (error events carry it too: monitoring/index.ts). */
export function currentRequestId(): string | undefined {
  return renderRequest.getStore();
}

/** Every line but the access lines (which carry their own `id`) gets the render's request id, if any. */
const requestIdMixin = () => {
  const requestId = renderRequest.getStore();
  return requestId ? { requestId } : {};
};

/** console.* through the logger, each call one line whatever it printed (objects inline, no line breaks). */
export function routeConsole(target: Logger): void {
  const at = (level: "info" | "warn" | "error") =>
    (...args: unknown[]) => target[level](formatWithOptions({ breakLength: Infinity, compact: true, colors: false }, ...args));
  console.log = at("info");
  console.info = at("info");
  console.warn = at("warn");
  console.error = at("error");
}

/**
 * The logger of a process or thread, and console routed through it: the server's main thread and each
 * render worker call it once at start (a worker has its own copy of this module).
 */
export async function startLog(format: LogFormat): Promise<Logger | null> {
  const created = await createLogger(format);
  if (created) routeConsole(created);
  if (created && format === "json") routeStreams(created);
  return created;
}

/**
 * process.stdout and process.stderr through the logger: each line that is not already a JSON object becomes
 * one (stdout at info, stderr at warn). pino's own lines go to file descriptor 1 directly (pino.destination),
 * never through these streams, so nothing loops. Not in "pretty" mode: pino-pretty prints through stdout.
 */
export function routeStreams(target: Logger): void {
  const route = (stream: NodeJS.WriteStream, level: "info" | "warn") => {
    const write = stream.write.bind(stream);
    let partial = "";
    stream.write = ((chunk: string | Uint8Array, encodingOrDone?: unknown, done?: unknown) => {
      const text = partial + (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const lines = text.split("\n");
      // A chunk without its line's end waits for the rest (a library may write a line in pieces).
      partial = lines.pop()!.slice(-64 * 1024);
      for (const line of lines) {
        if (line.startsWith("{") && line.endsWith("}")) write(`${line}\n`);
        else if (line.trim() !== "") target[level](line);
      }
      const callback = typeof encodingOrDone === "function" ? encodingOrDone : done;
      if (typeof callback === "function") queueMicrotask(() => (callback as () => void)());
      return true;
    }) as typeof stream.write;
    process.once("exit", () => partial.trim() !== "" && target[level](partial));
  };
  route(process.stdout, "info");
  route(process.stderr, "warn");
}
