/**
 * Step 3, redirects: drafts redirects.json, the map the server loads (src/server/redirects/map.ts), by
 * matching every old URL the assessment keeps (reuse or rewrite) to a page of the new site (match.ts).
 * Old URLs the old site already redirected follow their final page. Every target is a page's path as
 * the site serves it (trailing slash included), so a visitor gets one 301 and then the page. The map is
 * validated exactly as the server does at start before it is written (no loop, no chain). The matches
 * with their confidence, the unmatched and the skipped go to redirects-review.md for the operator.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatProblem, normaliseRedirectPath, parseRedirects, PLATFORM_KEY } from "../../src/server/redirects/map";
import { decode, isPlatform, joomlaCategoryPaths, namesAnObject, oldUrlForm, type Platform } from "../../src/server/redirects/grammar";
import type { Parsed, StepSpec } from "./args";
import { assessPages, isDocument, readAssessment } from "./assess";
import { ownContent } from "./boilerplate";
import { ASSESSMENT_FILE, type CrawlEntry, migrationDir, practiceCode, readCrawl, readJsonInput, REDIRECTS_FILE, REVIEW_DATA_FILE, REVIEW_FILE, StepError, writeFileAtomic, writeJson } from "./files";
import type { StepIo } from "./io";
import { createMatcher, MIN_CONFIDENCE, seasonal, siteThreshold, statesDirections, type Match } from "./match";
import { backendOption, newPages } from "./new-site";
import { pathOf } from "./page";
import { aliasesOf, detectPlatform } from "./platform";
import { formatTable } from "./table";
import { LISTING_URL } from "./text";
import { LEARNED_FILE } from "./probe";
import { ID_FORMS_KEY, ID_PATHS_KEY, ID_QUERY_KEY, ID_QUERY_WITH_KEY, idPathOf, isPostTypeVar, LEARNED_KEYS, learnedValues, MAX_ID_FORMS, MAX_ID_PATHS, MAX_QUERY_VARS, parseLearned, parseQueryVars, QUERY_VARS_KEY, type LearnedGrammar } from "../../src/server/redirects/learned";

export const redirectsSpec: StepSpec = {
  name: "redirects",
  positionals: ["code"],
  options: ["dir", "backend"],
  flags: ["fresh"],
  usage: `redirects <code> [--backend URL] [--fresh] [--dir DIR]
  Matches each old page of crawl.json (not skipped in content-assessment.md) to a page of the new site
  and writes <dir>/<code>/redirects.json, plus redirects-review.md with each match's confidence and the
  old pages left unmatched. The new site's pages come from the content backend. Entries of an existing
  redirects.json that point to a page of the new site are kept (your edits); --fresh drafts anew.
  --backend URL   the content backend's API (default $BACKEND_API_URL), e.g. http://127.0.0.1:4000/api/v1/websites
  --dir DIR       the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

/** Link texts that name no page ("Lire la suite", "En savoir plus", "ici"). */
const GENERIC_ANCHOR = /^(?:lire la suite|la suite|suite|en savoir plus|savoir plus|plus|ici|cliquez ici|voir|voir plus|read more|more|continuer|\W*|\d+|suivant|précédent|page \d+|accueil|home|»|›)$/i;

/** A match under this confidence is listed for review (`migrate review`), though it is written to the map. */
export const REVIEW_BELOW = 0.3;
/** An H1 on this many pages at least (and half of them) is the site's name, not a page's headline. */
const SITE_H1_MIN = 3;

export interface ReviewItem {
  path: string;
  title: string;
  /** The map's entry as drafted: a target, or null (left unmatched: 404). */
  drafted: string | null;
  guess: Match | null;
  /** Set by `migrate review` once the operator decided. */
  reviewed?: boolean;
}

export interface ReviewData {
  code: string;
  /** The new site's pages: the targets the operator may type. */
  pages: string[];
  items: ReviewItem[];
}

export interface DraftRow {
  path: string;
  target: string | null;
  confidence: number | null;
  by: string;
}

