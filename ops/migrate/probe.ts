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
 * none answers a page (the section probe's control). Five failed requests in a row (timeouts, errors, a 429 or a 5xx)
 * end the probes. Silence refutes nothing (the review of the id forms): a question the old site left unanswered (a
 * 429, a 5xx, a timeout, robots.txt, the bound reached) decides no rule, and a rule it leaves undecided is named in
 * `undecided`: the redirects step then keeps the map's learned values beside what was confirmed (redirect-map.ts).
 */
import { readPage, pathOf, onSiteUrl, safeUrl } from "./page";
import { isTrackingParam } from "../../src/server/redirects/grammar";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeJson, type CrawlEntry } from "./files";
import { idFormOf, isReservedPrefix, MAX_ID_FORMS, prefixForm, type LearnedGrammar } from "../../src/server/redirects/learned";

export const LEARNED_FILE = "learned-grammar.json";

/**
 * The crawl's LEARNED_FILE: what the probes confirmed, written even when that is nothing, so that a rule the last crawl
 * refuted is withdrawn (the redirects step reads the file over the map's values), with what the old site left
 * undecided (`undecided`: its silence refutes nothing, and the map's values then stand beside the confirmed ones).
 * Removed when the probes did not run (a capped crawl, a recognised platform): the map's values then stand.
 */
export function saveLearned(dir: string, probed: ProbeResult | null): void {
  const file = join(dir, LEARNED_FILE);
  if (probed === null) rmSync(file, { force: true });
  else {
    // (A result stopped on failures says so even when no rule was being decided at that moment.)
    const stopped = probed.stopped && !probed.undecided.length ? [`${MAX_FAILURES} requests failed in a row`] : [];
    writeJson(file, { ...probed.learned, undecided: [...probed.undecided, ...stopped] });
  }
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
/** Consecutive failed requests (timeouts, errors, SILENT answers) after which the old site is taken as down: no more probes. */
const MAX_FAILURES = 5;
/**
 * Answers that say nothing of the page asked about: the site is rate-limiting (429), timing out (408) or failing (5xx).
 * Such an answer is no page's absence: the question stays unanswered (a site rate-limiting the probes refuted every
 * rule, the review of the id forms).
 */
const isSilent = (status: number) => status === 429 || status === 408 || status >= 500;
/**
 * Requests kept from the id query's sweep for deciding the printed ids' forms (probePrintedIds): the sweep only adds
 * spellings to pages, the forms are rules. A site with 130 crawled articles spent the whole bound on the sweep, and its
 * `/page{id}.html` was never asked. Enough for four places of a few folders each; what the forms leave is theirs to
 * spell every printed number with.
 */
const PRINTED_RESERVE = 60;
/**
 * Pages asked at a printed id's spelling beyond those needed, when one shows another page (a template's stale id). One:
 * each is a request to the old site for every form it refutes.
 */
const MAX_MISMATCHES = 1;
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
  /**
   * The rules the old site left undecided, and why (`/page{id}.html: undecided (HTTP 429)`): a question it did not
   * answer, or one never asked (the bound reached, robots.txt, past the prefixes or places asked about). What the map
   * already holds of them stands (redirect-map.ts's learnedGrammarOf).
   */
  undecided: string[];
}

/** A page's identity as the probes compare it: its title, headline and text (empty when it is no page). */
export function fingerprint(text: string, type: string, url: string): string {
  if (!/html/i.test(type)) return text.length ? `document:${type}:${text}` : "";
  const page = readPage(text, url);
  if (!page.title && !page.h1 && !page.headline) return "";
  return `${page.title}\n${page.h1 || page.headline}\n${page.body_text}`;
}

