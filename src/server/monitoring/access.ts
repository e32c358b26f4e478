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
 * order), written byte by byte straight into a buffer (encodeAccessLine): no string per line, since building one
 * by concatenation and encoding it again into the buffer were most of the line's cost (V8's profiler). A field a
 * visitor spells (host, path) is escaped as JSON.stringify does when it holds a character JSON escapes or one
 * beyond ASCII.
 *
 * A request's line is encoded with the others of its batch, not when the request ends: the request only keeps its
 * fields (AccessLog.write: a few stores into columns made once). The encoder is a large piece of code, and run
 * once per request between two requests' worth of Node's HTTP code it was fetched into the processor's instruction
 * cache anew each time: callgrind's cache model counted 400 of a HIT's 4,300 instruction-cache misses in the
 * line's code, the most of any part of the product's hit path (issue 28). Run for a whole batch, it stays in that
 * cache. The lines are encoded and handed to the log's destination at most a second after the first of them (a
 * quiet server's line is out within a second), or once 256 wait or 64 KiB are encoded (ACCESS_LOG_LIMITS), as nginx's
 * `access_log ... buffer=64k flush=1s` does; and on shutdown and when the process exits.
 *
 * The request id: a client's or proxy's X-Request-Id when it is a short token (letters, digits, `.`, `_`,
 * `-`, at most 64), else generated here; carried into error events and render workers' lines.
 */
import { randomBytes } from "node:crypto";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_HOST = 100;
const MAX_PATH = 200;
/** The id, method, practice and cache result of a line are tokens of at most this many characters (see MAX_LINE_BYTES). */
const MAX_TOKEN = 64;

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

/**
 * The longest line, in bytes: its fixed text (about 150), numbers of at most 24 characters each (3), and the
 * strings, each UTF-16 unit at most 6 bytes as JSON ("\u001f") and its quotes: the id, the method, the practice
 * and the cache result cut to MAX_TOKEN units each (a validated or generated id is at most 64, Node's methods at
 * most 11, a listed practice code at most 63: the cut is a bound, never met), a host of MAX_HOST and a path of
 * MAX_PATH + 1 units. 150 + 72 + 6 * (4 * 64 + 100 + 201) + 14 = 3,578 bytes: 4,096 hold any line.
 */
export const MAX_LINE_BYTES = 4096;

/**
 * Where a line is written: the bytes, and a DataView of the same memory for the fixed text's 32-bit stores (see
 * Fragment). Made once per buffer, never per line.
 */
export interface LineBuffer {
  readonly bytes: Buffer;
  readonly view: DataView;
}

export function lineBuffer(size: number): LineBuffer {
  const bytes = Buffer.allocUnsafeSlow(size);
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/**
 * A run of the line's fixed text, kept as little-endian 32-bit words and the 0 to 3 bytes after them: written four
 * bytes a store. The fixed text is half a line's bytes; written byte by byte, it was most of the encoder's time in
 * the server (issue 28: a copy of the built server that encoded nothing spent 1 µs less of CPU a HIT).
 */
interface Fragment {
  readonly words: Uint32Array;
  readonly tail: Uint8Array;
  readonly length: number;
}

function fragment(text: string): Fragment {
  const bytes = Buffer.from(text, "latin1");
  const count = bytes.length >> 2;
  const words = new Uint32Array(count);
  for (let i = 0; i < count; i++) words[i] = bytes.readUInt32LE(4 * i);
  return { words, tail: Uint8Array.from(bytes.subarray(4 * count)), length: bytes.length };
}

/** Writes `f` into `out` at `at`; returns the position after it. */
function putFragment(out: LineBuffer, at: number, f: Fragment): number {
  const { words, tail } = f;
  const view = out.view;
  for (let i = 0; i < words.length; i++) view.setUint32(at + 4 * i, words[i], true);
  const bytes = out.bytes;
  const rest = at + 4 * words.length;
  for (let i = 0; i < tail.length; i++) bytes[rest + i] = tail[i];
  return at + f.length;
}

const OPEN = '{"level":30,"time":"';
const AFTER_TIME = fragment('Z","msg":"access","id":');
const METHOD = fragment(',"method":');
const PRACTICE = fragment(',"practice":');
const NULL = fragment("null");
const HOST = fragment(',"host":');
const PATH = fragment(',"path":');
const STATUS = fragment(',"status":');
const CACHE = fragment(',"cache":');
const MS = fragment(',"ms":');
const BYTES = fragment(',"bytes":');
const ABORTED = fragment(',"aborted":true');
const CLOSE = fragment("}\n");

/** Writes a string known to be ASCII (a number's or a date's spelling). */
function putAscii(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/**
 * Writes `value` as a JSON string: byte for byte when it is printable ASCII with nothing JSON escapes (nearly
 * always), else JSON.stringify's spelling (quotes, backslashes, control characters and lone surrogates
 * escaped) in UTF-8.
 */
function putJsonString(out: Buffer, at: number, value: string): number {
  out[at] = 34;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || c > 126) return at + out.write(JSON.stringify(value), at, "utf8");
    out[at + 1 + i] = c;
  }
  out[at + 1 + value.length] = 34;
  return at + value.length + 2;
}