export async function runRedirects(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const backend = backendOption(parsed);
  const dir = migrationDir(code, parsed.options.dir);
  const entries = readCrawl(dir);
  const verdicts = readAssessment(join(dir, ASSESSMENT_FILE));
  if (verdicts.size === 0) io.log(`redirects: no ${ASSESSMENT_FILE} with verdicts: every old page is matched (run assess first to skip some)`);
  const pages = await newPages(backend, code);
  if (pages.length === 0) throw new StepError(`the backend lists no page for ${code}`);
  const newPaths = new Set(pages.map((p) => p.path));
  const existing = join(dir, REDIRECTS_FILE);
  const previous = !parsed.flags.has("fresh") && existsSync(existing) ? readMap(dir) : {};
  // The old site's URL grammar: the operator's declaration kept, else recognised from the crawl.
  const detected = detectPlatform(entries);
  const platform: Platform = isPlatform(previous[PLATFORM_KEY]) ? previous[PLATFORM_KEY] : detected.platform;
  // The ids the crawl learned by asking the old site (probe.ts), unless the operator edited the map's; else the map's.
  const { learned, notes: learnedNotes, operator: learnedByOperator } = learnedGrammarOf(dir, previous, newPaths, { fresh: parsed.flags.has("fresh") });
  for (const note of learnedNotes) io.log(`redirects: ${note}`);
  // A Joomla site's categories, from the crawl (a numbered segment with numbered children): their pages are theirs,
  // not the articles of their numbers; the server reads them from the map's keys alike (map.ts).
  const categories = platform === "joomla" ? joomlaCategoryPaths(entries.map((e) => pathOf(e.url))) : undefined;
  const form = (path: string) => normaliseRedirectPath(idPathOf(path, learned).url, platform, categories);
  const byUrl = new Map(entries.map((e) => [e.url, e]));
  const origin = entries.length ? new URL(entries[0].url).origin : "http://old.invalid";
  // Each page's own title and text: the old site's title suffix, cookie banner and sidebars left out.
  const own = ownContent(entries);
  const { duplicateOf, linkedFrom, rows: assessed, homeUrls: assessedHome } = assessPages(entries);
  const homeUrls = oldHomeUrls(assessedHome, duplicateOf, verdicts);
  // Listings (a blog's pages, categories, tags, authors' pages): by their URL's shape or by what they hold.
  const listings = new Set(assessed.filter((r) => r.reason.startsWith("listing of")).map((r) => r.path));
  // Notices of their time (a closure, holidays, an open day): gone with it, whatever their words.
  const notices = new Set(assessed.filter((r) => r.reason.startsWith("dated notice")).map((r) => r.path));
  // What the other pages call each URL: their links' texts (menu labels, anchors), the generic ones left out.
  const calledBy = new Map<string, string[]>();
  for (const e of entries) {
    for (const { url, text } of e.anchors) {
      if (url === e.url || GENERIC_ANCHOR.test(text) || text.length > 80) continue;
      const list = calledBy.get(url) ?? [];
      if (list.length < 10 && !list.includes(text)) calledBy.set(url, [...list, text]);
    }
  }
  // A section's head: a folder over other pages' URLs, or a page a breadcrumb names above another (not the home page).
  const byFolder = sectionHeads(entries.map((e) => e.url));
  // (Compared in the old URL grammar's form: `/-Nos-soins-.html` is the `/-Nos-soins-` a breadcrumb names.)
  const above = new Set(entries.flatMap((e) => (e.trail ?? []).filter((u) => u !== e.url).map((u) => form(pathOf(u))).filter((f) => f !== null && f !== "/")));
  const headsSection = (url: string) => byFolder(url) || above.has(form(pathOf(url)));
  /** The crawled page of the folder a URL sits in (`/soins/implants/` for `/soins/implants/greffe/`), if any. */
  const sectionPage = (url: string): string | null => {
    const u = new URL(url);
    const folder = u.pathname.replace(/\/[^/]+\/?$/, "/");
    if (folder === "/" || folder === u.pathname) return null;
    const found = [folder, folder.slice(0, -1), `${folder}index.html`, `${folder}index.php`].map((p) => byUrl.get(`${u.origin}${p}`)).find((x) => x?.status === 200 && !isDocument(x));
    return found?.url ?? null;
  };
  /**
   * The albums a page may belong to, each with its own text (the site's menus and sidebars left out; the captions
   * its links carry kept): itself, its path without the query, its folder's page (sectionPage: match.ts decides what
   * a gallery shows).
   */
  const albumsOf = (e: CrawlEntry) => {
    const url = new URL(e.url);
    const around = [e.url, url.search ? `${url.origin}${url.pathname}` : null, sectionPage(e.url)];
    return [...new Set(around)]
      .map((u) => (u === null ? undefined : byUrl.get(u)))
      .filter((a): a is CrawlEntry => a !== undefined && a.status === 200)
      .map((a) => ({ path: pathOf(a.url), title: own.get(a.url)?.title ?? a.title, text: own.get(a.url)?.text ?? a.body_text }));
  };
  // An H1 most pages share is the site's name (a theme's header: Dotclear's), not a page's headline: the heading
  // below it is (its post's <h2>).
  const htmlPages = entries.filter((e) => e.status === 200 && !isDocument(e));
  const h1Count = new Map<string, number>();
  for (const e of htmlPages) if (e.h1) h1Count.set(e.h1, (h1Count.get(e.h1) ?? 0) + 1);
  const siteH1 = new Set([...h1Count].filter(([, n]) => n >= SITE_H1_MIN && n >= htmlPages.length / 2).map(([h1]) => h1));
  const h1Of = (e: CrawlEntry) => (siteH1.has(e.h1) ? "" : e.h1);
  const headlineOf = (e: CrawlEntry) => (siteH1.has(e.h1) ? (e.subheadline ?? "") : e.headline);
  const oldPage = (e: CrawlEntry) => ({
    path: pathOf(e.url),
    title: own.get(e.url)?.title ?? e.title,
    h1: h1Of(e),
    text: own.get(e.url)?.text ?? e.body_text,
    names: [...new Set([headlineOf(e), e.og_title, ...(calledBy.get(e.url) ?? [])].filter(Boolean))],
    headline: headlineOf(e),
    published: e.published,
    headsSection: headsSection(e.url),
    albums: albumsOf(e),
  });
  // The site's own bar: from the best guesses of all its pages (match.ts siteThreshold).
  const firstPass = createMatcher(pages, { platform });
  const bests = entries.filter((e) => e.status === 200 && !isDocument(e) && /html/i.test(e.content_type)).map((e) => firstPass(oldPage(e)).best?.confidence ?? 0);
  const threshold = siteThreshold(bests);
  const match = createMatcher(pages, { platform, threshold });
  const rows: DraftRow[] = [];
  const matchOf = new Map<string, { match: Match | null; best: Match | null }>();
  /**
   * A page's match; a duplicate follows its original. A document goes where its own words (file name, the
   * texts of the links to it) clearly point; otherwise it is left for review, with the page linking to it
   * as the best guess (a questionnaire linked from the contact page belongs with the first visit).
   */
  const matchPage = (url: string, seen = new Set<string>()): { match: Match | null; best: Match | null } => {
    if (!matchOf.has(url)) {
      const e = byUrl.get(url)!;
      seen.add(url);
      // The page the old site's root redirects to, and its copies, is its home page (assess.ts homeUrls).
      if (homeUrls.has(url) && home) {
        matchOf.set(url, { match: { target: home, confidence: 1, by: "the old home page (the old site's root redirects to it)" }, best: null });
        return matchOf.get(url)!;
      }
      // A translation follows its French version as a duplicate follows its original (the new site is French).
      const translated = e.translation_of && byUrl.get(e.translation_of)?.status === 200 ? e.translation_of : undefined;
      const duplicated = duplicateOf.get(url);
      // An old CMS query naming a page by its id, spelled with `&amp;` (copied from HTML), that the old site answered
      // with its home page (Joomla does for `&amp;view=article&amp;id=31`: it reads `amp;view`, no parameter of its):
      // the old site never read it, and a redirect to the home page is a soft 404 (the issue's words). No redirect;
      // what the links to it call it ("Découvrir tous nos équipements") is the guess, for review. (Spelled plainly, a
      // query showing the home page may be the home page itself: Joomla's home menu item can be an article.)
      if (duplicated !== undefined && form(pathOf(duplicated)) === "/" && /&amp;/i.test(pathOf(url)) && namesAnObject(pathOf(url), platform)) {
        const named = match.document("/", calledBy.get(url) ?? []);
        const by = "an old CMS query the old site answered with its home page (it could not read it): the page its links' texts name, if any";
        matchOf.set(url, { match: null, best: named.best && named.best.confidence > 0 ? { ...named.best, by } : null });
        return matchOf.get(url)!;
      }
      const original = duplicated ?? translated;
      const asTranslation = !duplicateOf.has(url) && translated !== undefined;
      const followed = original && !seen.has(original) ? matchPage(original, seen) : null;
      if (followed && !followed.match && asTranslation) {
        // A translation of a page with no counterpart has none either (its words are no better a guess).
        matchOf.set(url, { match: null, best: followed.best && { ...followed.best, by: `a translation of ${pathOf(original!)}, which has no match: ${followed.best.by}` } });
      } else if (followed?.match) {
        const how = asTranslation ? "a translation of" : "duplicate of";
        matchOf.set(url, { match: { ...followed.match, by: `${how} ${pathOf(original!)}: follows it` }, best: null });
      } else if (isDocument(e)) {
        // Taken when its name is clear and the page linking to it does not say otherwise, or when its name's
        // best guess is the linking page's match; else left for review with both.
        const named = match.document(pathOf(url), calledBy.get(url) ?? []);
        const linker = (linkedFrom.get(url) ?? []).find((l) => !seen.has(l) && byUrl.get(l)?.status === 200);
        const fromLinker = linker ? matchPage(linker, seen).match : null;
        // Linked from the home page (a menu, a footer) says nothing of a document's subject.
        const linked = fromLinker && fromLinker.by !== "home page" ? fromLinker : null;
        const agree = linked !== null && !named.review && named.best?.target === linked.target && named.best.confidence >= 0.3;
        // A leaflet on an appliance the patient wears, linked from a page of the treatment using it (match.ts
        // applianceLeaflet): that page, whatever its name's few words point at (the treatment's hub, as a rule).
        const worn = linked !== null && !named.review && match.applianceLeaflet(pathOf(url), calledBy.get(url) ?? [], linked.target);
        // A name stating what the document is for (a map, a price list: match.ts) holds whoever links to it.
        const statesIntent = named.match?.by.startsWith("intent:") ?? false;
        if ((named.match && (statesIntent || linked === null || linked.target === named.match.target)) || agree) {
          matchOf.set(url, { match: { ...named.best!, by: agree && !statesIntent ? `the document's name and the page linking to it (${pathOf(linker!)})` : named.best!.by }, best: null });
        } else if (worn) {
          matchOf.set(url, { match: { ...linked, by: `a leaflet on the appliance of the treatment of the page linking to it (${pathOf(linker!)})` }, best: null });
        } else {
          const why = named.review ? `${named.review}: review it` : linked ? `document linked from ${pathOf(linker!)} (matched to ${linked.target}); its name says ${named.best?.target ?? "nothing clear"}: review it` : "";
          const guess = linked ?? named.best;
          matchOf.set(url, { match: null, best: guess && why ? { ...guess, by: why } : guess });
        }
      } else {
        const own = match(oldPage(e));
        // Under the bar, but its text points into what the page of its old section went to (`/soins/implants/
        // greffe-osseuse/` of `/soins/implants/`, the new site without a page of its own for it): that page,
        // at its own guess's confidence (listed for review). Not a guess the matcher left for review on purpose.
        const parent = own.match || !own.best || own.review ? null : sectionPage(url);
        const section = parent && !seen.has(parent) && !listings.has(pathOf(parent)) && verdicts.get(pathOf(parent))?.verdict !== "skip" ? matchPage(parent, seen).match : null;
        const follows = parent ? followSection(own.best!, section, home, pathOf(parent)) : null;
        matchOf.set(url, follows ? { match: follows, best: follows } : own);
      }
    }
    return matchOf.get(url)!;
  };
  const home = pages.find((p) => p.kind === "home")?.path ?? null;
  // The operator's entries (an earlier draft, edited): never dropped. One whose target is not a page of the
  // new site (a typo, a page since removed) is kept as written and reported, for the operator to correct.
  const kept = new Map<string, { key: string; target: string }>();
  /** Old URLs the operator dropped by hand (null) that the crawl never saw: kept. */
  const keptGone = new Map<string, string>();
  const invalid: string[] = [];
  for (const [key, target] of Object.entries(previous)) {
    if (key === PLATFORM_KEY || LEARNED_KEYS.includes(key)) continue;
    const keyForm = form(key);
    if (keyForm === null) continue; // readMap refused the file if a key did not load
    // A dropped URL (null) is drafted anew from the verdicts each run: a page to drop is marked skip.
    if (target === null) {
      keptGone.set(keyForm, key);
      continue;
    }
    if (typeof target !== "string") continue;
    kept.set(keyForm, { key, target });
    if (!newPaths.has(target)) invalid.push(`${key} -> ${target}: not a page of the new site (kept as written: correct it)`);
  }
  const skipped: string[] = [];
  const unmatched: { path: string; best: Match | null }[] = [];
  for (const e of entries) {
    const path = pathOf(e.url);
    const keptEntry = kept.get(form(path) ?? "");
    // (Without an assessment: skipped unless the old site answered it with a page, itself or at the end of redirects
    // that stay on the crawled site; a meta refresh off the site answers 200 and leads nowhere the map can send.)
    // A translation of a page marked skip (a dated notice in French) is skipped with it.
    const translationOfSkipped = e.translation_of !== "" && verdicts.get(pathOf(e.translation_of))?.verdict === "skip";
    if (verdicts.get(path)?.verdict === "skip" || translationOfSkipped || (!verdicts.size && !(e.status === 200 && (e.redirects.length === 0 || byUrl.has(e.final_url))))) {
      if (keptEntry) rows.push({ path, target: keptEntry.target, confidence: null, by: `kept from ${REDIRECTS_FILE} (the page is marked skip)` });
      else {
        // A translation of a skipped page is what its French version is (a notice, a listing, a copy).
        const original = duplicateOf.get(e.url) ?? (translationOfSkipped ? e.translation_of : undefined);
        const shape = oldUrlForm(path, platform, categories);
        // (By its URL only: a skipped listing's heading may name any topic. A gallery's album says what it shows.)
        const intent = match({ path, title: "", h1: "", text: "", albums: e.status === 200 ? albumsOf(e) : [] }).match;
        const authorArchive = isAuthorArchive(path, platform);
        const row = skippedPageRow({
          path,
          // (The page the root redirects to, and its copies, are the home page's.)
          form: homeUrls.has(e.url) ? "/" : (shape?.form ?? null),
          originalForm: original === undefined ? null : homeUrls.has(original) ? "/" : form(pathOf(original)),
          // A copy of a listing is one too (Weebly's `/blog.html` of `/blog/`); so is an archive only the platform makes
          // (platformArchive), which the assessment may have skipped before asking (Yoast sets tags noindex).
          listing: listings.has(path) || (original !== undefined && listings.has(pathOf(original))) || platformArchive(path, platform),
          platformListing: shape?.cmsPath ?? false,
          // A dated notice announcing the practice's hours for good ("Nouveaux horaires 2022", "Le cabinet ferme le
          // mercredi") still says them: the directions page, as eighteen blind truths of nineteen send theirs; the hours
          // of a holiday or a season ("Horaires des fêtes 2022", "Fermeture estivale") are gone with it.
          notice: (notices.has(path) || (translationOfSkipped && notices.has(pathOf(e.translation_of)))) && !(statesDirections(intent) && !seasonal(path, e.title)),
          dead: isDeadLink(e),
          home,
          intent,
          member: () => (e.status === 200 && !isDocument(e) ? match(authorArchive ? { path, title: e.title, h1: e.h1, text: "" } : oldPage(e)).match : null),
          authorArchive,
        });
        if (row) rows.push(row);
        else skipped.push(path);
      }
      continue;
    }
    const final = e.redirects.length ? byUrl.get(e.final_url) : e;
    // An old URL the old site redirects to its home page is a copy of it (WordPress's own 301 of the static front
    // page's permalink, `/accueil-2/`, `/?page_id=2`), unless it is an archive or a listing (copiesHome): the old
    // site's own soft 404 (Yoast's disabled author archives), no page of its. No redirect then.
    if (final !== e && final !== undefined && (form(pathOf(final.url)) === "/" || homeUrls.has(final.url)) && !copiesHome(path, platform)) {
      if (keptEntry) rows.push({ path, target: keptEntry.target, confidence: null, by: `kept from ${REDIRECTS_FILE}` });
      else skipped.push(path);
      continue;
    }
    const result = final && final.status === 200 ? matchPage(final.url) : null;
    const found = result?.match ?? null;
    if (keptEntry && keptEntry.target !== found?.target) {
      rows.push({ path, target: keptEntry.target, confidence: null, by: `kept from ${REDIRECTS_FILE}` });
      continue;
    }
    if (!found) {
      unmatched.push({ path, best: result?.best ?? null });
      continue;
    }
    const by = final === e ? found.by : `${found.by} of ${pathOf(final!.url)} (old redirect)`;
    rows.push({ path, target: found.target, confidence: found.confidence, by });
  }

  const map: Record<string, string | null> = {};
  /** The key of each normalised form written: one entry serves every spelling of an old URL. */
  const keyOf = new Map<string, string>();
  // Every page of the new site under the form its spellings share (`/Contact`, `/contact.html`): one 301 to it
  // (its own path is left to the site: the map never redirects a URL to itself).
  const pageForms = new Map(pages.map((p) => [form(p.path)!, p.path]));
  for (const row of rows.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    // The new site already answers this URL itself (the same path, or its slash form): no entry of its own.
    if (row.path === row.target || `${row.path}/` === row.target) continue;
    const rowForm = form(row.path)!;
    const taken = keyOf.get(rowForm);
    if (taken) {
      if (map[taken] !== row.target) unmatched.push({ path: row.path, best: { target: row.target!, confidence: row.confidence ?? 0, by: `conflicts with ${taken}` } });
      else row.by += ` (served by the entry ${taken})`;
      continue;
    }
    map[row.path] = row.target!;
    keyOf.set(rowForm, row.path);
  }
  // The platform's other names of each page redirected (a WordPress post's slug, the id its theme prints): the
  // same target, unless the crawl saw that URL itself, or pages going to different targets claim it (a template
  // printing one article's id on another page: no one's name).
  const aliasesOfRow = (row: DraftRow): string[] => {
    const e = byUrl.get(new URL(row.path, "http://old.invalid").href.replace("http://old.invalid", origin));
    if (!e || !row.target) return [];
    const own = (e.own_urls ?? []).filter((u) => u.startsWith(origin)).map(pathOf);
    return [...aliasesOf(platform, row.path, h1Of(e) || headlineOf(e)), ...own];
  };
  // The home page is no row (the new site answers `/` itself), but its other names are old URLs of it too
  // (DNN's `/Default.aspx?TabId=55`, TYPO3's `/index.php?id=1`): one 301 to the home page.
  const homeRows: DraftRow[] = entries
    .filter((e) => e.status === 200 && form(pathOf(e.url)) === "/" && !rows.some((row) => row.path === pathOf(e.url)))
    .slice(0, 1)
    .map((e) => ({ path: pathOf(e.url), target: "/", confidence: null, by: "the home page" }));
  const aliased = [...rows, ...homeRows].map((row) => ({ row, aliases: aliasesOfRow(row).map((alias) => ({ alias, aliasForm: form(alias) })) }));
  const claims = new Map<string | null, Set<string>>();
  for (const { row, aliases } of aliased) for (const { aliasForm } of aliases) claims.set(aliasForm, (claims.get(aliasForm) ?? new Set()).add(row.target!));
  for (const { row, aliases } of aliased) {
    for (const { alias, aliasForm } of aliases) {
      if (aliasForm === null || keyOf.has(aliasForm) || pageForms.has(aliasForm) || claims.get(aliasForm)!.size > 1) continue;
      map[alias] = row.target;
      keyOf.set(aliasForm, alias);
    }
  }
  for (const [pageForm, path] of pageForms) {
    if (keyOf.has(pageForm) || pageForm === "/" || pageForm === path) continue;
    map[pageForm] = path;
    keyOf.set(pageForm, pageForm);
  }
  // Entries by hand for URLs the crawl did not see stay too.
  const crawled = new Set(entries.map((e) => form(pathOf(e.url))));
  for (const [keyForm, { key, target }] of kept) {
    if (crawled.has(keyForm) || keyOf.has(keyForm)) continue;
    map[key] = target;
    keyOf.set(keyForm, key);
  }
  // The skipped and the unmatched old URLs answer one 404 (not a 301 adding a slash, then 404): null entries.
  // Never a spelling of a page of the new site, nor one a query rule already answers 404 (an old CMS query).
  const dropped = [...skipped, ...unmatched.map((u) => u.path), ...keptGone.values()];
  for (const path of dropped) {
    const pathForm = form(path);
    if (pathForm === null || pathForm === "/" || keyOf.has(pathForm) || pageForms.has(pathForm) || pathForm.includes("?")) continue;
    map[path] = null;
    keyOf.set(pathForm, path);
  }
  const file = existing;
  // WordPress's custom post types the crawl saw (a single post's body class) and those the map already named (an
  // operator's, or a crawl's since gone): their query vars name a post by its slug (map.ts). Bounded as the loader is.
  const queryVars = platform === "wordpress" ? postTypeVars(entries, previous[QUERY_VARS_KEY]) : [];
  const sorted = { [PLATFORM_KEY]: platform, ...learnedValues(learned), ...(queryVars.length ? { [QUERY_VARS_KEY]: queryVars.join(" ") } : {}), ...Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1))) };
  const { errors, warnings } = parseRedirects(sorted, file);
  const problems = [...errors, ...warnings];
  if (problems.length) throw new StepError(`the drafted map would not load cleanly:\n${problems.map((p) => `  - ${formatProblem(p)}`).join("\n")}`);
  const missing = Object.entries(map).filter(([k, t]) => t !== null && !newPaths.has(t) && !kept.has(form(k) ?? ""));
  if (missing.length) throw new StepError(`targets that are not pages of the new site: ${missing.map(([, t]) => t).join(", ")}`);

  writeJson(file, sorted);
  // What the toolkit itself wrote of the learned grammar: how the next run tells an operator's edit from it. Not
  // rewritten when the operator's values were kept, so the map still differs from it and the edit keeps winning.
  if (!learnedByOperator) writeJson(join(dir, LEARNED_IN_MAP_FILE), learnedValues(learned));
  // What `migrate review` walks: every unmatched old URL, and every match under REVIEW_BELOW, best guess first.
  const titleOf = (path: string) => byUrl.get(`${origin}${path}`)?.title ?? "";
  const toReview: ReviewItem[] = [
    ...unmatched.map((u) => ({ path: u.path, title: titleOf(u.path), drafted: null, guess: u.best })),
    ...rows.filter((r) => r.confidence !== null && r.confidence < REVIEW_BELOW && map[r.path] === r.target).map((r) => ({ path: r.path, title: titleOf(r.path), drafted: r.target, guess: { target: r.target!, confidence: r.confidence!, by: r.by } })),
  ];
  writeJson(join(dir, REVIEW_DATA_FILE), { code, pages: [...newPaths].sort(), items: toReview } satisfies ReviewData);
  const review = join(dir, REVIEW_FILE);
  writeFileAtomic(review, renderReview(code, rows, unmatched, skipped, invalid));
  io.log(formatTable(["old URL", "new URL", "confidence", "matched by"], rows.map((r) => [r.path, r.target ?? "", String(r.confidence ?? "-"), r.by])));
  for (const u of unmatched) io.log(`unmatched: ${u.path}${u.best ? ` (best guess ${u.best.target}, confidence ${u.best.confidence})` : ""}`);
  for (const line of invalid) io.log(`your entry ${line}`);
  io.log(`redirects: old site recognised as ${platform}${detected.platform === platform ? "" : ` (declared in ${REDIRECTS_FILE})`}`);
  io.log(`redirects: ${Object.values(map).filter((t) => t !== null).length} redirects written to ${file}; ${unmatched.length} unmatched, ${skipped.length} skipped: see ${review}`);
  // The files are written either way; the status says an entry of the operator needs a look.
  if (invalid.length) io.log(`redirects: ${invalid.length} of your entries point to no page of the new site: correct them in ${file}`);
  return invalid.length ? 1 : 0;
}

