/**
 * Every demo practice is a complete site. The built server on a port, the demo content
 * backend, Chromium at 375 px and 1280 px. Page paths come from the demo backend's page list at run
 * time (one page per kind in the browser, every page over HTTP).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import { logMessages, startFrontend, type Frontend } from "../support/frontend";
import { http } from "../support/http";
import { DESKTOP, PHONE, launchBrowser, openPage, practiceUrl } from "../support/browser";
import { ACTIVE_DEMO_PRACTICES, backendJson, startBackend, type DemoBackend } from "../support/demo-backend";
import { JS_BUDGET_BYTES, formatTable, measureSite, overBudget, pagesPerKind, type KindPage } from "../../scripts/js-budget";

interface PageSummary {
  slug: string;
  path: string;
  title: string;
  kind: string;
  level: number;
}

interface Practice {
  code: string;
  name: string;
  /** Every page: the backend's list, plus each team member and job under their parent page. */
  all: { path: string; kind: string; title: string }[];
  /** One page per kind (and a member page and a job page): what the browser visits. */
  kinds: KindPage[];
  nav: { label: string; href: string | null; children: { label: string; href: string | null }[] }[];
}

let backend: DemoBackend;
let frontend: Frontend;
let browser: Browser;
const practices: Record<string, Practice> = {};

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  browser = await launchBrowser();
  for (const code of ACTIVE_DEMO_PRACTICES) {
    const api = `/api/v1/websites/sites/${code}`;
    const [config, { pages }, { members }, { jobs }, { items }] = await Promise.all([
      backendJson<{ name: string }>(backend, `${api}/config/`),
      backendJson<{ pages: PageSummary[] }>(backend, `${api}/pages/`),
      backendJson<{ members: { slug: string; name: string }[] }>(backend, `${api}/team/`),
      backendJson<{ jobs: { slug: string; title: string }[] }>(backend, `${api}/jobs/`),
      backendJson<{ items: Practice["nav"] }>(backend, `${api}/nav/`),
    ]);
    const team = pages.find((p) => p.kind === "team")!;
    const jobsPage = pages.find((p) => p.kind === "jobs")!;
    practices[code] = {
      code,
      name: config.name,
      all: [
        ...pages.map((p) => ({ path: p.path, kind: p.kind, title: p.title })),
        ...members.map((m) => ({ path: `${team.path}${m.slug}/`, kind: "team member", title: m.name })),
        ...jobs.map((j) => ({ path: `${jobsPage.path}${j.slug}/`, kind: "job", title: j.title })),
      ],
      kinds: await pagesPerKind(backend.url, code),
      nav: items,
    };
  }
});

afterAll(async () => {
  await browser?.close();
  await frontend?.stop();
  await backend?.close();
});

const host = (code: string) => `${code}.dev.localhost:${frontend.port}`;
const otherNames = (code: string) => ACTIVE_DEMO_PRACTICES.filter((c) => c !== code).map((c) => practices[c].name);

