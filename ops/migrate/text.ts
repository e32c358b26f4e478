/**
 * Text measures shared by the assessment and the redirect matching: words (lower-cased, accents
 * folded), word counts, and similarities between two texts on sets of words or word triples.
 */

/** Lower-cased words without accents, apostrophes and punctuation splitting words. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Words as a person counts them: runs of letters or digits. */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

// Short function words carry no meaning for matching (French and English).
const STOP = new Set(
  "le la les un une des de du d l et ou a au aux en dans par pour sur avec sans ce cette ces qui que quoi est sont nos notre vos votre nous vous il elle on se ne pas plus the of and to in for on with is are our your html htm php index www".split(" "),
);

/** Meaningful words only. */
export function keywords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOP.has(w));
}

/** Jaccard similarity of two sets, 0 to 1 (0 when both are empty). */
export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Share of `a`'s items found in `b` (how much of a short text a longer one covers). */
export function containment<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / a.size;
}

/** Word triples: near-duplicate texts share most of them, texts on one topic few. */
export function shingles(text: string, size = 3): Set<string> {
  return new Set(triplesInOrder(text, size));
}

/** The runs of `size` words of a text, in its order (repeats kept). */
export function triplesInOrder(text: string, size = 3): string[] {
  const w = words(text);
  const out: string[] = [];
  for (let i = 0; i + size <= w.length; i++) out.push(w.slice(i, i + size).join(" "));
  return out;
}

/**
 * A URL path as its words read: its percent-escapes decoded (`/l-%C3%A9quipe` is `/l-équipe`), a malformed one left
 * as it is. For reading words only: an old URL's key is made by the map's own rule (normaliseRedirectPath).
 */
export function readablePath(path: string): string {
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (escaped) => {
    try {
      return decodeURIComponent(escaped);
    } catch {
      return escaped;
    }
  });
}

/** A URL path's last meaningful segment, without its page suffix ("/soins/implants-dentaires.html" -> implants-dentaires). */
export function lastSegment(path: string): string {
  const [route, query = ""] = readablePath(path).split(/\?(.*)/s);
  // A path carried by the query, as PluXml and Dotclear route (`/index.php?static2/notre-approche`,
  // `?post/2023/11/06/Pas-assez-d-os`, `?category/Recrutement`): its first parameter, a path with no "=", is the page's.
  const routed = /^([^=&]*\/[^=&]*)(?:&|$)/.exec(query)?.[1];
  const segments = (routed ?? route)
    .split("/")
    .filter(Boolean)
    .map((s) => s.replace(/\.(?:html?|php)$/i, ""))
    .filter((s) => s.toLowerCase() !== "index");
  return segments.at(-1) ?? "";
}

/** The keywords of a URL path's last meaningful segment ("/soins/implants-dentaires.html" -> implants, dentaires). */
export function slugWords(path: string): string[] {
  return keywords(lastSegment(path));
}

/**
 * Whether words (text.ts's `words`, in order) name a holiday's, a season's or a time's hours or closing: the holidays,
 * summer ("d'été", "cet été": not the verb's "a été"), winter, a lockdown, "temporaires", "exceptionnelle". A month
 * or the return after the summer is when new hours begin, not their end ("Nouveaux horaires à la rentrée", eighteen
 * blind truths of nineteen send those to the directions page). One vocabulary for the dated notices (assess.ts) and
 * the matcher (match.ts).
 */
export function forATime(list: readonly string[]): boolean {
  return list.some((w, i) => FOR_A_TIME.test(w) || (w === "ete" && /^(?:d|l|cet|de|en|pendant)$/.test(list[i - 1] ?? "")));
}
const FOR_A_TIME = /^(?:fetes?|vacances|noel|paques|toussaint|pentecote|ascension|assomption|armistice|conges|pont|ponts|feries?|estival|estivale|estivales|estivaux|hiver|hivernaux|reveillon|confinement|covid|temporaires?|provisoires?|exceptionnel|exceptionnelle|exceptionnels|exceptionnelles)$/;

/**
 * A CMS's listing URLs: blog pages, categories, tags, archives by date or author, searches, feeds. A listing's further
 * page is `/page/<number>` ending the path, as grammar.ts's platform rules read it (`\/page\/\d+$`), here with a final
 * slash, `.html` or a query too (`/page/2/`, `/blog/page/2.html`); a folder named `page` is none (Docvadis's
 * `/page/<rubrique>/<title>.html`, a page under `/page/12/`).
 */
