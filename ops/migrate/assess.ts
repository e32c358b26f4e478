/**
 * Step 2, assess: a verdict per crawled URL (reuse, rewrite or skip) with the reason, in
 * content-assessment.md for the operator to review. Thin pages (fewer than 100 words) are flagged,
 * exact and near duplicates grouped, missing titles, descriptions, H1s and image alt texts noted. The
 * verdict and notes columns belong to the operator: a second run keeps them (and shows the suggestion
 * beside an edited verdict). The redirects step reads the verdicts: a skipped page gets no redirect.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Parsed, StepSpec } from "./args";
import { ASSESSMENT_FILE, migrationDir, practiceCode, readCrawl, writeFileAtomic, type CrawlEntry } from "./files";
import type { StepIo } from "./io";
import { pathOf } from "./page";
import { ownContent } from "./boilerplate";
import { DATED, forATime, WEEKDAYS, jaccard, lastSegment, LISTING_URL, namesPracticalInfo, shingles, triplesInOrder, words, yearInUrl } from "./text";
import { detectPlatform, isIdOnlyUrl, isItemUrl } from "./platform";
import { namesAJob } from "./match";
import { oldUrlForm } from "../../src/server/redirects/grammar";

export const assessSpec: StepSpec = {
  name: "assess",
  positionals: ["code"],
  options: ["dir"],
  usage: `assess <code> [--dir DIR]
  Reads <dir>/<code>/crawl.json and writes <dir>/<code>/content-assessment.md: a verdict per page
  (reuse, rewrite, skip) with its reason, thin pages, duplicates, missing titles and descriptions, and a
  summary. Edit the verdict and notes columns by hand: the next run keeps them.
  --dir DIR   the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

export const VERDICTS = ["reuse", "rewrite", "skip"] as const;
export type Verdict = (typeof VERDICTS)[number];
export const THIN_WORDS = 100;
/** Word-triple overlap from which two pages are near duplicates. */
export const NEAR_DUPLICATE = 0.6;
/** Share of word triples from which a near-duplicate is one, whatever it calls itself (a print or AMP copy). */
const SURE_DUPLICATE = 0.9;

export interface Assessment {
  path: string;
  status: number;
  words: number;
  verdict: Verdict;
  reason: string;
  issues: string[];
  notes: string;
}

/**
 * A listing's further page by its query (`?page=4`, `?start=10`, SPIP's `debut_articles`): a listing when it links to
 * pages (a CMS naming its pages by `page` or `pg` is not one: GuppY's `?pg=12`, a hand-made `index.php?page=3`).
 */
const LISTING_PAGE_QUERY = /[?&](?:page|pg|start|debut_articles)=\d+(?:&|$)/i;
/** Share of a page's word triples found in the pages it links to, from which it is a listing of them. */
const LISTING_COVERAGE = 0.5;
/** A link's text of at most this many words is a label (a title, a menu entry), not an excerpt. */
const LABEL_WORDS = 12;
/**
 * Under this share of its triples outside its links' labels, a page linking MIN_LISTED pages is a list of links (a
 * site map), when it has MIN_LIST_TRIPLES triples at least (an attachment's page of three words is no list).
 */
const LINKS_ONLY = 0.25;
const MIN_LISTED = 5;
const MIN_LIST_TRIPLES = 30;

/**
 * From a run of this many word triples of its own (found on no page it links to, one after the other: an
 * introduction, not a date and a byline on each card of a blog's list), a page is no listing: it says something.
 */
const OWN_RUN = 20;
/** A headline on this many pages is a section's heading, not a page's name. */
const SECTION_HEADLINE = 3;
/** A link's text naming the home page (its words). */
const HOME_LABEL = /^(?:accueil|home|page d accueil|retour a l accueil|retour accueil)$/;
/** Words of a page a root may redirect to that is not the site's home: maintenance, a login, a promotion. */
const HOME_IMPOSTOR = /\b(?:maintenance|login|connexion|se connecter|identification|authentification|sign in|signin|log in|en construction|under construction|coming soon|promo|promotion|promotions|soldes)\b/;

/**
 * A text cut at the labels of its links (anchor texts of 2 to LABEL_WORDS words, matched as whole words; not its
 * links to itself; a one-word label, "ici", "2", "Implants", may be a word of its own sentences): what the page
 * says in its own words, as runs of words. A list of titles ("Dernières brèves", "Dans la même rubrique", a breadcrumb) names
 * other pages.
 */
export function outsideLinkLabels(text: string, anchors: readonly { url: string; text: string }[], self?: string): string[] {
  const tokens = words(text);
  const cut = new Uint8Array(tokens.length);
  const labels = new Set(anchors.filter((a) => a.url !== self).map((a) => words(a.text).join(" ")));
  for (const label of labels) {
    const w = label.split(" ");
    if (w.length < 2 || w.length > LABEL_WORDS) continue;
    for (let i = tokens.indexOf(w[0]); i !== -1 && i + w.length <= tokens.length; i = tokens.indexOf(w[0], i + 1)) {
      if (w.every((x, k) => tokens[i + k] === x)) cut.fill(1, i, i + w.length);
    }
  }
  const parts: string[] = [];
  let run: string[] = [];
  tokens.forEach((t, i) => {
    if (!cut[i]) run.push(t);
    else if (run.length) {
      parts.push(run.join(" "));
      run = [];
    }
  });
  if (run.length) parts.push(run.join(" "));
  return parts;
}