/**
 * Writes a number as JSON.stringify spells it (null for NaN and the infinities, which JSON has no word for); the
 * digits of a non-negative integer without making a string.
 */
function putNumber(out: Uint8Array, at: number, n: number): number {
  if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Number.isInteger(n))) return putAscii(out, at, JSON.stringify(n));
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  for (let i = digits - 1, x = n; i >= 0; i--) {
    const rest = Math.floor(x / 10);
    out[at + i] = 48 + x - rest * 10;
    x = rest;
  }
  return at + digits;
}

/**
 * Writes `Math.round(ms * 100) / 100` as JSON.stringify prints it ("12", "1.5", "0.07", null), from integers: printing a
 * fraction is V8's shortest-digits conversion, several times the cost of an integer's, on every line. The same
 * text: the decimal with two digits at most is the shortest spelling of that double.
 */
function putHundredths(out: Uint8Array, at: number, ms: number): number {
  const c = Math.round(ms * 100);
  if (!(c >= 0 && c < 1e15)) return putAscii(out, at, JSON.stringify(c / 100));
  const whole = Math.floor(c / 100);
  const frac = c - whole * 100;
  at = putNumber(out, at, whole);
  if (frac === 0) return at;
  out[at++] = 46; // "."
  if (frac % 10 === 0) {
    out[at] = 48 + frac / 10;
    return at + 1;
  }
  out[at] = 48 + Math.floor(frac / 10);
  out[at + 1] = 48 + (frac % 10);
  return at + 2;
}

/**
 * The line's opening and ISO time (Date's toISOString, which pino wrote), up to the milliseconds, made once per
 * second: toISOString is a C++ call that formats the whole date each time (about 7,000 instructions under
 * callgrind), and only the milliseconds change within a second.
 */
let secondStart = Number.NaN;
/** '{"level":30,"time":"2026-11-26T18:35:12.': the line up to its time's milliseconds. */
let secondOpen: Fragment = fragment(OPEN);

/** Writes the line's opening and its time without the final "Z". */
function putOpenAndTime(out: LineBuffer, at: number, now: number): number {
  let ms = now - secondStart;
  // Outside the cached second (or not an integer millisecond: Date.now() always is), format it again.
  if (!(ms >= 0 && ms < 1000 && Number.isInteger(ms))) {
    const iso = new Date(now).toISOString();
    if (!Number.isInteger(now)) return putAscii(out.bytes, putFragment(out, at, fragment(OPEN)), iso.slice(0, -1));
    secondStart = now - (((now % 1000) + 1000) % 1000);
    secondOpen = fragment(OPEN + iso.slice(0, -4)); // without "123Z"
    ms = now - secondStart;
  }
  at = putFragment(out, at, secondOpen);
  const bytes = out.bytes;
  bytes[at] = 48 + Math.floor(ms / 100);
  bytes[at + 1] = 48 + (Math.floor(ms / 10) % 10);
  bytes[at + 2] = 48 + (ms % 10);
  return at + 3;
}

/** A field cut to `max` characters: a visitor's host, and the tokens (a bound no caller reaches: MAX_LINE_BYTES). */
const cut = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/**
 * Writes the access line of one request, newline included (the JSON object pino wrote for it), into `out` at
 * `at`, which has MAX_LINE_BYTES of room; returns the position after it. Straight into the log's buffer, no
 * string: a line built by concatenation is a rope that the buffer's write flattened and encoded again
 * (formatting and encoding were most of the access line's cost, measured with V8's profiler, issue 28).
 */
