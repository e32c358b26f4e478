/**
 * GET /api/media?path=/media/...&w=...: the live media proxy. Fetches only validated media paths from
 * the origin of BACKEND_API_URL (request.ts), streams the answer with its type and length, passes a 404
 * through, times out (BACKEND_TIMEOUT_MS: 504), and lets browsers keep the result for a week. With `w`,
 * raster images are resized (resize.ts); an SVG is served as it is, since it scales by itself.
 */
import { expectOk, isBackendError, type BackendClient, type ReadContext } from "../backend";
import { reportError } from "../monitoring";
import type { HostRules } from "../tenancy";
import { parseMediaRequest } from "./request";
import { RASTER_TYPES } from "./types";
import { SVG_SANDBOX_POLICY } from "./static-files";
import { createResizeCache, MediaNotFound, RESIZE_MAX_SOURCE_BYTES } from "./resize";
import { bodyUpTo, createOriginalCache, ORIGINAL_CACHE_MAX_FILE_BYTES, type CachedMedia } from "./originals";

/** A week, and a day of stale serving: media files are rarely replaced, and never under a hashed name. */
export const MEDIA_CACHE_CONTROL = "public, max-age=604800, stale-while-revalidate=86400";
const NOT_FOUND_CACHE_CONTROL = "public, max-age=60";

class BadGateway extends Error {}

/** The media type of the backend's answer, without parameters. */
function mediaTypeOf(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** The backend's content type, when it is the one the path's extension announces. */
function checkedType(response: Response, expected: string): string {
  const type = mediaTypeOf(response);
  if (type !== expected) throw new BadGateway(`media: backend sent ${type || "no type"} for a ${expected} path`);
  return type;
}

/** Fetches a validated media path from the backend's origin (backend/media.ts). */
export type MediaFetch = (path: string, method: "GET" | "HEAD") => Promise<Response>;

/** The proxy's long-lived parts: the backend fetch, the small files as served and the resized images (built by services.ts). */
export interface MediaProxy {
  fetch: MediaFetch;
  originals: ReturnType<typeof createOriginalCache>;
  resized: ReturnType<typeof createResizeCache>;
}

export function createMediaProxy(fetchMedia: MediaFetch): MediaProxy {
  return { fetch: fetchMedia, originals: createOriginalCache(), resized: createResizeCache((path) => fetchOriginal(fetchMedia, path)) };
}

/** The backend's 2xx answer for a media path; its 404 is MediaNotFound, any other status a BadGateway. */
async function mediaAnswer(fetchMedia: MediaFetch, path: string, method: "GET" | "HEAD"): Promise<Response> {
  try {
    return await expectOk(await fetchMedia(path, method), path);
  } catch (error) {
    if (!isBackendError(error) || error.status === undefined) throw error;
    if (error.isNotFound) throw new MediaNotFound(path);
    throw new BadGateway(`media: backend answered ${error.status} for ${path}`);
  }
}

async function fetchOriginal(fetchMedia: MediaFetch, path: string) {
  let response: Response;
  try {
    response = await mediaAnswer(fetchMedia, path, "GET");
  } catch (error) {
    if (error instanceof MediaNotFound) return null;
    throw error;
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > RESIZE_MAX_SOURCE_BYTES) {
    await response.body?.cancel();
    throw new BadGateway(`media: ${path} is over ${RESIZE_MAX_SOURCE_BYTES} bytes`);
  }
  const type = mediaTypeOf(response);
  const body = Buffer.from(await response.arrayBuffer());
  if (body.byteLength > RESIZE_MAX_SOURCE_BYTES) throw new BadGateway(`media: ${path} is over ${RESIZE_MAX_SOURCE_BYTES} bytes`);
  return { body, type };
}

function setHeaders(headers: Headers, type: string, length: string | null) {
  headers.set("Content-Type", type);
  if (length) headers.set("Content-Length", length);
  headers.set("Cache-Control", MEDIA_CACHE_CONTROL);
  if (type === "image/svg+xml") headers.set("Content-Security-Policy", SVG_SANDBOX_POLICY);
}

function setValidators(headers: Headers, etag: string | null, lastModified: string | null) {
  if (etag) headers.set("ETag", etag);
  if (lastModified) headers.set("Last-Modified", lastModified);
}

/** A small file from the proxy's memory (originals.ts), or just read into it. */
function keptAnswer(file: CachedMedia, result: "HIT" | "MISS"): Response {
  const headers = new Headers();
  setHeaders(headers, file.type, String(file.body.byteLength));
  setValidators(headers, file.etag, file.lastModified);
  headers.set("X-Media-Cache", result);
  return new Response(view(file.body), { status: 200, headers });
}

/** The bytes of a Buffer as a Response body, without a copy. */
const view = (bytes: Buffer) => new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

/** A JSON answer of the proxy (its refusals and failures), with how long a browser may keep it. */
function jsonAnswer(status: number, body: { error: string }, cacheControl: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": cacheControl },
  });
}

