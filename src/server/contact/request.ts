/**
 * The checks on a contact request that need no field: same origin, content type, size. Each answers
 * before the body is parsed and before anything reaches the backend.
 */
import { normaliseHost } from "../tenancy/host";
import { readUpTo } from "../util/read-up-to";

/**
 * True when the request comes from a page of this host: the Origin header, else the Referer, must name
 * the same host as the request (ports aside). A request with neither is not a browser form post from
 * another site (browsers send Origin with every POST), so it is let through; `Origin: null` (sandboxed
 * or privacy-stripped contexts) is refused.
 */
export function isSameOrigin(headers: Headers, requestHost: string): boolean {
  const own = normaliseHost(requestHost);
  const source = headers.get("origin") ?? headers.get("referer");
  if (source === null) return true;
  let host: string | null;
  try {
    const url = new URL(source);
    host = url.protocol === "http:" || url.protocol === "https:" ? normaliseHost(url.host) : null;
  } catch {
    return false;
  }
  return host !== null && host === own;
}

/**
 * The content types a cross-site HTML form can send (no CORS preflight). Such a post must name its Origin:
 * without one it is refused as cross-site, as Qwik City's CSRF check refused it before the relay was answered
 * in front of Qwik City (docs/decisions/0047-main-thread-renders-nothing.md). JSON needs a preflight, which
 * this server never grants, so a JSON post without Origin (an API client) is no forgery.
 */
export function isFormWithoutOrigin(headers: Headers): boolean {
  const type = headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "text/plain";
  const simple = type === "application/x-www-form-urlencoded" || type === "multipart/form-data" || type === "text/plain";
  return simple && headers.get("origin") === null;
}

export type BodyKind = "json" | "form";

/** The body kinds the relay reads: JSON (the enhanced form) and urlencoded (the same form without JS). */
export function bodyKind(contentType: string | null): BodyKind | null {
  const type = contentType?.split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  return null;
}

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/**
 * Reads the body as UTF-8 text, refusing it as soon as it passes `limit` bytes (a declared
 * Content-Length over the limit is refused without reading at all). A second line behind the Node-side
 * reader (http/request-body.ts), which already holds the whole body in a buffer: a refused body is simply
 * left unread, never cancelled (cancelling a web stream made from a Node request crashes Node 20, and this
 * function must stay safe whatever the bridge hands it).
 */
export async function readBodyWithLimit(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const text = await readUpTo(reader, limit);
  if (text !== null) return text;
  reader.releaseLock();
  throw new BodyTooLarge(limit);
}
