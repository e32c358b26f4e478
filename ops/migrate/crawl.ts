/**
 * Step 1, crawl: every page of the old site, the way a search engine found them. Honours robots.txt,
 * starts from the home page and the sitemaps, follows same-site links, with bounded concurrency and a
 * page cap. Each URL is recorded with its final status and the redirects on the way. Progress is saved
 * every second and on the way out (.crawl-state.json), so an interrupted crawl resumes where it stopped;
 * --restart starts over. Writes crawl.json when done. Bounded whatever the site does: a wall-clock limit
 * per page, the bytes read per page, a queue bound, what is parsed and kept of a page (page.ts: characters,
 * elements, text, links, images, URL length), and the time spent saving progress.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import robotsParser from "robots-parser";
import { z } from "zod";
import { call, header, target } from "../operator/request";
import { connectOption, intOption, urlArgument, type Parsed, type StepSpec } from "./args";
import {
  CRAWL_FILE,
  CRAWL_STATE_FILE,
  crawlEntrySchema,
  crawlSchema,
  migrationDir,
  orderedEntry,
  practiceCode,
  writeJson,
  type CrawlEntry,
} from "./files";
import { onSiteUrl, pathOf, readPage, readSitemap, safeUrl } from "./page";
import type { StepIo } from "./io";
import { probeIds, saveLearned, type ProbeResult } from "./probe";
import { detectPlatform } from "./platform";

export const crawlSpec: StepSpec = {
  name: "crawl",
  positionals: ["code", "old-site-url"],
  options: ["max-pages", "concurrency", "connect", "dir"],
  flags: ["restart"],
  usage: `crawl <code> <old-site-url> [--max-pages N] [--concurrency N] [--connect HOST:PORT] [--restart] [--dir DIR]
  Crawls the practice's old site (same host only, robots.txt honoured, links and sitemaps followed) and
  writes <dir>/<code>/crawl.json. An interrupted crawl resumes on the next run; --restart starts over.
  --max-pages N      stop after N URLs (default 500)
  --concurrency N    requests at once (default 4)
  --connect H:P      send the requests to H:P with the old site's Host (as curl --connect-to)
  --dir DIR          the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

export const USER_AGENT = "practice-migration-crawler";
const MAX_HOPS = 10;
/** One page (every hop of its redirects) must be fetched within this long, however slowly it trickles. */
const PAGE_DEADLINE_MS = 15_000;
/**
 * The bytes read of one answer (request.ts refuses a longer one: the page is recorded with that error). Of
 * what is read, page.ts parses the first million characters at most.
 */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The progress file is written at most this often (it was rewritten after every page: 57 MB each time). */
const SAVE_EVERY_MS = 1000;
/** ...and takes at most this share of the crawl's time, however large the state grows (1/10). */
const SAVE_TIME_SHARE = 10;
/** A 5xx is asked once more after this pause: a temporary error must not make a real page look like one to skip. */
const RETRY_5XX_MS = 500;
const MAX_SITEMAPS = 20;
const ROBOTS_MAX_CHARS = 500 * 1024;
// Documents (a price list, a medical questionnaire): old URLs people keep and link to, recorded without their body.
const DOCUMENT = /\.(?:pdf|docx?|odt|xlsx?|ods|pptx?)$/i;

const stateSchema = z.object({
  start_url: z.string(),
  done: z.array(crawlEntrySchema),
  queue: z.array(z.string()),
  disallowed: z.array(z.string()),
});
type CrawlState = z.infer<typeof stateSchema>;