export async function probeIds(entries: CrawlEntry[], get: ProbeGet, allowed: (url: string) => boolean): Promise<ProbeResult> {
  const result: ProbeResult = { learned: { idPaths: [], idQuery: null, idForms: [] }, ownUrls: new Map(), probes: 0, notes: [], stopped: false, undecided: [] };
  const pages = entries.filter((e) => e.status === 200 && e.redirects.length === 0 && e.error === "");
  if (!pages.length) {
    // (A site down or failing during the crawl, read as static: nothing could be asked, so nothing is refuted.)
    if (entries.length) result.undecided.push("every rule: no page of the old site was crawled");
    return result;
  }
  const start = new URL(pages[0].url);
  const origin = start.origin;
  let failures = 0;
  /** Why the last question went unanswered: what an undecided rule's note says. */
  let silence = "";
  /**
   * The fingerprint of what the old site shows at a path (asked as the crawl found it spelled: its case, its escapes):
   * "" for no page, null when the old site did not say (a failure, a SILENT answer, robots.txt, the bound). A redirect
   * to the same site (the crawl's own notion of it: page.ts's onSiteUrl, the same host over either scheme) is followed
   * (MAX_HOPS, each hop a request, each allowed by robots.txt): a CMS sending an id's spelling to the page's address
   * (`/?id=55` -> 301 `/actualites/55/lucas-moreau`) shows that page there. A redirect elsewhere is no page of this site.
   */
  const ask = async (path: string): Promise<string | null> => {
    let current = path;
    for (let hop = 0; ; hop++) {
      if (failures >= MAX_FAILURES) return (silence = `${MAX_FAILURES} requests failed in a row`), null;
      if (result.probes >= MAX_PROBES) return (silence = `the bound of ${MAX_PROBES} requests reached`), null;
      if (!allowed(`${origin}${current}`)) return (silence = "disallowed by robots.txt"), null;
      result.probes++;
      let answer: Awaited<ReturnType<ProbeGet>> | null = null;
      try {
        answer = await get(current);
        if (isSilent(answer.status)) silence = `HTTP ${answer.status}`;
      } catch (error) {
        silence = error instanceof Error ? error.message : String(error);
      }
      if (answer === null || isSilent(answer.status)) {
        if (++failures === MAX_FAILURES) {
          result.stopped = true;
          result.notes.push(`${MAX_FAILURES} requests failed in a row: probing stopped`);
        }
        return null;
      }
      failures = 0;
      if (answer.status === 200) return fingerprint(answer.text, answer.type, `${origin}${current}`);
      const to = REDIRECT_STATUSES.has(answer.status) && hop < MAX_HOPS && answer.location ? safeUrl(answer.location, `${origin}${current}`) : null;
      const next = to === null ? null : onSiteUrl(to, start);
      if (next === null) return "";
      current = pathOf(next);
    }
  };
  /** A rule the old site left undecided: named, with why, for the redirects step and the crawl's log. */
  const undecided = (rule: string) => {
    const note = `${rule}: undecided (${silence || "not asked"})`;
    if (!result.undecided.includes(note)) result.undecided.push(note);
  };
  /** Whether the old site shows `page` at `path`: null when it did not say. */
  const shows = async (path: string, page: string): Promise<boolean | null> => {
    const answer = await ask(path);
    return answer === null ? null : answer === page;
  };
  /** A crawled page's own fingerprint, asked anew (a document's body is not kept by the crawl); null while unanswered. */
  const own = new Map<string, string>();
  const ownOf = async (e: CrawlEntry): Promise<string | null> => {
    if (!own.has(e.url)) {
      const answer = await ask(pathOf(e.url));
      if (answer === null) return null;
      own.set(e.url, answer);
    }
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
  for (const [prefix] of [...byPrefix].slice(MAX_PREFIXES)) {
    silence = `not asked: only the first ${MAX_PREFIXES} prefixes are`;
    undecided(`${prefix}/N/<slug>`);
  }
  for (const [prefix, list] of [...byPrefix].slice(0, MAX_PREFIXES)) {
    // true, false (the old site answered otherwise), or null (it did not say: nothing refuted).
    let confirmed: boolean | null = true;
    for (const { e, id } of list.slice(0, PAGES_PER_PREFIX)) {
      const page = await ownOf(e);
      confirmed = page === null ? null : page !== "" && (await shows(`${prefix}/${id}`, page));
      if (confirmed === true) confirmed = await shows(`${prefix}/${id}/${"x".repeat(3)}-${id}`, page!);
      if (confirmed !== true) break;
    }
    const sample = list[0];
    if (confirmed === true) {
      const control = await ask(`${prefix}/${UNKNOWN_ID}/${sample.slug}`);
      confirmed = control === null ? null : control !== (await ownOf(sample.e));
    }
    if (confirmed === null) {
      undecided(`${prefix}/N/<slug>`);
      continue;
    }
    if (!confirmed) {
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
    let unanswered = false;
    for (const [, ids] of spaces) {
      const subject = [...ids].find(([, e]) => new URL(e.url).pathname !== "/" || new URL(e.url).search !== "");
      if (!subject) continue;
      const [id, entry] = subject;
      const page = await ownOf(entry);
      if (page === null) unanswered = true;
      if (!page) continue;
      let front = await shows(`/?${name}=${id}`, page);
      if (front === true) front = await shows(`/index.php?${name}=${id}`, page);
      const control = front === true ? await ask(`/?${name}=${UNKNOWN_ID}`) : null;
      if (front === null || (front === true && control === null)) unanswered = true;
      if (front === true && control !== null && control !== page) {
        confirmed = { ids, id, entry, page, control };
        break;
      }
    }
    if (confirmed === null) {
      if (unanswered) undecided(`?${name}=N`);
      else result.notes.push(`?${name}=N: no page's id (the old site answered otherwise)`);
      continue;
    }
    const { ids, id, entry, page, control } = confirmed;
    // On any path: a crawled section's folder (another page's first segment), asked with the same id.
    const folder = pages.map((e) => new URL(e.url).pathname.split("/")[1]).find((s) => s && !s.includes(".") && !new URL(entry.url).pathname.startsWith(`/${s}/`));
    const onFolder = folder === undefined ? false : await shows(`/${folder}/?${name}=${id}`, page);
    if (onFolder === null) undecided(`/*?${name}=N`);
    const anyPath = onFolder === true;
    // The front controller's other parameters (`index.php?s=infos`), with the values the crawl saw them take and the
    // sections' names: asked beside the id, each pair kept where the old site answered the same page.
    const ignored: string[] = [];
    for (const [other, values] of frontParams) {
      if (other === name) continue;
      for (const value of [...new Set([...values, ...sections])].slice(0, MAX_VALUES)) {
        const beside = await shows(`/?${name}=${id}&${encodeURIComponent(other)}=${encodeURIComponent(value)}`, page);
        if (beside === null) undecided(`?${name}=N&${other}=${value}`);
        if (beside === true) ignored.push(`${other}=${value.toLowerCase()}`);
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
    // requests left, less those kept for the printed ids' forms.
    const highest = Math.max(...ids.keys());
    const last = Math.min(MAX_ID_SWEEP, Math.max(50, 3 * highest));
    const order = [...new Set([...[...ids.keys()].sort((a, b) => a - b), ...Array.from({ length: last }, (_, i) => i + 1)])];
    const reserve = printedForms(pages).length ? PRINTED_RESERVE : 0;
    for (const [i, n] of order.entries()) {
      if (result.probes >= MAX_PROBES - reserve || failures >= MAX_FAILURES) {
        result.notes.push(`?${name}=N: ${order.length - i} of ${order.length} ids not asked (${failures >= MAX_FAILURES ? "the old site failing" : `the bound of ${MAX_PROBES} requests, ${reserve} kept for the printed ids`})`);
        break;
      }
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

  await probePrintedIds(pages, ask, undecided, origin, result);
  return result;
}

/** A form of ID_FORMS as it applies to some crawled pages printing an id at one place (printedForms). */
interface PrintedForm {
  /** The place (`@data-tilda-page-id`, `article#soin`). */
  place: string;
  /** The form as stored (decoded, lower-cased: `/soins/{id}`). */
  stored: string;
  /** The pages it may spell, in crawl order, each with the id it prints there and the path to ask it at. */
  members: { e: CrawlEntry; id: string; spell: (id: string | number) => string }[];
  /** Every number of the place the form may spell, spelled (the home page's too for a form with no folder). */
  spellings: string[];
}

/**
 * The printed ids' forms worth asking (probePrintedIds): for a place that names a number on several pages, a different
 * one on at least two (`@data-tilda-page-id`; not the project's id, the same on every page), each form of ID_FORMS,
 * grouped by its stored spelling (per parent folder for `{parent}`: `/Soins/x` and `/soins/y` are one). Each page's
 * spelling is asked as the crawl found its folder spelled (its case, its escapes: a case-sensitive host answers
 * `/Soins/21`, not `/soins/21`; `/c%C5%93ur/21`, never the raw `/cœur/21` Node's client refuses); the stored form is
 * only what the map keeps.
 */
function printedForms(pages: CrawlEntry[]): PrintedForm[] {
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
  const forms: PrintedForm[] = [];
  for (const [place, ids] of places) {
    for (const form of ID_FORMS) {
      // The pages asked together: per parent folder where the form names one, else all (the home page aside: its
      // path has no parent, and every CMS answers `/` whatever was asked of it).
      const groups = new Map<string, PrintedForm["members"]>();
      for (const [e, id] of ids) {
        const path = new URL(e.url).pathname.replace(/\/$/, "");
        if (new URL(e.url).search || path === "") continue;
        const parent = form.includes("{parent}") ? path.slice(0, path.lastIndexOf("/")) : "";
        if (form.includes("{parent}") && parent === "") continue;
        const spelled = form.replace("{parent}", parent);
        const stored = idFormOf(spelled);
        if (stored !== null) groups.set(stored, [...(groups.get(stored) ?? []), { e, id, spell: (n) => spelled.replace("{id}", String(n)) }]);
      }
      for (const [stored, members] of [...groups].slice(0, MAX_PREFIXES)) {
        const all = form.includes("{parent}") ? members.map((m) => m.spell(m.id)) : [...ids.values()].map((id) => members[0].spell(id));
        forms.push({ place, stored, members, spellings: [...new Set(all)] });
      }
    }
  }
  return forms;
}

/**
 * Ids printed in a page's markup (page.ts's printed_ids), confirmed by asking the old site: each form of printedForms
 * is asked for two of its pages, those whose id no other page prints first (a post printing its blog's id shows the
 * blog there, and says nothing of the form), another page asked when one shows another page (MAX_MISMATCHES);
 * the same spelling with an unknown id must show none of them. Then the spelling is asked for every number of that
 * place, and each answer that is a crawled page, and that page only, adds the spelling to its own URLs (a post
 * printing its blog's page id gets nothing: `/page<blog>.html` shows the blog). The form is kept in the learned grammar
 * (`$idForms`: an unknown id in it answers one 404). A form the old site did not answer on is undecided.
 */
async function probePrintedIds(
  pages: CrawlEntry[],
  ask: (path: string) => Promise<string | null>,
  undecided: (rule: string) => void,
  origin: string,
  result: ProbeResult,
): Promise<void> {
  const forms = printedForms(pages);
  if (!forms.length) return;
  const byPrint = new Map<string, CrawlEntry[]>();
  for (const e of pages) byPrint.set(keptPrint(e), [...(byPrint.get(keptPrint(e)) ?? []), e]);
  const asked = new Map<string, string>();
  const askOnce = async (path: string) => {
    if (!asked.has(path)) {
      const answer = await ask(path);
      if (answer === null) return null;
      asked.set(path, answer);
    }
    return asked.get(path)!;
  };
  const stored = (path: string) => prefixForm(path.replace(/\/$/, "")) ?? path;
  for (const { place, stored: form, members, spellings } of forms) {
    if (result.learned.idForms.includes(form)) continue;
    if (result.learned.idForms.length >= MAX_ID_FORMS) {
      undecided(`${form} (at most ${MAX_ID_FORMS} id forms)`);
      continue;
    }
    // (A page whose address is its id's spelling already, `/page4412876.html`, shows nothing by being asked again.)
    const candidates = members.filter((m) => stored(m.spell(m.id)) !== stored(new URL(m.e.url).pathname));
    const printedBy = new Map<string, number>();
    for (const m of members) printedBy.set(m.id, (printedBy.get(m.id) ?? 0) + 1);
    // Pages whose id no other page prints first (in crawl order otherwise).
    const ordered = [...candidates.filter((m) => printedBy.get(m.id) === 1), ...candidates.filter((m) => printedBy.get(m.id) !== 1)];
    const needed = Math.min(PAGES_PER_PREFIX, ordered.length);
    const agreed: typeof members = [];
    let unanswered = false;
    for (const [tried, m] of ordered.entries()) {
      if (agreed.length >= needed || tried >= needed + MAX_MISMATCHES) break;
      const answer = await askOnce(m.spell(m.id));
      if (answer === null) unanswered = true;
      else if (answer === keptPrint(m.e)) agreed.push(m);
    }
    let confirmed: boolean | null = needed > 0 && agreed.length >= needed ? true : unanswered ? null : false;
    const control = confirmed ? await askOnce(agreed[0].spell(UNKNOWN_ID)) : null;
    if (confirmed) confirmed = control === null ? null : !agreed.some((m) => keptPrint(m.e) === control);
    if (confirmed === null) undecided(form);
    if (!confirmed) continue;
    result.learned.idForms.push(form);
    result.notes.push(`${form}: the id ${place} prints (the old site shows the page there, and no page for an unknown id)`);
    // Every number the place names, where the form may spell it (each page's own folder for `{parent}`): which page
    // each is, asked.
    for (const path of spellings) {
      const print = await askOnce(path);
      if (!print || print === control) continue;
      for (const e of byPrint.get(print) ?? []) {
        const url = `${origin}${path}`;
        const urls = result.ownUrls.get(e.url) ?? [];
        if (url !== e.url && !urls.includes(url)) result.ownUrls.set(e.url, [...urls, url]);
      }
    }
  }
}

/** A crawled HTML page's fingerprint from what the crawl kept (no request): what an id query's answer is compared with. */
function keptPrint(e: CrawlEntry): string {
  if (!/html/i.test(e.content_type) || (!e.title && !e.h1 && !e.headline)) return "";
  return `${e.title}\n${e.h1 || e.headline}\n${e.body_text}`;
}
