/**
 * After a migration's cutover, the old URLs visitors and crawlers still ask for and get a 404: counted
 * here per practice, so `npm run migrate -- watch <code>` lists them, most requested first, and the
 * operator adds the missing redirects (the specification's two weeks of post-migration monitoring).
 *
 * Counted by the request pipeline's on-response consumer (http/observe.ts, watchNotFound): every 404 the page
 * cache answered a practice's host, whichever stage wrote it. Cheap: one Map increment per 404. Bounded:
 * at most TOP_PER_PRACTICE URLs per practice in memory between flushes (a scanner's random paths replace
 * the least counted, the "space saving" top-N), at most MAX_PRACTICES practices, URLs longer than
 * MAX_URL ignored. Flushed every NOT_FOUND_FLUSH_MS (30 s) off the request path: with CACHE_URL, into
 * one Redis sorted set per practice shared by every instance (ZINCRBY, capped at SHARED_CAP, kept
 * KEEP_DAYS after the last 404), else into a file per instance under $MIGRATIONS_DIR/<code>/.not-found/.
 * Only the practice list's practices are counted (an invented preview code writes nothing), and of a URL only
 * its path and the query parameters by which an old CMS named a page (`page_id=12`, `option=com_content`,
 * `id=12:alias`: an allow-list of names, each value an identifier): a visitor's own values (a name, a phone
 * number, a date of birth in a form's query) never are. With Redis, a flush writes only while the shared
 * store has room (the page store's limit, judged inside Redis): the watch never evicts a page. Nothing here
 * is logged but counts.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Env } from "../env";
import { isTrackingParam } from "../redirects/map";
import { cacheNamespace, sharedNames } from "../cache/shared/names";
import { PAGE_WRITE_LIMIT } from "../cache/shared/pages";
import { UNLISTED } from "../tenancy";

export const TOP_PER_PRACTICE = 200;
export const MAX_PRACTICES = 1000;
export const SHARED_CAP = 500;
export const MAX_URL = 300;
export const KEEP_DAYS = 30;
export const NOT_FOUND_DIR = ".not-found";

/**
 * Query parameters by which the old platforms name a page (WordPress, Joomla, Drupal, SPIP...): nothing else of
 * a query is ever kept. Parameters a form sends (`nom`, `email`, `telephone`, `ddn`, `message`) are not here.
 */
const CMS_PARAMS = new Set([
  ...["p", "page_id", "cat", "tag", "m", "author", "attachment_id", "post_type", "paged"], // WordPress
  ...["option", "view", "id", "catid", "itemid", "task", "layout", "start", "limitstart", "format", "tmpl"], // Joomla
  ...["q", "node"], // Drupal
  ...["page", "article", "rubrique", "lang", "lng"], // SPIP, static sites, languages
]);
/**
 * An identifier, never free text: a number of at most 7 digits (not a phone number), a word that starts with
 * a letter (`com_content`, `article`), a Joomla `id:alias`, a Drupal `node/12`.
 */
const CMS_VALUE = /^(?:\d{1,7}|[a-z][a-z0-9_-]{0,39}|\d{1,7}:[a-z0-9-]{1,60}|node\/\d{1,7})$/i;

/** The URL as counted: its path and its page-naming query parameters; null when it is not worth keeping. */
export function watchedUrl(url: string): string | null {
  if (url.length > MAX_URL || !url.startsWith("/")) return null;
  const q = url.indexOf("?");
  if (q === -1) return url;
  const kept = url
    .slice(q + 1)
    .split("&")
    .filter((param) => {
      const [name, value = ""] = param.split(/=(.*)/s, 2);
      return CMS_PARAMS.has(name.toLowerCase()) && !isTrackingParam(name) && CMS_VALUE.test(value);
    });
  return kept.length ? `${url.slice(0, q)}?${kept.join("&")}` : url.slice(0, q);
}

/** Per practice, the most requested URLs since the last flush, at most `top` each. */
export class TopCounter {
  private counts = new Map<string, Map<string, number>>();
  constructor(
    private readonly top = TOP_PER_PRACTICE,
    private readonly practices = MAX_PRACTICES,
  ) {}

  record(code: string, url: string): void {
    let of = this.counts.get(code);
    if (!of) {
      if (this.counts.size >= this.practices) return;
      of = new Map();
      this.counts.set(code, of);
    }
    const n = of.get(url);
    if (n !== undefined) {
      of.set(url, n + 1);
      return;
    }
    if (of.size < this.top) {
      of.set(url, 1);
      return;
    }
    // Full: the least counted gives its place, and the newcomer inherits its count (space saving: a URL
    // asked often enough always ends up in the top, a scanner's one-off paths keep replacing each other).
    let minUrl = "";
    let min = Infinity;
    for (const [u, c] of of) if (c < min) [minUrl, min] = [u, c];
    of.delete(minUrl);
    of.set(url, min + 1);
  }

  /** The counts so far, and a fresh start. */
  take(): Map<string, Map<string, number>> {
    const out = this.counts;
    this.counts = new Map();
    return out;
  }
}

/**
 * Where counts go: every instance adds its own, the watch command reads the sum. A sink holds nothing to close:
 * the shared cache owns the Redis connection, and a file is written whole at each flush.
 */
export interface NotFoundSink {
  add(code: string, counts: Map<string, number>): Promise<void>;
}

