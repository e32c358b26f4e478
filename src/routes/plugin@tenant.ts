/**
 * Runs first for every request Qwik City handles, in production (behind Express) and on the vite dev
 * server alike: decides the practice from the Host and rewrites to /_sites/<code>/<path>, keeping the
 * public URL everywhere (address bar, canonical links, useLocation(), redirects, <Link>, actions).
 */
import type { RequestHandler } from "@builder.io/qwik-city";
import { findRenderContext, setRenderContext, type RenderPlatform } from "~/server/render-context";
import { internalPath, isInternalPath, practiceForHost } from "~/server/tenancy";

export const onRequest: RequestHandler = async (ev) => {
  // The rewrite below re-runs the plugins on the internal path: the context is already set then.
  if (findRenderContext(ev)) return;
  const { pathname } = ev.url;
  if (isInternalPath(pathname)) throw ev.error(404, "Not Found");
  // Behind Express the practice was already resolved (and the unknown host refused) with the same
  // function; on the dev server we resolve it here.
  const fromExpress = (ev.platform as RenderPlatform | undefined)?.render;
  const code = fromExpress?.code ?? practiceForHost(ev.request.headers.get("host"));
  if (!code) throw ev.error(404, "Not Found");
  setRenderContext(ev, fromExpress ?? { code, tags: new Set() });
  throw ev.rewrite(internalPath(code, pathname));
};