/** Words a card's linked title may stand from the excerpt it shows: a date, a byline ("Publié le 3 mars 2015 par Claire"). */
const CARD_GAP = 8;

/** Where the first of `shared`'s word triples starts in `tokens` (-1: none). */
function firstShared(tokens: readonly string[], shared: ReadonlySet<string>): number {
  for (let i = 0; i + 3 <= tokens.length; i++) if (shared.has(tokens.slice(i, i + 3).join(" "))) return i;
  return -1;
}

/**
 * Whether a page (`lister`, its own text and headline) shows another page's lead as that page's card, as a listing or
 * a home page's cards do: the words they share open the other page's own words (at most CARD_GAP words after its
 * headline, `page.name`), and in the lister they start inside the text of one of its links to that page (a card
 * wrapped in its link: "ParodontologieLa parodontologie soigne...") or at most CARD_GAP words after such a link's text
 * (a title linked, a date, then the excerpt) of 2 to LABEL_WORDS words (one word may be any word of its text, unless it
 * is the page's own one-word name and the shared words start with it: "Parodontologie" linked, then its lead), the
 * lister's own headline not between them (a breadcrumb's "Nos actualités", then the page's own headline and lead: a
 * page under a section, no card of it). Such a page quotes the other: it is no source of the other's words.
 * `labels`: the texts of the lister's links to the page; `shared`: the word triples (triplesInOrder) they share;
 * `page.crumbs`: the texts of the page's links to other pages (a breadcrumb ending in its name: openingOf).
 */
export function showsAsCard(lister: { text: string; headline: string }, labels: readonly string[], shared: ReadonlySet<string>, page: { text: string; name: string; crumbs?: readonly string[] }): boolean {
  return cardWhereSharingStarts(lister, labels, shared, page) || cardAfterALink(lister, labels, shared, page);
}

/** showsAsCard where the two texts start sharing: the page's first shared words, the lister's first shared words. */
function cardWhereSharingStarts(lister: { text: string; headline: string }, labels: readonly string[], shared: ReadonlySet<string>, page: { text: string; name: string }): boolean {
  const own = words(page.text);
  const start = firstShared(own, shared);
  if (start === -1) return false;
  const name = words(page.name);
  let named = 0;
  for (let i = 0; name.length && i + name.length <= start; i++) if (name.every((x, k) => own[i + k] === x)) named = i + name.length;
  if (start - named > CARD_GAP) return false;
  const tokens = words(lister.text);
  const at = firstShared(tokens, shared);
  if (at === -1) return false;
  const lead = tokens.slice(at, at + 3).join("");
  const listerName = words(lister.headline).join(" ");
  return labels.some((label) => {
    const w = words(label);
    // (A card's blocks run together in its link's text, "ParodontologieLa parodontologie...": compared without spaces.)
    if (w.length > 3 && w.join("").includes(lead)) return true;
    // (A one-word label may be any word of a text, but not when it is the page's own name, whole, and its lead follows
    // it at once: "Parodontologie" linked, then "La parodontologie soigne...", a treatments' index's card. Umbraco's
    // periodontics hub was taken for a listing of its index and of the home page by such cards. Pages of five other
    // blind sites are shown so (a member by her first name, "Honoraires", "Urgences", "Prévention", "Orthodontie"):
    // none of their truths takes them for listings.)
    if (w.length === 1 && name.length === 1 && w[0] === name[0] && tokens[at] === w[0] && (at === 0 || tokens[at - 1] !== w[0])) return true;
    if (w.length < 2 || w.length > LABEL_WORDS) return false;
    for (let j = Math.max(0, at - CARD_GAP - w.length); j <= at; j++) {
      if (!w.every((x, k) => tokens[j + k] === x)) continue;
      const between = tokens.slice(j + w.length, at).join(" ");
      if (!listerName || !` ${between} `.includes(` ${listerName} `)) return true;
    }
    return false;
  });
}

/**
 * Where a page's name opens its text: its first occurrence at most CARD_GAP words in (a category or a date above it);
 * or, when that one ends a breadcrumb (right after the label of one of the page's links to another page, `crumbs`:
 * "Accueil Actualités Arrivée du Dr Nadia Haddad"), its next occurrence, the words before it (the breadcrumb's
 * occurrence left out) at most twice CARD_GAP: the page's own heading under the trail, a section's heading and a date
 * line between ("Actualités du cabinet Publié le 07/11/2016 dans Vie du cabinet Arrivée du Dr Nadia Haddad",
 * Docvadis's news items; the hand-made PHP site's trail, its archive box, then its H1). Only then: a name is repeated
 * in the opening sentences of ordinary pages ("Implants Les implants remplacent...", a subheading repeating the
 * headline), and moving the opening past the lead a listing shows would make the listing's card no card. -1: none.
 */
function openingOf(own: readonly string[], name: readonly string[], crumbs: readonly string[]): number {
  const at = (i: number) => name.every((x, k) => own[i + k] === x);
  const first = name.length ? own.findIndex((_, i) => i <= CARD_GAP && at(i)) : -1;
  if (first <= 0) return first;
  const endsACrumb = crumbs.some((label) => {
    const w = words(label);
    return w.length > 0 && w.length <= first && w.every((x, k) => own[first - w.length + k] === x);
  });
  if (!endsACrumb) return first;
  for (let i = first + name.length; i - name.length <= 2 * CARD_GAP && i + name.length <= own.length; i++) if (at(i)) return i;
  return first;
}