describe("every page of every demo practice, over HTTP", () => {
  it.each(ACTIVE_DEMO_PRACTICES)("%s: 200, its own name and theme, no other practice's name, one h1, its head", async (code) => {
    const practice = practices[code];
    const kinds = new Set(practice.all.map((p) => p.kind));
    // The specification's page kinds are all there (the demo has them all), so "every kind" is real.
    for (const kind of ["home", "contact", "legal", "privacy", "cabinet", "service_hub", "service_detail", "need", "team", "jobs"]) {
      expect(kinds, kind).toContain(kind);
    }
    // The browser tests below visit one page of each of these kinds: none is left out.
    expect(practice.kinds.map((k) => k.kind).sort()).toEqual([...KINDS].sort());
    for (const page of practice.all) {
      const res = await http(frontend.url, host(code), page.path);
      const where = `${code} ${page.path}`;
      expect(res.status, where).toBe(200);
      expect(res.body, where).toContain(practice.name);
      for (const other of otherNames(code)) expect(res.body, `${where} names ${other}`).not.toContain(other);
      const htmlTag = /<html[^>]*>/.exec(res.body)![0];
      expect(htmlTag, where).toMatch(/lang="fr"/);
      expect(htmlTag, where).toMatch(/style="[^"]*--primary:oklch\([\d.]+ [\d.]+ [\d.]+\)/);
      expect(htmlTag, where).toMatch(/--accent:oklch\(/);
      expect(htmlTag, where).toMatch(/--primary-hue:[\d.]+;--primary-chroma:[\d.]+;--accent-hue:[\d.]+;--accent-chroma:[\d.]+/);
      expect(res.body.match(/<h1[\s>]/g), `${where}: one h1`).toHaveLength(1);
      expect(res.body.match(/<title[\s>]/g), `${where}: one title`).toHaveLength(1);
      expect(res.body, where).toMatch(/<meta name="description" content="[^"]+"/);
      expect(res.body, where).toContain(`<link rel="canonical" href="http://${host(code)}${page.path}"`);
      expect(res.body, where).toContain('<meta name="robots" content="noindex, nofollow"');
      expect(res.headers["x-robots-tag"], where).toBe("noindex");
      expect(res.body, where).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/api\/og\?title=/);
      expect(res.body, where).toContain('"@type":"Dentist"');
      // No external script: the only scripts are inline (loader, JSON-LD, Qwik's state).
      expect(res.body, where).not.toMatch(/<script[^>]+src=/);
      expect(res.body, where).not.toMatch(/rel="modulepreload"/);
      expect(res.body, where).not.toContain("/_sites/");
    }
  });

  it.each(ACTIVE_DEMO_PRACTICES)("%s: level-2 pages carry a BreadcrumbList, FAQ blocks a FAQPage", async (code) => {
    const detail = practices[code].all.find((p) => p.kind === "service_detail")!;
    const body = (await http(frontend.url, host(code), detail.path)).body;
    expect(body).toContain('"@type":"BreadcrumbList"');
    const hub = practices[code].all.find((p) => p.kind === "service_hub")!;
    const hubBody = (await http(frontend.url, host(code), hub.path)).body;
    expect(hubBody).toContain('"@type":"FAQPage"');
    expect(hubBody).not.toContain('"@type":"BreadcrumbList"');
  });

  it("answers this practice's 404 page for a path that is not in the list", async () => {
    const res = await http(frontend.url, host("martin"), "/cette-page-n-existe-pas/");
    expect(res.status).toBe(404);
    expect(res.body).toContain("Page introuvable");
    expect(res.body).toContain(practices.martin.name);
    expect(res.body).toContain('content="noindex');
    expect(res.body).not.toContain('rel="canonical"');
  });

  it("answers 404 for a draft page (not in the published list)", async () => {
    expect((await http(frontend.url, host("dupont"), "/implantologie/all-on-4/")).status).toBe(404);
  });

  it("redirects a slug asked under another parent to the backend's path (301)", async () => {
    const detail = practices.dupont.all.find((p) => p.path === "/implantologie/implant-unitaire/")!;
    const res = await http(frontend.url, host("dupont"), "/orthodontie/implant-unitaire/");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(detail.path);
    const member = practices.dupont.all.find((p) => p.kind === "team member")!;
    const slug = member.path.split("/").filter(Boolean).pop();
    const toMember = await http(frontend.url, host("dupont"), `/${slug}/`);
    expect(toMember.status).toBe(301);
    expect(toMember.headers.location).toBe(member.path);
  });

  it("skips a block of unknown type with a logged warning and renders the rest of the page", async () => {
    const res = await http(frontend.url, host("dupont"), "/technologies/");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Nos équipements");
    // Logged by the render worker: its console reaches the process output a little after the answer.
    await expect.poll(() => logMessages(frontend.output())).toContain('unknown block type "carousel"');
  });

  it("links a need page to the services it names", async () => {
    const need = await backendJson<{ path: string; related_services: string[] }>(
      backend,
      "/api/v1/websites/sites/dupont/pages/remplacer-une-dent/",
    );
    expect(need.related_services.length).toBeGreaterThan(0);
    const body = (await http(frontend.url, host("dupont"), need.path)).body;
    for (const slug of need.related_services) expect(body).toContain(`href="/${slug}/"`);
  });

  it("renders images with srcset, sizes, width and height; the hero eager with high priority, the rest lazy", async () => {
    const body = (await http(frontend.url, host("dupont"), "/")).body;
    const imgs = body.match(/<img [^>]+>/g)!;
    const hero = imgs.find((i) => i.includes("hero-image"))!;
    expect(hero).toMatch(/loading="eager"/);
    expect(hero).toMatch(/fetchpriority="high"/i);
    expect(hero).toMatch(/srcset="[^"]+ 480w, [^"]+"/);
    expect(hero).toMatch(/sizes="[^"]+"/);
    // The largest paint comes from the page's own origin (no connection to the media origin first), and the
    // head preloads exactly the candidates the <img> offers, so the browser fetches one image, early.
    const srcset = /srcset="([^"]+)"/.exec(hero)![1];
    for (const candidate of srcset.split(", ")) expect(candidate).toMatch(/^\/api\/media\?path=%2Fmedia%2Fdupont%2Fhero[^ ]*\.webp \d+w$/);
    const preload = /<link rel="preload" as="image"[^>]*>/.exec(body)![0];
    expect(preload).toContain(`imagesrcset="${srcset}"`);
    expect(preload).toMatch(/fetchpriority="high"/);
    for (const img of imgs) {
      expect(img, img).toMatch(/width="\d+"/);
      expect(img, img).toMatch(/height="\d+"/);
      expect(img, img).toMatch(/alt="/);
      if (img !== hero && !img.includes("brand-logo")) expect(img, img).toMatch(/loading="lazy"/);
    }
    // The header logo goes through the media proxy, by path, never as a backend URL.
    expect(imgs.find((i) => i.includes("brand-logo"))).toMatch(/src="\/api\/media\?path=%2Fmedia%2Fdupont%2F/);
  });

  it("puts the canonical URL on the primary domain in production, without noindex", async () => {
    const prod = await startFrontend({ backendUrl: backend.url, env: { ENVIRONMENT: "prod" } });
    try {
      const res = await http(prod.url, "www.cabinet-dupont.fr", "/implantologie/");
      expect(res.status).toBe(200);
      expect(res.body).toContain('<link rel="canonical" href="https://www.cabinet-dupont.fr/implantologie/"');
      expect(res.body).toContain('<meta property="og:image" content="https://www.cabinet-dupont.fr/api/og?title=');
      expect(res.body).not.toContain('name="robots"');
      expect(res.headers["x-robots-tag"]).toBeUndefined();
    } finally {
      await prod.stop();
    }
  });
});

