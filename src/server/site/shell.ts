/**
 * A practice's site shell: what every page of it reads (configuration, practice, navigation, page list),
 * read once per render (site.ts shares it between the render's loaders).
 */
import type { BackendClient } from "../backend";
import type { RenderContext } from "../render/context";

export async function readSiteShell(backend: BackendClient, ctx: RenderContext) {
  const [config, practice, nav, pages] = await Promise.all([
    backend.config(ctx, ctx.code),
    backend.practice(ctx, ctx.code),
    backend.nav(ctx, ctx.code),
    backend.pages(ctx, ctx.code),
  ]);
  return { config, practice, nav: nav.items, pages: pages.pages };
}

export type SiteShell = Awaited<ReturnType<typeof readSiteShell>>;
