/**
 * The build pre-pass: for each registered practice, probe the backend's config; skip the practice with a
 * log line starting `activePracticeCodes: skipping` when it answers 404 or cannot be reached (the build
 * still succeeds and its pages render on demand); for each active practice enumerate pages, team members
 * and jobs, render every page in-process with the same render function the cache uses, download the
 * logo and favicon into the build-time media cache, and write bytes, headers and tags for the server to
 * seed its page store from (store.ts).
 *
 * In bounded memory, whatever the number of practices: each page is appended to the output as soon as it is
 * rendered (store.ts: PrepassWriter), and at most PROBE_CONCURRENCY practices are in progress at once (a
 * practice's slot is held until its pages are rendered), so neither the pages nor the queue of renders grow
 * with the practice list. Renders run in parallel in the render pool (`concurrency` at once).
 *
 * The host a practice is rendered for is its primary domain when that is one of its registered domains,
 * else its first registered domain, else its preview host: the host its visitors use, so that their first
 * request after a deploy is a HIT (the cache key holds the host: key.ts says why). BUILD_PREPASS_ORIGINS
 * names other origins instead (env.ts): `make demo` renders for the `http://{code}.dev.localhost:3000` it prints.
 */
import type { Env } from "../env";
import {
  isBackendError,
  type BackendClient,
  type Job,
  type PageSummary,
  type SiteConfig,
  type TeamMember,
} from "../backend";
import { writeMediaCache } from "../media/build-cache";
import { siteTag } from "../backend/tags";
import type { Practice } from "../tenancy";
import { buildEntry, isStorable, type PageEntry } from "../cache/entry";
import { cacheTarget, type CacheTarget } from "../cache/key";
import type { RenderTarget } from "../cache/page-cache";
import { PrepassWriter, type PrepassSummary } from "./store";

export interface PrepassOptions {
  env: Env;
  practices: Practice[];
  backend: BackendClient;
  render: RenderTarget;
  /** Where the rendered pages go (PREPASS_DIR). */
  outDir: string;
  /** Every directory the logo and favicon are written to ({dir}/{code}/logo.svg…). */
  mediaDirs: string[];
  log?: (line: string) => void;
  /** Renders in flight: overlaps backend latency; rendering itself is CPU-bound. */
  concurrency?: number;
  /**
   * Drops what the backend read caches (this thread's and the render workers') hold under these tags: a
   * practice's data, once its pages are rendered, is never read again by the pre-pass.
   */
  invalidateData?: (tags: string[]) => void;
}

export interface PrepassResult extends PrepassSummary {
  pages: number;
  seconds: number;
  /** The process's peak resident set size so far, in MiB (render workers included: they are threads). */
  peakRssMiB: number;
}

/**
 * Practices in progress at once (probed, listed, rendered): a backend with hundreds of practices gets a few
 * requests at a time, and the renders waiting are a few practices' pages, not the whole list's.
 */
const PROBE_CONCURRENCY = 8;

/** Extra per-practice resources rendered beside its pages (a 404 is skipped). */
const PRACTICE_FILES = ["/robots.txt", "/sitemap.xml"];

