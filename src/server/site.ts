/** The data every page of a practice needs for its layout, read in parallel. */
import type { BackendClient } from "./backend";
import type { RenderContext } from "./render-context";

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
