/**
 * Lighthouse with mobile settings (its default: a mid-range phone, simulated slow 4G) in Debian's
 * Chromium, for the demo scores (scripts/lighthouse.ts) and the migration gate (ops/migrate/gate.ts).
 * Chromium comes from CHROME_PATH (default /usr/bin/chromium). `hostRules` maps a site's host to
 * another address (Chromium's --host-resolver-rules), so a staging instance can be scored under the
 * practice's own domain before DNS moves.
 */

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseResult {
  url: string;
  /** 0-100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** The audits that cost points, "id (score): value", so a score below 100 says why. */
  failed: string[];
  /** Largest Contentful Paint in milliseconds (simulated mobile), null when not measured. */
  lcpMs?: number | null;
}

export async function runLighthouse(
  urls: string[],
  /**
   * `report`: each run's whole Lighthouse JSON, for a caller that keeps it (bench/lcp.ts saves every one);
   * `categories`: fewer than the four (a run of performance alone takes about half the time).
   */
  opts: {
    hostRules?: string;
    log?: (line: string) => void;
    report?: (index: number, url: string, json: string) => void;
    categories?: readonly Category[];
  } = {},
): Promise<LighthouseResult[]> {
  // Loaded here, not at the top: Lighthouse takes about 3 s to load, and every other migration step (each a
  // process of its own, the CLI imports this file through the gate) would pay for it.
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      ...(opts.hostRules ? [`--host-resolver-rules=${opts.hostRules}`] : []),
    ],
  });
  const results: LighthouseResult[] = [];
  try {
    for (const [index, url] of urls.entries()) {
      opts.log?.(`lighthouse: ${url}`);
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...(opts.categories ?? CATEGORIES)],
        formFactor: "mobile",
      });
      if (!run) throw new Error(`no Lighthouse result for ${url}`);
      opts.report?.(index, url, String(run.report));
      const { categories, audits } = run.lhr;
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, categories[c]?.score == null ? null : Math.round(categories[c].score! * 100)]),
      ) as Record<Category, number | null>;
      const failed = Object.values(categories)
        .flatMap((cat) => cat.auditRefs.filter((ref) => ref.weight > 0).map((ref) => audits[ref.id]))
        .filter((a) => a && a.score !== null && a.score < 1)
        .map((a) => `${a.id} (${a.score})${a.displayValue ? `: ${a.displayValue}` : ""}`);
      const lcp = audits["largest-contentful-paint"]?.numericValue;
      results.push({ url, scores, failed, lcpMs: typeof lcp === "number" ? Math.round(lcp) : null });
    }
  } finally {
    await chrome.kill();
  }
  return results;
}

/** The scores as a table, then what cost points per page. */
export function formatScores(results: LighthouseResult[]): string {
  const width = Math.max(4, ...results.map((r) => r.url.length)) + 2;
  const lines = [["page".padEnd(width), ...CATEGORIES.map((c) => c.padStart(16))].join("")];
  for (const r of results) lines.push([r.url.padEnd(width), ...CATEGORIES.map((c) => String(r.scores[c] ?? "n/a").padStart(16))].join(""));
  for (const r of results) if (r.failed.length) lines.push("", `${r.url}: audits below full score`, ...r.failed.map((f) => `  ${f}`));
  return lines.join("\n");
}
