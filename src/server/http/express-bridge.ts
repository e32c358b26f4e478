/**
 * Conversions between Express's req/res and the fetch-style Request/Response the renderer speaks.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { copyHeaders } from "../util/headers";
import { bodyOf } from "./request-body";
import { schemeOf } from "../util/request-scheme";

/**
 * Headers a client could use to make the render believe it is another host or origin. The reverse
 * proxy passes Host through unchanged, so these are never needed and never forwarded.
 */
const UNTRUSTED_HEADERS = new Set(["x-forwarded-host", "x-forwarded-server", "forwarded", "x-original-host"]);

export function toFetchRequest(req: ExpressRequest, host: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || UNTRUSTED_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  // req.protocol honours X-Forwarded-Proto only from a trusted proxy ('trust proxy' in app.ts); only
  // http/https are believed, as for the cache key (http/request-scheme.ts).
  const url = `${schemeOf(req.protocol)}://${host}${req.originalUrl}`;
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // The body was read on the Node side, within its limits (http/request-body.ts): never a web stream
  // made from the Node request, which crashes the process on Node 20 when it is cancelled.
  return new Request(url, { method: req.method, headers, body: hasBody ? new Uint8Array(bodyOf(req)) : undefined });
}

/** Copies status, headers (every Set-Cookie kept) and streams the body. */
export async function sendFetchResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  copyHeaders(res, response.headers);
  if (!response.body) {
    res.end();
    return;
  }
  // HEAD included: Node sends no body for HEAD, and the render's stream must still be read to its end.
  await drainInto(response.body, res);
}

/**
 * Streams the render into the response. When the visitor goes away mid-stream (an aborted prefetch of
 * q-data.json is common), the render's stream is read to its end rather than cancelled: cancelling
 * the TransformStream Qwik City is still writing into crashes the process on Node 20.
 */
async function drainInto(body: ReadableStream<Uint8Array>, res: ExpressResponse): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (res.writableEnded || res.destroyed) continue;
    if (!res.write(value)) await waitForDrain(res);
  }
  if (!res.writableEnded && !res.destroyed) res.end();
}

function waitForDrain(res: ExpressResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