/** The sorted set of one practice's 404s on the shared Redis. */
export function notFoundKey(env: { ENVIRONMENT?: string; CACHE_NAMESPACE?: string; BACKEND_API_URL?: string }, code: string): string {
  const namespace = cacheNamespace({ CACHE_NAMESPACE: env.CACHE_NAMESPACE, BACKEND_API_URL: env.BACKEND_API_URL ?? "" });
  return sharedNames(env.ENVIRONMENT ?? "prod", namespace).notFound(code);
}

/**
 * Adds counts (ARGV[4..]: url, n, ...) to KEYS[1] while Redis has room (ARGV[1]: the page store's share of
 * maxmemory); the SHARED_CAP (ARGV[3]) most requested stay; the set goes ARGV[2] s after its last 404.
 */
const ADD_SCRIPT = `
local info = redis.call('INFO', 'memory')
local used = tonumber(string.match(info, 'used_memory:(%d+)'))
local max = tonumber(string.match(info, 'maxmemory:(%d+)'))
if max > 0 and used >= max * tonumber(ARGV[1]) then return 0 end
for i = 4, #ARGV, 2 do redis.call('ZINCRBY', KEYS[1], ARGV[i + 1], ARGV[i]) end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Counts into the shared Redis over the shared cache's own connection (`command`: cache/shared's link), never
 * a connection of its own: a Redis that cannot answer costs a flush's counts, never a request (the flush says so).
 */
export function redisSink(command: (args: string[]) => Promise<unknown>, keyOf: (code: string) => string): NotFoundSink {
  return {
    async add(code, counts) {
      const args = [String(PAGE_WRITE_LIMIT), String(KEEP_DAYS * 86_400), String(SHARED_CAP)];
      for (const [u, n] of counts) args.push(u, String(n));
      await command(["EVAL", ADD_SCRIPT, "1", keyOf(code), ...args]);
    },
  };
}

/** One JSON file per instance: `{ url: count }`, the SHARED_CAP most requested, merged with what it held. */
export function fileSink(dir: string, instance = `${hostname()}-${process.pid}`): NotFoundSink {
  return {
    async add(code, counts) {
      const folder = join(dir, code, NOT_FOUND_DIR);
      const file = join(folder, `${instance}.json`);
      const merged = readCounts(file);
      for (const [u, n] of counts) merged.set(u, (merged.get(u) ?? 0) + n);
      const top = [...merged].sort((a, b) => b[1] - a[1]).slice(0, SHARED_CAP);
      mkdirSync(folder, { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(top)));
      renameSync(`${file}.tmp`, file);
    },
  };
}

function readCounts(file: string): Map<string, number> {
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    return new Map(Object.entries(json).filter((e): e is [string, number] => typeof e[1] === "number"));
  } catch {
    return new Map();
  }
}

/** Every instance's file of a practice, summed (for the watch command). */
export function readNotFoundFiles(dir: string, code: string): Map<string, number> {
  const folder = join(dir, code, NOT_FOUND_DIR);
  const sum = new Map<string, number>();
  let files: string[] = [];
  try {
    files = readdirSync(folder).filter((f) => f.endsWith(".json"));
  } catch {
    return sum;
  }
  for (const f of files) for (const [u, n] of readCounts(join(folder, f))) sum.set(u, (sum.get(u) ?? 0) + n);
  return sum;
}

export interface NotFoundWatch {
  record(code: string, url: string): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export interface NotFoundWatchOptions {
  flushMs?: number;
  log?: (line: string) => void;
  /** Whether a code is on the practice list; any other is never counted. Default: every code. */
  listed?: (code: string) => boolean;
}

export function createNotFoundWatch(sink: NotFoundSink, opts: NotFoundWatchOptions = {}): NotFoundWatch {
  const flushMs = opts.flushMs ?? 30_000;
  const counter = new TopCounter();
  const log = opts.log ?? console.log;
  let timer: NodeJS.Timeout | null = null;
  let failedAt = 0;
  const flush = async () => {
    const all = counter.take();
    for (const [code, counts] of all) {
      try {
        await sink.add(code, counts);
      } catch (error) {
        // At most one line a minute, and no URL in it. The other practices' counts are dropped with it: a store
        // that failed one write is not asked once per practice more (each waiting out its timeout at shutdown).
        if (Date.now() - failedAt > 60_000) log(`not-found watch: counts of ${all.size} practice(s) not saved (${(error as Error).name})`);
        failedAt = Date.now();
        return;
      }
    }
  };
  return {
    record(code, url) {
      if (opts.listed && !opts.listed(code)) return;
      const kept = watchedUrl(url);
      if (kept === null) return;
      counter.record(code, kept);
      if (!timer) {
        timer = setInterval(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}

/**
 * The server's watch (built once by src/server/services.ts): with CACHE_URL, counted in the shared Redis over
 * the shared cache's connection (`sharedCommand`), else in a file per instance under MIGRATIONS_DIR.
 */
export function serverNotFoundWatch(
  env: Env,
  bucket: (code: string) => string,
  sharedCommand?: (args: string[]) => Promise<unknown>,
): NotFoundWatch {
  const sink = sharedCommand ? redisSink(sharedCommand, (code) => notFoundKey(env, code)) : fileSink(env.MIGRATIONS_DIR);
  return createNotFoundWatch(sink, { flushMs: env.NOT_FOUND_FLUSH_MS, listed: (code) => bucket(code) !== UNLISTED });
}