/**
 * The serious and critical violations of the WCAG 2.1 A/AA and best-practice rules. Legacy mode runs axe in
 * the page itself: the default mode merges each frame's partial results in a blank page of its own, which
 * tripled the cost of every check (about 2.5 s against 0.8 s a page here), and the site has no frames.
 */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The page kinds each demo practice has (the first HTTP test checks the specification's kinds are there). */
const KINDS = ["home", "cabinet", "team", "service_hub", "service_detail", "need", "jobs", "contact", "generic", "legal", "privacy", "team member", "job"];

const kindPage = (code: string, kind: string): KindPage => {
  const page = practices[code].kinds.find((k) => k.kind === kind);
  if (!page) throw new Error(`${code} has no ${kind} page in the demo backend`);
  return page;
};

/**
 * Axe on the page as it is now: no serious or critical violation. Every document a test here opens is checked, once
 * at each viewport: the same document (its HTML as it stands, scripts left out, and the state the HTML does not hold:
 * checkboxes, form values, the focus, the fragment) at the same viewport is the same check,
 * whichever test opened it, with JavaScript or without (a Qwik page runs nothing before an interaction: its document
 * is the server's either way, and where it is not, its HTML differs and it is checked again). The keyboard tests
 * open pages the kinds' tests checked: 19 axe runs of theirs were 14 repeats, about 25 s of this file.
 * Axe is JavaScript: in a context without it (javaScriptEnabled: false) its run never ends. There, the page's
 * document as it stands (menus open or closed as the test left them) is checked in a copy: the same URL in a
 * context with JavaScript, answered with that document without its scripts, which a visitor without
 * JavaScript never ran either.
 */
async function expectAccessible(page: Page, where: string, javaScriptEnabled = true): Promise<void> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  // What the HTML does not hold: a checkbox's state (the phone menu is one), form values, the focus, the fragment.
  const live = await page.evaluate(() =>
    JSON.stringify([
      [...document.querySelectorAll<HTMLInputElement>("input, textarea, select")].map((e) => `${e.checked} ${e.value}`),
      document.activeElement?.outerHTML.slice(0, 200) ?? "",
      location.hash,
    ]),
  );
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  const seen = `${width}x${height} ${createHash("sha256").update(html).update(live).digest("hex")}`;
  if (accessibleDocuments.has(seen)) return;
  if (javaScriptEnabled) {
    expect(await seriousAxeViolations(page), where).toEqual([]);
    accessibleDocuments.add(seen);
    return;
  }
  const url = page.url();
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  try {
    const copy = await context.newPage();
    await copy.route(url, (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }));
    await copy.goto(url, { waitUntil: "load" });
    expect(await copy.locator("script").count(), `${where}: the copy was served`).toBe(0);
    expect(await seriousAxeViolations(copy), `${where} (its document without JavaScript)`).toEqual([]);
    accessibleDocuments.add(seen);
  } finally {
    await context.close();
  }
}
/** The documents axe found clean, by viewport, content and state (expectAccessible). */
const accessibleDocuments = new Set<string>();

