/**
 * Runs first for every request Qwik City handles, in production (behind Express) and on the vite dev
 * server alike: decides the practice from the Host, puts the request context (practice, tag set,
 * services) on the request, and rewrites to /_sites/<code>/<path>, keeping the public URL everywhere
 * (address bar, canonical links, useLocation(), redirects, <Link>, actions).
 */
import type { RequestEvent, RequestHandler } from "@builder.io/qwik-city";
import { ServerError } from "@builder.io/qwik-city/middleware/request-handler";
import { findRequestContext, setRequestContext, type RenderPlatform } from "~/server/render/context";
import { devServices } from "~/server/dev-services";
import { internalPath, isInternalPath, resolveHost } from "~/server/tenancy";

export const onRequest: RequestHandler = async (ev) => {
  // The rewrite below re-runs the plugins on the internal path: the context is already set then.
  if (findRequestContext(ev)) return ownErrorPages(ev);
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

/**
 * An error thrown on the way (`ev.error`: an inactive or unknown practice's 404 from the backend, a 503 when the
 * backend fails) was answered with Qwik City's generic English page ("404 Not Found" in Qwik's colours). It is
 * the product's own here: French, neutral (no practice's name or theme: the practice is unavailable, or its data
 * is), the same status. Data requests (Accept without text/html) keep Qwik's serialised answer.
 */
async function ownErrorPages(ev: RequestEvent): Promise<void> {
  try {
    await ev.next();
  } catch (error) {
    const accept = ev.request.headers.get("accept");
    if (!(error instanceof ServerError) || ev.headersSent || (accept && !accept.includes("text/html"))) throw error;
    ev.html(error.status, errorPage(error.status));
  }
}

const ERROR_TEXTS: Record<number, [string, string]> = {
  404: ["Page introuvable", "Cette adresse ne correspond à aucune page de ce site."],
  503: ["Service temporairement indisponible", "Merci de réessayer dans quelques instants."],
};

function errorPage(status: number): string {
  const [title, text] = ERROR_TEXTS[status] ?? ERROR_TEXTS[503];
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}