export const LISTING_URL = /[?&](?:cat|tag|m|author|paged|s|year|monthnum|feed|offset|category)=|[?&](?:amp;)?view=(?:category|tag|categories|featured)\b|\/(?:category|categories|categorie|tag|tags|etiquette|author|auteur|feed|archive|archives|taxonomy\/term)\/|\/page\/\d+(?:\/|\.html?)?(?:$|\?)|\/(?:tag|category|page|author):[^/]+|\/component\/tags\/|\/\d{4}\/(?:\d{2}\/)?$/i;

/** The words of a practical information page's name ("Infos pratiques", "Informations utiles"; "infos" is a FILLER). */
export const PRACTICAL = /^(?:pratiques?|utiles?)$/;
const INFO = /^(?:infos?|informations?)$/;
/** Whether words name the practical information page ("Infos pratiques", "Informations utiles"): one vocabulary for the assessment and the matcher. */
export function namesPracticalInfo(list: readonly string[]): boolean {
  return list.some((w) => INFO.test(w)) && list.some((w) => PRACTICAL.test(w));
}

/** The French months and weekdays as words() spells them (accents dropped): one vocabulary for the assessment and the matcher. */
export const FRENCH_MONTHS = "janvier|fevrier|mars|avril|mai|juin|juillet|aout|septembre|octobre|novembre|decembre";
export const WEEKDAYS = "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche";
/** The months, French and English, and their abbreviations ("sept.", "janv."). */
const MONTHS = `${FRENCH_MONTHS}|janv|fevr|fev|avr|juil|sept|oct|nov|dec|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep`;
/**
 * A date with its month: what a news item of its time names ("du 5 au 19 août 2019", "Publié le 4 mars 2024", Odoo's
 * "sept. 14, 2026"), unlike "fondé en 2009".
 */
export const DATED = new RegExp(`\\b(?:${MONTHS})\\s+(?:\\d{1,2}\\s+)?((?:19|20)\\d\\d)\\b`);
/** A date in figures, day first ("14/09/2026", "14.09.2026"). */
const DATED_FIGURES = /\b\d{1,2}[/.]\d{1,2}[/.]((?:19|20)\d\d)\b/;
/**
 * A year in a URL (`/2018/09/10/slug/`, `?post/2026/09/14/...`, `offre-2016.pdf`), not inside a longer number, nor a
 * segment's leading id (`/actualites/2043-le-cabinet-recrute`: Joomla's, Solocal's), nor an amount (`-2000-euros`).
 */
const URL_YEAR = /(?<![\d/?])((?:19|20)\d\d)(?!\d|-[a-z]|-?(?:euros?|eur|brut|net)\b)|(?<=[/?])((?:19|20)\d\d)(?=[/.]|$|-\d)/gi;
/** A year that can be a page's: after the web began, and not beyond next year. */
const plausibleYear = (year: number) => year >= 1995 && year <= new Date().getFullYear() + 1;

/** The latest year a URL names, or null. */
export function yearInUrl(path: string): number | null {
  const years = [...path.matchAll(URL_YEAR)].map((m) => Number(m[1] ?? m[2])).filter(plausibleYear);
  return years.length ? Math.max(...years) : null;
}

/**
 * The year a page says it was published: the date it states for itself (page.ts's `published`), else a year of its
 * URL, else a month and year at the start of its text ("Publié le 4 mars 2024"); null when it says none.
 */
export function publishedYear(page: { path: string; text: string; published?: string }): number | null {
  const stated = /^(\d{4})(?:-|$)/.exec(page.published ?? "")?.[1];
  if (stated) return Number(stated);
  // The date it says it was published ("Publié le 4 mars 2024"), else one of its first lines, its title's (Odoo's "par
  // Dr Bernard — sept. 1, 2026"): not a date further in its text ("... ouvert depuis mai 2024": the outside review's).
  const said = /\b(?:publi[ée]e?|post[ée]e?|r[ée]dig[ée]e?|mis en ligne)\s+(?:le\s+)?(.{0,40})/i.exec(page.text.slice(0, 600))?.[1] ?? "";
  const textYear = [said, page.text.slice(0, 200)].map((start) => Number(DATED.exec(words(start).join(" "))?.[1] ?? DATED_FIGURES.exec(start)?.[1])).find(plausibleYear);
  return yearInUrl(page.path) ?? textYear ?? null;
}