/**
 * showsAsCard anywhere in the lister: a link to the page (2 to LABEL_WORDS words), then within CARD_GAP words the words
 * the page opens with (at most CARD_GAP words after its headline, where its headline opens its text; a category or a
 * date may stand above it), the lister's own headline not between them. For a lister that shares more than the card:
 * the blog page that also shows the posts a post's "À lire aussi" shows, another post showing this one among its own.
 */
function cardAfterALink(lister: { text: string; headline: string }, labels: readonly string[], shared: ReadonlySet<string>, page: { text: string; name: string; crumbs?: readonly string[] }): boolean {
  const own = words(page.text);
  const name = words(page.name);
  const opening = openingOf(own, name, page.crumbs ?? []);
  const from = opening === -1 ? 0 : opening + name.length;
  const lead = new Set<string>();
  for (let i = from; i <= from + CARD_GAP && i + 3 <= own.length; i++) {
    const triple = own.slice(i, i + 3).join(" ");
    if (shared.has(triple)) lead.add(triple);
  }
  if (!lead.size) return false;
  const tokens = words(lister.text);
  const listerName = words(lister.headline).join(" ");
  return labels.some((label) => {
    const w = words(label);
    if (w.length < 2 || w.length > LABEL_WORDS) return false;
    for (let j = tokens.indexOf(w[0]); j !== -1; j = tokens.indexOf(w[0], j + 1)) {
      if (!w.every((x, k) => tokens[j + k] === x)) continue;
      const end = j + w.length;
      for (let at = end; at <= end + CARD_GAP && at + 3 <= tokens.length; at++) {
        if (!lead.has(tokens.slice(at, at + 3).join(" "))) continue;
        const between = tokens.slice(end, at).join(" ");
        if (!listerName || !` ${between} `.includes(` ${listerName} `)) return true;
      }
    }
    return false;
  });
}

const DOCUMENT_TYPE = /^application\/(?:pdf|msword|vnd\.openxmlformats|vnd\.oasis\.opendocument|vnd\.ms-)/i;

/**
 * A notice of its time: a closure, holidays, new opening hours, a move, open days, season's greetings. Named
 * so by its title, headline or URL, and dated (a year there, or a day and month in its text) in a past year.
 * An advice post of a past year is no notice: it is kept; so is a newcomer's welcome (it follows the member's
 * page when the new site has one: redirect-map.ts).
 */
const NOTICE = /\b(?:conges|fermeture|fermetures|ferme|fermee|vacances|horaires|depart|retraite|portes ouvertes|voeux|bonne annee|demenagement|demenage|noel|feries?|greve|reouverture|closed|closure|holidays?)\b/;
/** Every notice word of a name (NOTICE, global). */
const NOTICES = new RegExp(NOTICE.source, "g");
/**
 * Works at the practice ("Travaux dans la salle d'attente"), a notice of their time when a short page's names say so
 * (IONOS's and Hostinger's truths drop theirs); not in a text, where works done are what a post about a new room tells
 * ("Après trois semaines de travaux, notre nouvelle salle de stérilisation...": DNN's, kept), nor on a page of some
 * length ("Nos travaux de prothèse": a practice's own work, an outside review's case).
 */
const WORKS = /\btravaux\b/;
const YEAR = /\b((?:19|20)\d\d)\b/;

/**
 * New regular hours ("Nouveaux horaires : ouvert jusqu'à 20h", `/nouveaux-horaires-le-mercredi`) are the hours the
 * practice keeps, not a notice of their time: the page giving them is where their readers go (three blind truths).
 * Summer's, the holidays' or a lockdown's hours are one (another notice word, or a season's, names them).
 */
const NEW_HOURS = /\b(?:nouveaux|nouvelles?) horaires\b/;
/**
 * A regular day of closing or opening ("À partir de septembre, le cabinet ferme le mercredi"): a weekday not followed
 * by a date is the week's, hours the practice keeps (the matcher sends such posts to the hours: match.ts OPENING);
 * "fermé le mercredi 15 août" is one day's.
 */
const REGULAR_DAY = new RegExp(`\\b(?:ferme|fermee|fermes|fermees|ouvert|ouverte|ouverts|ouvertes)\\s+(?:le|les)\\s+(?:${WEEKDAYS})s?\\b(?!\\s+(?:\\d+|en|jusqu|pendant|de)\\b)`);
const HOURS_NOTICES: ReadonlySet<string> = new Set(["horaires", "ferme", "fermee"]);

/**
 * An event of its time, dated or not: an open day, a world or national day, a day or a week of screening, Pink
 * October, Movember, a month without tobacco. Over by the time of the cutover, and not on the new site: every blind
 * truth holding one (twenty-nine, of twenty-one sites) drops it. Read in the page's own names (title, H1, headline,
 * its URL's last segment).
 */
const EVENT = /\b(?:journees? (?:portes ouvertes|mondiales?|nationales?|sante|de (?:la )?sante|de depistage|du depistage|decouverte)|semaines? (?:du|de (?:la )?) ?(?:depistage|sante|prevention)|portes ouvertes|octobre rose|movember|mois sans tabac)\b/;