/**
 * An old page under the bar, its text's best guess within the page its old section (`parent`, the page of its
 * folder) surely went to, not the home page: that page, at the guess's confidence (listed for review). Null
 * otherwise.
 */
export function followSection(best: Match, section: Match | null, home: string | null, parent: string): Match | null {
  if (!section || section.target === home || section.confidence < MIN_CONFIDENCE || !best.target.startsWith(section.target)) return null;
  return { target: section.target, confidence: best.confidence, by: `its text's guess, within the page its section ${parent} went to` };
}

/**
 * Whether a URL indexes a folder holding other URLs of the list (`/soins/`, `/Soins/index.html` or `/soins.html`
 * over `/soins/implants/`): it heads a section of the old site. Lower-cased: a host may serve names
 * case-insensitively.
 */
export function sectionHeads(urls: string[]): (url: string) => boolean {
  const segmentsOf = (url: string) => {
    const segments = new URL(url).pathname.toLowerCase().split("/").filter(Boolean);
    return /^index\.[a-z]+$/.test(segments.at(-1) ?? "") ? segments.slice(0, -1) : segments;
  };
  const folders = new Set<string>();
  for (const url of urls) {
    const segments = segmentsOf(url);
    for (let i = 1; i < segments.length; i++) folders.add(`/${segments.slice(0, i).join("/")}/`);
  }
  return (url) => folders.has(`/${segmentsOf(url).map((s) => `${s.replace(/\.(?:html?|php|aspx?)$/, "")}/`).join("")}`);
}

