/**
 * Reading a request's target and writing an answer, on Node's own objects (the app's handlers: stack.ts).
 * What Express's `req.path`, `res.status().type().send()`, `res.json()` and `res.redirect()` did for this
 * server, and the compression middleware's one job: a body a client accepts compressed is sent compressed.
 *
 * Compression: a whole body in one call (the page cache's entries are stored compressed already and never
 * pass here); a stream through a zlib stream. Only types worth it (text, JSON, XML, JavaScript, SVG), from
 * 1 KiB, when the client accepts br or gzip and nothing encoded the body already; Vary: Accept-Encoding on
 * every answer that could have been compressed (its type and size), whether or not this client accepts it. A
 * shorter one never is, and says nothing of Accept-Encoding (the middleware said Vary on those too).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliCompress, type Gzip } from "node:zlib";
import { chooseEncoding } from "./serve";
import { BROTLI_QUALITY, GZIP_LEVEL, isCompressible } from "../cache/entry";

/**
 * The path of a request target (Express's `req.path`). Always origin-form here: the request rules took an
 * absolute-form target as its path or refused it before any handler runs (request-rules.ts, originForm).
 */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

export const TEXT = "text/plain; charset=utf-8";

/** A short answer written whole: status, type, length and body (none for HEAD: Node drops it). */
export function sendText(res: ServerResponse, status: number, body: string, type = TEXT, headers?: OutgoingHttpHeaders): void {
  res.statusCode = status;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendText(res, status, JSON.stringify(value), "application/json; charset=utf-8");
}

/**
 * Bytes a Location may not hold as they are, escaped (what Express's res.location did with encodeurl): an
 * existing escape is kept, a `%` that starts none is escaped itself.
 */
const TO_ESCAPE = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]+|%+(?![0-9A-Fa-f]{2})){1,1024}/g;
const SURROGATE = /([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g;

/** A redirect on the same host: `location` is a path this server chose (the map's target, the canonical path). */
export function redirect(res: ServerResponse, status: 301 | 308, location: string): void {
  const encoded = location.replace(SURROGATE, (_, pair?: string) => pair ?? "\uFFFD").replace(TO_ESCAPE, encodeURI);
  res.setHeader("Location", encoded);
  sendText(res, status, `${status === 301 ? "Moved Permanently" : "Permanent Redirect"}. Redirecting to ${encoded}`);
}

/** Below this a compressed body saves less than its headers cost (the compression middleware's threshold). */
export const MIN_COMPRESSED_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * `body` in one encoding, off the event loop (zlib's pool). "fast": the page cache's levels (cache/entry.ts says
 * why), for a body compressed while its visitor waits; "best": the highest, for a file compressed once and sent
 * to every visitor (dist-files.ts).
 */
export function compress(body: Buffer, encoding: "br" | "gzip", level: "fast" | "best"): Promise<Buffer> {
  const best = level === "best";
  if (encoding === "gzip") return gzipAsync(body, { level: best ? constants.Z_BEST_COMPRESSION : GZIP_LEVEL });
  const quality = best ? constants.BROTLI_MAX_QUALITY : BROTLI_QUALITY;
  return brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/** The encoding for this response's body: null when it is not compressed (its type, a set encoding, the client). */
function encodingFor(req: IncomingMessage, res: ServerResponse): "br" | "gzip" | null {
  const type = res.getHeader("content-type");
  if (typeof type !== "string" || !isCompressible(type)) return null;
  // Every answer of a compressible type may differ by Accept-Encoding: caches in between must know.
  res.setHeader("Vary", "Accept-Encoding");
  if (res.hasHeader("content-encoding") || res.getHeader("cache-control")?.toString().includes("no-transform")) return null;
  const encoding = chooseEncoding(req.headers["accept-encoding"], true);
  return encoding === "identity" ? null : encoding;
}

/**
 * Ends the response with `body`, compressed when its type and the client say so (status and headers already
 * set, Content-Type among them). The length is set here.
 */
export async function endWithBody(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const encoding = body.length >= MIN_COMPRESSED_BYTES ? encodingFor(req, res) : null;
  const sent = encoding ? await compress(body, encoding, "fast") : body;
  if (res.destroyed) return;
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", sent.length);
  res.end(req.method === "HEAD" ? undefined : sent);
}

/**
 * Where a streamed body's chunks go: the response itself, or a zlib stream in front of it when its type, its
 * length (when known) and the client say so (status and headers already set). Its length is then unknown:
 * no Content-Length.
 */
export function bodySink(req: IncomingMessage, res: ServerResponse): ServerResponse | BrotliCompress | Gzip {
  const length = res.getHeader("content-length");
  const short = length !== undefined && Number(length) < MIN_COMPRESSED_BYTES;
  const encoding = req.method === "HEAD" || short ? null : encodingFor(req, res);
  if (!encoding) return res;
  res.removeHeader("Content-Length");
  res.setHeader("Content-Encoding", encoding);
  const zip = encoding === "br" ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : createGzip({ level: GZIP_LEVEL });
  zip.pipe(res);
  // The visitor gone: the compressor is dropped with the response, on the Node side.
  res.once("close", () => zip.destroy());
  return zip;
}
