/**
 * One GET of the content backend: timeout, status mapping and payload validation. The typed client
 * (client.ts) is built on it; no other code talks to the backend.
 */
import type { z } from "zod";
import { BackendError } from "./errors";
import { readUpTo } from "../util/read-up-to";

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

export async function getJson<T extends z.ZodType>(opts: HttpOptions, endpoint: string, schema: T): Promise<z.output<T>> {
  const response = await expectOk(
    await request(opts, endpoint, { method: "GET", headers: { accept: "application/json" } }),
    endpoint,
  );
  const text = await readBounded(response, endpoint);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BackendError("invalid_payload", endpoint, `body is not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first.path.length ? first.path.join(".") : "(root)";
    throw new BackendError("invalid_payload", endpoint, `field ${field}: ${first.message}`);
  }
  return parsed.data;
}

/**
 * A backend answer is read up to this many bytes, never more: what a render worker (WORKER_HEAP_MB, 64 MB of
 * old generation) can render, with room. Measured on the built server (issue 26), a page whose one rich-text
 * block held 1 MB of text, of `<p>` elements or of links rendered (in 2-5 s); at 1.5 MB each shape killed the
 * worker ("JS heap out of memory"), and at 3.88 MB, under the 4 MB bound of the time, every request for the
 * page killed two. Half a megabyte leaves the worker twice its need; the largest demo payload is under 40 KB
 * and a real page's a few tens of KB (tests/payload-bound.test.ts renders a page at the bound).
 */
export const MAX_PAYLOAD_BYTES = 512 * 1024;

/** The body as text, refused past MAX_PAYLOAD_BYTES (declared or counted) before it is parsed. */
export async function readBounded(response: Response, endpoint: string, max = MAX_PAYLOAD_BYTES): Promise<string> {
  const tooLarge = () => new BackendError("invalid_payload", endpoint, `body over ${max} bytes: refused before parsing`);
  if (Number(response.headers.get("content-length") ?? 0) > max) {
    // A fetch response's own stream (not a Node request's): cancelling it releases the connection.
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const text = await readUpTo(reader, max);
  if (text !== null) return text;
  await reader.cancel();
  throw tooLarge();
}

/**
 * The one mapping of a backend answer's status: a 2xx passes; 404 is the backend's "not found" (our 404);
 * anything else (a 3xx included: redirects are never followed) is a bad status. A refused answer's body
 * is released.
 */
export async function expectOk(response: Response, endpoint: string): Promise<Response> {
  if (response.ok) return response;
  await response.body?.cancel();
  if (response.status === 404) throw new BackendError("not_found", endpoint, "404", 404);
  throw new BackendError("bad_status", endpoint, `HTTP ${response.status}`, response.status);
}

/**
 * A request with the timeout applied; transport failures become BackendErrors. Redirects are never
 * followed: a 301/303 would turn the contact POST into a GET (message lost, visitor told "received") and a
 * 307 would re-post a patient's message wherever Location points. A 3xx is returned as it is, and every
 * caller treats it as a failure (reads: bad_status; contact: 502).
 */
export async function request(opts: HttpOptions, endpoint: string, init: RequestInit): Promise<Response> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  // One deadline for the request, whether it is asked once or twice.
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const ask = () => doFetch(`${opts.baseUrl}${endpoint}`, { ...init, redirect: "manual", signal });
  try {
    try {
      return await ask();
    } catch (error) {
      // A read is asked again, once, when its connection was reset before any answer: a keep-alive socket the
      // backend closed just as it was reused (fetch does not retry; a busy machine made a migration step fail so,
      // ECONNRESET). Only a GET or a HEAD, which change nothing: a contact POST is never sent twice.
      if (!IDEMPOTENT.has((init.method ?? "GET").toUpperCase()) || !RESET.has(causeCode(error) ?? "")) throw error;
      return await ask();
    }
  } catch (error) {
    const err = error as Error;
    if (err.name === "TimeoutError" || err.name === "AbortError") {
      throw new BackendError("timeout", endpoint, `no answer within ${opts.timeoutMs} ms`);
    }
    throw new BackendError("unreachable", endpoint, causeCode(err) ?? err.message);
  }
}

const IDEMPOTENT: ReadonlySet<string> = new Set(["GET", "HEAD"]);
/** A connection closed under a request before its answer (undici names a socket the peer closed UND_ERR_SOCKET). */
const RESET: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/** The system or undici code of a failed fetch (`fetch failed`, its cause `ECONNREFUSED`...). */
function causeCode(error: unknown): string | undefined {
  return (error as { cause?: { code?: string } }).cause?.code;
}
