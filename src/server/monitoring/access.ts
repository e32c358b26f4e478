/**
 * The access line: one JSON object per request, written when the response is done (or abandoned) by the
 * request pipeline's on-response consumers (http/pipeline.ts).
 *
 * The line holds: request id, method, practice, host, path (never the query string: it can carry a
 * visitor's e-mail, a campaign id), status, cache result, duration, bytes sent. Never the client's address
 * (docs/decisions/0028-error-tracking-privacy.md: the address is personal data and only the rate limit uses
 * it), cookies, or a body. Host and path are the visitor's own spelling, so both are cut to a bound.
 *
 * Why formatted here and written in batches (AccessLog), not through pino: one line is written for every
 * request, cache hits included, and pino's generic serialisation plus one write per line cost a third of a
 * hit's time (issue 28). The line is the same JSON pino wrote (level 30, ISO time, the same keys in the same
 * order), built by concatenation: only the two fields a visitor spells (host, path) are escaped, and only when
 * they hold a character JSON escapes. Each line is encoded at once into a byte buffer, and the buffer is
 * handed to the log's destination at most every second (a quiet server's line is out within a second) or once
 * 64 KiB are waiting, as nginx's `access_log ... buffer=64k flush=1s` does; the buffer is flushed on shutdown
 * and when the process exits. Bytes, not a string: a string of joined lines is a rope of hundreds of pieces
 * that the destination flattened, measured and encoded again (0.6 µs of a 17 µs hit, measured with perf).
 *
 * The request id: a client's or proxy's X-Request-Id when it is a short token (letters, digits, `.`, `_`,
 * `-`, at most 64), else generated here; carried into error events and render workers' lines.
 */
import { randomBytes } from "node:crypto";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_HOST = 100;
const MAX_PATH = 200;

/** Generated ids: a per-process random prefix and a counter (unique, and no crypto call per request). */
const prefix = randomBytes(4).toString("hex");
let sequence = 0;

export function requestId(header: string | string[] | undefined): string {
  if (typeof header === "string" && REQUEST_ID.test(header)) return header;
  return `${prefix}-${(++sequence).toString(36)}`;
}