// One test per practice, viewport and page kind, so that each has its own time limit (one test per practice
// visiting every kind took 26-30 s of its 30 s). Every page is loaded on a phone, where a page wider than the
// screen breaks it. Axe (about 1.5 s a page, half of this file's time) runs on every practice's every kind
// once, at one viewport or the other in turn (axeAt), and the desktop loads the pages of its turns: each kind
// is checked at both viewports and each practice's theme at both, over the practices.
const VIEWPORTS = [PHONE, DESKTOP];
const axeAt = (code: string, kind: string) => VIEWPORTS[((ACTIVE_DEMO_PRACTICES as readonly string[]).indexOf(code) + KINDS.indexOf(kind)) % VIEWPORTS.length];

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("in Chromium on a %s", (_label, viewport) => {
  describe.each(ACTIVE_DEMO_PRACTICES)("%s", (code) => {
    // One browser context for the practice's pages, as for a visitor going from page to page: its style
    // sheet, fonts and logo load once (a context per page cost more than the checks themselves).
    let visit: Awaited<ReturnType<typeof openPage>>;
    beforeAll(async () => {
      visit = await openPage(browser, viewport);
    });
    afterAll(async () => {
      await visit?.context.close();
    });

    // On a phone every kind; on a desktop the kinds whose accessibility check is the desktop's turn.
    const kinds = KINDS.filter((kind) => viewport.width === PHONE.width || axeAt(code, kind).width === viewport.width);
    it.each(kinds)("%s loads cleanly and themed (and, at its turn, with no serious accessibility violation)", async (kind) => {
      const { page, errors } = visit;
      const target = kindPage(code, kind);
      const where = `${code} ${target.path} at ${viewport.width}px`;
      errors.length = 0;
      const res = await page.goto(practiceUrl(frontend.port, code, target.path), { waitUntil: "load" });
      expect(res?.status(), where).toBe(200);
      const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary"));
      expect(primary, where).toMatch(/^oklch\(/);
      expect(await page.locator("h1").count(), where).toBe(1);
      // Nothing wider than the screen (no sideways scrolling on a phone).
      expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(viewport.width);
      if (axeAt(code, kind).width === viewport.width) await expectAccessible(page, where);
      expect(errors, where).toEqual([]);
    });
  });
});

describe("the accessibility checks' turns (axeAt)", () => {
  it("check every practice's every kind once, each kind and each practice at both viewports", () => {
    const turns = ACTIVE_DEMO_PRACTICES.flatMap((code) => KINDS.map((kind) => ({ code, kind, at: axeAt(code, kind) })));
    expect(turns).toHaveLength(ACTIVE_DEMO_PRACTICES.length * KINDS.length);
    for (const kind of KINDS) expect(new Set(turns.filter((t) => t.kind === kind).map((t) => t.at)).size, kind).toBe(2);
    for (const code of ACTIVE_DEMO_PRACTICES) expect(new Set(turns.filter((t) => t.code === code).map((t) => t.at)).size, code).toBe(2);
  });
});

/** Presses Tab until the `nth` element matching `selector` has the focus; fails after `max` presses. */
async function tabTo(page: Page, selector: string, nth = 0, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(
      ([s, n]) => document.activeElement !== null && document.activeElement === document.querySelectorAll(s as string)[n as number],
      [selector, nth] as const,
    );
    if (focused) return;
  }
  throw new Error(`${selector} #${nth} never got the focus`);
}

const focusedHref = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("href") ?? null);

