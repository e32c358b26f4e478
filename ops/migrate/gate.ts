/**
 * Step 4, gate: before cutover, Lighthouse (mobile) on one page of each kind the practice's new site
 * has (home, contact, a service page...), on the staging host or through --connect. Fails when a page
 * is not above the specification's thresholds: Performance above 90, Accessibility above 95, SEO above
 * 95 (scores out of 100; "above" is strict). Prints the scores per page. Each page is scored three
 * times (--runs) and judged on the median of each category: one run's performance score swung from 57
 * to 85 on the same page minutes apart on a loaded machine, and the gate must give the same verdict twice.
 */
import { PAGE_KINDS, type PageKind } from "../../src/server/backend/schemas";
import { CATEGORIES, formatScores, runLighthouse, type Category, type LighthouseResult } from "../operator/lighthouse";
import { connectOption, intOption, UsageError, urlArgument, type Parsed, type StepSpec } from "./args";
import { practiceCode } from "./files";
import type { StepIo } from "./io";
import { backendOption, newPageList } from "./new-site";
import { formatTable } from "./table";

/** Runs per page: the median of three is steady where one run swings by 30 points under load. */
export const DEFAULT_RUNS = 3;

export const gateSpec: StepSpec = {
  name: "gate",
  positionals: ["code", "site-url"],
  options: ["connect", "backend", "kinds", "runs"],
  usage: `gate <code> <site-url> [--connect HOST:PORT] [--backend URL] [--kinds home,contact,...] [--runs N]
  Runs Lighthouse (mobile) on one page of each page kind of the practice's new site and fails unless every
  page scores Performance above 90, Accessibility above 95 and SEO above 95, judged on the median of
  ${DEFAULT_RUNS} runs per page. Needs Chromium (CHROME_PATH, default /usr/bin/chromium) and the content
  backend for the page list.
  --runs N        Lighthouse runs per page, the median judged (default ${DEFAULT_RUNS}; odd numbers make a true median)
  --connect H:P   load the pages from H:P under the site's host name (Chromium host resolver rules)
  --backend URL   the content backend's API (default $BACKEND_API_URL)
  --kinds LIST    only these page kinds (${PAGE_KINDS.join(", ")})`,
};

/** The middle value (the mean of the two middle ones for an even count), null when there is none. */
export function median(values: (number | null | undefined)[]): number | null {
  const known = values.filter((v): v is number => typeof v === "number").sort((a, b) => a - b);
  if (known.length === 0) return null;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 ? known[mid] : Math.round((known[mid - 1] + known[mid]) / 2);
}

/**
 * One page's runs as one result: each category's median; the audits that cost points in the median
 * performance run (the run the figure comes from, when it is one of them), else in the first.
 */
export function medianResult(runs: LighthouseResult[]): LighthouseResult {
  if (runs.length === 0) throw new Error("no Lighthouse run to take the median of");
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])) as LighthouseResult["scores"];
  const representative = runs.find((r) => r.scores.performance === scores.performance) ?? runs[0];
  return { url: runs[0].url, scores, failed: representative.failed, lcpMs: median(runs.map((r) => r.lcpMs)) };
}

/** The specification's quality targets before cutover: a score must be strictly above these. */
export const THRESHOLDS: Partial<Record<Category, number>> = { performance: 90, accessibility: 95, seo: 95 };

/** What keeps a page from passing, empty when it passes. */
export function belowThresholds(result: LighthouseResult): string[] {
  return Object.entries(THRESHOLDS)
    .filter(([category, min]) => {
      const score = result.scores[category as Category];
      return score === null || score <= min!;
    })
    .map(([category, min]) => `${category} ${result.scores[category as Category] ?? "n/a"} (needs above ${min})`);
}

export async function runGate(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const site = urlArgument(parsed.positional["site-url"], "the site URL");
  const connect = connectOption(parsed);
  const backend = backendOption(parsed);
  const kinds = parsed.options.kinds?.split(",").map((k) => k.trim()) as PageKind[] | undefined;
  const unknown = kinds?.filter((k) => !PAGE_KINDS.includes(k));
  if (unknown?.length) throw new UsageError(`unknown page kind ${unknown.join(", ")}; kinds: ${PAGE_KINDS.join(", ")}`);

  const pages = await newPageList(backend, code);
  const firstOfKind = new Map<PageKind, string>();
  for (const page of pages) if (!firstOfKind.has(page.kind) && (!kinds || kinds.includes(page.kind))) firstOfKind.set(page.kind, page.path);
  if (firstOfKind.size === 0) throw new UsageError(`no page of ${code} has the kinds ${kinds?.join(", ")}`);
  const urls = [...firstOfKind.values()].map((path) => new URL(path, site).href);
  const hostRules = connect ? `MAP ${site.hostname} ${connect}` : undefined;
  const runs = intOption(parsed, "runs", DEFAULT_RUNS, 9);

  // One Chromium for every run; each page's runs in a row.
  const all = await runLighthouse(urls.flatMap((url) => Array<string>(runs).fill(url)), { hostRules, log: io.log });
  const results = urls.map((url) => medianResult(all.filter((r) => r.url === url)));
  for (const url of urls) {
    const of = all.filter((r) => r.url === url);
    io.log(`runs of ${url}: performance ${of.map((r) => r.scores.performance ?? "n/a").join(", ")}; LCP ${of.map((r) => (r.lcpMs == null ? "n/a" : `${r.lcpMs} ms`)).join(", ")}`);
  }
  io.log(`Lighthouse, mobile settings${connect ? ` (through ${connect})` : ""}: the median of ${runs} run${runs === 1 ? "" : "s"} per page\n`);
  io.log(formatScores(results));
  const rows = results.map((r) => {
    const below = belowThresholds(r);
    return [below.length ? "FAIL" : "ok", new URL(r.url).pathname, ...CATEGORIES.map((c) => String(r.scores[c] ?? "n/a")), below.join("; ")];
  });
  io.log("");
  io.log(formatTable(["result", "page", ...CATEGORIES, "below threshold"], rows));
  const failed = rows.filter((r) => r[0] === "FAIL").length;
  io.log(`gate: ${results.length - failed} of ${results.length} pages pass (performance > 90, accessibility > 95, SEO > 95; median of ${runs} run${runs === 1 ? "" : "s"} per page)`);
  return failed ? 1 : 0;
}
