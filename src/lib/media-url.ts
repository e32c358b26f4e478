/**
 * URLs of the media proxy (/api/media), for templates: the header logo, the structured-data logo and
 * responsive images. The proxy takes a media path, never a whole URL (content-backend-api.md, "Media
 * object"): the backend's public origin may differ from the one the server fetches from.
 */

/** The widths the proxy resizes raster images to (`w`); any other value is refused. */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 960, 1280, 1600] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];

/** `/api/media?path=/media/...[&w=...]` for a backend media URL (absolute, as the backend returns it). */
export function mediaProxyUrl(mediaUrl: string, width?: MediaWidth): string {
  const path = new URL(mediaUrl).pathname;
  return `/api/media?path=${encodeURIComponent(path)}${width ? `&w=${width}` : ""}`;
}
