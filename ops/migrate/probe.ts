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
 * - an id printed in a page's markup (page.ts's printed_ids: `data-tilda-page-id`, an `<article id="soin-21">`): the
 *   spellings of ID_FORMS (`/page<id>.html`, `/soins/<id>` in the place of the slug) asked for two pages, and kept where
 *   they show those pages and an unknown id does not; then asked for every number so printed (probePrintedIds).
 *
 * "The same page": a page's title, headline and text as page.ts reads them, equal and not empty; a document's bytes.
 * A same-site redirect is followed (two hops at most): what the old site shows at the end is its answer.
 * At most MAX_PROBES requests per site, every one allowed by robots.txt; nothing is learned of a site that answers
 * every URL with one page (the unknown number's control), nor of a parameter naming a section when a value naming
 * none answers a page (the section probe's control). Five failed requests in a row (timeouts, errors) end the probes.
 */
import { readPage, pathOf } from "./page";
import { isTrackingParam } from "../../src/server/redirects/grammar";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeJson, type CrawlEntry } from "./files";
import { idFormOf, isReservedPrefix, prefixForm, type LearnedGrammar } from "../../src/server/redirects/learned";

export const LEARNED_FILE = "learned-grammar.json";

/**
 * The crawl's LEARNED_FILE: what the probes confirmed, written even when that is nothing, so that a rule the last crawl
 * no longer confirms is withdrawn (the redirects step reads the file over the map's values). Removed when the probes
 * did not run (a capped crawl, a recognised platform) or stopped on the old site's failures (a site down refutes
 * nothing): the map's values then stand.
 */
export function saveLearned(dir: string, probed: ProbeResult | null): void {
  const file = join(dir, LEARNED_FILE);
  if (probed === null || probed.stopped) rmSync(file, { force: true });
  else writeJson(file, probed.learned);
}

/** What the probe asks with: GET of a path on the old site (no redirect followed: `location` is the answer's header). */
export type ProbeGet = (path: string) => Promise<{ status: number; text: string; type: string; location?: string }>;

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
/** Same-site redirects followed per question (a page's old address, a slash added, then the page). */
const MAX_HOPS = 2;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/**
 * The spellings of a page by the id its markup prints (page.ts's printed_ids) that CMSs answer: Tilda's
 * `/page<id>.html` (every page, whatever its address), ExpressionEngine's entry id in the place of its url_title
 * (`{parent}`: the page's path without its last segment, `/soins/21` for `/soins/implants-dentaires`), a node id at the
 * root (Umbraco's ContentFinderByIdPath, `/1057`). Each asked of the old site before it is kept (probeIds).
 */
const ID_FORMS = ["/page{id}.html", "{parent}/{id}", "/{id}"] as const;
/** Places of printed ids asked about (the most pages first). */
const MAX_PRINTED_PLACES = 4;
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
  /** Whether the probes stopped on the old site's failures (then their silence refutes nothing). */
  stopped: boolean;
}

/** A page's identity as the probes compare it: its title, headline and text (empty when it is no page). */
export function fingerprint(text: string, type: string, url: string): string {
  if (!/html/i.test(type)) return text.length ? `document:${type}:${text}` : "";
  const page = readPage(text, url);
  if (!page.title && !page.h1 && !page.headline) return "";
  return `${page.title}\n${page.h1 || page.headline}\n${page.body_text}`;
}

