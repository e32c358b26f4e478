/**
 * GET /api/media?path=/media/...&w=...: the live media proxy. Fetches only validated media paths from
 * the origin of BACKEND_API_URL (request.ts), streams the answer with its type and length, passes a 404
 * through, times out (BACKEND_TIMEOUT_MS: 504), and lets browsers keep the result for a week. With `w`,
 * raster images are resized (resize.ts); an SVG is served as it is, since it scales by itself.
 */
import type { RequestEvent } from "@builder.io/qwik-city";
import { fetchMedia, isBackendError } from "../backend";
import { reportError } from "../monitoring";
import { withBackend } from "../load";
import { parseMediaRequest, RASTER_TYPES } from "./request";
import { SVG_SANDBOX_POLICY } from "./static-files";
import { createResizeCache, MediaNotFound, RESIZE_MAX_SOURCE_BYTES } from "./resize";

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

const resized = createResizeCache(async (path) => {
  const response = await fetchMedia(path);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new BadGateway(`media: backend answered ${response.status} for ${path}`);
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
});

function setHeaders(ev: RequestEvent, type: string, length: string | null) {
  ev.headers.set("Content-Type", type);
  if (length) ev.headers.set("Content-Length", length);
  ev.headers.set("Cache-Control", MEDIA_CACHE_CONTROL);
  if (type === "image/svg+xml") ev.headers.set("Content-Security-Policy", SVG_SANDBOX_POLICY);
}

export async function handleMedia(ev: RequestEvent): Promise<void> {
  // Only an active practice's hosts proxy media: an unknown preview code or an inactive practice is a 404
  // (the backend's answer for its configuration, read through the read cache).
  await withBackend(ev, (backend, ctx) => backend.config(ctx, ctx.code));
  const parsed = parseMediaRequest(ev.url.searchParams);
  if (!parsed.ok) {
    ev.headers.set("Cache-Control", "no-store");
    ev.json(400, { error: parsed.error });
    return;
  }
  try {
    if (parsed.width && RASTER_TYPES.has(parsed.type)) {
      const { image, hit } = await resized.get(parsed.path, parsed.width);
      if (image.type !== parsed.type) throw new BadGateway(`media: backend sent ${image.type} for a ${parsed.type} path`);
      setHeaders(ev, image.type, String(image.body.byteLength));
      ev.headers.set("X-Media-Cache", hit ? "HIT" : "MISS");
      ev.send(200, image.body);
      return;
    }
    const response = await fetchMedia(parsed.path, ev.method === "HEAD" ? "HEAD" : "GET");
    if (response.status === 404) {
      await response.body?.cancel();
      throw new MediaNotFound(parsed.path);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new BadGateway(`media: backend answered ${response.status} for ${parsed.path}`);
    }
    let type: string;
    try {
      type = checkedType(response, parsed.type);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
    setHeaders(ev, type, response.headers.get("content-length"));
    for (const name of ["etag", "last-modified"]) {
      const value = response.headers.get(name);
      if (value) ev.headers.set(name, value);
    }
    ev.send(new Response(response.body, { status: 200 }));
  } catch (error) {
    if (error instanceof MediaNotFound) {
      ev.headers.set("Cache-Control", NOT_FOUND_CACHE_CONTROL);
      ev.json(404, { error: "media not found" });
      return;
    }
    const timedOut = isBackendError(error) && error.failure === "timeout";
    reportError(error, { path: parsed.path, endpoint: "media" });
    ev.headers.set("Cache-Control", "no-store");
    ev.json(timedOut ? 504 : 502, { error: timedOut ? "media backend timed out" : "media backend failed" });
  }
}
