/**
 * The files of one migration, $MIGRATIONS_DIR/<code>/ (default migrations/<code>/, the directory the
 * server loads redirects.json from): crawl.json and its schema, the content assessment, the redirect
 * map, and the reports. JSON is written with sorted entries and a fixed key order, so a new crawl of the
 * same site gives the same file and a changed site a readable diff.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { PRACTICE_CODE } from "../../src/server/tenancy/registry";
import { REDIRECTS_FILE } from "../../src/server/redirects/map";
import { UsageError } from "./args";

export const CRAWL_FILE = "crawl.json";
export const CRAWL_STATE_FILE = ".crawl-state.json";
export const ASSESSMENT_FILE = "content-assessment.md";
export const REVIEW_FILE = "redirects-review.md";
/** The same review for `migrate review` to walk: the unmatched and low-confidence old URLs with their best guesses. */
export const REVIEW_DATA_FILE = "redirects-review.json";
export const VERIFY_REPORT_FILE = "verify-report.json";
export { REDIRECTS_FILE };

export const crawlEntrySchema = z.object({
  url: z.string().url(),
  /** The final status after following the old site's redirects; 0 when the request failed. */
  status: z.number().int(),
  /** Each hop the old site answered with a redirect: the URL asked and its status. */
  redirects: z.array(z.object({ url: z.string(), status: z.number().int() })),
  /** Where the redirects ended (the URL itself when there were none). */
  final_url: z.string(),
  content_type: z.string(),
  title: z.string(),
  meta_description: z.string(),
  h1: z.string(),
  /** The main text: navigation, header, footer, scripts and forms left out. */
  body_text: z.string(),
  images: z.array(z.object({ src: z.string(), alt: z.string().nullable() })),
  word_count: z.number().int().min(0),
  /** Same-site links the page makes (absolute, without fragment), sorted. */
  links: z.array(z.string()),
  noindex: z.boolean(),
  /**
   * What the page calls itself beyond its <title>: its headline (the H1, else a heading marked
   * `itemprop="headline"` or the first heading of its content: Joomla's articles have an <h2>), its og:title,
   * and the text of each same-site link it makes (menu labels, anchors: what the old site calls the pages it
   * links to). Absent from a crawl.json of an earlier version: read as empty.
   */
  headline: z.string().default(""),
  /** Its headline without its H1 (the heading marked as the headline, else its first <h2>). */
  subheadline: z.string().default(""),
  /** The French version a translation of a page names in its head (hreflang="fr"): "" when none. */
  translation_of: z.string().default(""),
  og_title: z.string().default(""),
  anchors: z.array(z.object({ url: z.string(), text: z.string() })).default([]),
  /**
   * Other URLs the page names as its own without linking to them (page.ts: WordPress's `?page_id=N` of its
   * body class): aliases of its redirect. Absent from a crawl.json of an earlier version.
   */
  own_urls: z.array(z.string()).optional(),
  /** WordPress's post type of a single post (page.ts's post_type), "" when none; absent from a crawl.json of an earlier version. */
  post_type: z.string().optional(),
  /** The numbers the page's markup names it by (page.ts's printed_ids), which probe.ts asks the old site about; absent from a crawl.json of an earlier version. */
  printed_ids: z.array(z.string()).optional(),
  trail: z.array(z.string()).optional(),
  /** The date the page states it was published (page.ts: YYYY-MM-DD or YYYY), "" when none; absent from a crawl.json of an earlier version. */
  published: z.string().default(""),
  /** The request failure (timeout, refused...), empty when the site answered. */
  error: z.string(),
});
export type CrawlEntry = z.infer<typeof crawlEntrySchema>;
export const crawlSchema = z.array(crawlEntrySchema);

/** An entry with the fixed key order of the schema, so files diff well. */
export function orderedEntry(entry: CrawlEntry): CrawlEntry {
  return Object.fromEntries(Object.keys(crawlEntrySchema.shape).map((k) => [k, entry[k as keyof CrawlEntry]])) as CrawlEntry;
}

export function practiceCode(raw: string): string {
  if (!PRACTICE_CODE.test(raw)) throw new UsageError(`the practice code must be lower-case letters, digits and inner hyphens, got ${JSON.stringify(raw)}`);
  return raw;
}

/** The directory of one practice's migration; `dir` is --dir, else $MIGRATIONS_DIR, else migrations. */
export function migrationDir(code: string, dir?: string): string {
  return join(dir ?? process.env.MIGRATIONS_DIR ?? "migrations", code);
}

/** Writes through a temporary file and a rename: an interrupted run never leaves half a file. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function writeJson(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A step's input file as JSON; a clear error naming the step that writes it when it is missing or malformed. */
export function readJsonInput(file: string, writtenBy: string): unknown {
  if (!existsSync(file)) throw new StepError(`${file} does not exist: run the ${writtenBy} step first`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new StepError(`${file} is not valid JSON (${(error as Error).message})`);
  }
}

/** crawl.json, validated. */
export function readCrawl(dir: string): CrawlEntry[] {
  const file = join(dir, CRAWL_FILE);
  const json = readJsonInput(file, "crawl");
  const parsed = crawlSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StepError(`${file}: entry ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** A step that cannot go on (missing input, unreachable site...): exit status 1 with the message. */
export class StepError extends Error {}
