/**
 * What an old site repeats on most of its pages, taken out before pages are measured and matched: a title
 * suffix or prefix ("... - Cabinet Dentaire du Dr Martin"), and runs of text such as a cookie banner, a
 * sidebar of recent posts, a contact widget or a menu the theme did not put in <nav>. Left in, they make
 * every page look alike (15 of 30 best guesses went to the page whose title held the suffix's "dentaire")
 * and inflate thin pages' word counts. Learnt from the crawl itself: a run of words is boilerplate when
 * at least half the site's distinct pages (and four at least) carry it; copies of one text count once.
 * A section has its own: what at least half the pages of one folder carry (and four at least) is the
 * section's template, e.g. a blog post's "Retour au blog", "Ajouter un commentaire", its share buttons; left
 * in, each post looked like a listing of the others (its chrome was found on every post it linked to).
 */
import type { CrawlEntry } from "./files";
import { wordCount } from "./text";

/** A run of this many words shared by most pages is boilerplate; shorter runs are ordinary phrases. */
const RUN = 6;
/** Share of the pages that must carry a run or a title part for it to be boilerplate. */
const MOST = 0.5;
/** Fewer distinct pages than this say nothing of a site's template (three copies of one page are not one). */
const MIN_PAGES = 4;
// What separates a page's own title from the site's name in a <title>.
const TITLE_SEPARATOR = /\s+[-–—|:·•»]\s+/;

export interface OwnContent {
  title: string;
  text: string;
  words: number;
}

const fold = (word: string) =>
  word
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

interface Token {
  key: string;
  start: number;
}

function tokens(text: string): Token[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ key: fold(m[0]), start: m.index! }));
}

const isPage = (e: CrawlEntry) => e.status === 200 && e.redirects.length === 0 && !e.error && /html/i.test(e.content_type);

/** The folder a page's URL is in (`/blog/x.html` and `/blog/y/` are in `/blog/`): its section. */
export function sectionOf(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, "");
  return path.slice(0, path.lastIndexOf("/") + 1) || "/";
}

/** The runs of RUN words of each distinct text, counted once per text: run -> how many texts carry it. */
function runCounts(texts: Iterable<Token[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const list of texts) {
    const runs = new Set<string>();
    for (let i = 0; i + RUN <= list.length; i++) runs.add(list.slice(i, i + RUN).map((t) => t.key).join(" "));
    for (const run of runs) counts.set(run, (counts.get(run) ?? 0) + 1);
  }
  return counts;
}

/** Each HTML page's own title and text, the site's boilerplate taken out; keyed by URL. */
export function ownContent(entries: CrawlEntry[]): Map<string, OwnContent> {
  const pages = entries.filter(isPage);
  const texts = new Set(pages.map((e) => e.body_text));
  const needed = Math.max(MIN_PAGES, Math.ceil(texts.size * MOST));
  const out = new Map<string, OwnContent>();

  // Text: runs of RUN words found on `needed` distinct pages or more, or on half the distinct pages of the
  // page's section (MIN_PAGES at least).
  const tokensOf = new Map(pages.map((e) => [e.url, tokens(e.body_text)]));
  const pagesWith = runCounts(new Map(pages.map((e) => [e.body_text, tokensOf.get(e.url)!])).values());
  const sections = new Map<string, Map<string, Token[]>>();
  const sectionsOf = new Map<string, Set<string>>();
  for (const e of pages) {
    const section = sectionOf(e.url);
    if (!sections.has(section)) sections.set(section, new Map());
    sections.get(section)!.set(e.body_text, tokensOf.get(e.url)!);
    if (!sectionsOf.has(e.body_text)) sectionsOf.set(e.body_text, new Set());
    sectionsOf.get(e.body_text)!.add(section);
  }
  const sectionCommon = new Map<string, (run: string) => boolean>();
  for (const [section, texts] of sections) {
    if (texts.size < MIN_PAGES) continue;
    const counts = runCounts(texts.values());
    const inSection = Math.ceil(texts.size * MOST);
    sectionCommon.set(section, (run) => (counts.get(run) ?? 0) >= inSection);
  }
  const siteCommon = (run: string) => (pagesWith.get(run) ?? 0) >= needed;

  // Titles: leading or trailing parts (between separators) found on `needed` titles or more, peeled from either end
  // while they are: the site's name and its tagline after it ("Arrivée du Dr Nadia Haddad - Cabinet dentaire du Dr
  // Camille Petit - Chirurgien-dentiste à Lille", Docvadis's) are both the site's, not only the last. (A news item
  // named by its own title, its headline being the section's, must find that name in its text: assess.ts openingOf.)
  const parts = new Map<string, number>();
  // The same parts counted where they stand first or last only: a section's name is in the middle of its pages'
  // titles ("Implants - Nos soins - Cabinet…") and at an end of its own ("Nos soins - Cabinet…").
  const endParts = new Map<string, number>();
  for (const e of pages) {
    const split = e.title.split(TITLE_SEPARATOR);
    if (split.length < 2) continue;
    for (const part of new Set(split.map(fold))) parts.set(part, (parts.get(part) ?? 0) + 1);
    for (const part of new Set([split[0], split.at(-1)!].map(fold))) endParts.set(part, (endParts.get(part) ?? 0) + 1);
  }
  const ownTitle = (title: string) => {
    const split = title.split(TITLE_SEPARATOR);
    if (split.length < 2) return title;
    const common = (part: string) => (parts.get(fold(part)) ?? 0) >= needed;
    let [from, to] = [0, split.length];
    while (from < to && common(split[from])) from++;
    while (to > from && common(split[to - 1])) to--;
    if (from < to) return split.slice(from, to).join(" - ");
    // Every part is found on many titles (a section's hub, "Nos soins - Cabinet…"; a page titled like the tagline,
    // "Dr Petit | Dentiste à Lille"): only its first and last parts common as first or last parts are the site's.
    const kept = split.filter((part, i) => !((i === 0 || i === split.length - 1) && (endParts.get(fold(part)) ?? 0) >= needed));
    return kept.length ? kept.join(" - ") : title;
  };

  for (const e of pages) {
    const list = tokensOf.get(e.url)!;
    const drop = new Array<boolean>(list.length).fill(false);
    // Every copy of one text gets the same own text (a page and its alias may sit in two sections: `/node/30`
    // and `/actualites/horaires`): what any of its sections repeats is dropped from all of them.
    const inSections = [...sectionsOf.get(e.body_text)!].flatMap((section) => sectionCommon.get(section) ?? []);
    const common = (run: string) => siteCommon(run) || inSections.some((inSection) => inSection(run));
    for (let i = 0; i + RUN <= list.length; i++) {
      if (common(list.slice(i, i + RUN).map((t) => t.key).join(" "))) drop.fill(true, i, i + RUN);
    }
    let text = e.body_text;
    if (drop.includes(true)) {
      // Each kept word with what follows it up to the next word (its punctuation and space).
      text = list
        .map((t, i) => (drop[i] ? "" : e.body_text.slice(t.start, i + 1 < list.length ? list[i + 1].start : undefined)))
        .join("")
        .replace(/\s+/g, " ")
        .trim();
    }
    out.set(e.url, { title: ownTitle(e.title), text, words: text === e.body_text ? e.word_count : wordCount(text) });
  }
  return out;
}
