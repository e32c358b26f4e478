/**
 * Downloading a media file of the content backend (the build pre-pass's logo and favicon). Media live
 * under /media/ of the backend's origin; a payload's URL may name a public origin that differs from the
 * API's (the contract), so only its path is kept and fetched from the origin of the API base URL.
 */
import { BackendError } from "./errors";
import { request } from "./http";

/** Logos and favicons are small; anything larger is refused rather than written to disk. */
const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** The /media/ path of a media URL, or null when it is not one (another path, traversal, not a URL). */
export function mediaPathOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (!parsed.pathname.startsWith("/media/") || decoded.includes("..") || decoded.includes("\\")) return null;
  return parsed.pathname;
}

export async function downloadMedia(apiBaseUrl: string, mediaUrl: string, timeoutMs: number): Promise<Buffer> {
  const path = mediaPathOf(mediaUrl);
  if (!path) throw new BackendError("invalid_payload", mediaUrl, "not a media URL under /media/");
  const response = await request({ baseUrl: new URL(apiBaseUrl).origin, timeoutMs }, path, { method: "GET" });
  if (response.status === 404) {
    await response.body?.cancel();
    throw new BackendError("not_found", path, "404", 404);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new BackendError("bad_status", path, `HTTP ${response.status}`, response.status);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_MEDIA_BYTES)
    throw new BackendError("invalid_payload", path, `larger than ${MAX_MEDIA_BYTES} bytes`);
  return bytes;
}