export function encodeAccessLine(r: AccessRecord, now: number, out: LineBuffer, at: number): number {
  return encodeFields(r.id, r.method, r.practice, r.host, r.path, r.status, r.cache, r.ms, r.bytes, r.aborted, now, out, at);
}

/** encodeAccessLine from the record's fields, as the access log's columns hold them (AccessLog.encodeWaiting). */
function encodeFields(
  id: string,
  method: string,
  practice: string | null,
  host: string | undefined,
  path: string,
  status: number,
  cache: string,
  ms: number,
  sent: number,
  aborted: boolean,
  now: number,
  out: LineBuffer,
  at: number,
): number {
  const bytes = out.bytes;
  at = putOpenAndTime(out, at, now);
  at = putFragment(out, at, AFTER_TIME);
  at = putJsonString(bytes, at, cut(id, MAX_TOKEN));
  at = putFragment(out, at, METHOD);
  at = putJsonString(bytes, at, cut(method, MAX_TOKEN));
  at = putFragment(out, at, PRACTICE);
  at = practice === null ? putFragment(out, at, NULL) : putJsonString(bytes, at, cut(practice, MAX_TOKEN));
  if (host !== undefined) {
    at = putFragment(out, at, HOST);
    at = putJsonString(bytes, at, cut(host, MAX_HOST));
  }
  at = putFragment(out, at, PATH);
  at = putJsonString(bytes, at, pathOnly(path));
  at = putFragment(out, at, STATUS);
  at = putNumber(bytes, at, status);
  at = putFragment(out, at, CACHE);
  at = putJsonString(bytes, at, cut(cache, MAX_TOKEN));
  at = putFragment(out, at, MS);
  at = putHundredths(bytes, at, ms);
  at = putFragment(out, at, BYTES);
  at = putNumber(bytes, at, sent);
  if (aborted) at = putFragment(out, at, ABORTED);
  return putFragment(out, at, CLOSE);
}

/** A line's room for formatAccessLine and the helpers below (tests, tools): one encoder, one format. */
const scratch = lineBuffer(MAX_LINE_BYTES);

/** The access line of one request as text, newline included. */
export function formatAccessLine(r: AccessRecord, now = Date.now()): string {
  return scratch.bytes.toString("utf8", 0, encodeAccessLine(r, now, scratch, 0));
}

/** The line's duration field for `ms`. */
export function hundredths(ms: number): string {
  return scratch.bytes.toString("latin1", 0, putHundredths(scratch.bytes, 0, ms));
}

/** The line's time field for `now`: Date's toISOString. */
export function isoTime(now: number): string {
  return `${scratch.bytes.toString("latin1", OPEN.length, putOpenAndTime(scratch, 0, now))}Z`;
}

/**
 * Where batches of lines go: the log's destination (monitoring/log.ts). A sink that writes the chunk before write()
 * returns (stdout, written synchronously) is handed the buffer itself; one that keeps it to write later (a stream:
 * pino-pretty's) is handed a copy, since the buffer is reused by the next lines.
 */
export interface LineSink {
  write(chunk: Buffer): unknown;
  readonly keepsChunk: boolean;
}

export interface AccessLogLimits {
  /** Encoded and handed to the sink once this many lines wait. */
  lines: number;
  /** Handed to the sink once this many bytes are encoded. */
  bytes: number;
  /** Encoded and handed to the sink at the latest this long after the first waiting line. */
  delayMs: number;
}

/**
 * nginx's `buffer=64k flush=1s`; 256 lines are about 60 KiB of a cache HIT's lines (about 230 bytes each), and
 * what they keep waiting is bounded: each field is cut to its line's bound when it is kept (write).
 */
export const ACCESS_LOG_LIMITS: AccessLogLimits = { lines: 256, bytes: 64 * 1024, delayMs: 1000 };

/**
 * A string of its own with `text`'s UTF-16 units (lone surrogates too): V8 makes a slice of a long string a view into it,
 * which keeps the whole string alive (an outside review measured 6 MiB kept by 255 waiting lines of 16 KiB URLs). Only
 * for a field longer than its bound, which a visitor rarely sends.
 */
