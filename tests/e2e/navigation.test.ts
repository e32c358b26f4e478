/**
 * Each demo practice's page, navigation by links keeping public URLs
 * (never /_sites/...), and no console errors. The pages run under their Content-Security-Policy (inline
 * scripts allowed by hash only): a violation is an error (tests/support/browser.ts), and a script
 * injected into the page is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startFrontend, type Frontend } from "../support/frontend";
import { launchBrowser, openPage, practiceUrl } from "../support/browser";
import { ACTIVE_DEMO_PRACTICES, backendJson, practiceName, startBackend, type DemoBackend } from "../support/demo-backend";
import { until } from "../support/until";

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

  it("a page and its cached copy run under the script policy; an injected inline script is refused", async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      const url = practiceUrl(frontend.port, "petit", "/?csp");
      const first = await page.goto(url);
      const policy = (await first!.allHeaders())["content-security-policy"];
      expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // The second load is a cache hit (the fast path): same policy, and the page still resumes (no error).
      let hit = await page.reload();
      await until(async () => (await (hit = await page.reload())!.allHeaders())["x-cache"] === "HIT", "a HIT");
      expect((await hit!.allHeaders())["content-security-policy"]).toBe(policy);
      // The inline scripts ran: the event list (made or taken over by the qwikloader) and the render's own
      // `q:func` script, whose qFuncs_<random> name differs from one render to the next.
      const ran = () =>
        page.evaluate(() => ({
          events: typeof (window as unknown as { qwikevents?: { push?: unknown } }).qwikevents?.push === "function",
          funcs: Object.keys(document).some((k) => k.startsWith("qFuncs_")),
        }));
      await expect.poll(ran).toEqual({ events: true, funcs: true });
      expect(errors).toEqual([]);

      await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.__injected = true";
        document.body.append(script);
      });
      // Reported twice: Chromium's console line, then the securitypolicyviolation event.
      await expect.poll(() => errors.filter((e) => e.startsWith("csp: "))).toEqual([expect.stringMatching(/^csp: script-src(-elem)? blocked inline/)]);
      expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
