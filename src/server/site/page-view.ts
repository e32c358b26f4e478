/**
 * A public path -> what to answer: a page view, a 301 to the backend's path, or this practice's 404.
 * Pages come from the backend's page list; member pages live under the team page's path and job pages
 * under the jobs page's path. The team and jobs lists are read only when the path needs them.
 */
import type { BackendClient, Job, Page, PageSummary, TeamMember } from "../backend";
import type { RenderContext } from "../render/context";
import type { SiteShell } from "./shell";
import {
  memberCard,
  needsTeam,
  parseBlocks,
  resolveBlocks,
  serviceLinks,
  teamPageOf,
  type Block,
  type MemberCard,
  type Picture,
  type ServiceLink,
} from "./blocks";
import { safeHref, sanitizeRichText } from "./sanitize";

export interface Crumb {
  name: string;
  path: string;
}

export interface JobCard {
  slug: string;
  title: string;
  contract: string;
  location: string;
  href: string;
}

export interface PageInfo {
  slug: string;
  title: string;
  kind: Page["kind"];
  level: number;
  path: string;
  seoTitle: string | null;
  description: string | null;
}

export type PageView =
  | {
      type: "page";
      page: PageInfo;
      blocks: Block[];
      /** Services a `need` page names that no services block of the page already links to. */
      relatedServices: ServiceLink[];
      /** On a service hub: its detail pages that no block of the page already links to. */
      detailPages: ServiceLink[];
      /** On the jobs page: the open positions. */
      jobs: JobCard[] | null;
      breadcrumbs: Crumb[];
    }
  | {
      type: "member";
      page: PageInfo;
      member: MemberCard & { bio: string; skills: string[]; bookingUrl: string | null; photo: Picture | null };
      breadcrumbs: Crumb[];
    }
  | {
      type: "job";
      page: PageInfo;
      job: JobCard & { descriptionHtml: string; publishedAt: string };
      breadcrumbs: Crumb[];
    };

export type PageResolution = { type: "view"; view: PageView } | { type: "redirect"; to: string } | { type: "not_found" };

/** How a public path relates to the page list, before any further read. */
export type PathMatch =
  | { type: "page"; summary: PageSummary }
  | { type: "child"; parent: PageSummary; slug: string }
  | { type: "unknown"; slug: string | null };

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

