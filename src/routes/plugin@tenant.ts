/**
 * Runs first for every request Qwik City handles, in production (behind Express) and on the vite dev
 * server alike: decides the practice from the Host, puts the request context (practice, tag set,
 * services) on the request, and rewrites to /_sites/<code>/<path>, keeping the public URL everywhere
 * (address bar, canonical links, useLocation(), redirects, <Link>, actions).
 */
import type { RequestHandler } from "@builder.io/qwik-city";
import { findRequestContext, setRequestContext, type RenderPlatform } from "~/server/render/context";
import { devServices } from "~/server/dev-services";
import { internalPath, isInternalPath, resolveHost } from "~/server/tenancy";

export const onRequest: RequestHandler = async (ev) => {
  // The rewrite below re-runs the plugins on the internal path: the context is already set then.
  if (findRequestContext(ev)) return;
  const { pathname } = ev.url;
  if (isInternalPath(pathname)) throw ev.error(404, "Not Found");
  // Behind Express the practice was already resolved (and the unknown host refused) with the same
  // function, and the services come with the render; on the vite dev server both are decided here.
  const platform = ev.platform as RenderPlatform | undefined;
  const services = platform?.services ?? devServices();
  const render = platform?.render;
  const code = render?.code ?? resolveHost(ev.request.headers.get("host"), services.hostRules);
  if (!code) throw ev.error(404, "Not Found");
  setRequestContext(ev, { code, tags: render?.tags ?? new Set(), services });
  for (const [key, value] of render?.shared ?? []) ev.sharedMap.set(key, value);
  throw ev.rewrite(internalPath(code, pathname));
};
