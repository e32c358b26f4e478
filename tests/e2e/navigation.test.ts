/**
 * Each demo practice's page, navigation by links keeping public URLs
 * (never /_sites/...), and no console errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startFrontend, type Frontend } from "../support/frontend";
import { launchBrowser, openPage, practiceUrl } from "../support/browser";
import { ACTIVE_DEMO_PRACTICES, backendJson, practiceName, startBackend, type DemoBackend } from "../support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;
let browser: Browser;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await frontend?.stop();
  await backend?.close();
});

interface PageSummary {
  path: string;
  title: string;
  kind: string;
}

describe("demo practices in Chromium", () => {
  it.each(ACTIVE_DEMO_PRACTICES)("%s: homepage, then link navigation keeps public URLs", async (code) => {
    const name = await practiceName(backend, code);
    const { pages } = await backendJson<{ pages: PageSummary[] }>(backend, `/api/v1/websites/sites/${code}/pages/`);
    const { context, page, errors } = await openPage(browser);
    try {
      const response = await page.goto(practiceUrl(frontend.port, code));
      expect(response?.status()).toBe(200);
      await expect.poll(() => page.textContent("body")).toContain(name);

      // Follow a link from the footer (present on every page): the legal notice.
      const legal = pages.find((p) => p.kind === "legal")!;
      await page.click(`footer a[href="${legal.path}"]`);
      await page.waitForURL(practiceUrl(frontend.port, code, legal.path));
      await expect.poll(() => page.textContent("h1")).toContain(legal.title);
      expect(page.url()).not.toContain("_sites");

      // And back home through the brand link: a client-side navigation through Qwik City's <Link>.
      await page.click("header a.brand");
      await page.waitForURL(practiceUrl(frontend.port, code, "/"));
      expect(page.url()).not.toContain("_sites");
      const hrefs = await page.$$eval("a[href]", (links) => links.map((a) => a.getAttribute("href") ?? ""));
      expect(hrefs.filter((h) => h.includes("_sites"))).toEqual([]);
      const canonical = await page.getAttribute('link[rel="canonical"]', "href");
      expect(canonical ?? "").not.toContain("_sites");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
