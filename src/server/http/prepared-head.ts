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
 * The prepared headers are shared by every response of the entry: Node reads them while writeHead() runs and
 * refuses any change once the head is written (setHeader and removeHeader throw ERR_HTTP_HEADERS_SENT), so the
 * one value that changes, Age, is set just before.
 */
import { IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from "node:http";
import { Socket } from "node:net";

export interface PreparedHead {
  /** The list as writeHead(status, list) takes it (the fallback); its last pair is Age. */
  readonly list: string[];
  /** The same headers in Node's own shape (see the top of this file). */
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
  const outgoing = Object.setPrototypeOf(Object.fromEntries(pairs), null) as Record<string, [string, string | string[]]>;
  const age = outgoing.age;
  if (Array.isArray(age[1])) throw new Error("a prepared head has one Age");
  return { list, outgoing, age };
}

/**
 * Node's symbol for a response's headers, read from a response made for the purpose (null: this Node keeps them
 * otherwise, and every head goes through the list).
 */
const OUT_HEADERS: symbol | null =
  Object.getOwnPropertySymbols(new ServerResponse(new IncomingMessage(new Socket()))).find((s) => s.description === "kOutHeaders") ?? null;

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
