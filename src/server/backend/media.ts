/**
 * One GET of a media file on the backend's origin, for the media proxy (src/server/media/). The path has
 * been validated by the proxy; redirects are not followed, so the backend cannot send us elsewhere.
 */
import { request, type HttpOptions } from "./http";

/** `http.baseUrl` is the backend's origin (media live under /media/ of it, not under the API base). */
export async function getMedia(http: HttpOptions, path: string, method: "GET" | "HEAD" = "GET"): Promise<Response> {
  return request(http, path, { method, headers: { accept: "image/*" } });
}
