/**
 * The same-origin URL of a backend media file through the frontend's media proxy (/api/media, built in
 * its own issue). The proxy takes the file's path under /media/, never a whole URL: the backend's
 * public origin may differ from its internal one, and a visitor must not be able to point the proxy
 * at another host.
 */
const MEDIA_PREFIX = "/media/";

/** `/api/media?path=/media/...` for a backend media URL; null when the URL is not a backend media file. */
export function mediaProxyUrl(mediaUrl: string | null | undefined): string | null {
  if (!mediaUrl) return null;
  let pathname: string;
  try {
    pathname = new URL(mediaUrl).pathname;
  } catch {
    return null;
  }
  if (!pathname.startsWith(MEDIA_PREFIX) || pathname.split("/").includes("..")) return null;
  return `/api/media?path=${encodeURIComponent(pathname)}`;
}
