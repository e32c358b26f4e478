/**
 * `npm run bench -- lcp`: the LCP of docs/decisions/0046-lcp-image.md as a bench. Lighthouse's mobile profile (its
 * defaults: a mid-range phone, simulated slow 4G, 4x CPU slowdown; ops/operator/lighthouse.ts runs it in Debian's
 * Chromium) on the built server as deployed, under the practices' own domains (ENVIRONMENT=prod, Chromium's
 * host resolver rules pointing them at the server, as `npm run migrate -- gate <code> <url> --connect` does):
 * the home page of each demo practice and one page of every other page kind (the first practice that has it),
 * three runs each, the rounds interleaved (every page once, then again: a machine that slows down in the
 * middle weighs on every page alike). Every run's Lighthouse JSON is saved under tmp/bench/lighthouse/; the
 * median of the three is judged per page against bench/targets.ts's LCP target.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { loadavg } from "node:os";
import { runLighthouse } from "../ops/operator/lighthouse";
import { ACTIVE_DEMO_PRACTICES } from "../tests/support/demo-backend";
import { get } from "../tests/support/cache";
import { fmt, judge, json, note } from "./figures";
import { startFrontendProcess, type Proc } from "./processes";
import { TARGETS } from "./targets";

export const LIGHTHOUSE_DIR = resolve("tmp/bench/lighthouse");
/** Runs per page; the median of an odd count is one of the runs. */
const RUNS = 3;

interface Page {
  code: string;
  kind: string;
  path: string;
  domain: string;
}

/** The pages scored: each practice's home page, then the first page of every other kind. */
async function pagesToScore(backend: Proc): Promise<Page[]> {
  const tenants = JSON.parse(readFileSync("tenants/practices.json", "utf8")) as { code: string; domains: string[] }[];
  const homes: Page[] = [];
  const others = new Map<string, Page>();
  for (const code of ACTIVE_DEMO_PRACTICES) {
    const domain = tenants.find((t) => t.code === code)?.domains[0];
    if (!domain) throw new Error(`${code} has no domain in tenants/practices.json`);
    const { pages } = await json<{ pages: { kind: string; path: string }[] }>(`${backend.url}/api/v1/websites/sites/${code}/pages/`);
    for (const page of pages) {
      if (page.kind === "home") homes.push({ code, kind: page.kind, path: page.path, domain });
      else if (!others.has(page.kind)) others.set(page.kind, { code, kind: page.kind, path: page.path, domain });
    }
  }
  return [...homes, ...others.values()];
}

/** The same-origin URLs of a page's preloaded images: the preload's href and every srcset candidate. */
export function preloadedImages(html: string): string[] {
  const urls = new Set<string>();
  for (const [link] of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="preload"/.test(link) || !/\bas="image"/.test(link)) continue;
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(link)?.[1].replace(/&amp;/g, "&");
    const href = attr("href");
    if (href) urls.add(href);
    for (const candidate of attr("imagesrcset")?.split(",") ?? []) urls.add(candidate.trim().split(/\s+/)[0]);
  }
  return [...urls].filter((url) => url.startsWith("/"));
}

const fileName = (page: Page, run: number) => `${page.code}-${page.kind}-${run + 1}.json`;

interface Lhr {
  lighthouseVersion: string;
  configSettings: {
    formFactor: string;
    throttlingMethod: string;
    throttling: { rttMs: number; throughputKbps: number; cpuSlowdownMultiplier: number };
  };
  environment: { benchmarkIndex: number; hostUserAgent: string };
  audits: Record<string, { numericValue?: number }>;
}

