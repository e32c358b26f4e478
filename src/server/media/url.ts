/**
 * Backend media URLs, parsed once. A payload names a media file by a URL on the backend's public origin,
 * which may differ from its internal one: only the file's path under /media/ is kept, and every media
 * read (the proxy, the build-time download) goes to the origin of BACKEND_API_URL. A visitor never hands
 * the proxy a URL, so it cannot be pointed at another host.
 */

/** The /media/ path of a media URL, or null when it is not one (another path, traversal, not a URL). */
export function mediaPathOf(url: string | null | undefined): string | null {
  if (!url) return null;
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

/** `/api/media?path=/media/...` for a backend media URL; null when the URL is not a backend media file. */
export function mediaProxyUrl(mediaUrl: string | null | undefined): string | null {
  const path = mediaPathOf(mediaUrl);
  return path ? `/api/media?path=${encodeURIComponent(path)}` : null;
}
