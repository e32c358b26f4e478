/**
 * robots.txt and sitemap.xml of a practice, as Qwik City endpoints and as the text they answer. Both
 * follow the one indexing decision (indexing.ts); their absolute URLs are on the canonical origin
 * (seo/canonical.ts): the practice's primary domain (https) where it is indexable, the requested origin
 * elsewhere (a preview host's sitemap lists that host's pages) and for a preview-only practice.
 * The backend reads record the practice's cache tags (site:<code>; the sitemap also the page-list tags),
 * so the page cache stores both answers with them.
 */
import type { RequestEvent } from "@builder.io/qwik-city";
import type { Job, PageSummary, TeamMember } from "../backend";
import { isIndexable } from "./indexing";
import { withBackend } from "./site";
import { requestContext } from "../render/context";
import { siteOrigin } from "./seo/canonical";

/** The robots file of a deployment that must not be indexed: nothing may be crawled. */
export const ROBOTS_DISALLOW_ALL = "User-agent: *\nDisallow: /\n";

export function robotsTxt(indexable: boolean, origin: string): string {
  if (!indexable) return ROBOTS_DISALLOW_ALL;
  // The contact relay is a form target, not a page; everything else, media proxy and social card
  // included (search engines fetch the structured-data logo), may be crawled.
  return `User-agent: *\nAllow: /\nDisallow: /api/contact\n\nSitemap: ${origin}/sitemap.xml\n`;
}

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

const validDate = (value: string | null | undefined) => (value && !Number.isNaN(Date.parse(value)) ? value : null);

/**
 * Every published page (the backend lists only those), every team member's page under the team page's
 * path, and every job's page under the jobs page's path.
 */
export function sitemapEntries(origin: string, pages: PageSummary[], members: TeamMember[], jobs: Job[]): SitemapEntry[] {
  const entries = new Map<string, SitemapEntry>();
  const add = (path: string, lastmod: string | null | undefined) => {
    const loc = new URL(path, `${origin}/`).href;
    if (!entries.has(loc)) entries.set(loc, { loc, lastmod: validDate(lastmod) });
  };
  for (const page of pages) add(page.path, page.updated_at);
  const teamPage = pages.find((p) => p.kind === "team");
  // A member has no date of its own: the team page's is the best known.
  if (teamPage) for (const m of members) add(`${teamPage.path}${encodeURIComponent(m.slug)}/`, teamPage.updated_at);
  const jobsPage = pages.find((p) => p.kind === "jobs");
  if (jobsPage) for (const j of jobs) add(`${jobsPage.path}${encodeURIComponent(j.slug)}/`, j.published_at);
  return [...entries.values()];
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

export function sitemapXml(entries: SitemapEntry[]): string {
  const urls = entries.map(
    (e) => `  <url><loc>${xml(e.loc)}</loc>${e.lastmod ? `<lastmod>${xml(e.lastmod)}</lastmod>` : ""}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

const MAX_AGE = "public, max-age=3600";

export async function handleRobots(ev: RequestEvent): Promise<void> {
  ev.headers.set("Cache-Control", MAX_AGE);
  if (!isIndexable(requestContext(ev).services.env)) {
    ev.text(200, ROBOTS_DISALLOW_ALL);
    return;
  }
  const config = await withBackend(ev, (backend, ctx) => backend.config(ctx, ctx.code));
  ev.text(200, robotsTxt(true, siteOrigin(true, config.domain.primary_domain, ev.url.origin)));
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
  const origin = siteOrigin(isIndexable(requestContext(ev).services.env), config.domain.primary_domain, ev.url.origin);
  const body = sitemapXml(sitemapEntries(origin, pages, team, jobs));
  ev.headers.set("Content-Type", "application/xml; charset=utf-8");
  ev.headers.set("Cache-Control", MAX_AGE);
  ev.send(200, body);
}