export async function probeIds(entries: CrawlEntry[], get: ProbeGet, allowed: (url: string) => boolean): Promise<ProbeResult> {
  const result: ProbeResult = { learned: { idPaths: [], idQuery: null, idForms: [] }, ownUrls: new Map(), probes: 0, notes: [], stopped: false };
  const pages = entries.filter((e) => e.status === 200 && e.redirects.length === 0 && e.error === "");
  if (!pages.length) return result;
  const origin = new URL(pages[0].url).origin;
  let failures = 0;
  /**
   * The fingerprint of what the old site shows at a path: "" for no page, null when it could not be asked. A redirect
   * to the same site is followed (MAX_HOPS, each hop a request, each allowed by robots.txt): a CMS sending an id's
   * spelling to the page's address (`/?id=55` -> 301 `/actualites/55/lucas-moreau`) shows that page there. A redirect
   * elsewhere (another host, another scheme) is no page of this site.
   */
  const ask = async (path: string): Promise<string | null> => {
    let current = path;
    for (let hop = 0; ; hop++) {
      if (failures >= MAX_FAILURES || result.probes >= MAX_PROBES || !allowed(`${origin}${current}`)) return null;
      result.probes++;
      let answer: Awaited<ReturnType<ProbeGet>>;
      try {
        answer = await get(current);
        failures = 0;
      } catch {
        if (++failures === MAX_FAILURES) {
          result.stopped = true;
          result.notes.push(`${MAX_FAILURES} requests failed in a row: probing stopped`);
        }
        return null;
      }
      if (answer.status === 200) return fingerprint(answer.text, answer.type, `${origin}${current}`);
      const next = REDIRECT_STATUSES.has(answer.status) && hop < MAX_HOPS ? sameSitePath(answer.location, `${origin}${current}`) : null;
      if (next === null) return "";
      current = next;
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

  await probePrintedIds(pages, ask, origin, result);
  return result;
}

/**
 * Ids printed in a page's markup (page.ts's printed_ids), confirmed by asking the old site: for a place that names a
 * number on several pages, a different one on at least two (`@data-tilda-page-id`; not the project's id, the same
 * on every page), each spelling of ID_FORMS is asked for up to two of its pages (per parent folder for `{parent}`): it
 * must show that page, and the same spelling with an unknown id must not. Then the spelling is asked for every number
 * of that place, and each answer that is a crawled page, and that page only, adds the spelling to its own URLs (a post
 * printing its blog's page id gets nothing: `/page<blog>.html` shows the blog). The form is kept in the learned grammar
 * (`$idForms`: an unknown id in it answers one 404).
 */
async function probePrintedIds(pages: CrawlEntry[], ask: (path: string) => Promise<string | null>, origin: string, result: ProbeResult): Promise<void> {
  const byPlace = new Map<string, Map<CrawlEntry, string>>();
  for (const e of pages) {
    if (!keptPrint(e)) continue;
    for (const printed of e.printed_ids ?? []) {
      const at = printed.lastIndexOf("=");
      const place = byPlace.get(printed.slice(0, at)) ?? new Map<CrawlEntry, string>();
      byPlace.set(printed.slice(0, at), place.set(e, printed.slice(at + 1)));
    }
  }
  // Places naming another number on another page; two places naming the same numbers on the same pages are one.
  const seen = new Set<string>();
  const places = [...byPlace]
    .filter(([, ids]) => new Set(ids.values()).size >= 2)
    .filter(([, ids]) => {
      const key = [...ids].map(([e, id]) => `${e.url} ${id}`).sort().join("\n");
      return !seen.has(key) && seen.add(key);
    })
    .sort(([, a], [, b]) => b.size - a.size)
    .slice(0, MAX_PRINTED_PLACES);
  if (!places.length) return;
  const byPrint = new Map<string, CrawlEntry[]>();
  for (const e of pages) byPrint.set(keptPrint(e), [...(byPrint.get(keptPrint(e)) ?? []), e]);
  const asked = new Map<string, string | null>();
  const askOnce = async (path: string) => {
    if (!asked.has(path)) asked.set(path, await ask(path));
    return asked.get(path)!;
  };
  for (const [place, ids] of places) {
    for (const form of ID_FORMS) {
      // The pages asked together: per parent folder where the form names one, else all (the home page aside: its
      // path has no parent, and every CMS answers `/` whatever was asked of it).
      // (Grouped by the form as stored: `/Soins/x` and `/soins/y` are asked as one folder.)
      const groups = new Map<string, CrawlEntry[]>();
      for (const e of ids.keys()) {
        const path = new URL(e.url).pathname.replace(/\/$/, "");
        if (new URL(e.url).search || path === "") continue;
        const parent = form.includes("{parent}") ? path.slice(0, path.lastIndexOf("/")) : "";
        const spelled = form.includes("{parent}") && parent === "" ? null : idFormOf(form.replace("{parent}", parent));
        if (spelled !== null) groups.set(spelled, [...(groups.get(spelled) ?? []), e]);
      }
      for (const [spelled, members] of [...groups].slice(0, MAX_PREFIXES)) {
        if (result.learned.idForms.includes(spelled)) continue;
        const spell = (id: string | number) => spelled.replace("{id}", String(id));
        // (A page whose address is its id's spelling already, `/page4412876.html`, shows nothing by being asked again.)
        const samples = members.filter((e) => spell(ids.get(e)!) !== pathOf(e.url).toLowerCase()).slice(0, PAGES_PER_PREFIX);
        let confirmed = samples.length > 0;
        for (const e of samples) {
          if ((await askOnce(spell(ids.get(e)!))) !== keptPrint(e)) {
            confirmed = false;
            break;
          }
        }
        const control = confirmed ? await askOnce(spell(UNKNOWN_ID)) : null;
        if (!confirmed || control === null || control === keptPrint(samples[0])) continue;
        result.learned.idForms.push(spelled);
        result.notes.push(`${spelled}: the id ${place} prints (the old site shows the page there, and no page for an unknown id)`);
        // Every number the place names on the whole site, where the form may spell it: which page each is, asked.
        const numbers = new Set([...ids].filter(([e]) => !form.includes("{parent}") || members.includes(e)).map(([, id]) => id));
        for (const id of numbers) {
          const print = await askOnce(spell(id));
          if (!print || print === control) continue;
          for (const e of byPrint.get(print) ?? []) {
            const url = `${origin}${spell(id)}`;
            const urls = result.ownUrls.get(e.url) ?? [];
            if (url !== e.url && !urls.includes(url)) result.ownUrls.set(e.url, [...urls, url]);
          }
        }
      }
    }
  }
}

/** A same-site redirect's path and query (the old site's origin only), null for any other or none. */
function sameSitePath(location: string | undefined, from: string): string | null {
  if (!location) return null;
  try {
    const to = new URL(location, from);
    return to.origin === new URL(from).origin ? `${to.pathname}${to.search}` : null;
  } catch {
    return null;
  }
}

/** A crawled HTML page's fingerprint from what the crawl kept (no request): what an id query's answer is compared with. */
function keptPrint(e: CrawlEntry): string {
  if (!/html/i.test(e.content_type) || (!e.title && !e.h1 && !e.headline)) return "";
  return `${e.title}\n${e.h1 || e.headline}\n${e.body_text}`;
}