/**
 * A dead link: the old site answered it "not found" or "gone" (404, 410), itself or at the end of its redirects on
 * the site (the crawl's status is the last hop's). Not an answer that says nothing of the page (403 to a robot, 429,
 * 5xx), nor the crawler's own failure (a timeout, a page over its bounds): those pages may well exist.
 */
export function isDeadLink(e: Pick<CrawlEntry, "status">): boolean {
  return e.status === 404 || e.status === 410;
}

/**
 * An author's archive, its first page: `/author/<slug>/` (WordPress, Ghost, and an unrecognised old site, as before
 * WordPress's front was read), under WordPress's permalink front too (`/blog/%postname%/` puts it at
 * `/blog/author/<slug>/`; one front segment at most, as grammar.ts's PLATFORM_PATHS reads it), SPIP's `/_Name_` (its
 * "URL propre" of an auteur). Not a further page (`/author/chloe/page/2/`) nor a query's (`/blog?author=…`,
 * `/?author=1`), nor a section of another platform's that holds a folder so named (`/equipe/author/dr-x/`).
 */
export function isAuthorArchive(path: string, platform: Platform | null): boolean {
  if (SPIP_AUTHOR.test(path)) return true;
  if (platform === "wordpress") return FRONT_AUTHOR.test(path);
  return (platform === "ghost" || platform === "static" || platform === null) && ROOT_AUTHOR.test(path);
}
const SPIP_AUTHOR = /^\/_[^/?]+_(?:\.html)?$/;
const ROOT_AUTHOR = /^\/author\/[^/?]+\/?$/;
const FRONT_AUTHOR = /^(?:\/[^/?]+)?\/author\/[^/?]+\/?$/;

