/**
 * GET /robots.txt and GET /sitemap.xml as Qwik City endpoints. The backend reads record the practice's
 * cache tags (site:<code>), so the page cache stores both answers with them.
 */
import type { RequestEvent } from "@builder.io/qwik-city";
import { getEnv } from "./env";
import { isIndexable } from "./indexing";
import { withBackend } from "./load";
import { robotsTxt, siteOrigin, sitemapEntries, sitemapXml, ROBOTS_DISALLOW_ALL } from "./site-files";

const MAX_AGE = "public, max-age=3600";

export async function handleRobots(ev: RequestEvent): Promise<void> {
  ev.headers.set("Cache-Control", MAX_AGE);
  if (!isIndexable(getEnv())) {
    ev.text(200, ROBOTS_DISALLOW_ALL);
    return;
  }
  const config = await withBackend(ev, (backend, ctx) => backend.config(ctx, ctx.code));
  ev.text(200, robotsTxt(true, siteOrigin(config, ev.url.origin)));
}

export async function handleSitemap(ev: RequestEvent): Promise<void> {
  const { config, pages, team, jobs } = await withBackend(ev, async (backend, ctx) => {
    const [config, pages] = await Promise.all([backend.config(ctx, ctx.code), backend.pageListing(ctx, ctx.code)]);
    const hasTeam = pages.pages.some((p) => p.kind === "team");
    const hasJobs = pages.pages.some((p) => p.kind === "jobs");
    const [team, jobs] = await Promise.all([
      hasTeam ? backend.team(ctx, ctx.code) : { members: [] },
      hasJobs ? backend.jobs(ctx, ctx.code) : { jobs: [] },
    ]);
    return { config, pages: pages.pages, team: team.members, jobs: jobs.jobs };
  });
  const body = sitemapXml(sitemapEntries(siteOrigin(config, ev.url.origin), pages, team, jobs));
  ev.headers.set("Content-Type", "application/xml; charset=utf-8");
  ev.headers.set("Cache-Control", MAX_AGE);
  ev.send(200, body);
}
