/**
 * The old site's id grammar, learned by asking it (decision 0052, amended 2026-11-28, "ids learned by probing"). A
 * platform the toolkit does not recognise is read as a static site, whose URLs are only themselves; yet many CMSs
 * name a page by a number (`/actualites/55/lucas-moreau`, where `/actualites/55` and `/actualites/55/anything` show
 * the same article; `/?id=55`, `/index.php?id=55`, `/soins/?id=14`). The old site is live during a migration, so
 * after the crawl a few URLs are asked of it, and a rule is kept only where the old site answered the same page:
 *
 * - an id path: for a crawled page (or document) whose path is `/prefix/N/slug` (N a number, the slug holding a
 *   letter), the same URL with its slug removed (`/prefix/N`) and with another slug must answer 200 with the same page,
 *   and `/prefix/<unknown number>/slug` must not; two such pages of a prefix are asked (every one must agree). Then
 *   `/prefix/N[/anything]` is page N's (the map stores `$idPaths`, learned.ts, and the server reduces every such path);
 * - an id query: for a number N some page is known by (an id path's, or a crawled `?id=N` page's), `/?id=N` and
 *   `/index.php?id=N` must answer 200 with that page and `/?id=<unknown number>` must not; then `/<a crawled
 *   section>/?id=N` is asked too (the query on any path). Kept, the ids are read by asking every id the crawl knows
 *   (of the confirmed namespace: one prefix's, or the crawled `?id=N` pages'; ids of two prefixes are not one page's),
 *   then `/?id=1`, `/?id=2`... (a bounded run: to three times the highest known id, at least 50, at most MAX_ID_SWEEP):
 *   every answer that is a crawled page, and that page only, adds `/?id=N` to that
 *   page's own URLs (`own_urls`: the map gives it the page's target, redirect-map.ts). An unknown id stays no key:
 *   the map answers it 404.
 *
 * "The same page": a page's title, headline and text as page.ts reads them, equal and not empty; a document's bytes.
 * At most MAX_PROBES requests per site, every one allowed by robots.txt; nothing is learned of a site that answers
 * every URL with one page (the unknown number's control), nor of a parameter naming a section when a value naming
 * none answers a page (the section probe's control). Five failed requests in a row (timeouts, errors) end the probes.
 */
import { readPage, pathOf } from "./page";
import { isTrackingParam } from "../../src/server/redirects/grammar";
import type { CrawlEntry } from "./files";
import { isReservedPrefix, prefixForm, type LearnedGrammar } from "../../src/server/redirects/learned";

export const LEARNED_FILE = "learned-grammar.json";

/** What the probe asks with: GET of a path on the old site (no redirect followed). */
export type ProbeGet = (path: string) => Promise<{ status: number; text: string; type: string }>;

/** Every request the probes make on one site, at most. */
export const MAX_PROBES = 250;
/** Parameters of the front controller's crawled queries asked about, and values asked per parameter. */
const MAX_PARAMS = 3;
const MAX_VALUES = 10;
/** Prefixes asked about, and pages asked per prefix. */
const MAX_PREFIXES = 6;
const PAGES_PER_PREFIX = 2;
/** The ids asked of the id query, from 1 (and never past a few times the highest id the crawl knows). */
const MAX_ID_SWEEP = 150;
/** Consecutive failed requests (timeouts, errors) after which the old site is taken as down: no more probes. */
const MAX_FAILURES = 5;
/** A value no section of a practice's site is named by (the section probe's soft-404 control). */
const UNKNOWN_SECTION = "zz-no-such-section-987654321";
/** A number no page of a practice's site has. */
const UNKNOWN_ID = 987654321;
/** The query parameters CMSs name a page by its id with (Textpattern's, MODX's, TYPO3's, hand-made scripts'). */
const ID_PARAMS = ["id"] as const;
/** `/prefix/N/slug`: a number, then one last segment with a letter in it. */
const ID_PATH = /^((?:\/[^/]+)+)\/(\d{1,15})\/([^/]*\p{L}[^/]*)\/?$/u;

export interface ProbeResult {
  learned: LearnedGrammar;
  /** Other URLs of crawled pages the old site answered with them (absolute, by the crawled URL). */
  ownUrls: Map<string, string[]>;
  /** Requests made. */
  probes: number;
  /** What was asked and concluded, for the crawl's log. */
  notes: string[];
}

/** A page's identity as the probes compare it: its title, headline and text (empty when it is no page). */
export function fingerprint(text: string, type: string, url: string): string {
  if (!/html/i.test(type)) return text.length ? `document:${type}:${text}` : "";
  const page = readPage(text, url);
  if (!page.title && !page.h1 && !page.headline) return "";
  return `${page.title}\n${page.h1 || page.headline}\n${page.body_text}`;
}

