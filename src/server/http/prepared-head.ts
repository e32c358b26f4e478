/**
 * A cache HIT's response headers, checked once when they are prepared instead of on every request.
 *
 * Why: `res.writeHead(status, list)` runs Node's two header checks (the name a token, the value without a
 * control character: a regular expression each) over every name and value, on every response. A HIT sends
 * the same list for an entry and an encoding every time, only Age changes; the checks were about 5% of a
 * HIT's instructions (`npm run bench:instructions`, issue 28), the Content-Security-Policy the longest value.
 *
 * How: the list is checked once here with Node's own public checks (http.validateHeaderName and
 * validateHeaderValue) and kept in the shape Node keeps headers set with setHeader (name in lower case ->
 * [name, value]); writeHead() with no list then writes the response's own headers, which Node checked when
 * they were set and does not check again (`_storeHeader`: "headers === this[kOutHeaders]"). That shape sits
 * under a symbol Node does not export, found by its description once; where it is not found, or the response
 * already holds a header, the list goes through writeHead(status, list) as before, so a Node that stores
 * headers otherwise is slower, never wrong (prepared-head.unit.ts compares the bytes on the wire both ways,
 * and fails if the symbol is gone: a Node upgrade that drops it is seen).
 *
 * Node then writes each entry of that shape as `name + ": " + value + "\r\n"`, looks at its name for the headers
 * that change how it frames the response (Content-Length, Connection...: matchHeader) and checks nothing. So a run
 * of headers Node does not look at is kept as one entry, its first name and the rest of its lines as the value: the
 * same bytes, one string added to the head instead of a dozen, one name looked at (a HIT's thirteen headers cost
 * Node's loop about 0.3 µs, `perf` of the server, issue 28). The lines were checked here, one by one, before they
 * were joined. Those Node looks at, and Age, stay entries of their own, in their place. The one thing lost: the
 * names inside a run cannot be read back with getHeader once written (nothing on the hit path reads them). Whether
 * this Node writes a joined run as it is, unchecked, is tried once at start (RUNS_JOINED); where it does not, each
 * header stays an entry of its own.
 *
 * The prepared headers are shared by every response of the entry: Node reads them while writeHead() runs and
 * refuses any change once the head is written (setHeader and removeHeader throw ERR_HTTP_HEADERS_SENT), so the
 * one value that changes, Age, is set just before.
 */
import { IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from "node:http";
import { Socket } from "node:net";

export interface PreparedHead {
  /** The list as writeHead(status, list) takes it (the fallback); its last pair is Age. */
  readonly list: string[];
  /** The same headers in Node's own shape, runs joined (see the top of this file). */
  readonly outgoing: Record<string, [string, string | string[]]>;
  /** Age's pair in `outgoing`: its value is the only one set per response. */
  readonly age: [string, string | string[]];
}

/**
 * Checks `list` (name, value, name, value...; Age last) as writeHead would, once; throws as writeHead would
 * on a bad name or value.
 */
export function prepareHead(list: string[]): PreparedHead {
  if (list.length < 2 || list[list.length - 2] !== "age") throw new Error("a prepared head ends with Age");
  const pairs = new Map<string, [string, string | string[]]>();
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i];
    const value = list[i + 1];
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const key = name.toLowerCase();
    const pair = pairs.get(key);
    // A name twice (two Link headers): Node sends each value on a line of its own, as from the list.
    if (!pair) pairs.set(key, [name, value]);
    else pair[1] = Array.isArray(pair[1]) ? [...pair[1], value] : [pair[1], value];
  }
  // Built at once and its prototype dropped after, not grown key by key on Object.create(null): that object is a
  // dictionary, and Node's `for (key in headers)` over one costs about 300 ns a HIT more than over an object with
  // fast properties (a sorted key list made per loop, a filter per key; `perf` of the server, issue 28).
  const outgoing = Object.setPrototypeOf(Object.fromEntries(RUNS_JOINED ? joinRuns(pairs) : pairs), null) as Record<string, [string, string | string[]]>;
  const age = outgoing.age;
  if (Array.isArray(age[1])) throw new Error("a prepared head has one Age");
  return { list, outgoing, age };
}

/**
 * The headers Node's `_storeHeader` looks at by name (its matchHeader: framing, connection, the ones it would add
 * itself; its processHeader: Content-Disposition, written in Latin-1 once a length is known), and Age, set per
 * response: each stays an entry of its own.
 */
const OWN_ENTRY = new Set(["connection", "transfer-encoding", "content-length", "date", "expect", "trailer", "keep-alive", "content-disposition", "age"]);

/**
 * `pairs` in order, each run of headers not in OWN_ENTRY as one entry: the run's first name, and its first value
 * followed by the run's other lines ("\r\n" + name + ": " + value). Keyed by the run's first name in lower case
 * (unique: a name is one key of `pairs`).
 */
function joinRuns(pairs: Map<string, [string, string | string[]]>): [string, [string, string | string[]]][] {
  const entries: [string, [string, string | string[]]][] = [];
  let run: { key: string; name: string; lines: string[] } | null = null;
  const close = () => {
    if (!run) return;
    // One flat string (a copy, not a rope of the joins): Node adds it to every head.
    const value = Buffer.from(run.lines.join("\r\n").slice(run.name.length + 2), "latin1").toString("latin1");
    entries.push([run.key, [run.name, value]]);
    run = null;
  };
  for (const [key, pair] of pairs) {
    if (OWN_ENTRY.has(key)) {
      close();
      entries.push([key, pair]);
      continue;
    }
    run ??= { key, name: pair[0], lines: [] };
    for (const value of Array.isArray(pair[1]) ? pair[1] : [pair[1]]) run.lines.push(`${pair[0]}: ${value}`);
  }
  close();
  return entries;
}

/**
 * Node's symbol for a response's headers, read from a response made for the purpose (null: this Node keeps them
 * otherwise, and every head goes through the list).
 */
const OUT_HEADERS: symbol | null =
  Object.getOwnPropertySymbols(new ServerResponse(new IncomingMessage(new Socket()))).find((s) => s.description === "kOutHeaders") ?? null;

/**
 * This Node writes a joined run (joinRuns) into the head as it is: tried once on a response made for the purpose. A
 * Node that checked the values of its own headers would refuse the run's line breaks; each header then stays an
 * entry of its own (slower, never wrong).
 */
const RUNS_JOINED: boolean = (() => {
  if (OUT_HEADERS === null) return false;
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  (res as unknown as Record<symbol, unknown>)[OUT_HEADERS] = { "x-a": ["x-a", "1\r\nx-b: 2"], "content-length": ["content-length", "0"] };
  try {
    res.writeHead(200);
  } catch {
    return false;
  }
  const head = (res as unknown as { _header?: unknown })._header;
  return typeof head === "string" && head.includes("\r\nx-a: 1\r\nx-b: 2\r\ncontent-length: 0\r\n");
})();

/** Writes the status line and `head` with Age set to `age` (see the top of this file). */
export function writePreparedHead(res: ServerResponse, status: number, head: PreparedHead, age: string): void {
  const own = res as unknown as Record<symbol, unknown>;
  // null: a response that holds no header yet (Node's own value for it); anything else goes through the list.
  if (OUT_HEADERS !== null && own[OUT_HEADERS] === null) {
    head.age[1] = age;
    own[OUT_HEADERS] = head.outgoing;
    res.writeHead(status);
  } else {
    head.list[head.list.length - 1] = age;
    res.writeHead(status, head.list);
  }
}