/** Whether a page's names announce hours the practice keeps: new regular hours, or (`dayOnly`) a regular day only. */
function keepsHours(named: string, dayOnly = false): boolean {
  // (A day of a holiday, "le lundi de Pentecôte", is a holiday's: FOR_A_TIME knows them.)
  if (forATime(named.split(" "))) return false;
  const notices = [...named.matchAll(NOTICES)].map((m) => m[0]);
  const newHours = !dayOnly && NEW_HOURS.test(named) && notices.every((n) => n === "horaires");
  return newHours || (REGULAR_DAY.test(named) && notices.every((n) => HOURS_NOTICES.has(n)));
}

/**
 * `short`: whether the page says little in its own words (the cards of other pages it shows left out). `ownNames`: its
 * own names, each as its words (ownNamesOf).
 */
function datedNotice(e: CrawlEntry, text: string, short: () => boolean, ownNames: string[][]): string | null {
  const named = words(`${e.title} ${e.headline} ${e.h1} ${pathOf(e.url).replace(/[-_/.]/g, " ")}`).join(" ");
  const works = WORKS.exec(named);
  const what = NOTICE.exec(named) ?? (works && short() ? works : null);
  if (!what) return null;
  if (keepsHours(named)) return null;
  // The year its names say: its title's, headline's or H1's, or its URL's as yearInUrl reads a URL (not a segment's
  // leading id, Joomla's `/2015-infos-pratiques`, nor a figure inside a longer one: an outside review's case).
  const namedYear = YEAR.exec(words(`${e.title} ${e.headline} ${e.h1}`).join(" "))?.[1] ?? yearInUrl(pathOf(e.url))?.toString();
  // The practical information page ("Infos pratiques", by one of its own names alone: its title, H1, headline or URL's
  // last segment, as the matcher reads it) dated by its text alone ("Fermé le mercredi depuis avril 2024", "Le samedi
  // de 9 h à 12 h 30, depuis septembre 2023"): a standing page giving the hours a change began, not a notice of its
  // time, as the short pages' rule below reads it. Notion's and Divi's truths send theirs to the directions page.
  // Only where the notice its names say is the hours alone and for no limited time: "Infos pratiques : fermeture
  // exceptionnelle du 24 décembre", "Horaires d'été" under a template's title "Infos pratiques", "Info utile :
  // fermeture pour congés", a move, are notices of their time however they are filed (an outside review's cases); so is
  // a name dating itself ("Infos pratiques : horaires 2020").
  const notices = [...named.matchAll(NOTICES)].map((m) => m[0]);
  const hoursOnly = notices.length > 0 && notices.every((n) => n === "horaires") && !WORKS.test(named) && !forATime(named.split(" "));
  if (!namedYear && hoursOnly && ownNames.some(namesPracticalInfo)) return null;
  const year = namedYear ?? DATED.exec(words(text.slice(0, 600)).join(" "))?.[1];
  return year && Number(year) < new Date().getFullYear() ? `${what[0]} ${year}` : null;
}

/** A page's own names, each as its words (words()): its title, H1, headline and its URL's last segment. */
const ownNamesOf = (e: CrawlEntry): string[][] => [e.title, e.h1, e.headline, lastSegment(pathOf(e.url))].map((n) => words(n));

export const isDocument = (e: CrawlEntry) => e.status === 200 && e.redirects.length === 0 && DOCUMENT_TYPE.test(e.content_type);

export interface SiteFacts {
  rows: Assessment[];
  groups: string[][];
  /** A duplicate or near-duplicate page's original (its URL): it is redirected with it. */
  duplicateOf: Map<string, string>;
  /** The crawled pages linking to each URL. */
  linkedFrom: Map<string, string[]>;
  /**
   * The old home page where it is not at the root: the page the root redirects to on the same host (Docvadis's
   * `/cabinet-petit/index.html`), or a crawl started below the root began at, when its shape or the site's "Accueil"
   * links say it is the home page and the assessment keeps it; its original and copies (`/cabinet-petit/`). The root
   * itself is not in it.
   */
  homeUrls: Set<string>;
}

/**
 * Verdicts as the tool suggests them, in crawl order, judged on each page's own content (the site's
 * boilerplate taken out, boilerplate.ts): its words, whether another page says the same, whether other
 * pages link to it, whether it is a listing of other pages. Never on a date in its URL: an evergreen post
 * of 2017 is as good a page as any.
 */
