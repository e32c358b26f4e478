/**
 * Which titles a practice's social card may carry: only those its own pages print in `og:image`
 * (src/server/site/head.ts), so `/api/og?title=<anything>` can neither make us draw attacker text on a
 * practice's card nor fill the page cache with one stored card per invented title. The set is bounded by
 * the practice's content: its site title and name, each page's title (and the home page's SEO title), each
 * team member's name, each job's title, and the title of its 404 page. docs/decisions/0031-og-titles.md.
 */
import type { BackendClient } from "../backend";
import type { RenderContext } from "../render/context";
import { cardTitle } from "../tenancy/routes";

export async function allowedCardTitles(backend: BackendClient, ctx: RenderContext): Promise<Set<string>> {
  const [config, listing] = await Promise.all([backend.config(ctx, ctx.code), backend.pageListing(ctx, ctx.code)]);
  const pages = listing.pages;
  const home = pages.find((p) => p.kind === "home");
  const [team, jobs, homePage] = await Promise.all([
    pages.some((p) => p.kind === "team") ? backend.team(ctx, ctx.code) : { members: [] },
    pages.some((p) => p.kind === "jobs") ? backend.jobs(ctx, ctx.code) : { jobs: [] },
    home ? backend.page(ctx, ctx.code, home.slug) : null,
  ]);
  const titles = [
    config.name,
    config.seo.site_title,
    `Page introuvable | ${config.name}`,
    homePage?.seo?.title,
    ...pages.map((p) => p.title),
    ...team.members.map((m) => m.name),
    ...jobs.jobs.map((j) => j.title),
  ];
  return new Set(titles.filter((t): t is string => typeof t === "string").map(cardTitle).filter(Boolean));
}