export function matchPath(path: string, pages: PageSummary[]): PathMatch {
  const summary = pages.find((p) => p.path === path);
  if (summary) return { type: "page", summary };
  const parts = segments(path);
  const last = parts.length ? safeDecode(parts[parts.length - 1]) : null;
  if (parts.length >= 2 && last) {
    const parentPath = `/${parts.slice(0, -1).join("/")}/`;
    const parent = pages.find((p) => p.path === parentPath && (p.kind === "team" || p.kind === "jobs"));
    if (parent) return { type: "child", parent, slug: last };
  }
  return { type: "unknown", slug: last };
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

const childPath = (parent: PageSummary, slug: string) => `${parent.path}${encodeURIComponent(slug)}/`;

export function pageInfo(p: PageSummary & { seo?: Page["seo"] }): PageInfo {
  return {
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    level: p.level,
    path: p.path,
    seoTitle: p.seo?.title ?? null,
    description: p.seo?.description ?? null,
  };
}

/** Home > (parent) > page, for level-2 pages; empty for the others. */
export function breadcrumbsFor(page: { title: string; path: string; level: number; parent: string | null }, pages: PageSummary[]): Crumb[] {
  if (page.level < 2) return [];
  const home = pages.find((p) => p.kind === "home");
  const parent = pages.find((p) => p.slug === page.parent);
  return [
    { name: home?.title ?? "Accueil", path: "/" },
    ...(parent ? [{ name: parent.title, path: parent.path }] : []),
    { name: page.title, path: page.path },
  ];
}

function jobCard(job: Job, jobsPage: PageSummary): JobCard {
  return { slug: job.slug, title: job.title, contract: job.contract, location: job.location, href: childPath(jobsPage, job.slug) };
}

export async function resolvePage(
  backend: BackendClient,
  ctx: RenderContext,
  shell: SiteShell,
  path: string,
): Promise<PageResolution> {
  const { pages } = shell;
  const match = matchPath(path, pages);

  if (match.type === "page") {
    const page = await backend.page(ctx, ctx.code, match.summary.slug);
    const parsed = parseBlocks(page.blocks, { code: ctx.code, page: page.slug });
    // The team page lists the team even when the editors gave it no team block.
    if (page.kind === "team" && !needsTeam(parsed)) {
      parsed.push({ type: "team", id: `${page.slug}-team`, value: { heading: "Notre équipe", members: "all" } });
    }
    const [team, jobs] = await Promise.all([
      needsTeam(parsed) ? backend.team(ctx, ctx.code) : null,
      page.kind === "jobs" ? backend.jobs(ctx, ctx.code) : null,
    ]);
    const blocks = resolveBlocks(parsed, { pages, team: team?.members ?? null });
    const linked = new Set(blocks.flatMap((b) => (b.type === "services" ? b.items.map((i) => i.slug) : [])));
    const linkedHrefs = new Set(
      blocks.flatMap((b) => (b.type === "cards" ? b.items.map((i) => i.href) : b.type === "services" ? b.items.map((i) => i.href) : [])),
    );
    return {
      type: "view",
      view: {
        type: "page",
        // The list's path is the one we answered on; the page's own fields carry its SEO.
        page: pageInfo({ ...page, path: match.summary.path }),
        blocks,
        relatedServices: page.kind === "need" ? serviceLinks(page.related_services.filter((s) => !linked.has(s)), pages) : [],
        detailPages:
          page.kind === "service_hub"
            ? pages
                .filter((p) => p.kind === "service_detail" && p.parent === page.slug && !linkedHrefs.has(p.path))
                .map((p) => ({ slug: p.slug, title: p.title, href: p.path }))
            : [],
        jobs: jobs ? jobs.jobs.map((j) => jobCard(j, match.summary)) : null,
        breadcrumbs: breadcrumbsFor({ ...page, path: match.summary.path }, pages),
      },
    };
  }

  if (match.type === "child") {
    const view = await childView(backend, ctx, shell, match.parent, match.slug);
    if (view) return { type: "view", view };
  }

  // A slug that exists under another parent: send the visitor (and crawlers) to the backend's path.
  const slug = match.slug;
  // Only slug-shaped last segments are looked up: a probe for /wp-login.php costs no backend read.
  if (slug && SLUG.test(slug)) {
    const elsewhere = pages.find((p) => p.slug === slug && p.path !== path);
    if (elsewhere) return { type: "redirect", to: elsewhere.path };
    const target = await childPathElsewhere(backend, ctx, pages, slug, path);
    if (target) return { type: "redirect", to: target };
  }
  return { type: "not_found" };
}

async function childView(
  backend: BackendClient,
  ctx: RenderContext,
  shell: SiteShell,
  parent: PageSummary,
  slug: string,
): Promise<PageView | null> {
  const { pages, practice } = shell;
  if (parent.kind === "team") {
    const { members } = await backend.team(ctx, ctx.code);
    const member = members.find((m) => m.slug === slug);
    return member ? memberView(member, parent, pages, practice.booking_url) : null;
  }
  const { jobs } = await backend.jobs(ctx, ctx.code);
  const job = jobs.find((j) => j.slug === slug);
  return job ? jobView(job, parent, pages) : null;
}

function memberView(member: TeamMember, teamPage: PageSummary, pages: PageSummary[], practiceBooking: string | null): PageView {
  const path = childPath(teamPage, member.slug);
  const info: PageInfo = {
    slug: member.slug,
    title: member.name,
    kind: "team",
    level: 2,
    path,
    seoTitle: null,
    description: `${member.name}, ${member.role.toLowerCase()}. ${firstSentence(member.bio)}`.trim(),
  };
  return {
    type: "member",
    page: info,
    member: {
      ...memberCard(member, teamPageOf(pages)),
      bio: member.bio,
      skills: member.skills,
      bookingUrl: safeHref(member.booking_url ?? practiceBooking),
    },
    breadcrumbs: breadcrumbsFor({ title: member.name, path, level: 2, parent: teamPage.slug }, pages),
  };
}

function jobView(job: Job, jobsPage: PageSummary, pages: PageSummary[]): PageView {
  const card = jobCard(job, jobsPage);
  const info: PageInfo = {
    slug: job.slug,
    title: job.title,
    kind: "jobs",
    level: 2,
    path: card.href,
    seoTitle: null,
    description: `${job.title} (${job.contract}, ${job.location}).`,
  };
  return {
    type: "job",
    page: info,
    job: { ...card, descriptionHtml: sanitizeRichText(job.description_html), publishedAt: job.published_at },
    breadcrumbs: breadcrumbsFor({ title: job.title, path: card.href, level: 2, parent: jobsPage.slug }, pages),
  };
}

/** A member or job slug requested outside its parent's path (e.g. /claire-dupont/). */
async function childPathElsewhere(
  backend: BackendClient,
  ctx: RenderContext,
  pages: PageSummary[],
  slug: string,
  path: string,
): Promise<string | null> {
  const teamPage = pages.find((p) => p.kind === "team");
  const jobsPage = pages.find((p) => p.kind === "jobs");
  const [team, jobs] = await Promise.all([
    teamPage ? backend.team(ctx, ctx.code) : null,
    jobsPage ? backend.jobs(ctx, ctx.code) : null,
  ]);
  const candidates = [
    ...(teamPage && team?.members.some((m) => m.slug === slug) ? [childPath(teamPage, slug)] : []),
    ...(jobsPage && jobs?.jobs.some((j) => j.slug === slug) ? [childPath(jobsPage, slug)] : []),
  ];
  return candidates.find((c) => c !== path) ?? null;
}

function firstSentence(text: string): string {
  const match = /^.*?[.!?](\s|$)/.exec(text);
  return (match ? match[0] : text).trim();
}