export function assessPages(entries: CrawlEntry[]): SiteFacts {
  const byUrl = new Map(entries.map((e) => [e.url, e]));
  const rows = new Map<string, Assessment>();
  const isPage = (e: CrawlEntry) => e.status === 200 && e.redirects.length === 0 && !e.error && /html/i.test(e.content_type);
  const own = ownContent(entries);
  /** A page's own words outside its links' labels (outsideLinkLabels), cut once for the listing and notice checks. */
  const ownParts = new Map<string, string[]>();
  const ownWords = (e: CrawlEntry): string[] => {
    let parts = ownParts.get(e.url);
    if (!parts) ownParts.set(e.url, (parts = outsideLinkLabels(own.get(e.url)!.text, e.anchors ?? [], e.url)));
    return parts;
  };
  const wordsOf = (e: CrawlEntry) => own.get(e.url)?.words ?? e.word_count;

  // A link to an old URL the old site redirects is a link to the page it ends on (the menu's /contact.php).
  const landing = (url: string) => {
    const e = byUrl.get(url);
    return e?.redirects.length && byUrl.has(e.final_url) ? e.final_url : url;
  };
  const linkedFrom = new Map<string, string[]>();
  for (const e of entries.filter(isPage)) {
    for (const link of new Set(e.links.flatMap((l) => [l, landing(l)]))) {
      if (link !== e.url) linkedFrom.set(link, [...(linkedFrom.get(link) ?? []), e.url]);
    }
  }

  // Duplicates: the same text exactly, or most of its word triples. The shortest URL is the original.
  // The original of a group: a URL that names its page by words before one naming it by an id (`/le-cabinet`
  // before `/node/2`: its words help the matching), then the shortest.
  const idOnly = (e: CrawlEntry) => (isIdOnlyUrl(pathOf(e.url)) ? 1 : 0);
  const { platform } = detectPlatform(entries);
  // Whether a URL is a listing's by its shape, as written or as the platform reads it (Dotclear's `/index.php?tag/x`
  // is its `/tag/x`): decided once per URL.
  const listingShaped = new Map(
    entries.map((e) => {
      const path = pathOf(e.url);
      return [e.url, LISTING_URL.test(path) || LISTING_URL.test(oldUrlForm(path, platform)?.path ?? path)] as const;
    }),
  );
  // (And a page before a listing that repeats it: a tag page holding one post is that post's copy, not its original.)
  const listingUrl = (e: CrawlEntry) => (listingShaped.get(e.url) ? 1 : 0);
  const pages = entries
    .filter((e) => isPage(e) && wordsOf(e) > 0)
    .sort((a, b) => listingUrl(a) - listingUrl(b) || idOnly(a) - idOnly(b) || a.url.length - b.url.length || (a.url < b.url ? -1 : 1));
  const originalOf = new Map<string, { url: string; similarity: number }>();
  const groups: string[][] = [];
  /**
   * Whether two pages call themselves the same: their H1s share half their words where both have one, else their titles
   * (like with like: a print view without its H1 is its page's copy).
   */
  const sameName = (a: CrawlEntry, b: CrawlEntry) =>
    a.h1 && b.h1 ? jaccard(new Set(words(a.h1)), new Set(words(b.h1))) >= 0.5 : jaccard(new Set(words(a.title)), new Set(words(b.title))) >= 0.5;
  const triples = new Map(pages.map((e) => [e.url, shingles(own.get(e.url)!.text)]));
  for (const [i, page] of pages.entries()) {
    if (originalOf.has(page.url)) continue;
    const group = [page.url];
    const text = words(own.get(page.url)!.text).join(" ");
    for (const other of pages.slice(i + 1)) {
      if (originalOf.has(other.url)) continue;
      const same = words(own.get(other.url)!.text).join(" ") === text;
      const similarity = same ? 1 : jaccard(triples.get(page.url)!, triples.get(other.url)!);
      // A near-duplicate calls itself what its original does: two short posts of one template ("Nouveau : l'empreinte
      // optique", "Fermeture de fin d'année"), most of their words the template's, are two pages.
      if (similarity >= NEAR_DUPLICATE && (same || similarity >= SURE_DUPLICATE || sameName(page, other))) {
        originalOf.set(other.url, { url: page.url, similarity });
        group.push(other.url);
      }
    }
    if (group.length > 1) groups.push(group);
  }
  // How many pages carry each headline, folded as boilerplate.ts folds text ("Notre Équipe " is "Notre équipe"), a
  // page and its copies (a print view, an index.html) once: one page printed three times is no section.
  const headlineKey = (e: CrawlEntry) => words(e.headline || e.h1).join(" ");
  const headlineCount = new Map<string, number>();
  for (const e of pages) if (!originalOf.has(e.url) && headlineKey(e)) headlineCount.set(headlineKey(e), (headlineCount.get(headlineKey(e)) ?? 0) + 1);

  // The home page where it is not at the root (SiteFacts.homeUrls): the page the root redirects to on the same host (a
  // hosted site's folder, Docvadis's `/cabinet-petit/index.html`; a language's, `/fr/`), or where a crawl started below
  // the root began (no `/` crawled). Only when it is the site's home by its shape or by its links, not by the redirect
  // alone: a root may send its visitors to a closure notice, a maintenance or login page, a promotion (a redirect to the
  // home page is then a soft 404). By its links: the page most pages' "Accueil" link points to (a link to the root
  // itself says nothing of which page it shows); by its shape, where the links name none: a folder's index
  // (`/x/`, `/x/index.*`). Never a page named for maintenance or a login (HOME_IMPOSTOR), nor one the assessment
  // skips (a dated notice: checked on its verdict below).
  const rootOf = (e: CrawlEntry) => new URL(e.url).pathname === "/" && !new URL(e.url).search;
  const root = entries.find(rootOf);
  const start = root ?? entries[0];
  const sameHost = (a: string, b: string) => new URL(a).host === new URL(b).host;
  const candidate = !start ? null : start.redirects.length ? (sameHost(start.final_url, start.url) ? start.final_url : null) : root ? null : start.url;
  const candidatePage = candidate !== null ? byUrl.get(candidate) : undefined;
  const homeOriginal = candidatePage && isPage(candidatePage) ? (originalOf.get(candidatePage.url)?.url ?? candidatePage.url) : null;
  const homeGroup = homeOriginal ? [homeOriginal, ...[...originalOf].filter(([, o]) => o.url === homeOriginal).map(([url]) => url)] : [];
  const linkedAsHome = new Map<string, number>();
  let linkingHome = 0;
  for (const e of pages) {
    const to = new Set((e.anchors ?? []).filter((a) => HOME_LABEL.test(words(a.text).join(" ")) && !(root?.redirects.length && a.url === root.url)).map((a) => originalOf.get(a.url)?.url ?? a.url));
    if (to.size) linkingHome++;
    for (const url of to) linkedAsHome.set(url, (linkedAsHome.get(url) ?? 0) + 1);
  }
  const [byLinks, linkedCount] = [...linkedAsHome].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  const isHome =
    homeOriginal !== null &&
    (byLinks !== null && 2 * linkedCount > linkingHome ? byLinks === homeOriginal : homeGroup.some((url) => /\/(?:index\.[a-z0-9]+)?$/i.test(new URL(url).pathname) && !new URL(url).search)) &&
    !homeGroup.some((url) => HOME_IMPOSTOR.test(words([pathOf(url), byUrl.get(url)!.title, byUrl.get(url)!.h1].join(" ")).join(" ")));
  const homeUrls = new Set(isHome ? homeGroup : []);

  /**
   * What a page quotes of the pages it links to (`linked`, its own words' triples `mine`): the triples it shares with
   * each, largest first.
   */
  const quotedShares = (e: CrawlEntry, linked: string[], mine: ReadonlySet<string>): string[][] => {
    const group = (url: string) => originalOf.get(url)?.url ?? url;
    // Each source must bring triples of its own: a short post whose one excerpt is on the blog page and on its
    // category page (both linked from it) is covered twice by the same words, and is no listing of them.
    // Nor is a page that shows this one's words as its card (a listing of it, the home page's cards): it quotes them.
    // (Not for a job's ad, "Offre d'emploi : assistant(e) dentaire": the blind truths split on an old ad for a job the
    // new site still offers, one sending it to the offer, one dropping it as filled; such a post is judged as before.)
    const mayBeQuoted = !namesAJob(pathOf(e.url), [e.title, e.h1, e.headline]);
    // (Named by its headline, unless that is a section's, several pages' (Docvadis's "Actualités du cabinet" over each
    // news item, whose own title is an <h3>): then by its own title.)
    const nameOf = (p: CrawlEntry) => {
      const headline = p.headline || p.h1;
      return headline && (headlineCount.get(headlineKey(p)) ?? 0) < SECTION_HEADLINE ? headline : own.get(p.url)!.title;
    };
    const labelsTo = (l: CrawlEntry) => (l.anchors ?? []).filter((a) => landing(a.url) === e.url).map((a) => a.text);
    // (The texts of its own links to other pages: a breadcrumb ending in its name, openingOf.)
    const crumbs = (e.anchors ?? []).filter((a) => landing(a.url) !== e.url).map((a) => a.text);
    return linked
      .filter((l) => group(l) !== group(e.url)) // not its own duplicate
      .map((l) => ({ page: byUrl.get(l)!, shared: [...mine].filter((t) => triples.get(l)!.has(t)) }))
      .filter(({ page, shared }) => shared.length && !(mayBeQuoted && showsAsCard({ text: own.get(page.url)!.text, headline: page.headline || page.h1 }, labelsTo(page), new Set(shared), { text: own.get(e.url)!.text, name: nameOf(e), crumbs })))
      .map(({ shared }) => shared)
      .sort((a, b) => b.length - a.length);
  };
  /** The pages a page links to (where the old site's redirects land), crawled, not itself. */
  const linkedOf = (e: CrawlEntry) => [...new Set(e.links.map(landing))].filter((l) => l !== e.url && triples.has(l));
  /**
   * A page's own words (ownWords) without those it quotes of the pages it links to: the excerpts its cards show (an
   * "À lire aussi" card's "le cabinet ferme ses portes" is that other post's notice, not this one's).
   */
  const unquoted = (e: CrawlEntry): string => {
    const parts = ownWords(e);
    const quoted = new Set(quotedShares(e, linkedOf(e), new Set(parts.flatMap((part) => triplesInOrder(part)))).flat());
    return parts
      .map((part) => {
        const w = words(part);
        const cut = new Uint8Array(w.length);
        for (let i = 0; i + 3 <= w.length; i++) if (quoted.has(w.slice(i, i + 3).join(" "))) cut.fill(1, i, i + 3);
        return w.filter((_, i) => !cut[i]).join(" ");
      })
      .filter(Boolean)
      .join(" . ");
  };

  /** A page made of the titles and excerpts of the pages it links to (a blog page, a category...). */
  const listingOf = (e: CrawlEntry): number | null => {
    if ((new URL(e.url).pathname === "/" && !new URL(e.url).search) || homeUrls.has(e.url)) return null; // the home page is the home page
    const linked = linkedOf(e);
    if (listingShaped.get(e.url)) return linked.length;
    if (LISTING_PAGE_QUERY.test(pathOf(e.url)) && linked.length >= 2) return linked.length;
    // One post or page of the platform, however short (under any of its URLs: `/node/26` and its alias, the id
    // its markup names: SPIP's `article-titre-12`).
    const urls = [e.url, ...[...originalOf].filter(([, o]) => o.url === e.url).map(([url]) => url), ...(e.own_urls ?? [])];
    if (urls.some((url) => isItemUrl(platform, pathOf(url)))) return null;
    const all = triples.get(e.url);
    if (!all?.size) return null;
    // Its own words, without the texts of its short links: a list of titles (a menu, "Dans la même rubrique", a
    // breadcrumb) names other pages, it holds no excerpt of them. A page that is little else is a site map.
    const ordered = ownWords(e).map((part) => triplesInOrder(part));
    const mine = new Set(ordered.flat());
    if (linked.length >= MIN_LISTED && all.size >= MIN_LIST_TRIPLES && mine.size < LINKS_ONLY * all.size) return linked.length;
    // Excerpts of several pages: a page that repeats one other page (a practitioner's page and the team page) is not one.
    const covered = new Set<string>();
    let sources = 0;
    const shares = quotedShares(e, linked, mine);
    for (const shared of shares) {
      const fresh = shared.filter((t) => !covered.has(t));
      for (const t of shared) covered.add(t);
      if (fresh.length >= 3) sources++;
    }
    // Its longest run of triples of its own, in the order of its text.
    let longest = 0;
    for (const triples of ordered) {
      let run = 0;
      for (const t of triples) longest = Math.max(longest, (run = covered.has(t) ? 0 : run + 1));
    }
    return sources >= 2 && covered.size / mine.size >= LISTING_COVERAGE && longest < OWN_RUN ? linked.length : null;
  };

  const suggest = (e: CrawlEntry): Pick<Assessment, "verdict" | "reason"> => {
    if (e.error) return { verdict: "skip", reason: `request failed: ${e.error}` };
    if (e.redirects.length) {
      const final = byUrl.get(e.final_url);
      if (!final) return { verdict: "skip", reason: `redirected off the site to ${e.final_url}` };
      return { verdict: suggest(final).verdict, reason: `redirected by the old site to ${pathOf(e.final_url)}: follows it` };
    }
    if (e.status !== 200) return { verdict: "skip", reason: `answers ${e.status} on the old site` };
    const from = linkedFrom.get(e.url) ?? [];
    if (isDocument(e)) {
      const where = from.length ? `linked from ${from.slice(0, 3).map(pathOf).join(", ")}${from.length > 3 ? "..." : ""}` : "linked from no page";
      return { verdict: "rewrite", reason: `document (${e.content_type}), ${where}: upload it to the new site, or it follows the page that links to it` };
    }
    if (!/html/.test(e.content_type)) return { verdict: "skip", reason: `not a page (${e.content_type || "no content type"})` };
    if (e.noindex) return { verdict: "skip", reason: "noindex on the old site" };
    const original = originalOf.get(e.url);
    if (original?.similarity === 1) return { verdict: suggest(byUrl.get(original.url)!).verdict, reason: `duplicate of ${pathOf(original.url)}: redirected with it` };
    const listed = listingOf(e);
    if (listed !== null) return { verdict: "skip", reason: `listing of ${listed} pages (blog, category, tag or archive): no content of its own, its pages are redirected one by one` };
    if (original) return { verdict: "rewrite", reason: `near-duplicate of ${pathOf(original.url)} (similarity ${original.similarity.toFixed(2)}): merge into one page` };
    const count = wordsOf(e);
    if (count === 0) return { verdict: "skip", reason: "no text of its own" };
    // (Its own names, read by the notice, event and short pages' rules: cut once.)
    const ownNames = ownNamesOf(e);
    const ownName = ownNames.flat();
    const notice = datedNotice(e, own.get(e.url)?.text ?? e.body_text, () => unquoted(e).split(" ").filter((w) => w !== ".").length < THIN_WORDS, ownNames);
    if (notice) return { verdict: "skip", reason: `dated notice: ${notice}, past` };
    const event = EVENT.exec(ownName.join(" "));
    if (event) return { verdict: "skip", reason: `an event of its time: ${event[0]}` };
    if (count < THIN_WORDS) {
      // A short notice (its text says what: a closure, holidays...) dated in a past year; a short advice post stays.
      // Its own words: a sidebar's "Fermeture estivale 2021" names another page, not this one.
      // (Not the practical information page carrying this month's closure, "Infos pratiques": a standing page.)
      // (Nor the words it quotes: the cards of an "À lire aussi" under it.)
      const text = unquoted(e);
      const dated = DATED.exec(text);
      // (Its own name and its URL's last segment: a section "infos pratiques" holds dated notices too.)
      // (Nor a regular day it keeps: "À partir de septembre, le cabinet ferme le mercredi". Short news of new hours
      // dated in a past year, "Nouveaux horaires" of 2014, are of their time: two blind truths drop theirs.)
      const standing = namesPracticalInfo(ownName) || keepsHours(ownName.join(" "), true);
      if (dated && !standing && NOTICE.test(text) && Number(dated[1]) < new Date().getFullYear()) return { verdict: "skip", reason: `news of its time: ${count} words about ${dated[0]}` };
      return { verdict: "rewrite", reason: `thin: ${count} words (fewer than ${THIN_WORDS})${from.length ? "" : ", linked from no page"}` };
    }
    return { verdict: "reuse", reason: `${count} words, linked from ${from.length} page${from.length === 1 ? "" : "s"}` };
  };

  for (const e of entries) {
    const issues: string[] = [];
    if (isPage(e)) {
      if (!e.title) issues.push("no title");
      if (!e.meta_description) issues.push("no meta description");
      if (!e.h1) issues.push(e.headline ? "headline not in an H1" : "no H1");
      // A decorative image (alt="") is right as it is; only a missing attribute is an issue.
      const noAlt = e.images.filter((i) => i.alt === null).length;
      if (noAlt) issues.push(`${noAlt} image${noAlt > 1 ? "s" : ""} without alt`);
      if (wordsOf(e) < THIN_WORDS) issues.push("thin");
    }
    rows.set(e.url, { path: pathOf(e.url), status: e.status, words: isPage(e) ? wordsOf(e) : e.word_count, ...suggest(e), issues, notes: "" });
  }
  // (A root's target the assessment skips, a dated notice, is no home page: homeUrls above.)
  if (homeOriginal !== null && rows.get(homeOriginal)?.verdict === "skip") homeUrls.clear();
  const duplicateOf = new Map([...originalOf].map(([url, o]) => [url, o.url]));
  return { rows: [...rows.values()], groups: groups.map((g) => g.map(pathOf)), duplicateOf, linkedFrom, homeUrls };
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
const HEADER = ["old URL", "status", "words", "verdict", "reason", "issues", "notes"];

/** The operator's verdicts and notes of an existing content-assessment.md, by old URL path. */
export function readAssessment(file: string): Map<string, { verdict: Verdict; notes: string }> {
  const out = new Map<string, { verdict: Verdict; notes: string }>();
  if (!existsSync(file)) return out;
  let columns: string[] | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("|")) {
      columns = null;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().endsWith("|") ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, "|"));
    if (columns === null) {
      columns = cells.map((c) => c.toLowerCase());
      continue;
    }
    const [url, verdict, notes] = ["old url", "verdict", "notes"].map((name) => cells[columns!.indexOf(name)] ?? "");
    const path = url.replace(/^`|`$/g, "");
    const v = verdict.toLowerCase() as Verdict;
    if (path.startsWith("/") && VERDICTS.includes(v)) out.set(path, { verdict: v, notes });
  }
  return out;
}

