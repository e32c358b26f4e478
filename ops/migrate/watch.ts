/**
 * Step 6, watch: after cutover, the old URLs visitors and crawlers still request that answer 404 on the
 * practice's domain, most requested first, each with the matcher's best guess among the new site's URLs,
 * so the operator adds the missing redirects to redirects.json. Every instance counts its 404s
 * (src/server/migration-watch/not-found-watch.ts): read from the shared Redis (CACHE_URL, or --redis) and from
 * the per-instance files under <dir>/<code>/.not-found/, summed. A URL redirects.json now names is marked.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "redis";
import { findRedirect, parseRedirects, REDIRECTS_FILE, type PracticeRedirects } from "../../src/server/redirects/map";
import { notFoundKey, readNotFoundFiles } from "../../src/server/migration-watch/not-found-watch";
import { intOption, UsageError, type Parsed, type StepSpec } from "./args";
import { CRAWL_FILE, migrationDir, practiceCode, readCrawl, readJsonInput, StepError } from "./files";
import type { StepIo } from "./io";
import { createMatcher } from "./match";
import { backendOption, newPages } from "./new-site";
import { pathOf } from "./page";
import { formatTable } from "./table";

export const watchSpec: StepSpec = {
  name: "watch",
  positionals: ["code"],
  options: ["dir", "backend", "redis", "top"],
  usage: `watch <code> [--top N] [--redis URL] [--backend URL] [--dir DIR]
  Lists the old URLs still requested on the practice's domain that answer 404, most requested first, with
  the matcher's best guess for each: add the right ones to <dir>/<code>/redirects.json. Counts come from
  every instance: the shared Redis (--redis, default $CACHE_URL, with $ENVIRONMENT, $CACHE_NAMESPACE and
  $BACKEND_API_URL naming the key as the server does) and the instances' files under <dir>/<code>/.not-found/.
  --top N         how many URLs (default 30)
  --backend URL   the content backend's API (default $BACKEND_API_URL), for the best guesses
  --dir DIR       the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

export async function runWatch(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const dir = migrationDir(code, parsed.options.dir);
  const top = intOption(parsed, "top", 30, 1000);
  const backend = backendOption(parsed);
  const redisUrl = parsed.options.redis ?? process.env.CACHE_URL;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new UsageError(`--redis must be a redis:// URL, got ${JSON.stringify(redisUrl)}`);

  const counts = readNotFoundFiles(join(dir, ".."), code);
  if (redisUrl) {
    const key = notFoundKey({ ...process.env, BACKEND_API_URL: process.env.BACKEND_API_URL ?? backend }, code);
    const client = createClient({ url: redisUrl, socket: { connectTimeout: 3000, reconnectStrategy: false } });
    client.on("error", () => {});
    try {
      await client.connect();
      const rows = await client.zRangeWithScores(key, 0, top - 1, { REV: true });
      for (const { value, score } of rows) counts.set(value, (counts.get(value) ?? 0) + score);
    } catch (error) {
      throw new StepError(`the shared Redis could not be read (${(error as Error).message})`);
    } finally {
      if (client.isOpen) await client.quit().catch(() => undefined);
    }
  }

  const listed = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top);
  if (listed.length === 0) {
    io.log(`watch: no 404 recorded for ${code} yet`);
    return 0;
  }
  const pages = await newPages(backend, code);
  const mapFile = join(dir, REDIRECTS_FILE);
  const table = existsSync(mapFile) ? new Map([[code, parseRedirects(readJsonInput(mapFile, "redirects"), mapFile).map]]) : new Map<string, PracticeRedirects>();
  const match = createMatcher(pages, { platform: table.get(code)?.platform ?? null });
  // The old site's page, when the crawl saw it, gives the matcher its title and text; else its URL's words.
  const crawled = existsSync(join(dir, CRAWL_FILE)) ? new Map(readCrawl(dir).map((e) => [pathOf(e.url), e])) : new Map();
  const rows = listed.map(([url, n]) => {
    const old = crawled.get(url);
    const { match: m, best } = match({ path: url, title: old?.title ?? "", h1: old?.h1 ?? "", text: old?.body_text ?? "" });
    const guess = m ?? best;
    const mapped = table.size ? findRedirect(table, code, url) : null;
    return [String(n), url, guess ? `${guess.target} (${guess.confidence})` : "-", mapped ? `now redirected to ${mapped}` : ""];
  });
  io.log(formatTable(["404s", "old URL", "best guess (confidence)", "redirects.json"], rows));
  io.log(`watch: ${listed.length} URLs answering 404 on ${code}, most requested first; add the right ones to ${mapFile}`);
  return 0;
}
