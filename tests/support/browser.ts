/**
 * Debian's Chromium driven by playwright-core (a test tool's own browser download is not possible
 * here). Chromium resolves *.localhost to loopback, so `http://dupont.dev.localhost:<port>/` reaches
 * the server under test with the Host a visitor would send.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { existsSync } from "node:fs";

const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(EXECUTABLE)) throw new Error(`${EXECUTABLE} is missing: run \`make chromium\``);
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 900 };

/** A page that records console errors and failed requests, for "no console errors" assertions. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: "fr-FR" });
  const page = await context.newPage();
  const errors: string[] = [];
  // A Content-Security-Policy violation (a blocked inline script, style or load) is an error of the page:
  // reported through a binding, which the policy cannot block (Chromium's own console line says less).
  await context.exposeBinding("__cspViolation", (_source, text: string) => void errors.push(`csp: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (sample: ${e.sample.slice(0, 40)})`);
    });
  });
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  // Chromium's console line for a failed load does not name the URL; record it here.
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`http ${response.status()}: ${response.url()}`);
  });
  return { context, page, errors };
}

/** The public URL of a demo practice on a running frontend, through its preview host. */
export function practiceUrl(frontendPort: number, code: string, path = "/"): string {
  return `http://${code}.dev.localhost:${frontendPort}${path}`;
}