/**
 * An archive only the platform makes, by its URL: a path of the platform's own (grammar.ts's PLATFORM_PATHS) shaped as
 * a listing (text.ts's LISTING_URL: a tag's, a category's, an author's, a date's). WordPress's `/blog/tag/equipe/`
 * lists the posts tagged so, whatever member their excerpts name, whether or not the assessment said so (it skips a
 * noindex page before asking: Yoast sets tags noindex). Not a DNN tab's detail (`/Actualites/tabid/60/ctl/Detail/...`),
 * whose path is its platform's but no listing's.
 */
export function platformArchive(path: string, platform: Platform | null): boolean {
  return (oldUrlForm(path, platform)?.cmsPath ?? false) && LISTING_URL.test(path);
}

/**
 * Whether an old URL the old site redirects to its home page is a copy of the home page: yes, unless its URL has an
 * archive's or a listing's shape (platformArchive, isAuthorArchive, text.ts's LISTING_URL: a tag, a category, an
 * author, a date, a further page, a search `?s=`, a feed). WordPress itself 301s its static front page's permalink
 * (`/accueil-2/`, `/page-d-accueil/`) and `/?page_id=<front>` to `/`, whatever the page was called, and a builder its
 * language's home (`/fr`, `/en/`): those are the home page; an archive the old site sends home (Yoast's disabled
 * author archives, `/blog/author/x/`) was no page of its, its own soft 404. (By the URL's shape alone, never by its
 * words: `/blog/category/home/` is an archive, `/?s=accueil` a search.)
 */
