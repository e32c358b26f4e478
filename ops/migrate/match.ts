/**
 * Matching an old page to a page of the new site: by its URL's words, its title and its text, each
 * compared on word stems (the first seven letters, so "implants" meets "implantologie"), the text by a
 * TF-IDF cosine over the new site's pages. The home page only takes the old home page: no old page is
 * sent to the home page for lack of a better match.
 */
import { normaliseRedirectPath } from "../../src/server/redirects/map";
import type { Platform } from "../../src/server/redirects/grammar";
import type { NewPage } from "./new-site";
import { containment, jaccard, keywords, slugWords } from "./text";

export interface OldPage {
  path: string;
  title: string;
  h1: string;
  text: string;
}

export interface Match {
  target: string;
  confidence: number;
  by: string;
}

/** Below this, an old page is listed as unmatched for the operator. */
export const MIN_CONFIDENCE = 0.2;
const WEIGHTS = { slug: 0.25, title: 0.25, text: 0.5 };

const stem = (word: string) => word.slice(0, 7);
const stems = (list: string[]) => new Set(list.map(stem));

export function createMatcher(pages: NewPage[], platform: Platform | null = null) {
  const candidates = pages.filter((p) => p.kind !== "home");
  const home = pages.find((p) => p.kind === "home");
  const docs = candidates.map((p) => keywords(p.text).map(stem));
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log((1 + candidates.length) / (1 + (df.get(term) ?? 0))) + 1;
  const vector = (terms: string[]) => {
    const v = new Map<string, number>();
    for (const t of terms) v.set(t, (v.get(t) ?? 0) + 1);
    for (const [t, n] of v) v.set(t, n * idf(t));
    return v;
  };
  const cosine = (a: Map<string, number>, b: Map<string, number>) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const [t, x] of a) {
      na += x * x;
      dot += x * (b.get(t) ?? 0);
    }
    for (const x of b.values()) nb += x * x;
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
  };
  const vectors = docs.map(vector);
  const slugSets = candidates.map((p) => stems(keywords(p.slug.replace(/-/g, " "))));
  const titleSets = candidates.map((p) => stems(keywords(p.title)));

  /** The best new page for an old one, or null with the best guess's confidence. */
  return (old: OldPage): { match: Match | null; best: Match | null } => {
    const form = normaliseRedirectPath(old.path, platform);
    if (form === "/" && home) return { match: { target: home.path, confidence: 1, by: "home page" }, best: null };
    // An old URL that is a spelling of a new page's own URL goes there (else it would shadow that page).
    const same = candidates.find((p) => normaliseRedirectPath(p.path, platform) === form);
    if (same) return { match: { target: same.path, confidence: 1, by: "same path" }, best: null };

    const slug = stems(slugWords(old.path));
    const title = stems(keywords(`${old.title} ${old.h1}`));
    const text = vector(keywords(old.text).map(stem));
    let best: Match | null = null;
    candidates.forEach((page, i) => {
      // A new title is short, an old one often carries the site's name: half the score is how much of
      // the new title the old one has.
      const scores = {
        slug: jaccard(slug, slugSets[i]),
        title: (containment(titleSets[i], title) + jaccard(titleSets[i], title)) / 2,
        text: cosine(text, vectors[i]),
      };
      const confidence = WEIGHTS.slug * scores.slug + WEIGHTS.title * scores.title + WEIGHTS.text * scores.text;
      if (!best || confidence > best.confidence) {
        const by = (Object.keys(scores) as (keyof typeof scores)[]).filter((k) => scores[k] >= 0.2).join(", ") || "text";
        best = { target: page.path, confidence: Math.round(confidence * 100) / 100, by };
      }
    });
    const found = best as Match | null;
    return { match: found && found.confidence >= MIN_CONFIDENCE ? found : null, best: found };
  };
}
