/**
 * Writing a stored entry to a response: the encoding the client accepts (precompressed, never
 * compressed here), ETag/304, X-Cache and Age. HTTP's side of the page cache, so it lives with the other
 * stages of the request (the page cache in cache/ decides what to answer, never how it is written). Used by
 * the fast path in front of the app and by the app's cache handler alike.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { identityBody, type PageEntry } from "../cache/entry";
import type { CacheStatus } from "../cache/page-cache";
import { prepareHead, writePreparedHead, type PreparedHead } from "./prepared-head";

export type Encoding = "br" | "gzip" | "identity";

/** The best stored encoding the Accept-Encoding header allows. */
export function chooseEncoding(acceptEncoding: string | undefined, hasCompressed: boolean): Encoding {
  if (!hasCompressed || !acceptEncoding) return "identity";
  if (acceptEncoding.indexOf(";") === -1) {
    // The common case (browsers, curl): a plain list, no weights.
    if (hasToken(acceptEncoding, "br")) return "br";
    if (hasToken(acceptEncoding, "gzip")) return "gzip";
    return hasToken(acceptEncoding, "*") ? "br" : "identity";
  }
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const star = weights.get("*") ?? 0;
  const br = weights.get("br") ?? star;
  const gzip = weights.get("gzip") ?? weights.get("x-gzip") ?? star;
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

function hasToken(list: string, token: string): boolean {
  let from = 0;
  for (;;) {
    const at = list.indexOf(token, from);
    if (at === -1) return false;
    const before = at === 0 ? 44 : list.charCodeAt(at - 1);
    const after = at + token.length === list.length ? 44 : list.charCodeAt(at + token.length);
    // Delimited by a comma or a space on both sides.
    if ((before === 44 || before === 32) && (after === 44 || after === 32)) return true;
    from = at + token.length;
  }
}

/** If-None-Match matches the entry: "*", the tag itself, or the tag in a list (weak comparison). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag || ifNoneMatch.trim() === "*") return true;
  const opaque = etag.slice(2); // without W/
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === etag || t === opaque || t === `W/${opaque}`;
  });
}

/**
 * The hit path's heads per entry and encoding, prepared on first use: HTTP's memo beside the entry, not in it
 * (the page cache stores pages; how they are written is decided here), gone with the entry.
 */
const preparedHeads = new WeakMap<PageEntry, Partial<Record<Encoding, PreparedHead>>>();

/**
 * Sends the entry. `stackHeaders`: the fast path replays the headers the app's handlers set on every
 * response; inside the app (null) they are already on the response.
 */
export function writeEntry(
  res: ServerResponse,
  reqHeaders: IncomingHttpHeaders,
  method: string,
  entry: PageEntry,
  status: CacheStatus,
  stackHeaders: readonly string[] | null,
  now = Date.now(),
): void {
  const age = String(Math.max(0, Math.floor((now - entry.renderedAt) / 1000)));
  const compressed = entry.br !== null;
  // A practice's cached 404 page (cache/not-found.ts) keeps its status, and is never a 304.
  const code = entry.status ?? 200;
  if (code === 200 && matchesEtag(reqHeaders["if-none-match"], entry.etag)) {
    const head = withStackHeaders(entry, stackHeaders);
    head.push("etag", entry.etag, "x-cache", status, "age", age);
    if (compressed) head.push("vary", "Accept-Encoding");
    res.writeHead(304, head);
    res.end();
    return;
  }
  const encoding = chooseEncoding(reqHeaders["accept-encoding"], compressed);
  const body = encoding === "br" ? entry.br! : encoding === "gzip" ? entry.gzip! : null;
  if (stackHeaders && status === "HIT") {
    // The hit path: one prepared head per entry and encoding, checked once; only Age changes.
    let heads = preparedHeads.get(entry);
    if (!heads) preparedHeads.set(entry, (heads = {}));
    const head = (heads[encoding] ??= prepareHead(buildHead(entry, encoding, body, "HIT", stackHeaders)));
    writePreparedHead(res, code, head, age);
  } else {
    const head = buildHead(entry, encoding, body, status, stackHeaders);
    head[head.length - 1] = age;
    res.writeHead(code, head);
  }
  if (method === "HEAD") res.end();
  else res.end(body ?? identityBody(entry));
}

function buildHead(
  entry: PageEntry,
  encoding: Encoding,
  body: Buffer | null,
  status: CacheStatus,
  stackHeaders: readonly string[] | null,
): string[] {
  const head = withStackHeaders(entry, stackHeaders);
  head.push("etag", entry.etag, "x-cache", status);
  if (entry.br !== null) head.push("vary", "Accept-Encoding");
  if (body) head.push("content-encoding", encoding, "content-length", String(body.length));
  else head.push("content-length", String(entry.identityLength));
  head.push("age", "0");
  return head;
}

/**
 * The entry's headers after the stack's, a stack header the entry has of its own left out: a page's
 * Content-Security-Policy (its script hashes) replaces the policy of every response, as setHeader does
 * inside the app; two CSP headers would both be enforced.
 */
function withStackHeaders(entry: PageEntry, stackHeaders: readonly string[] | null): string[] {
  if (!stackHeaders) return entry.headers.slice();
  const head: string[] = [];
  for (let i = 0; i < stackHeaders.length; i += 2) {
    if (!hasHeader(entry.headers, stackHeaders[i])) head.push(stackHeaders[i], stackHeaders[i + 1]);
  }
  return head.concat(entry.headers);
}

function hasHeader(flat: readonly string[], name: string): boolean {
  for (let i = 0; i < flat.length; i += 2) if (flat[i] === name) return true;
  return false;
}
