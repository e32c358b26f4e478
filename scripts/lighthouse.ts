/**
 * Lighthouse scores of a demo practice: the homepage and a service detail page, mobile settings
 * (Lighthouse's default: a mid-range phone, simulated slow 4G), four categories each.
 *
 *   npm run lighthouse -- [--frontend http://127.0.0.1:3000] [--backend http://127.0.0.1:4000] [--code dupont] [--env dev]
 *
 * Needs a running frontend and the content backend it reads (`make demo`). Chromium comes from
 * CHROME_PATH (default /usr/bin/chromium). Not part of CI: scores move with the machine's load.
 * Note: a deployment that is not ENVIRONMENT=prod is noindex by design, which Lighthouse's SEO
 * category counts against the page ("Page is blocked from indexing"); run the frontend with
 * ENVIRONMENT=prod (and --env prod here) for the production figure.
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

async function serviceDetailPath(backend: string, code: string): Promise<string> {
  const res = await fetch(`${backend.replace(/\/+$/, "")}/api/v1/websites/sites/${encodeURIComponent(code)}/pages/`);
  if (!res.ok) throw new Error(`page list of ${code}: HTTP ${res.status}`);
  const { pages } = (await res.json()) as { pages: { kind: string; path: string }[] };
  const detail = pages.find((p) => p.kind === "service_detail");
  if (!detail) throw new Error(`${code} has no service detail page`);
  return detail.path;
}

async function main() {
  const frontend = new URL(arg("frontend", "http://127.0.0.1:3000"));
  const backend = arg("backend", "http://127.0.0.1:4000");
  const code = arg("code", "dupont");
  const origin = `${frontend.protocol}//${code}.${arg("env", "dev")}.localhost:${frontend.port || 80}`;
  const urls = [`${origin}/`, `${origin}${await serviceDetailPath(backend, code)}`];

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  const results: { url: string; scores: Record<string, number | null>; failed: string[] }[] = [];
  try {
    for (const url of urls) {
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
        formFactor: "mobile",
      });
      if (!run) throw new Error(`no Lighthouse result for ${url}`);
      const { categories, audits } = run.lhr;
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, categories[c]?.score == null ? null : Math.round(categories[c].score! * 100)]),
      );
      // What cost points, so a score below 100 says why.
      const failed = Object.values(categories)
        .flatMap((cat) => cat.auditRefs.filter((ref) => ref.weight > 0).map((ref) => audits[ref.id]))
        .filter((a) => a && a.score !== null && a.score < 1)
        .map((a) => `${a.id} (${a.score})${a.displayValue ? `: ${a.displayValue}` : ""}`);
      results.push({ url, scores, failed });
    }
  } finally {
    await chrome.kill();
  }

  console.log("Lighthouse, mobile settings\n");
  const width = Math.max(...results.map((r) => r.url.length)) + 2;
  console.log(["page".padEnd(width), ...CATEGORIES.map((c) => c.padStart(16))].join(""));
  for (const r of results) {
    console.log([r.url.padEnd(width), ...CATEGORIES.map((c) => String(r.scores[c] ?? "n/a").padStart(16))].join(""));
  }
  for (const r of results) if (r.failed.length) console.log(`\n${r.url}: audits below full score\n  ${r.failed.join("\n  ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