export function copiesHome(path: string, platform: Platform | null): boolean {
  if (normaliseRedirectPath(path, platform) === "/") return true;
  return !(platformArchive(path, platform) || isAuthorArchive(path, platform) || LISTING_URL.test(path));
}

/**
 * WordPress's custom post types a crawl saw (page.ts's post_type: a single post's body class) and those a map already
 * names (`$queryVars`, when it loads), each a query var (isPostTypeVar), sorted; at most MAX_QUERY_VARS, the crawl's
 * first (the loader refuses more).
 */
export function postTypeVars(entries: readonly Pick<CrawlEntry, "post_type" | "status">[], inMap: unknown): string[] {
  const crawled = entries.flatMap((e) => (e.status === 200 && e.post_type && isPostTypeVar(e.post_type) ? [e.post_type] : []));
  const kept = parseQueryVars(inMap, true).vars;
  return [...new Set([...[...new Set(crawled)].sort(), ...kept])].slice(0, MAX_QUERY_VARS).sort();
}

/**
 * The old home page's URLs off the root (assess.ts homeUrls), unless the operator's assessment skips its original: a
 * page the operator drops is no home page to send to `/` (its copies, skipped as copies, follow it).
 */
export function oldHomeUrls(homeUrls: ReadonlySet<string>, duplicateOf: ReadonlyMap<string, string>, verdicts: ReadonlyMap<string, { verdict: string }>): Set<string> {
  const original = [...homeUrls].find((url) => !duplicateOf.has(url));
  return original !== undefined && verdicts.get(pathOf(original))?.verdict === "skip" ? new Set() : new Set(homeUrls);
}

/**
 * Where a page marked skip still goes, or null (dropped: 404). An old URL that states an intent (`/rdv`, a 302
 * to the booking service; `/prendre-rendez-vous/`, a form) keeps its visitors: the new site's page for that
 * intent, unless it is a dated notice of a past year (`/agenda/fermeture-estivale-2021.html` is no booking page:
 * it is gone with its summer), nor a dead link (isDeadLink: `/urgences`, when the page was `/urgences.html`). A
 * spelling or copy of the old home page is the home page; a notice naming a member of the new team,
 * by name or by a first name no other member has (a newcomer's welcome: "Bienvenue à Sarah"), is that member's page. A listing (a blog's page, a category, an author's page) is
 * neither, even when the home page is a blog listing the same posts or its excerpts name a member: its posts
 * are redirected one by one.
 */
export function skippedPageRow(o: {
  path: string;
  form: string | null;
  /** The form of the page it duplicates, if any. */
  originalForm: string | null;
  listing: boolean;
  /** Its path is one only the old platform makes (grammar.ts's PLATFORM_PATHS: taxonomies, authors, feeds). */
  platformListing?: boolean;
  /** Skipped as a dated notice of a past year (assess.ts). */
  notice?: boolean;
  /** The old site answered it 404 or 410, itself or at the end of its redirects: a dead link (isDeadLink). */
  dead?: boolean;
  home: string | null;
  intent: Match | null;
  /** The page's match on what it says (asked only when it may count). */
  member: () => Match | null;
  /** An author's archive, its first page (isAuthorArchive); `member` then reads its own name alone. */
  authorArchive?: boolean;
}): DraftRow | null {
  const homeCopy = o.form === "/" || (!o.listing && o.originalForm === "/");
  if (homeCopy && o.home) return { path: o.path, target: o.home, confidence: 1, by: "a spelling or copy of the old home page" };
  // A dead link was no page: no visitor, bookmark or search engine reached anything there, whatever its URL says.
  if (o.dead) return null;
  // A listing only the platform makes (a tag's, a category's, an author's posts: `/tags/equipe/`) lists posts on a
  // topic; it is no page of the practice's, whatever its topic's name says.
  if (!o.notice && !(o.listing && o.platformListing) && o.intent?.by.startsWith("intent:")) return { path: o.path, target: o.intent.target, confidence: o.intent.confidence, by: `${o.intent.by} (the page is marked skip)` };
  // An author's archive headed by a member of the new team's whole name ("Dr Lucas Moreau", "Claire Dupont") is that
  // member's page: the posts are redirected one by one, the author is the member (Ghost's `/author/lucas/` and SPIP's
  // `/_Claire-Dupont_`, four URLs of two blind truths). Not by a first name alone, nor an author who is no member of
  // the new team (Ghost's secretary gone, SPIP's web agency, WordPress's `admin`: their truths drop them).
  if (o.authorArchive) {
    const author = o.member();
    return author?.by === "member's name" ? { path: o.path, target: author.target, confidence: author.confidence, by: "an author's archive: the member's page (the page is marked skip)" } : null;
  }
  const member = o.listing ? null : o.member();
  if (member?.by === "member's name" || member?.by === "member's first name") return { path: o.path, target: member.target, confidence: member.confidence, by: `${member.by} (the page is marked skip)` };
  return null;
}