export async function runCrawl(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const start = urlArgument(parsed.positional["old-site-url"], "the old site URL");
  const maxPages = intOption(parsed, "max-pages", 500);
  const concurrency = intOption(parsed, "concurrency", 4, 32);
  const connect = connectOption(parsed);
  const dir = migrationDir(code, parsed.options.dir);
  const stateFile = join(dir, CRAWL_STATE_FILE);
  start.hash = "";
  const startUrl = start.href;
  const { base, host } = target(start, connect);

  const get = (url: string) =>
    call(base, host, pathOf(url), {
      // A document's status and type are what the migration needs, not its megabytes.
      method: DOCUMENT.test(new URL(url).pathname) ? "HEAD" : "GET",
      headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.5", "user-agent": USER_AGENT },
      deadlineMs: PAGE_DEADLINE_MS,
      maxBytes: MAX_PAGE_BYTES,
    });
  // URLs waiting at most: enough for every page the cap allows and more; a link generator cannot grow it.
  const queueLimit = Math.max(2 * maxPages, 1000);
  let notQueued = 0;

  const onSite = (href: string): string | null => onSiteUrl(href, start);

  let state: CrawlState = { start_url: startUrl, done: [], queue: [], disallowed: [] };
  const previous = existsSync(stateFile) ? stateSchema.safeParse(JSON.parse(readFileSync(stateFile, "utf8"))) : null;
  if (previous?.success && !parsed.flags.has("restart") && previous.data.start_url === startUrl) {
    state = previous.data;
    io.log(`crawl: resuming an interrupted crawl of ${startUrl}: ${state.done.length} done, ${state.queue.length} queued`);
  } else if (previous) {
    io.log(`crawl: starting over (${parsed.flags.has("restart") ? "--restart" : "the saved progress is for another crawl"})`);
  }

  // robots.txt: what may be crawled, and where the sitemaps are.
  const robotsUrl = new URL("/robots.txt", startUrl).href;
  let robotsText = "";
  try {
    const answer = await get(robotsUrl);
    // Google reads the first 500 KiB of a robots.txt and ignores the rest: so does the crawl (a longer file's
    // hundreds of thousands of rules made every URL's check cost milliseconds).
    if (answer.status === 200) robotsText = answer.text.slice(0, ROBOTS_MAX_CHARS);
  } catch (error) {
    io.log(`crawl: robots.txt could not be read (${(error as Error).message}): everything is allowed`);
  }
  const robots = robotsParser(robotsUrl, robotsText);
  const allowed = (url: string) => robots.isAllowed(url, USER_AGENT) !== false;

  const seen = new Set([...state.done.map((e) => e.url), ...state.queue, ...state.disallowed]);
  const enqueue = (href: string) => {
    const url = onSite(href);
    if (!url || seen.has(url)) return;
    if (state.queue.length >= queueLimit || state.disallowed.length >= queueLimit) {
      notQueued++; // not marked seen: queued if it turns up again once there is room
      return;
    }
    seen.add(url);
    if (allowed(url)) state.queue.push(url);
    else state.disallowed.push(url);
  };

  if (state.done.length === 0 && state.queue.length === 0) {
    enqueue(startUrl);
    for (const url of await sitemapUrls(get, [...robots.getSitemaps(), new URL("/sitemap.xml", startUrl).href], start.host, onSite, io)) enqueue(url);
  }

  const inflight = new Set<string>();
  const saveNow = () => writeJson(stateFile, { ...state, queue: [...inflight, ...state.queue] });
  let savedAt = 0;
  let saveCostMs = 0;
  const save = () => {
    if (Date.now() - savedAt < Math.max(SAVE_EVERY_MS, SAVE_TIME_SHARE * saveCostMs)) return;
    const started = Date.now();
    saveNow();
    savedAt = Date.now();
    saveCostMs = savedAt - started;
  };
  // Ctrl-C exits at once (cli.ts): the last pages since a save are written on the way out.
  process.on("exit", saveNow);
  const errors = () => state.done.filter((e) => e.status === 0 || e.status >= 400).length;
  const progress = () => io.progress(`crawl: ${state.done.length} done, ${state.queue.length + inflight.size} queued, ${errors()} errors`);

  async function visit(url: string): Promise<CrawlEntry> {
    const entry: CrawlEntry = {
      url,
      status: 0,
      redirects: [],
      final_url: url,
      content_type: "",
      title: "",
      meta_description: "",
      h1: "",
      body_text: "",
      images: [],
      word_count: 0,
      links: [],
      noindex: false,
      headline: "",
      subheadline: "",
      translation_of: "",
      og_title: "",
      anchors: [],
      own_urls: [],
      trail: [],
      published: "",
      error: "",
    };
    let current = url;
    try {
      for (let hop = 0; ; hop++) {
        let answer = await get(current);
        if (answer.status >= 500) {
          await new Promise((r) => setTimeout(r, RETRY_5XX_MS));
          answer = await get(current);
        }
        entry.status = answer.status;
        entry.final_url = current;
        entry.content_type = header(answer, "content-type").split(";")[0].trim();
        const location = header(answer, "location");
        const redirected = answer.status >= 300 && answer.status < 400 && location !== "";
        const page = !redirected && answer.status === 200 && /html/i.test(entry.content_type) ? readPage(answer.text, current) : null;
        // Where the old site sends this URL on: a 3xx's Location, or a page's meta refresh that sends the visitor on at
        // once (page.ts, refreshTarget: Hugo's and Jekyll's aliases, "this page has moved" pages), followed alike.
        const next = redirected ? safeUrl(location, current) : page?.refresh && page.refresh !== current ? page.refresh : null;
        if (redirected || next) {
          entry.content_type = "";
          entry.redirects.push({ url: current, status: answer.status });
          if (!next) throw new Error(`redirect to an invalid location ${JSON.stringify(location)}`);
          if (entry.redirects.some((r) => r.url === next)) throw new Error(`redirect loop back to ${next}`);
          if (hop + 1 >= MAX_HOPS) throw new Error(`more than ${MAX_HOPS} redirects`);
          const sameSite = onSite(next);
          entry.final_url = next;
          if (!sameSite || !allowed(sameSite)) break; // Off the site or disallowed: recorded, not followed.
          current = sameSite;
          continue;
        }
        if (page) {
          const { truncated, refresh: _refresh, ...facts } = page;
          if (entry.redirects.length === 0) {
            Object.assign(entry, facts);
            // Recorded with what was read, and marked: the assessment lists it for a person to look at.
            entry.error = truncated;
          }
          // A redirect's content is the final page's own entry: crawled in its turn.
          for (const link of facts.links) enqueue(link);
        }
        // Every hop of a chain is an old URL someone may have linked to: each gets its own entry.
        for (const hop of [...entry.redirects.slice(1).map((r) => r.url), current]) if (hop !== url) enqueue(hop);
        break;
      }
    } catch (error) {
      entry.status = 0;
      entry.error = (error as Error).message;
    }
    return entry;
  }

  let capped = false;
  async function worker() {
    for (;;) {
      if (state.done.length + inflight.size >= maxPages) {
        capped ||= state.queue.length > 0;
        return;
      }
      const url = state.queue.shift();
      if (url === undefined) {
        if (inflight.size === 0) return;
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      inflight.add(url);
      const entry = await visit(url);
      inflight.delete(url);
      state.done.push(entry);
      save();
      progress();
    }
  }
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    process.off("exit", saveNow);
  }

  const entries = crawlSchema.parse(state.done.map(orderedEntry)).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  // A platform the toolkit does not recognise (read as a static site): its ids learned by asking it (probe.ts).
  let probed: ProbeResult | null = null;
  if (!capped && detectPlatform(entries).platform === "static") {
    const probeGet = async (path: string) => {
      const answer = await call(base, host, path, {
        headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.5", "user-agent": USER_AGENT },
        deadlineMs: PAGE_DEADLINE_MS,
        maxBytes: MAX_PAGE_BYTES,
      });
      return { status: answer.status, text: answer.text, type: header(answer, "content-type").split(";")[0].trim(), location: header(answer, "location") };
    };
    probed = await probeIds(entries, probeGet, allowed);
    for (const e of entries) {
      const more = probed.ownUrls.get(e.url);
      if (more) e.own_urls = [...new Set([...(e.own_urls ?? []), ...more])];
    }
    if (probed.probes) io.log(`crawl: ${probed.probes} probes of the old site's ids: ${probed.notes.join("; ") || "nothing learned"}`);
  }
  saveLearned(dir, probed);
  const file = join(dir, CRAWL_FILE);
  writeJson(file, entries);
  // A capped crawl keeps its progress: the next run with a higher --max-pages extends it instead of starting over.
  if (capped) saveNow();
  else rmSync(stateFile, { force: true });
  io.progressDone();
  io.log(`crawl: ${entries.length} URLs written to ${file}: ${entries.filter((e) => e.status === 200 && !e.redirects.length).length} pages, ${entries.filter((e) => e.redirects.length).length} redirects, ${errors()} errors; ${state.disallowed.length} disallowed by robots.txt`);
  if (notQueued) io.log(`crawl: ${notQueued} links not queued: the queue holds ${queueLimit} URLs at most (--max-pages ${maxPages})`);
  if (capped) io.log(`crawl: page cap reached (--max-pages ${maxPages}): ${state.queue.length} queued URLs not crawled; a higher --max-pages extends this crawl`);
  return 0;
}

/** The page URLs of the sitemaps (sitemap indexes followed), same site only, bounded. */
async function sitemapUrls(
  get: (url: string) => Promise<{ status: number; text: string }>,
  starts: string[],
  siteHost: string,
  onSite: (href: string) => string | null,
  io: StepIo,
): Promise<string[]> {
  const pending = [...new Set(starts)];
  const fetched = new Set<string>();
  const pages: string[] = [];
  while (pending.length && fetched.size < MAX_SITEMAPS) {
    const url = pending.shift()!;
    if (fetched.has(url) || !safeUrl(url, url) || new URL(url).host !== siteHost) continue;
    fetched.add(url);
    try {
      const answer = await get(url);
      if (answer.status !== 200) continue;
      const { index, locs } = readSitemap(answer.text);
      if (index) pending.push(...locs);
      else for (const loc of locs) if (onSite(loc)) pages.push(loc);
    } catch (error) {
      io.log(`crawl: sitemap ${url} could not be read (${(error as Error).message})`);
    }
  }
  return pages;
}
