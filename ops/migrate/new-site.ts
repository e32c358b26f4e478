/**
 * The new site's pages as the content backend lists them, with their text for matching, read through
 * the product's own backend client. The backend's API URL comes from --backend, else BACKEND_API_URL
 * (the variable the server reads), e.g. http://127.0.0.1:4000/api/v1/websites.
 */
import { load } from "cheerio";
import { createBackendClient, directReader, type ReadContext } from "../../src/server/backend/client";
import { isBackendError } from "../../src/server/backend/errors";
import type { PageKind } from "../../src/server/backend/schemas";
import { UsageError, type Parsed } from "./args";
import { StepError } from "./files";

export interface NewPage {
  path: string;
  slug: string;
  title: string;
  kind: PageKind;
  /** Title, description and the text of every block. */
  text: string;
  /** Its description (the search engines' summary), where it has one: a need page's lists the ways it weighs. */
  description?: string;
  /** The titles of the items its cards present (an equipment, a technique: "Aéropolissage"), where it has cards. */
  cards?: string[];
  /** A job offer's publication date (ISO 8601). */
  published?: string;
}

export function backendOption(parsed: Parsed): string {
  const raw = parsed.options.backend ?? process.env.BACKEND_API_URL;
  if (!raw) throw new UsageError("the content backend is needed: pass --backend URL or set BACKEND_API_URL (e.g. http://127.0.0.1:4000/api/v1/websites)");
  try {
    return new URL(raw).href.replace(/\/+$/, "");
  } catch {
    throw new UsageError(`--backend must be an absolute URL, got ${JSON.stringify(raw)}`);
  }
}

function client(baseUrl: string) {
  // The toolkit counts nothing: each read's figure is dropped.
  return createBackendClient(directReader({ baseUrl, timeoutMs: 10_000 }, () => {}));
}

async function read<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isBackendError(error)) throw new StepError(`${what}: ${error.message}`);
    throw error;
  }
}

/** The published pages of the practice (their paths as the site serves them). */
export async function newPageList(baseUrl: string, code: string) {
  const ctx: ReadContext = { tags: new Set() };
  return (await read(`page list of ${code}`, () => client(baseUrl).pages(ctx, code))).pages;
}

/**
 * Every URL the new site serves, as its sitemap lists them (src/server/site/files.ts, sitemapEntries):
 * the published pages, each team member's page under the team page and each job's under the jobs page,
 * with their text (four page reads at a time). An old practitioner's page belongs on the member's page.
 */
export async function newPages(baseUrl: string, code: string): Promise<NewPage[]> {
  const backend = client(baseUrl);
  const list = await newPageList(baseUrl, code);
  const teamPage = list.find((p) => p.kind === "team");
  const jobsPage = list.find((p) => p.kind === "jobs");
  const ctx: ReadContext = { tags: new Set() };
  const [team, jobs] = await Promise.all([
    teamPage ? read(`team of ${code}`, () => backend.team(ctx, code)) : { members: [] },
    jobsPage ? read(`jobs of ${code}`, () => backend.jobs(ctx, code)) : { jobs: [] },
  ]);
  const members: NewPage[] = team.members.map((m) => ({
    path: `${teamPage!.path}${encodeURIComponent(m.slug)}/`,
    slug: m.slug,
    title: m.name,
    kind: "team",
    text: [m.name, m.role, m.bio, ...m.skills].join(" "),
  }));
  const offers: NewPage[] = jobs.jobs.map((j) => ({
    path: `${jobsPage!.path}${encodeURIComponent(j.slug)}/`,
    slug: j.slug,
    title: j.title,
    kind: "jobs",
    text: [j.title, j.contract, j.location, ...strings(j.description_html)].join(" "),
    published: j.published_at,
  }));
  const pages = await pageTexts(backend, code, list);
  // The team and jobs pages show their members and offers (rendered from the team and jobs, not from blocks).
  for (const page of pages) {
    if (page.kind === "team") page.text = [page.text, ...members.map((m) => m.text)].join(" ");
    if (page.kind === "jobs") page.text = [page.text, ...offers.map((o) => o.text)].join(" ");
  }
  return [...pages, ...members, ...offers];
}

async function pageTexts(backend: ReturnType<typeof client>, code: string, list: Awaited<ReturnType<typeof newPageList>>): Promise<NewPage[]> {
  const out: NewPage[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < list.length; i = next++) {
      const summary = list[i];
      const ctx: ReadContext = { tags: new Set() };
      const page = await read(`page ${summary.slug} of ${code}`, () => backend.page(ctx, code, summary.slug));
      out[i] = {
        path: summary.path,
        slug: summary.slug,
        title: summary.title,
        kind: summary.kind,
        text: [page.title, page.seo.description ?? "", ...page.blocks.flatMap((b) => strings(b.value))].join(" "),
        description: page.seo.description ?? "",
        cards: page.blocks.flatMap((b) => (b.type === "cards" ? cardTitles(b.value) : [])),
      };
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return out;
}

// Media URLs, paths and types say nothing of a page's subject.
const NOT_TEXT = /^(?:[a-z][a-z0-9+.-]*:|\/)\S*$|^[a-z]+\/[a-z0-9.+-]+$/i;

/** The titles of a cards block's items (the content backend's `cards`: `{ heading, items: [{ title, ... }] }`). */
function cardTitles(value: unknown): string[] {
  const items = (value as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items.flatMap((item) => (typeof (item as { title?: unknown })?.title === "string" ? [(item as { title: string }).title] : [])) : [];
}

/** Every string inside a block's value, HTML reduced to its text (blocks kept apart by a space). */
function strings(value: unknown): string[] {
  if (typeof value === "string") {
    if (NOT_TEXT.test(value.trim())) return [];
    return [value.includes("<") ? load(value.replace(/</g, " <")).text() : value];
  }
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}
