/**
 * JavaScript budget of the practice sites: what a visitor's browser downloads before any interaction.
 *
 *   npm run js-budget -- [--frontend http://127.0.0.1:3000] [--backend http://127.0.0.1:4000] [--code dupont] [--env dev]
 *   (defaults: `make demo`'s ports; the practice is reached on its preview host {code}.{env}.localhost)
 *
 * Loads one page per page kind of a demo practice in Chromium (against a running frontend and the
 * content backend it reads), waits until the network is idle, and sums the bytes transferred
 * (compressed bodies, as sent on the wire) of every script and every Qwik request (/build/ chunks,
 * the preloader's bundle graph, q-data.json). Inline scripts are part of the HTML and not counted.
 * Prints a table; exits non-zero when a content page (every kind but the contact page, whose form may
 * need script) goes over 2 KB. tests/e2e/site.test.ts runs the same measurement.
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { pathToFileURL } from "node:url";

export const JS_BUDGET_BYTES = 2048;

/** Kinds whose page carries a form and may need script: measured and printed, not held to the budget. */
const FORM_KINDS = new Set(["contact"]);

export interface KindPage {
  kind: string;
  path: string;
}

export interface JsRequest {
  url: string;
  bytes: number;
}

export interface BudgetRow extends KindPage {
  status: number;
  bytes: number;
  requests: JsRequest[];
  budgeted: boolean;
}

/** Is this request JavaScript, or data only JavaScript asks for? */
function isJsRequest(url: string, resourceType: string): boolean {
  const { pathname } = new URL(url);
  return (
    resourceType === "script" ||
    pathname.startsWith("/build/") ||
    pathname.endsWith("q-data.json") ||
    /bundle-graph.*\.json$/.test(pathname)
  );
}

/** One page per kind (the first of each, in the backend's order), plus a team member and a job page. */
export async function pagesPerKind(backendOrigin: string, code: string): Promise<KindPage[]> {
  const api = `${backendOrigin.replace(/\/+$/, "")}/api/v1/websites/sites/${encodeURIComponent(code)}`;
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${api}${path}`);
    if (!res.ok) throw new Error(`GET ${api}${path} -> ${res.status}`);
    return (await res.json()) as T;
  };
  const [{ pages }, { members }, { jobs }] = await Promise.all([
    get<{ pages: { kind: string; path: string }[] }>("/pages/"),
    get<{ members: { slug: string }[] }>("/team/"),
    get<{ jobs: { slug: string }[] }>("/jobs/"),
  ]);
  const out: KindPage[] = [];
  for (const page of pages) if (!out.some((p) => p.kind === page.kind)) out.push({ kind: page.kind, path: page.path });
  const team = pages.find((p) => p.kind === "team");
  const jobsPage = pages.find((p) => p.kind === "jobs");
  if (team && members[0]) out.push({ kind: "team member", path: `${team.path}${members[0].slug}/` });
  if (jobsPage && jobs[0]) out.push({ kind: "job", path: `${jobsPage.path}${jobs[0].slug}/` });
  return out;
}

/**
 * Loads a URL in a fresh context and returns the JavaScript it transferred before any interaction.
 */
export async function measurePageJs(
  browser: Browser,
  url: string,
): Promise<{ status: number; requests: JsRequest[] }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: "fr-FR" });
  try {
    const page = await context.newPage();
    const pending: Promise<JsRequest | null>[] = [];
    page.on("requestfinished", (request) => {
      if (!isJsRequest(request.url(), request.resourceType())) return;
      pending.push(
        request.sizes().then((sizes) => ({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize })),
      );
    });
    const response = await page.goto(url, { waitUntil: "load" });
    // Qwik schedules its idle work (preloading) with requestIdleCallback after load: once the page has been
    // idle (a callback of ours, queued after Qwik's, has run), whatever that work requests is on the wire.
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
    await page.waitForLoadState("networkidle");
    const requests = (await Promise.all(pending)).filter((r): r is JsRequest => r !== null);
    return { status: response?.status() ?? 0, requests };
  } finally {
    await context.close();
  }
}

export async function measureSite(
  browser: Browser,
  siteOrigin: string,
  pages: KindPage[],
): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  for (const page of pages) {
    const { status, requests } = await measurePageJs(browser, `${siteOrigin}${page.path}`);
    rows.push({
      ...page,
      status,
      requests,
      bytes: requests.reduce((sum, r) => sum + r.bytes, 0),
      budgeted: !FORM_KINDS.has(page.kind),
    });
  }
  return rows;
}

export function overBudget(rows: BudgetRow[]): BudgetRow[] {
  return rows.filter((r) => r.budgeted && r.bytes > JS_BUDGET_BYTES);
}

export function formatTable(rows: BudgetRow[]): string {
  const header = ["page kind", "path", "status", "JS requests", "JS bytes (transferred)", "budget"];
  const lines = rows.map((r) => [
    r.kind,
    r.path,
    String(r.status),
    String(r.requests.length),
    String(r.bytes),
    r.budgeted ? (r.bytes <= JS_BUDGET_BYTES ? `ok (<= ${JS_BUDGET_BYTES})` : "OVER") : "not held (form)",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  const details = rows.flatMap((r) => r.requests.map((q) => `  ${r.path}: ${q.url} ${q.bytes} B`));
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...lines.map(fmt), ...(details.length ? ["", ...details] : [])].join("\n");
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function main() {
  const frontend = new URL(arg("frontend", "http://127.0.0.1:3000"));
  const backend = arg("backend", "http://127.0.0.1:4000");
  const code = arg("code", "dupont");
  // The practice is chosen by Host: its preview host on the frontend's port (*.localhost is loopback).
  const siteOrigin = `${frontend.protocol}//${code}.${arg("env", "dev")}.localhost:${frontend.port || (frontend.protocol === "https:" ? 443 : 80)}`;
  const pages = await pagesPerKind(backend, code);
  const browser = await launchChromium();
  try {
    const rows = await measureSite(browser, siteOrigin, pages);
    console.log(`JavaScript before the first interaction, ${siteOrigin} (budget ${JS_BUDGET_BYTES} B per content page)\n`);
    console.log(formatTable(rows));
    const bad = rows.filter((r) => r.status !== 200);
    if (bad.length) console.error(`\nnot 200: ${bad.map((r) => `${r.path} (${r.status})`).join(", ")}`);
    const over = overBudget(rows);
    if (over.length) console.error(`\nover budget: ${over.map((r) => `${r.path} (${r.bytes} B)`).join(", ")}`);
    process.exitCode = over.length || bad.length ? 1 : 0;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error);
    process.exit(2);
  });
}