function renderReview(code: string, rows: DraftRow[], unmatched: { path: string; best: Match | null }[], skipped: string[], invalid: string[]): string {
  return [
    ...(invalid.length ? [`# ${code}: your entries to correct`, "", ...invalid.map((line) => `- \`${line.split(" -> ")[0]}\` -> ${line.split(" -> ").slice(1).join(" -> ")}`), ""] : []),
    `# ${code}: redirect map review`,
    "",
    `Written by \`npm run migrate -- redirects ${code}\` beside \`redirects.json\`; \`npm run migrate -- review ${code}\` walks the`,
    `unmatched and low-confidence URLs below with their best guesses, a key each. Check the low confidences; a match`,
    `below the site's calibrated bar (at most ${MIN_CONFIDENCE}) is left out and listed as unmatched (it answers 404): add it to \`redirects.json\` by hand, or mark the page`,
    "skip in `content-assessment.md`. Old URLs the new site already serves need no entry.",
    "",
    "## Matches",
    "",
    "| old URL | new URL | confidence | matched by |",
    "|---|---|---|---|",
    ...rows.map((r) => `| \`${r.path}\` | \`${r.target}\` | ${r.confidence ?? "-"} | ${r.by} |`),
    "",
    "## Unmatched",
    "",
    ...(unmatched.length ? unmatched.map((u) => `- \`${u.path}\`${u.best ? `: best guess \`${u.best.target}\` (confidence ${u.best.confidence}, ${u.best.by})` : ""}`) : ["None."]),
    "",
    "## Skipped (no redirect: 404 after cutover)",
    "",
    ...(skipped.length ? skipped.map((p) => `- \`${p}\``) : ["None."]),
    "",
  ].join("\n");
}

/** The map as written, for the verify step. */
export function readMap(dir: string): Record<string, string | null> {
  const file = join(dir, REDIRECTS_FILE);
  const json = readJsonInput(file, "redirects");
  const { errors } = parseRedirects(json, file);
  if (errors.length) throw new StepError(`${file} does not load:\n${errors.map((p) => `  - ${formatProblem(p)}`).join("\n")}`);
  return json as Record<string, string | null>;
}

/**
 * The learned grammar's values the redirects step last wrote into redirects.json itself (not the operator): what tells
 * an operator's edit of the map's learned keys from the toolkit's own output.
 */
export const LEARNED_IN_MAP_FILE = "learned-grammar-in-map.json";

/**
 * The old site's id grammar the map is drafted with:
 * - the map's own values when the operator edited them: they differ from what the toolkit last wrote there
 *   (LEARNED_IN_MAP_FILE), or the map has some, the toolkit never recorded writing any (a map drafted before the
 *   record, or written by hand) and they are not the crawl's; removing the keys is an edit too. `--fresh` drafts
 *   anew, and so does a missing map (deleted to be drafted again: no edit to keep);
 * - else learned-grammar.json, the crawl's probes (probe.ts): what the last crawl confirmed, nothing when it confirmed
 *   nothing (a rule refuted is withdrawn); where the old site left some rule undecided (a 429, a 5xx, a timeout, the
 *   bound: silence refutes nothing), the map's values stand beside what it confirmed, with a note saying why;
 * - else (a crawl that did not probe: capped, a recognised platform, an older toolkit) the map's values.
 * A learned prefix or id form some page of the new site falls under (`/actualites/2024/` under `/actualites`) is
 * dropped, with a note: the map is consulted before the new site's pages, and would take it.
 */
export function learnedGrammarOf(
  dir: string,
  previous: Record<string, string | null>,
  newPaths: Iterable<string>,
  options: { fresh?: boolean } = {},
): { learned: LearnedGrammar; notes: string[]; operator: boolean } {
  const file = join(dir, LEARNED_FILE);
  const mapFile = join(dir, REDIRECTS_FILE);
  // (A map deleted to be drafted again holds no edit: read as --fresh, not as every learned key removed by hand.
  // runRedirects reads a missing map as {}.)
  const fresh = options.fresh === true || (!existsSync(mapFile) && Object.keys(previous).length === 0);
  const crawled = existsSync(file) ? readCrawlLearned(file) : null;
  const inMap = loadLearned(() => parseLearned(previous[ID_PATHS_KEY] ?? undefined, previous[ID_QUERY_KEY] ?? undefined, previous[ID_QUERY_WITH_KEY] ?? undefined, previous[ID_FORMS_KEY] ?? undefined), mapFile);
  const recordFile = join(dir, LEARNED_IN_MAP_FILE);
  const record = existsSync(recordFile) ? readRecord(recordFile) : null;
  const same = (a: LearnedGrammar, b: LearnedGrammar) => JSON.stringify(learnedValues(a)) === JSON.stringify(learnedValues(b));
  const hasValues = Object.keys(learnedValues(inMap)).length > 0;
  // (With no record, a map holding exactly the crawl's values is the toolkit's: the record is written again, and a
  // later crawl's withdrawals apply.)
  const operator = !fresh && (record === null ? hasValues && !(crawled !== null && same(crawled.learned, inMap)) : !same(record, inMap));
  const notes: string[] = [];
  let learned: LearnedGrammar;
  if (operator) {
    learned = inMap;
    if (crawled !== null && !same(crawled.learned, inMap))
      notes.push(`the learned id grammar as edited in ${mapFile} kept (${JSON.stringify(learnedValues(inMap))}), not the crawl's (${JSON.stringify(learnedValues(crawled.learned))})`);
  } else if (crawled !== null && crawled.undecided.length && !fresh && hasValues) {
    learned = alongside(crawled.learned, inMap);
    notes.push(
      `the old site left some of its id grammar undecided (${crawled.undecided.join("; ")}): its silence refutes nothing, so the map's learned values (${JSON.stringify(learnedValues(inMap))}) stand beside what the crawl confirmed (${JSON.stringify(learnedValues(crawled.learned))})`,
    );
  } else if (crawled !== null) {
    learned = crawled.learned;
    if (crawled.undecided.length) notes.push(`the old site left some of its id grammar undecided (${crawled.undecided.join("; ")}): nothing of it is learned`);
  } else learned = inMap;
  const paths = [...newPaths].map((p) => decode(p)?.normalize("NFC").toLowerCase() ?? p.toLowerCase());
  const idPaths = learned.idPaths.filter((prefix) => {
    const shadowed = paths.find((p) => p.startsWith(`${prefix}/`) && /^\d+(?:\/|$)/.test(p.slice(prefix.length + 1)));
    if (shadowed !== undefined) notes.push(`learned id prefix ${prefix} dropped: the new site's page ${shadowed} falls under ${prefix}/<number>`);
    return shadowed === undefined;
  });
  const idForms = learned.idForms.filter((form) => {
    const shadowed = paths.find((p) => idPathOf(p, { idPaths: [], idQuery: null, idForms: [form] }).id !== null);
    if (shadowed !== undefined) notes.push(`learned id form ${form} dropped: the new site's page ${shadowed} is spelled so`);
    return shadowed === undefined;
  });
  return { learned: { ...learned, idPaths, idForms }, notes, operator };
}