export async function runPrepass(opts: PrepassOptions): Promise<PrepassResult> {
  const log = opts.log ?? console.log;
  const started = performance.now();
  const renderedAt = new Date().toISOString();
  const skipped: PrepassSummary["skipped"] = [];
  const hosts = new Map<string, string>();
  const writer = new PrepassWriter(opts.outDir);
  const failed = new Map<string, number>();
  const pagesOf = new Map<string, number>();
  // A practice's pages start rendering as soon as it is listed, while the others are still probed: the
  // render workers do not wait for the whole list (probing is the backend's latency, rendering is CPU).
  const renderSlot = limiter(opts.concurrency ?? 6);
  const renderLater = (code: string, target: CacheTarget) =>
    renderSlot(async () => {
      const entry = await renderOne(opts, target, log);
      if (entry) {
        writer.append(entry);
        pagesOf.set(code, (pagesOf.get(code) ?? 0) + 1);
      } else if (!PRACTICE_FILES.includes(target.url)) {
        failed.set(code, (failed.get(code) ?? 0) + 1);
      }
    });

  const probe = async (practice: Practice) => {
    const ctx = { tags: new Set<string>() };
    let config: SiteConfig;
    try {
      config = await opts.backend.config(ctx, practice.code);
    } catch (error) {
      const reason =
        isBackendError(error) && error.isNotFound ? "the backend answered 404 (unknown or inactive)" : describe(error);
      skipped.push({ code: practice.code, reason });
      log(`activePracticeCodes: skipping ${practice.code}: ${reason}`);
      return;
    }
    const host = prepassHost(practice, config, opts.env);
    const origins = prepassOrigins(opts.env.BUILD_PREPASS_ORIGINS, practice.code, host);
    if (!origins) {
      const reason = "no registered domain and no preview host (PREVIEW_DOMAIN unset)";
      skipped.push({ code: practice.code, reason });
      log(`activePracticeCodes: skipping ${practice.code}: ${reason}`);
      return;
    }
    let paths: string[];
    try {
      const [pages, team, jobList] = await Promise.all([
        opts.backend.pages(ctx, practice.code),
        opts.backend.team(ctx, practice.code),
        opts.backend.jobs(ctx, practice.code),
      ]);
      paths = prepassPaths(pages.pages, team.members, jobList.jobs);
    } catch (error) {
      const reason = `listing its pages failed: ${describe(error)}`;
      skipped.push({ code: practice.code, reason });
      log(`activePracticeCodes: skipping ${practice.code}: ${reason}`);
      return;
    }
    hosts.set(practice.code, new URL(origins[0]).host);
    const renders: Promise<void>[] = [];
    for (const origin of origins) {
      const { host: originHost, protocol } = new URL(origin);
      for (const path of paths) {
        const target = cacheTarget("GET", practice.code, originHost, protocol.slice(0, -1), path);
        if (target) renders.push(renderLater(practice.code, target));
      }
    }
    await writeMediaCache(
      { apiBaseUrl: opts.env.BACKEND_API_URL, timeoutMs: opts.env.BACKEND_TIMEOUT_MS, roots: opts.mediaDirs, log },
      practice.code,
      config,
    );
    // The practice's slot is held until its pages are rendered: the queue holds a few practices' pages at most.
    await Promise.all(renders);
    // Its data is not read again: the read caches would otherwise hold every practice's for the TTL.
    opts.invalidateData?.([siteTag(practice.code)]);
  };
  try {
    await runBounded(opts.practices, PROBE_CONCURRENCY, probe);
  } catch (error) {
    writer.abort();
    throw error;
  }

  const active = [...hosts.keys()].sort();
  const summary: PrepassSummary = {
    environment: opts.env.ENVIRONMENT,
    renderedAt,
    practices: active.map((code) => ({
      code,
      host: hosts.get(code)!,
      pages: pagesOf.get(code) ?? 0,
      failed: failed.get(code) ?? 0,
    })),
    skipped: skipped.sort((a, b) => a.code.localeCompare(b.code)),
  };
  writer.finish(summary);
  const seconds = (performance.now() - started) / 1000;
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  log(`activePracticeCodes: ${active.join(", ") || "(none)"}`);
  log(
    `prepass: ${writer.count} pages of ${active.length} practices in ${seconds.toFixed(1)} s -> ${opts.outDir} ` +
      `(peak RSS ${peakRssMiB.toFixed(0)} MiB)`,
  );
  return { ...summary, pages: writer.count, seconds, peakRssMiB };
}

async function renderOne(
  opts: PrepassOptions,
  target: CacheTarget,
  log: (line: string) => void,
): Promise<PageEntry | null> {
  try {
    const result = await opts.render(target);
    if (!isStorable(result)) {
      // robots.txt and sitemap.xml may not exist yet; a page that does not render is logged and renders on demand.
      if (!PRACTICE_FILES.includes(target.url))
        log(`prepass: ${target.code} ${target.url}: HTTP ${result.status}, not prerendered`);
      return null;
    }
    return await buildEntry(target, result, { renderedAt: Date.now(), ttlMs: 0, servedByStack: false });
  } catch (error) {
    log(`prepass: ${target.code} ${target.url}: ${describe(error)}, not prerendered`);
    return null;
  }
}

/** The host a practice's pages are rendered for (see the module comment), or null. */
export function prepassHost(
  practice: Practice,
  config: Pick<SiteConfig, "domain">,
  env: Pick<Env, "ENVIRONMENT" | "PREVIEW_DOMAIN">,
): string | null {
  const primary = config.domain.primary_domain?.toLowerCase();
  if (primary && practice.domains.includes(primary)) return primary;
  if (practice.domains.length) return practice.domains[0];
  return env.PREVIEW_DOMAIN ? `${practice.code}.${env.ENVIRONMENT}.${env.PREVIEW_DOMAIN}` : null;
}

/**
 * The origins a practice is rendered for: BUILD_PREPASS_ORIGINS's templates filled in with its code and main
 * host, or null when a template needs the main host and the practice has none.
 */
export function prepassOrigins(templates: readonly string[], code: string, host: string | null): string[] | null {
  if (!host && templates.some((t) => t.includes("{host}"))) return null;
  return [...new Set(templates.map((t) => t.replaceAll("{code}", code).replaceAll("{host}", host ?? "")))];
}

/**
 * Every public path of a practice: its pages, one page per team member under the team page's path and
 * one per job under the jobs page's path, and its robots.txt and sitemap.xml.
 */
export function prepassPaths(pages: PageSummary[], team: TeamMember[], jobs: Job[]): string[] {
  const paths = pages.map((p) => p.path);
  const teamPage = pages.find((p) => p.kind === "team");
  if (teamPage) for (const member of team) paths.push(`${teamPage.path}${member.slug}/`);
  const jobsPage = pages.find((p) => p.kind === "jobs");
  if (jobsPage) for (const job of jobs) paths.push(`${jobsPage.path}${job.slug}/`);
  return [...new Set([...paths, ...PRACTICE_FILES])];
}

/**
 * Calls `run` for every item, at most `limit` at a time: a long list never becomes as many pending promises
 * (3,000 practices would queue 3,000 closures, each holding its practice's pages once listed).
 */
async function runBounded<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Runs the functions given to it at most `limit` at a time, in the order given. */
function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    // A full limiter queues the caller; a finishing run hands its slot to the first in the queue.
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
