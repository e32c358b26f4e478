/**
 * How the cache renders a target (a miss, a refresh, an invalidation re-render, the pre-pass): the one
 * render function, fed a request built from the target alone. Nothing of the visitor's own request
 * (cookies, language, forwarded headers) reaches a render whose bytes other visitors will get, and a
 * background refresh renders exactly what a visitor's miss would have.
 */
import type { RenderRequest } from "../render/render";
import type { RenderResult } from "../cache/entry";
import type { CacheTarget } from "../cache/key";
import { isNotFoundRender } from "../cache/not-found";
import type { PathLookups } from "../site/path-index";
import type { SharedValues } from "../render/context";

/** The cache's render of a target, and of a target with values on its request (render/context.ts SharedValues). */
export type TargetRender = (target: CacheTarget, shared?: SharedValues) => Promise<RenderResult>;

const ACCEPT = "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8";

export function targetRenderer(renderRequest: RenderRequest): TargetRender {
  return async (target, shared) => {
    const tags = new Set<string>();
    const request = new Request(`${target.origin}${target.url}`, { headers: { accept: ACCEPT } });
    const response = await renderRequest(request, { code: target.code, tags, shared });
    // Reading the whole body also waits for every loader, so the tag set is complete.
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body, tags: [...tags] };
  };
}

/**
 * The cache's render of a target, wherever it runs (a render worker, or the main thread without a pool):
 * with `checkUnknown`, a path that is no page of the practice answers `unknownPage` without a render
 * (the cache then answers the practice's one 404 page); the 404 page's own render carries the practice's
 * path index and depends on what it read (cache/not-found.ts).
 */
export async function renderChecked(
  target: CacheTarget,
  checkUnknown: boolean,
  render: (target: CacheTarget) => Promise<RenderResult>,
  paths: PathLookups,
): Promise<RenderResult> {
  const unknownTags = checkUnknown ? await paths.unknownPage(target) : null;
  if (unknownTags) return { status: 404, headers: new Headers(), body: Buffer.alloc(0), tags: unknownTags, unknownPage: true };
  const indexed = isNotFoundRender(target) ? await paths.pathIndex(target.code) : null;
  const result = await render(target);
  return indexed ? { ...result, tags: [...result.tags, ...indexed.tags], pathIndex: indexed.index } : result;
}
