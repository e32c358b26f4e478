/**
 * How the cache renders a target (a miss, a refresh, an invalidation re-render, the pre-pass): the one
 * render function, fed a request built from the target alone. Nothing of the visitor's own request
 * (cookies, language, forwarded headers) reaches a render whose bytes other visitors will get, and a
 * background refresh renders exactly what a visitor's miss would have.
 */
import type { RenderRequest } from "../render/render";
import type { RenderResult } from "./entry";
import type { CacheTarget } from "./key";

const ACCEPT = "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8";

export function targetRenderer(renderRequest: RenderRequest) {
  return async (target: CacheTarget): Promise<RenderResult> => {
    const tags = new Set<string>();
    const request = new Request(`${target.origin}${target.url}`, { headers: { accept: ACCEPT } });
    const response = await renderRequest(request, { code: target.code, tags });
    // Reading the whole body also waits for every loader, so the tag set is complete.
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body, tags: [...tags] };
  };
}