export function renderAssessment(code: string, rows: Assessment[], groups: string[][], edited: number): string {
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const pages = rows.filter((r) => r.status === 200 && !r.reason.startsWith("redirected"));
  const lines = [
    `# ${code}: content assessment of the old site`,
    "",
    "Written by `npm run migrate -- assess " + code + "` from `crawl.json`. The **verdict** (reuse, rewrite, skip) and",
    "**notes** columns are yours: edit them, the next run keeps them. A skipped page gets no redirect (its old URL",
    `answers 404 after cutover); the others are matched to the new site by \`npm run migrate -- redirects ${code}\`.`,
    "",
    "## Summary",
    "",
    "| | count |",
    "|---|---|",
    `| URLs crawled | ${rows.length} |`,
    `| reuse | ${count("reuse")} |`,
    `| rewrite | ${count("rewrite")} |`,
    `| skip | ${count("skip")} |`,
    `| thin pages (fewer than ${THIN_WORDS} words) | ${pages.filter((r) => r.issues.includes("thin")).length} |`,
    `| pages without a title | ${pages.filter((r) => r.issues.includes("no title")).length} |`,
    `| pages without a meta description | ${pages.filter((r) => r.issues.includes("no meta description")).length} |`,
    `| duplicate groups | ${groups.length} |`,
    `| verdicts edited by hand | ${edited} |`,
    "",
    "## Pages",
    "",
    `| ${HEADER.join(" | ")} |`,
    `|${HEADER.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| \`${cell(r.path)}\` | ${r.status} | ${r.words} | ${r.verdict} | ${cell(r.reason)} | ${cell(r.issues.join(", "))} | ${cell(r.notes)} |`),
    "",
    "## Documents",
    "",
    "Files the old site links to (PDF and office documents): upload the ones still useful to the new site; otherwise",
    "each old URL follows the page that links to it.",
    "",
    ...(rows.some((r) => r.reason.startsWith("document (")) ? rows.filter((r) => r.reason.startsWith("document (")).map((r) => `- \`${r.path}\`: ${cell(r.reason)}`) : ["None."]),
    "",
    "## Duplicates and near-duplicates",
    "",
    ...(groups.length ? groups.map((g) => `- ${g.map((p) => `\`${p}\``).join(", ")}`) : ["None."]),
    "",
  ];
  return lines.join("\n");
}

export async function runAssess(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const dir = migrationDir(code, parsed.options.dir);
  const entries = readCrawl(dir);
  const file = join(dir, ASSESSMENT_FILE);
  const previous = readAssessment(file);
  const { rows, groups } = assessPages(entries);
  let edited = 0;
  for (const row of rows) {
    const kept = previous.get(row.path);
    if (!kept) continue;
    row.notes = kept.notes;
    if (kept.verdict !== row.verdict) {
      row.reason = `${row.reason} (suggested: ${row.verdict})`;
      row.verdict = kept.verdict;
      edited++;
    }
  }
  writeFileAtomic(file, renderAssessment(code, rows, groups, edited));
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  io.log(`assess: ${rows.length} URLs: ${count("reuse")} reuse, ${count("rewrite")} rewrite, ${count("skip")} skip; ${groups.length} duplicate groups; ${edited} edited verdicts kept; written to ${file}`);
  return 0;
}