/** learned-grammar.json (probe.ts): the rules the crawl confirmed, and those the old site left undecided. */
function readCrawlLearned(file: string): { learned: LearnedGrammar; undecided: string[] } {
  const json = readJsonInput(file, "crawl");
  const learned = loadLearned(() => parseLearned(...learnedInput(json, file)), file);
  // (An older crawl's file has no "undecided": everything it asked was answered.)
  const undecided = (json as { undecided?: unknown }).undecided;
  if (undecided !== undefined && (!Array.isArray(undecided) || undecided.some((u) => typeof u !== "string")))
    throw new StepError(`${file} is not a learned id grammar ("undecided" must be a list of notes): run the crawl step again`);
  return { learned, undecided: (undecided ?? []) as string[] };
}

/**
 * What the crawl confirmed, and beside it the map's values (the rules the old site left undecided, which its silence
 * does not withdraw): prefixes and forms joined, the crawl's first, within the loader's bounds; the crawl's id query,
 * else the map's, an id query on any path and the parameters beside it found by either kept.
 */
function alongside(crawled: LearnedGrammar, inMap: LearnedGrammar): LearnedGrammar {
  const query = crawled.idQuery ?? inMap.idQuery;
  const other = inMap.idQuery !== null && query !== null && inMap.idQuery.name === query.name ? inMap.idQuery : null;
  return {
    idPaths: [...new Set([...crawled.idPaths, ...inMap.idPaths])].slice(0, MAX_ID_PATHS),
    idQuery: query === null ? null : { name: query.name, anyPath: query.anyPath || other?.anyPath === true, with: [...new Set([...query.with, ...(other?.with ?? [])])] },
    idForms: [...new Set([...crawled.idForms, ...inMap.idForms])].slice(0, MAX_ID_FORMS),
  };
}

/** A learned grammar, or a StepError naming the file whose values do not load. */
function loadLearned(parse: () => ReturnType<typeof parseLearned>, source: string): LearnedGrammar {
  const { learned, errors } = parse();
  if (errors.length) throw new StepError(`${source}: the learned id grammar does not load:\n${errors.map((e) => `  - ${e.key}: ${e.message}`).join("\n")}`);
  return learned;
}

/** LEARNED_IN_MAP_FILE: the map's learned values as the toolkit wrote them; a StepError naming it when malformed. */
function readRecord(file: string): LearnedGrammar {
  const json = readJsonInput(file, "redirects");
  if (json === null || typeof json !== "object" || Array.isArray(json) || Object.values(json).some((v) => typeof v !== "string"))
    throw new StepError(`${file} is not the record of a map's learned keys: remove it (the map's learned keys are then taken as the operator's)`);
  const values = json as Record<string, string>;
  return loadLearned(() => parseLearned(values[ID_PATHS_KEY], values[ID_QUERY_KEY], values[ID_QUERY_WITH_KEY], values[ID_FORMS_KEY]), file);
}

/** learned-grammar.json (probe.ts) as the map's three values; a StepError naming the file when it is not its shape. */
function learnedInput(json: unknown, file: string): [unknown, unknown, unknown, unknown] {
  const bad = (what: string) => new StepError(`${file} is not a learned id grammar (${what}): run the crawl step again`);
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw bad("not a JSON object");
  const l = json as Record<string, unknown>;
  if (!Array.isArray(l.idPaths) || l.idPaths.some((p) => typeof p !== "string")) throw bad('"idPaths" must be a list of paths');
  const q = l.idQuery;
  if (q !== null && (typeof q !== "object" || Array.isArray(q))) throw bad('"idQuery" must be null or an object');
  const query = q as Record<string, unknown> | null;
  if (query && (typeof query.name !== "string" || typeof query.anyPath !== "boolean" || !Array.isArray(query.with) || query.with.some((w) => typeof w !== "string")))
    throw bad('"idQuery" must have a "name", an "anyPath" and a list "with"');
  // (An older crawl's file has no "idForms": none learned.)
  if (l.idForms !== undefined && (!Array.isArray(l.idForms) || l.idForms.some((f) => typeof f !== "string"))) throw bad('"idForms" must be a list of paths');
  const idPaths = l.idPaths as string[];
  const withs = (query?.with ?? []) as string[];
  const idForms = (l.idForms ?? []) as string[];
  return [
    idPaths.length ? idPaths.join(" ") : undefined,
    query ? `/${query.anyPath ? "*" : ""}?${query.name as string}` : undefined,
    withs.length ? withs.join(" ") : undefined,
    idForms.length ? idForms.join(" ") : undefined,
  ];
}