describe.each([
  ["with JavaScript", true],
  ["without JavaScript", false],
])("navigation by keyboard, %s", (_label, javaScriptEnabled) => {
  it.each(["dupont", "bernard"])("%s on a phone: the Menu button opens the menu, a group opens, a link navigates", async (code) => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
    try {
      const page = await context.newPage();
      await page.goto(practiceUrl(frontend.port, code, "/"));
      await expectAccessible(page, `${code} / on a phone, JavaScript ${javaScriptEnabled ? "on" : "off"}`, javaScriptEnabled);
      const nav = page.locator("#site-nav");
      expect(await nav.isVisible()).toBe(false);
      await tabTo(page, "#menu-toggle");
      await page.keyboard.press("Space");
      expect(await nav.isVisible()).toBe(true);
      const group = practices[code].nav.find((i) => i.href === null && i.children.length > 0)!;
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SUMMARY");
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(group.label);
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      expect(await focusedHref(page)).toBe(group.children[0].href);
      await Promise.all([page.waitForURL(practiceUrl(frontend.port, code, group.children[0].href!)), page.keyboard.press("Enter")]);
      await expectAccessible(page, `${code} ${group.children[0].href} on a phone, JavaScript ${javaScriptEnabled ? "on" : "off"}`, javaScriptEnabled);
    } finally {
      await context.close();
    }
  });

  it.each(["martin", "petit"])("%s on a desktop: each dropdown opens with the keyboard and its links are reachable", async (code) => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled });
    try {
      const page = await context.newPage();
      await page.goto(practiceUrl(frontend.port, code, "/"));
      await expectAccessible(page, `${code} / on a desktop, JavaScript ${javaScriptEnabled ? "on" : "off"}`, javaScriptEnabled);
      expect(await page.locator(".menu-button").isVisible()).toBe(false);
      const groups = practices[code].nav.filter((i) => i.href === null && i.children.length > 0);
      expect(groups.map((g) => g.label)).toEqual(["Le Cabinet", "Nos Soins", "Votre Besoin"]);
      for (const [i, group] of groups.entries()) {
        await tabTo(page, "summary.nav-link", i);
        await page.keyboard.press("Enter");
        const sub = page.locator(".nav-sub").nth(i);
        expect(await sub.isVisible(), group.label).toBe(true);
        // Opening one group closes the others (details sharing a name).
        expect(await page.locator(".nav-sub:visible").count()).toBe(1);
        await page.keyboard.press("Tab");
        expect(await focusedHref(page)).toBe(group.children[0].href);
      }
      if (javaScriptEnabled) {
        // The inline enhancement: Escape closes the open dropdown and gives the focus back to its summary.
        await page.keyboard.press("Escape");
        expect(await page.locator(".nav-sub:visible").count()).toBe(0);
        expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(groups[groups.length - 1].label);
        await page.keyboard.press("Enter");
        await page.keyboard.press("Tab");
      }
      const last = groups[groups.length - 1];
      await Promise.all([page.waitForURL(practiceUrl(frontend.port, code, last.children[0].href!)), page.keyboard.press("Enter")]);
      await expectAccessible(page, `${code} ${last.children[0].href} on a desktop, JavaScript ${javaScriptEnabled ? "on" : "off"}`, javaScriptEnabled);
    } finally {
      await context.close();
    }
  });

  it("the skip link is the first stop and moves the focus to the main content", async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled });
    try {
      const page = await context.newPage();
      await page.goto(practiceUrl(frontend.port, "dupont", "/"));
      await expectAccessible(page, `dupont / on a desktop, JavaScript ${javaScriptEnabled ? "on" : "off"}`, javaScriptEnabled);
      await page.keyboard.press("Tab");
      expect(await focusedHref(page)).toBe("#main");
      expect(await page.locator(".skip-link").isVisible()).toBe(true);
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe("JavaScript budget", () => {
  // The kinds measured four at a time, each in a fresh context (a fresh visitor's first page): each waits on its own
  // network going idle (half a second at least), which one after the other cost this file a minute. Axe is not run
  // here: every practice's every kind is checked above, at its turn.
  const measured = new Map<string, Awaited<ReturnType<typeof measureSite>>>();
  beforeAll(async () => {
    const queue = [...KINDS];
    const measureNext = async (): Promise<void> => {
      for (let kind = queue.shift(); kind !== undefined; kind = queue.shift()) {
        measured.set(kind, await measureSite(browser, `http://${host("dupont")}`, [kindPage("dupont", kind)]));
      }
    };
    await Promise.all(Array.from({ length: 4 }, measureNext));
  });

  it.each(KINDS)(`%s: loads no more than ${JS_BUDGET_BYTES} bytes of external JavaScript before interaction`, (kind) => {
    const rows = measured.get(kind)!;
    console.log(formatTable(rows));
    expect(rows.map((r) => r.status)).toEqual([200]);
    expect(overBudget(rows)).toEqual([]);
  });
});