export async function lcpGate(backend: Proc): Promise<void> {
  console.log("\n(lcp) Lighthouse mobile LCP, the median of three runs per page kind of the demo practices");
  console.log("  (lcp) runs the server as deployed with ENVIRONMENT=prod on purpose: the pages under the practices' own domains");
  rmSync(LIGHTHOUSE_DIR, { recursive: true, force: true });
  mkdirSync(LIGHTHOUSE_DIR, { recursive: true });
  const frontend = await startFrontendProcess(backend.url, { ENVIRONMENT: "prod" }, "frontend-lcp");
  try {
    const pages = await pagesToScore(backend);
    // Every page and its preloaded hero asked for once, as a server that has been up has them (the pre-pass or
    // the first visitor; the media proxy keeps a small hero in memory, docs/decisions/0046-lcp-image.md). The first
    // round's home pages still measured 1.4-1.9 s against 0.8-1.0 s in the two others (2026-11-26, with and
    // without this warm-up; the other page kinds' first runs were not slower): why is not known yet, and the
    // median of three is what is judged.
    let heroes = 0;
    for (const page of pages) {
      const answer = await get(frontend.url, page.domain, page.path);
      if (answer.status !== 200) throw new Error(`${page.domain}${page.path}: ${answer.status}`);
      for (const url of preloadedImages(answer.text)) {
        const image = await get(frontend.url, page.domain, url);
        if (image.status !== 200) throw new Error(`${page.domain}${url}: ${image.status}`);
        heroes++;
      }
    }
    console.log(`  (lcp) every page and its preloaded hero image (${heroes} URLs, every srcset candidate) asked for once before the runs`);
    const domains = [...new Set(pages.map((p) => p.domain))];
    const hostRules = domains.map((d) => `MAP ${d} 127.0.0.1:${frontend.port}`).join(",");
    const urls = pages.map((p) => `http://${p.domain}${p.path}`);
    const order = Array.from({ length: RUNS }, () => urls).flat();
    const loadBefore = loadavg()[0];
    const started = performance.now();
    const results = await runLighthouse(order, {
      hostRules,
      // The LCP is in the performance category; the three others would double each run's time.
      categories: ["performance"],
      log: (line) => console.log(`  ${line}`),
      report: (index, _url, report) => writeFileSync(join(LIGHTHOUSE_DIR, fileName(pages[index % pages.length], Math.floor(index / pages.length))), report),
    });
    const minutes = (performance.now() - started) / 60_000;
    const lhr = (page: Page, run: number) => JSON.parse(readFileSync(join(LIGHTHOUSE_DIR, fileName(page, run)), "utf8")) as Lhr;
    const first = lhr(pages[0], 0);
    const { throttling } = first.configSettings;
    note({
      label: "(lcp) Lighthouse",
      value:
        `${first.lighthouseVersion}, ${first.configSettings.formFactor}, throttling ${first.configSettings.throttlingMethod} ` +
        `(RTT ${throttling.rttMs} ms, ${fmt(throttling.throughputKbps, 1)} Kbps, CPU slowdown ${throttling.cpuSlowdownMultiplier}x), ` +
        `${first.environment.hostUserAgent.match(/(?:Headless)?Chrome\/[\d.]+/)?.[0] ?? "Chromium"}; ${results.length} runs in ${fmt(minutes, 1)} min`,
    });
    const indexes = pages.flatMap((page) => Array.from({ length: RUNS }, (_, run) => lhr(page, run).environment.benchmarkIndex));
    note({
      label: "(lcp) the machine",
      value:
        `load ${fmt(loadBefore, 2)} before, ${fmt(loadavg()[0], 2)} after; Lighthouse's benchmarkIndex ${fmt(Math.min(...indexes))}-${fmt(Math.max(...indexes))} ` +
        "(its own CPU measure of each run; lower is a slower or busier machine)",
    });
    for (const page of pages) {
      const runs = Array.from({ length: RUNS }, (_, run) => lhr(page, run).audits["largest-contentful-paint"]?.numericValue ?? NaN);
      const sorted = [...runs].sort((a, b) => a - b);
      const median = sorted[Math.floor(RUNS / 2)];
      judge(
        `(lcp) ${page.code} ${page.kind} (${page.path})`,
        TARGETS.lcpMs,
        median,
        `median ${fmt(median)} ms (runs ${runs.map((ms) => fmt(ms)).join(", ")} ms)`,
      );
    }
    note({ label: "(lcp) every run's Lighthouse JSON", value: `${relative(process.cwd(), LIGHTHOUSE_DIR)}/<practice>-<kind>-<run>.json` });
  } finally {
    await frontend.stop();
  }
}
