/**
 * The contact form in Chromium: without JavaScript (plain POST, 303 back to the contact page's
 * success notice, or the form again with errors and input kept) and with it (submitted in place, the
 * result announced in the status region, the enhancement loaded by the first submit only). The demo
 * backend's /admin/contact-submissions shows what arrived.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startFrontend, type Frontend } from "../support/frontend";
import { launchBrowser, openPage, practiceUrl } from "../support/browser";
import { backendJson, startBackend, type DemoBackend } from "../support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;
let browser: Browser;

interface Submission {
  code: string;
  body: Record<string, unknown>;
  dropped: boolean;
}

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

beforeEach(async () => {
  await backendJson(backend, "/admin/reset", { method: "POST" });
});

const submissions = async () => (await backendJson<{ submissions: Submission[] }>(backend, "/admin/contact-submissions")).submissions;

async function fill(page: Page, values: { name: string; email: string; phone: string; message: string }) {
  await page.fill("#contact-name", values.name);
  await page.fill("#contact-email", values.email);
  await page.fill("#contact-phone", values.phone);
  await page.fill("#contact-message", values.message);
  await page.check("#contact-consent");
}

const visitor = { name: "Camille Roux", email: "camille@example.org", phone: "pas de numéro", message: "Bonjour, avez-vous un créneau mardi ?" };

/** Text of the enhancement's own code: present in a script only once the enhancement is loaded. */
const ENHANCEMENT_MARKER = "[data-contact-status]";

describe("contact form in Chromium", () => {
  it("without JavaScript: errors with input kept, then 303 back to the contact page's success notice", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: "fr-FR" });
    const page = await context.newPage();
    try {
      await page.goto(practiceUrl(frontend.port, "dupont", "/contact/"));
      await fill(page, visitor);
      const refused = await Promise.all([page.waitForNavigation(), page.click(".contact-form button[type=submit]")]);
      expect(refused[0]?.status()).toBe(400);
      expect(await page.textContent("#contact-phone-error")).toBe("Saisissez un numéro de téléphone valide.");
      expect(await page.getAttribute("#contact-phone", "aria-invalid")).toBe("true");
      expect(await page.inputValue("#contact-name")).toBe(visitor.name);
      expect(await page.inputValue("#contact-message")).toBe(visitor.message);
      expect(await page.isChecked("#contact-consent")).toBe(true);
      expect(await page.textContent("[data-contact-status]")).toContain("merci de corriger les champs signalés");
      expect(await submissions()).toEqual([]);

      await page.fill("#contact-phone", "04 78 00 00 00");
      const sent = await Promise.all([page.waitForNavigation(), page.click(".contact-form button[type=submit]")]);
      expect(sent[0]?.status()).toBe(200);
      expect(page.url()).toBe(practiceUrl(frontend.port, "dupont", "/contact/#contact-envoye"));
      expect(await page.isVisible("#contact-envoye")).toBe(true);
      expect(await page.textContent("#contact-envoye")).toContain("Merci, votre message a bien été envoyé");

      const stored = await submissions();
      expect(stored).toEqual([
        expect.objectContaining({ code: "dupont", dropped: false, body: expect.objectContaining({ name: visitor.name, phone: "04 78 00 00 00", page: "/contact/" }) }),
      ]);

      // The notice is in the shared contact page but shown only on arrival from a submission.
      await page.goto(practiceUrl(frontend.port, "dupont", "/contact/"));
      expect(await page.isVisible("#contact-envoye")).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("with JavaScript: submitted in place, announced, enhancement loaded on the first submit only", async () => {
    const { context, page, errors } = await openPage(browser);
    const scripts: { url: string; body: string }[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      scripts.push({ url: response.url(), body: await response.text().catch(() => "") });
    });
    const csp: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) csp.push(msg.text());
    });
    try {
      const url = practiceUrl(frontend.port, "dupont", "/contact/");
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      // A human needs time to fill a form: the backend drops what comes within about 2 s of page load.
      await page.waitForTimeout(2200);
      const beforeInteraction = scripts.filter((s) => s.body.includes(ENHANCEMENT_MARKER)).map((s) => s.url);
      expect(beforeInteraction).toEqual([]);

      await fill(page, visitor);
      await page.click(".contact-form button[type=submit]");
      await expect.poll(() => page.textContent("[data-contact-status]"), { timeout: 10_000 }).toContain("merci de corriger les champs signalés");
      expect(page.url()).toBe(url);
      expect(await page.textContent("#contact-phone-error")).toBe("Saisissez un numéro de téléphone valide.");
      expect(await page.getAttribute("#contact-phone", "aria-invalid")).toBe("true");
      expect(await page.getAttribute("[data-contact-status]", "aria-live")).toBe("polite");
      expect(scripts.some((s) => s.body.includes(ENHANCEMENT_MARKER))).toBe(true);

      await page.fill("#contact-phone", "04 78 00 00 00");
      await page.click(".contact-form button[type=submit]");
      await expect.poll(() => page.textContent("[data-contact-status]"), { timeout: 10_000 }).toContain("Merci, votre message a bien été envoyé");
      expect(page.url()).toBe(url);
      expect(await page.inputValue("#contact-name")).toBe("");
      expect(await page.getAttribute("#contact-phone", "aria-invalid")).toBeNull();

      const stored = await submissions();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ code: "dupont", dropped: false, body: { name: visitor.name, phone: "04 78 00 00 00", page: "/contact/" } });
      // Measured from page load by the browser: at least the wait above, and not the no-JS stand-in.
      expect(stored[0].body.elapsed_ms).toBeGreaterThanOrEqual(2200);
      expect(stored[0].body.elapsed_ms).not.toBe(60000);
      // The refused first submission is a 400 on purpose; Chromium logs it. Nothing else may fail.
      const expected = [`http 400: ${practiceUrl(frontend.port, "dupont", "/api/contact")}`, "console: Failed to load resource: the server responded with a status of 400 (Bad Request)"];
      expect(errors.filter((e) => !expected.includes(e))).toEqual([]);
      expect(csp).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