export async function probeIds(entries: CrawlEntry[], get: ProbeGet, allowed: (url: string) => boolean): Promise<ProbeResult> {
  const result: ProbeResult = { learned: { idPaths: [], idQuery: null }, ownUrls: new Map(), probes: 0, notes: [] };
  const pages = entries.filter((e) => e.status === 200 && e.redirects.length === 0 && e.error === "");
  if (!pages.length) return result;
  const origin = new URL(pages[0].url).origin;
  let failures = 0;
  const ask = async (path: string): Promise<string | null> => {
    if (failures >= MAX_FAILURES || result.probes >= MAX_PROBES || !allowed(`${origin}${path}`)) return null;
    result.probes++;
    try {
      const answer = await get(path);
      failures = 0;
      return answer.status === 200 ? fingerprint(answer.text, answer.type, `${origin}${path}`) : "";
    } catch {
      if (++failures === MAX_FAILURES) result.notes.push(`${MAX_FAILURES} requests failed in a row: probing stopped`);
      return null;
    }
  };
  /** A crawled page's own fingerprint, asked anew (a document's body is not kept by the crawl). */
  const own = new Map<string, string>();
  const ownOf = async (e: CrawlEntry): Promise<string> => {
    if (!own.has(e.url)) own.set(e.url, (await ask(pathOf(e.url))) ?? "");
    return own.get(e.url)!;
  };
  /** The ids the crawl knows, apart per namespace (an id path's prefix, `?id` for the front controller's). */
  const known = new Map<string, Map<number, CrawlEntry>>();
  const knowId = (space: string, id: number, e: CrawlEntry) => {
    const ids = known.get(space) ?? new Map<number, CrawlEntry>();
    if (!ids.has(id)) ids.set(id, e);
    known.set(space, ids);
  };

  // Id paths: `/prefix/N/slug`.
  const byPrefix = new Map<string, { e: CrawlEntry; id: string; slug: string }[]>();
  for (const e of pages) {
    const u = new URL(e.url);
    if (u.search) continue;
    const m = ID_PATH.exec(u.pathname);
    if (!m) continue;
    const list = byPrefix.get(m[1]) ?? [];
    list.push({ e, id: m[2], slug: m[3] });
    byPrefix.set(m[1], list);
  }
  for (const [prefix, list] of [...byPrefix].slice(0, MAX_PREFIXES)) {
    let confirmed = true;
    for (const { e, id } of list.slice(0, PAGES_PER_PREFIX)) {
      const page = await ownOf(e);
      const removed = page ? await ask(`${prefix}/${id}`) : null;
      const changed = removed === page ? await ask(`${prefix}/${id}/${"x".repeat(3)}-${id}`) : null;
      if (!page || removed !== page || changed !== page) {
        confirmed = false;
        break;
      }
    }
    const sample = list[0];
    const control = confirmed ? await ask(`${prefix}/${UNKNOWN_ID}/${sample.slug}`) : null;
    if (!confirmed || control === null || control === (await ownOf(sample.e))) {
      result.notes.push(`${prefix}/N/<slug>: not the page's id (the old site answered otherwise)`);
      continue;
    }
    // Stored decoded (`/actualités`, not `/actualit%C3%A9s`): as learned.ts compares a request's path.
    const stored = prefixForm(prefix);
    if (stored === null || isReservedPrefix(stored)) {
      result.notes.push(`${prefix}/N/<slug>: N is the page's id, but the prefix cannot be stored (a route of the new server, or malformed)`);
      continue;
    }
    result.learned.idPaths.push(stored);
    result.notes.push(`${prefix}/N/<slug>: N is the page's id (a slug removed or changed shows the same page)`);
    for (const { e, id } of list) knowId(prefix, Number(id), e);
  }

  // Id queries: a crawled page named by `?id=N` (its form on the front controller) gives a known id too.
  for (const e of pages) {
    const u = new URL(e.url);
    if (!/^\/(?:index\.php)?$/.test(u.pathname)) continue;
    const value = u.searchParams.get("id");
    if (value && /^\d{1,15}$/.test(value) && [...u.searchParams.keys()].length === 1) knowId("?id", Number(value), e);
  }
  // The front controller's parameters the crawl saw (`/index.php?s=infos`), by name, with their values; the
  // sections' names (first segments of crawled pages).
  const frontParams = new Map<string, string[]>();
  for (const e of entries) {
    const u = new URL(e.url);
    if (!/^\/(?:index\.php)?$/.test(u.pathname)) continue;
    for (const [name, value] of u.searchParams) {
      if (!/^[a-z_][a-z0-9_]{0,30}$/i.test(name) || isTrackingParam(name) || (ID_PARAMS as readonly string[]).includes(name.toLowerCase())) continue;
      const values = frontParams.get(name) ?? [];
      if (!values.includes(value) && values.length < MAX_VALUES) values.push(value);
      if (frontParams.has(name) || frontParams.size < MAX_PARAMS) frontParams.set(name, values);
    }
  }
  const sectionPages = new Map<string, CrawlEntry>();
  for (const e of pages) {
    const m = /^\/([^/.?]+)\/?$/.exec(new URL(e.url).pathname);
    if (m && !new URL(e.url).search && !sectionPages.has(m[1])) sectionPages.set(m[1], e);
  }
  const sections = [...sectionPages.keys()].slice(0, MAX_VALUES);
  // A section named by a parameter of the front controller (`/?s=contact` for `/contact/`): asked for each section.
  for (const [name] of frontParams) {
    // The control: a value naming no section must not answer a page (a site answering any value with one page).
    if (sections.length && (await ask(`/?${encodeURIComponent(name)}=${UNKNOWN_SECTION}`)) !== "") {
      result.notes.push(`/?${name}=<section>: not asked (an unknown value answered a page, or nothing)`);
      continue;
    }
    for (const section of sections) {
      const e = sectionPages.get(section)!;
      const print = keptPrint(e);
      if (print && (await ask(`/?${encodeURIComponent(name)}=${encodeURIComponent(section)}`)) === print) {
        result.ownUrls.set(e.url, [...(result.ownUrls.get(e.url) ?? []), `${origin}/?${encodeURIComponent(name)}=${encodeURIComponent(section)}`]);
        result.notes.push(`/?${name}=${section}: the page ${pathOf(e.url)}`);
      }
    }
  }
  // The id query's subject: a known id of one namespace at a time (the front controller's first, then each prefix's:
  // `/file_download/3` is no article 3), the first whose id the query was found to name.
  const spaces = [...known].sort(([a], [b]) => (a === "?id" ? -1 : b === "?id" ? 1 : 0));
  for (const name of ID_PARAMS) {
    let confirmed: { ids: Map<number, CrawlEntry>; id: number; entry: CrawlEntry; page: string; control: string } | null = null;
    for (const [, ids] of spaces) {
      const subject = [...ids].find(([, e]) => new URL(e.url).pathname !== "/" || new URL(e.url).search !== "");
      if (!subject) continue;
      const [id, entry] = subject;
      const page = await ownOf(entry);
      if (!page) continue;
      const front = (await ask(`/?${name}=${id}`)) === page && (await ask(`/index.php?${name}=${id}`)) === page;
      const control = front ? await ask(`/?${name}=${UNKNOWN_ID}`) : null;
      if (front && control !== null && control !== page) {
        confirmed = { ids, id, entry, page, control };
        break;
      }
    }
    if (confirmed === null) {
      result.notes.push(`?${name}=N: no page's id (the old site answered otherwise)`);
      continue;
    }
    const { ids, id, entry, page, control } = confirmed;
    // On any path: a crawled section's folder (another page's first segment), asked with the same id.
    const folder = pages.map((e) => new URL(e.url).pathname.split("/")[1]).find((s) => s && !s.includes(".") && !new URL(entry.url).pathname.startsWith(`/${s}/`));
    const anyPath = folder !== undefined && (await ask(`/${folder}/?${name}=${id}`)) === page;
    // The front controller's other parameters (`index.php?s=infos`), with the values the crawl saw them take and the
    // sections' names: asked beside the id, each pair kept where the old site answered the same page.
    const ignored: string[] = [];
    for (const [other, values] of frontParams) {
      if (other === name) continue;
      for (const value of [...new Set([...values, ...sections])].slice(0, MAX_VALUES)) {
        if ((await ask(`/?${name}=${id}&${encodeURIComponent(other)}=${encodeURIComponent(value)}`)) === page) ignored.push(`${other}=${value.toLowerCase()}`);
      }
    }
    result.learned.idQuery = { name, anyPath, with: ignored };
    result.notes.push(`?${name}=N: a page's id${anyPath ? " on any path" : " on the front controller"}${ignored.length ? `, beside ${ignored.join(", ")}` : ""}`);
    // Which page each id is: asked of the old site, one by one, within the bound.
    const byPrint = new Map<string, CrawlEntry[]>();
    for (const e of pages) {
      const print = keptPrint(e);
      if (print) byPrint.set(print, [...(byPrint.get(print) ?? []), e]);
    }
    // Every id the crawl knows (of the subject's namespace) first, whatever its size; then the others from 1, with the
    // requests left.
    const highest = Math.max(...ids.keys());
    const last = Math.min(MAX_ID_SWEEP, Math.max(50, 3 * highest));
    const order = [...new Set([...[...ids.keys()].sort((a, b) => a - b), ...Array.from({ length: last }, (_, i) => i + 1)])];
    for (const n of order) {
      if (result.probes >= MAX_PROBES || failures >= MAX_FAILURES) break;
      const print = await ask(`/?${name}=${n}`);
      if (!print || print === control) continue;
      for (const e of byPrint.get(print) ?? []) {
        const spelled = `${origin}/?${name}=${n}`;
        const urls = result.ownUrls.get(e.url) ?? [];
        if (!urls.includes(spelled)) result.ownUrls.set(e.url, [...urls, spelled]);
      }
    }
    break;
  }
  return result;
}

/** A crawled HTML page's fingerprint from what the crawl kept (no request): what an id query's answer is compared with. */
function keptPrint(e: CrawlEntry): string {
  if (!/html/i.test(e.content_type) || (!e.title && !e.h1 && !e.headline)) return "";
  return `${e.title}\n${e.h1 || e.headline}\n${e.body_text}`;
}