const ownCopy = (text: string): string => Buffer.from(text, "utf16le").toString("utf16le");

/** A waiting line's text fields in AccessLog's columns: id, method, practice, host, path, cache. */
const TEXTS = 6;
/** A waiting line's numbers: time, ms, bytes, status, aborted (1 or 0). */
const FIGURES = 5;

/** The access lines of this process, batched (see the top of this file); flush() before the process ends. */
export class AccessLog {
  private readonly line: LineBuffer;
  private used = 0;
  /** The waiting lines' fields, in columns made once (no object per request). */
  private readonly texts: (string | null | undefined)[];
  private readonly figures: Float64Array;
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly flushLater = () => {
    this.timer = null;
    this.flush();
  };

  constructor(
    private readonly sink: LineSink,
    private readonly limits: AccessLogLimits = ACCESS_LOG_LIMITS,
  ) {
    // Room for the limit and the longest line: a line is encoded only while less than the limit waits (encodeWaiting).
    this.line = lineBuffer(limits.bytes + MAX_LINE_BYTES);
    this.texts = new Array<string | null | undefined>(limits.lines * TEXTS).fill(undefined);
    this.figures = new Float64Array(limits.lines * FIGURES);
  }

  /** Keeps the request's line to be encoded with its batch. */
  write(r: AccessRecord): void {
    const t = this.waiting * TEXTS;
    const f = this.waiting * FIGURES;
    const texts = this.texts;
    texts[t] = r.id;
    texts[t + 1] = r.method;
    texts[t + 2] = r.practice;
    // A visitor's host and path are cut where the line cuts them (the same line), so that what waits is bounded; as a
    // copy (ownCopy), since V8's slice of a long string keeps the whole string, query string included.
    texts[t + 3] = r.host !== undefined && r.host.length > MAX_HOST ? ownCopy(r.host.slice(0, MAX_HOST)) : r.host;
    texts[t + 4] = r.path.length > MAX_PATH + 1 ? ownCopy(r.path.slice(0, MAX_PATH + 1)) : r.path;
    texts[t + 5] = r.cache;
    const figures = this.figures;
    figures[f] = Date.now();
    figures[f + 1] = r.ms;
    figures[f + 2] = r.bytes;
    figures[f + 3] = r.status;
    figures[f + 4] = r.aborted ? 1 : 0;
    if (++this.waiting >= this.limits.lines) this.flush();
    else if (this.timer === null) {
      // Unreferenced: a waiting line never keeps the process alive; the exit handler (log.ts) writes it.
      this.timer = setTimeout(this.flushLater, this.limits.delayMs);
      this.timer.unref();
    }
  }

  /** Encodes every waiting line, in order, into the buffer, handing it over whenever the limit's bytes are encoded. */
  private encodeWaiting(): void {
    const { texts, figures, line } = this;
    for (let i = 0; i < this.waiting; i++) {
      const t = i * TEXTS;
      const f = i * FIGURES;
      this.used = encodeFields(
        texts[t] as string,
        texts[t + 1] as string,
        texts[t + 2] as string | null,
        texts[t + 3] as string | undefined,
        texts[t + 4] as string,
        figures[f + 3],
        texts[t + 5] as string,
        figures[f + 1],
        figures[f + 2],
        figures[f + 4] === 1,
        figures[f],
        line,
        this.used,
      );
      if (this.used >= this.limits.bytes) this.handOver();
    }
  }

  /**
   * Encodes what waits and hands it to the sink: the buffer's bytes themselves to a sink that writes them before it
   * returns (no copy of 64 KiB per batch: issue 28 measured it), a copy to one that keeps them (a quiet second's 200
   * bytes then hold 200 bytes, not the whole buffer).
   */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    try {
      this.encodeWaiting();
    } finally {
      // The strings are let go (a quiet server does not keep a visitor's path until the next batch), a sink's throw
      // or not: one that threw loses the batch, as it lost the buffer before.
      this.texts.fill(undefined, 0, this.waiting * TEXTS);
      this.waiting = 0;
      this.handOver();
    }
  }

  private handOver(): void {
    if (this.used === 0) return;
    const waiting = this.line.bytes.subarray(0, this.used);
    try {
      this.sink.write(this.sink.keepsChunk ? Buffer.from(waiting) : waiting);
    } finally {
      this.used = 0;
    }
  }
}