/**
 * What the proxy reads of the request context (render/context.ts, handed in by the route): typed by what it
 * uses, so the context's services can name this folder's MediaProxy without a loop between the two.
 */
export interface MediaContext extends ReadContext {
  code: string;
  services: { backend: BackendClient; hostRules: HostRules; media?: MediaProxy };
}

/**
 * The proxy's answer to GET or HEAD /api/media: a plain function of the request's URL and method, so the
 * server calls it directly on its main thread (it moves bytes and renders nothing: no Qwik City there,
 * tenancy/routes.ts) and the vite dev server's route file adapts it (src/routes/_sites/[code]/api/media/).
 */
export async function serveMedia(request: { url: URL; method: string }, ctx: MediaContext): Promise<Response> {
  const { media } = ctx.services;
  // A render worker has no proxy: media requests are never sent to one.
  if (!media) throw new Error("media proxy: not available in this thread");
  // Only an active practice's hosts proxy media: an unknown preview code or an inactive practice is a 404
  // (the backend's answer for its configuration, read through the read cache). Any other failure is left
  // to the media fetch below, which answers it as before (502/504).
  const practice = await ctx.services.backend.config(ctx, ctx.code).catch((error: unknown) => error);
  if (isBackendError(practice) && practice.isNotFound) return jsonAnswer(404, { error: "media not found" }, NOT_FOUND_CACHE_CONTROL);
  const parsed = parseMediaRequest(request.url.searchParams);
  if (!parsed.ok) return jsonAnswer(400, { error: parsed.error }, "no-store");
  if (anotherPracticesPath(parsed.path, ctx.code, ctx.services.hostRules.registry.practices)) {
    // `/media/leroy/...` through dupont's host: a practice's files only on its own hosts (an inactive one's
    // answered 200 this way while its own host said 404), as for /media/ files (static-files.ts).
    return jsonAnswer(404, { error: "media not found" }, NOT_FOUND_CACHE_CONTROL);
  }
  try {
    if (parsed.width && RASTER_TYPES.has(parsed.type)) {
      const { image, hit } = await media.resized.get(parsed.path, parsed.width);
      if (image.type !== parsed.type) throw new BadGateway(`media: backend sent ${image.type} for a ${parsed.type} path`);
      const headers = new Headers();
      setHeaders(headers, image.type, String(image.body.byteLength));
      headers.set("X-Media-Cache", hit ? "HIT" : "MISS");
      return new Response(view(image.body), { status: 200, headers });
    }
    const kept = media.originals.get(parsed.path);
    if (kept) return keptAnswer(kept, "HIT");
    const method = request.method === "HEAD" ? "HEAD" : "GET";
    const response = await mediaAnswer(media.fetch, parsed.path, method);
    let type: string;
    try {
      type = checkedType(response, parsed.type);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
    const etag = response.headers.get("etag");
    const lastModified = response.headers.get("last-modified");
    const body = method === "GET" && response.body ? await bodyUpTo(response.body, ORIGINAL_CACHE_MAX_FILE_BYTES) : response.body;
    if (Buffer.isBuffer(body)) {
      const file: CachedMedia = { body, type, etag, lastModified };
      media.originals.set(parsed.path, file);
      return keptAnswer(file, "MISS");
    }
    const headers = new Headers();
    setHeaders(headers, type, response.headers.get("content-length"));
    setValidators(headers, etag, lastModified);
    return new Response(body, { status: 200, headers });
  } catch (error) {
    if (error instanceof MediaNotFound) return jsonAnswer(404, { error: "media not found" }, NOT_FOUND_CACHE_CONTROL);
    const timedOut = isBackendError(error) && error.failure === "timeout";
    reportError(error, { path: parsed.path, code: ctx.code, endpoint: "media" });
    return jsonAnswer(timedOut ? 504 : 502, { error: timedOut ? "media backend timed out" : "media backend failed" }, "no-store");
  }
}

/**
 * Whether a media path names another registered practice as its first segment (`/media/<code>/...`, the
 * layout of per-practice folders). Paths under a folder that names no practice (`/media/images/...`, the
 * contract's example) are anyone's, as the backend serves them.
 */
export function anotherPracticesPath(path: string, code: string, practices: readonly { code: string }[]): boolean {
  const first = path.split("/")[2];
  return first !== code && practices.some((p) => p.code === first);
}