/** The path without its query, bounded. */
export function pathOnly(url: string | undefined): string {
  if (!url) return "";
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/** One request as the access line tells it. */
export interface AccessRecord {
  id: string;
  method: string;
  practice: string | null;
  host: string | undefined;
  path: string;
  status: number;
  /** HIT, STALE, MISS, 404 or NONE (monitoring/metrics.ts's result label). */
  cache: string;
  ms: number;
  bytes: number;
  /** The client went away before the response was all handed to the socket. */
  aborted: boolean;
}

/** Whether JSON escapes a character of `value`: a quote, a backslash, a control character, a surrogate. */
function needsEscape(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** A JSON string of a visitor's spelling: plain quotes when nothing needs escaping (nearly always). */
function jsonString(value: string): string {
  return needsEscape(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * The ISO time of the line (Date's toISOString, which pino wrote), its date and second formatted once per second:
 * toISOString is a C++ call that formats the whole date each time (about 7,000 instructions, most of a line's
 * formatting under callgrind), and only the milliseconds change within a second.
 */
let secondStart = Number.NaN;
/** "2026-11-26T18:35:12.": everything of the ISO form before the milliseconds. */
let secondPrefix = "";

export function isoTime(now: number): string {
  const ms = now - secondStart;
  // Outside the cached second (or not an integer millisecond: Date.now() always is), format it again.
  if (!(ms >= 0 && ms < 1000 && Number.isInteger(ms))) {
    const iso = new Date(now).toISOString();
    if (!Number.isInteger(now)) return iso;
    secondStart = now - (((now % 1000) + 1000) % 1000);
    secondPrefix = iso.slice(0, -4); // without "123Z"
    return iso;
  }
  return `${secondPrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
}

/**
 * `Math.round(ms * 100) / 100` as JSON prints it ("12", "1.5", "0.07"), from integers: printing a fraction is
 * V8's shortest-digits conversion, several times the cost of an integer's, on every line. The same text: the
 * decimal with two digits at most is the shortest spelling of that double.
 */
export function hundredths(ms: number): string {
  const c = Math.round(ms * 100);
  if (!(c >= 0 && c < 1e15)) return String(c / 100);
  const whole = Math.floor(c / 100);
  const frac = c - whole * 100;
  if (frac === 0) return `${whole}`;
  return frac % 10 === 0 ? `${whole}.${frac / 10}` : `${whole}.${frac < 10 ? "0" : ""}${frac}`;
}

/** The access line of one request, newline included: the JSON object pino wrote for it. */
export function formatAccessLine(r: AccessRecord, now = Date.now()): string {
  const host = r.host === undefined ? "" : `,"host":${jsonString(r.host.length > MAX_HOST ? r.host.slice(0, MAX_HOST) : r.host)}`;
  // The id is a validated token or generated, the method a token Node's parser accepted, practice a listed
  // code: none holds a character JSON escapes.
  return (
    `{"level":30,"time":"${isoTime(now)}","msg":"access","id":"${r.id}","method":"${r.method}",` +
    `"practice":${r.practice === null ? "null" : `"${r.practice}"`}${host},"path":${jsonString(pathOnly(r.path))},` +
    `"status":${r.status},"cache":"${r.cache}","ms":${hundredths(r.ms)},"bytes":${r.bytes}` +
    `${r.aborted ? ',"aborted":true' : ""}}\n`
  );
}

/** Where batches of lines go: the log's destination (monitoring/log.ts), which keeps the chunk it is given. */
export interface LineSink {
  write(chunk: Buffer): unknown;
}

export interface AccessLogLimits {
  /** Handed to the sink once this many bytes wait. */
  bytes: number;
  /** Handed to the sink at the latest this long after the first waiting line. */
  delayMs: number;
}

/** nginx's `buffer=64k flush=1s`. */
export const ACCESS_LOG_LIMITS: AccessLogLimits = { bytes: 64 * 1024, delayMs: 1000 };

/** UTF-8 takes at most 3 bytes for one UTF-16 code unit (a pair of surrogates: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

/** The access lines of this process, batched (see the top of this file); flush() before the process ends. */
export class AccessLog {
  private buffer: Buffer;
  private used = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly flushLater = () => {
    this.timer = null;
    this.flush();
  };

  constructor(
    private readonly sink: LineSink,
    private readonly limits: AccessLogLimits = ACCESS_LOG_LIMITS,
  ) {
    // Room for the limit and a few lines more (write() flushes first when a line might not fit).
    this.buffer = Buffer.allocUnsafe(limits.bytes + 4096);
  }

  write(record: AccessRecord): void {
    const line = formatAccessLine(record);
    // A line is bounded (host and path are cut), but the buffer must hold it whole: flush first if it might not.
    if (this.used + line.length * MAX_BYTES_PER_UNIT > this.buffer.length) this.flush();
    if (line.length * MAX_BYTES_PER_UNIT > this.buffer.length) this.buffer = Buffer.allocUnsafe(this.limits.bytes + line.length * MAX_BYTES_PER_UNIT);
    this.used += this.buffer.write(line, this.used);
    if (this.used >= this.limits.bytes) this.flush();
    else if (this.timer === null) {
      // Unreferenced: a waiting line never keeps the process alive; the exit handler (log.ts) writes it.
      this.timer = setTimeout(this.flushLater, this.limits.delayMs);
      this.timer.unref();
    }
  }

  /**
   * Hands a copy of what waits to the sink, which keeps it until written: a quiet second's 200 bytes then hold
   * 200 bytes, not the whole buffer (a stalled stdout queues what it is given).
   */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.used === 0) return;
    const chunk = Buffer.from(this.buffer.subarray(0, this.used));
    this.used = 0;
    this.sink.write(chunk);
  }
}
