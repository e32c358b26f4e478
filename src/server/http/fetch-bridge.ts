/**
 * Conversions between Node's request/response and the fetch-style Request/Response the media proxy and the
 * contact relay speak.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { copyHeaders } from "../util/headers";
import { bodyOf } from "./request-body";
import type { Scheme } from "../util/request-scheme";
import { bodySink, endWithBody } from "./respond";

/**
 * A body of a known length up to this is read whole and sent in one call (compressed as the client accepts):
 * the media proxy's answers from its memory (media/originals.ts keeps files up to 512 KiB) and the relay's. One
 * head and one body, as a cache hit's, and no stream piped into the response.
 */
const WHOLE_BODY_MAX_BYTES = 1024 * 1024;

/**
 * Headers a client could use to make the render believe it is another host or origin. The reverse
 * proxy passes Host through unchanged, so these are never needed and never forwarded.
 */
const UNTRUSTED_HEADERS = new Set(["x-forwarded-host", "x-forwarded-server", "forwarded", "x-original-host"]);

/** `scheme`: the request's (util/request-scheme.ts requestScheme: X-Forwarded-Proto only from a trusted proxy). */
export function toFetchRequest(req: IncomingMessage, host: string, scheme: Scheme): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || UNTRUSTED_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const url = `${scheme}://${host}${req.url}`;
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // The body was read on the Node side, within its limits (http/request-body.ts): never a web stream
  // made from the Node request, which crashes the process on Node 20 when it is cancelled.
  return new Request(url, { method: req.method, headers, body: hasBody ? new Uint8Array(bodyOf(req)) : undefined });
}

/**
 * Copies status, headers (every Set-Cookie kept) and the body, compressed as the client accepts (respond.ts): whole
 * when its length is known and small, else streamed.
 */
export async function sendFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (response.body && declared <= WHOLE_BODY_MAX_BYTES) {
    // Read to its end (never cancelled), even when the visitor has gone, and before any of its headers is set: a
    // body that fails midway is then an error answer of ours, never one carrying its Cache-Control and ETag.
    const body = Buffer.from(await response.arrayBuffer());
    if (res.destroyed) return;
    res.statusCode = response.status;
    copyHeaders(res, response.headers);
    await endWithBody(req, res, body);
    return;
  }
  res.statusCode = response.status;
  copyHeaders(res, response.headers);
  if (!response.body) {
    res.end();
    return;
  }
  // HEAD included: Node sends no body for HEAD, and the render's stream must still be read to its end.
  await drainInto(response.body, res, bodySink(req, res));
}

/**
 * Streams the render into the response. When the visitor goes away mid-stream (an aborted prefetch of
 * q-data.json is common), the render's stream is read to its end rather than cancelled: cancelling
 * the TransformStream Qwik City is still writing into crashes the process on Node 20.
 */
async function drainInto(body: ReadableStream<Uint8Array>, res: ServerResponse, sink: NodeJS.WritableStream): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (res.writableEnded || res.destroyed) continue;
    if (!sink.write(value)) await waitForDrain(sink, res);
  }
  if (!res.writableEnded && !res.destroyed) sink.end();
}

/** The sink can take more, or the response is gone (then nothing more is written: the loop above reads on). */
function waitForDrain(sink: NodeJS.WritableStream, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      sink.removeListener("drain", done);
      res.off("close", done);
      resolve();
    };
    sink.on("drain", done);
    res.on("close", done);
  });
}
