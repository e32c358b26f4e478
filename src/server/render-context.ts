/**
 * The per-request render context: which practice, and the cache tags of everything read while
 * rendering. It lives on the request (Qwik City's sharedMap), never in module state, so two
 * concurrent renders of two practices cannot see each other's tenant or tags.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { ReadContext } from "./backend";

export interface RenderContext extends ReadContext {
  code: string;
}

/**
 * What the Express layer hands to a render through Qwik City's `platform`: the practice it resolved
 * and the tag set it will store with the cached bytes.
 */
export interface RenderPlatform {
  ssr: true;
  render?: RenderContext;
}

const KEY = "practice:render-context";

export function setRenderContext(ev: Pick<RequestEventBase, "sharedMap">, ctx: RenderContext): void {
  ev.sharedMap.set(KEY, ctx);
}

export function findRenderContext(ev: Pick<RequestEventBase, "sharedMap">): RenderContext | undefined {
  return ev.sharedMap.get(KEY) as RenderContext | undefined;
}

export function getRenderContext(ev: Pick<RequestEventBase, "sharedMap">): RenderContext {
  const ctx = findRenderContext(ev);
  if (!ctx) throw new Error("render context missing: plugin@tenant did not run for this request");
  return ctx;
}
