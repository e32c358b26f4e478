/**
 * Step 4, gate: before cutover, Lighthouse (mobile) on one page of each kind the practice's new site
 * has (home, contact, a service page...), on the staging host or through --connect. Fails when a page
 * is not above the specification's thresholds: Performance above 90, Accessibility above 95, SEO above
 * 95 (scores out of 100; "above" is strict). Prints the scores per page.
 */
import { PAGE_KINDS, type PageKind } from "../../src/server/backend/schemas";
import { CATEGORIES, formatScores, runLighthouse, type Category, type LighthouseResult } from "../lighthouse";
import { connectOption, UsageError, urlArgument, type Parsed, type StepSpec } from "./args";
import { practiceCode } from "./files";
import type { StepIo } from "./io";
import { backendOption, newPageList } from "./new-site";
import { formatTable } from "./table";

export const gateSpec: StepSpec = {
  name: "gate",
  positionals: ["code", "site-url"],
  options: ["connect", "backend", "kinds"],
  usage: `gate <code> <site-url> [--connect HOST:PORT] [--backend URL] [--kinds home,contact,...]
  Runs Lighthouse (mobile) on one page of each page kind of the practice's new site and fails unless every
  page scores Performance above 90, Accessibility above 95 and SEO above 95. Needs Chromium (CHROME_PATH,
  default /usr/bin/chromium) and the content backend for the page list.
  --connect H:P   load the pages from H:P under the site's host name (Chromium host resolver rules)
  --backend URL   the content backend's API (default $BACKEND_API_URL)
  --kinds LIST    only these page kinds (${PAGE_KINDS.join(", ")})`,
};

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

  const results = await runLighthouse(urls, { hostRules, log: io.log });
  io.log(`Lighthouse, mobile settings${connect ? ` (through ${connect})` : ""}\n`);
  io.log(formatScores(results));
  const rows = results.map((r) => {
    const below = belowThresholds(r);
    return [below.length ? "FAIL" : "ok", new URL(r.url).pathname, ...CATEGORIES.map((c) => String(r.scores[c] ?? "n/a")), below.join("; ")];
  });
  io.log("");
  io.log(formatTable(["result", "page", ...CATEGORIES, "below threshold"], rows));
  const failed = rows.filter((r) => r[0] === "FAIL").length;
  io.log(`gate: ${results.length - failed} of ${results.length} pages pass (performance > 90, accessibility > 95, SEO > 95)`);
  return failed ? 1 : 0;
}
