/**
 * What the practice's route loaders do, so the route files stay thin: the layout's site chrome (and
 * the theme on <html>), and the page's view, redirect or 404 with its head.
 */
import type { RequestEventLoader } from "@builder.io/qwik-city";
import { getEnv } from "./env";
import { setHtmlAttributes } from "./html-attributes";
import { withBackend } from "./load";
import { resolvePage, type PageView } from "./page-view";
import { buildPageHead, type PageHead } from "./seo/head";
import { readSiteShell, sharedSiteShell, siteChrome, type SiteChrome, type SiteShell } from "./site";
import { INTERNAL_PREFIX } from "./tenancy";
import { themeStyle, validTheme } from "./theme";
import { getRenderContext } from "./render-context";

function shell(ev: RequestEventLoader): Promise<SiteShell> {
  return withBackend(ev, (backend, ctx) => sharedSiteShell(ev, () => readSiteShell(backend, ctx)));
}

/** The layout's data; a backend 404 (unknown or inactive practice) is this request's 404. */
export async function loadSite(ev: RequestEventLoader): Promise<SiteChrome> {
  const site = await shell(ev);
  setHtmlAttributes(ev, { style: themeStyle(validTheme(site.config.theme, site.config.code)) });
  return siteChrome(site);
}

/** The public path of this request (the loader sees the internal /_sites/<code>/... one). */
export function publicPath(internalPathname: string, code: string): string {
  const prefix = `${INTERNAL_PREFIX}/${code}`;
  const rest = internalPathname.startsWith(prefix) ? internalPathname.slice(prefix.length) : internalPathname;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

export interface PageData {
  /** Null: this practice's 404 page. */
  view: PageView | null;
  head: PageHead;
}

export async function loadPage(ev: RequestEventLoader): Promise<PageData> {
  const site = await shell(ev);
  const path = publicPath(ev.url.pathname, getRenderContext(ev).code);
  const resolution = await withBackend(ev, (backend, ctx) => resolvePage(backend, ctx, site, path));
  if (resolution.type === "redirect") throw ev.redirect(301, resolution.to);
  if (resolution.type === "not_found") ev.status(404);
  const view = resolution.type === "view" ? resolution.view : null;
  const head = buildPageHead({
    env: getEnv(),
    config: site.config,
    practice: site.practice,
    view,
    requestOrigin: ev.url.origin,
  });
  return { view, head };
}
