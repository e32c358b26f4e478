/**
 * Issue 20: how right the toolkit's redirects are on two old sites unlike each other, each with a ground
 * truth of which old URL must reach which new page and which must be dropped: the Cabinet Dupont's
 * static `.html` site (old-site.ts) and the Dr Martin's WordPress site with plain permalinks, a blog and
 * documents (wordpress-site.ts). Crawl, assess and redirects run in process as an operator runs them,
 * with no hand edits; the figures are printed. Done when recall >= 90% and precision >= 95% on both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../ops/migrate/cli";
import type { CrawlEntry } from "../ops/migrate/files";
import { startOldSite } from "../ops/migrate/fixtures/old-site";
import { startWordPressSite, WORDPRESS_HOST, WORDPRESS_TRUTH } from "../ops/migrate/fixtures/wordpress-site";
import { DUPONT_TRUTH, formatAccuracy, measureAccuracy, type GroundTruth } from "../ops/migrate/fixtures/accuracy";
import { startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let root: string;

beforeAll(async () => {
  backend = await startBackend();
  root = mkdtempSync(join(tmpdir(), "migrate-accuracy-"));
});

afterAll(async () => {
  await backend?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function step(args: string[]): Promise<string> {
  const lines: string[] = [];
  const io = { log: (line: string) => void lines.push(line), progress: () => {}, progressDone: () => {} };
  const code = await main([...args, "--dir", root], io);
  expect(code, lines.join("\n")).toBe(0);
  return lines.join("\n");
}

async function draft(code: string, oldUrl: string, start: () => Promise<{ port: number; close: () => Promise<void> }>, truth: GroundTruth) {
  const site = await start();
  try {
    await step(["crawl", code, oldUrl, "--connect", `127.0.0.1:${site.port}`]);
  } finally {
    await site.close();
  }
  await step(["assess", code]);
  await step(["redirects", code, "--backend", `${backend.url}/api/v1/websites`]);
  const dir = join(root, code);
  const crawl = JSON.parse(readFileSync(join(dir, "crawl.json"), "utf8")) as CrawlEntry[];
  const map = JSON.parse(readFileSync(join(dir, "redirects.json"), "utf8")) as Record<string, string>;
  const paths = crawl.map((e) => {
    const u = new URL(e.url);
    return `${u.pathname}${u.search}`;
  });
  const accuracy = measureAccuracy(code, paths, map, truth);
  console.log(formatAccuracy(code, accuracy));
  return accuracy;
}

describe("the redirects the toolkit drafts, against each fake old site's ground truth", () => {
  it("the Cabinet Dupont's static site: recall >= 90% of must-map URLs, precision >= 95%", async () => {
    const a = await draft("dupont", "http://www.cabinet-dupont.fr", () => startOldSite(), DUPONT_TRUTH);
    expect(a.unknown).toEqual([]);
    expect(a.recall, formatAccuracy("dupont", a)).toBeGreaterThanOrEqual(0.9);
    expect(a.precision, formatAccuracy("dupont", a)).toBeGreaterThanOrEqual(0.95);
  }, 30_000);

  it("the Dr Martin's WordPress site (plain permalinks, blog, documents): recall >= 90%, precision >= 95%", async () => {
    const a = await draft("martin", `http://${WORDPRESS_HOST}`, () => startWordPressSite(), WORDPRESS_TRUTH);
    expect(a.unknown).toEqual([]);
    expect(a.recall, formatAccuracy("martin", a)).toBeGreaterThanOrEqual(0.9);
    expect(a.precision, formatAccuracy("martin", a)).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
