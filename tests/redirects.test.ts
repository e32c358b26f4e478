/**
 * The redirect maps of migrated practices (migrations/{code}/redirects.json) on the real
 * server: 301 on the same host, the start-time report of chains and outside targets, and the refusal
 * to start on a loop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SECRET, logMessages, runFrontendExpectingFailure, startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { rawRequest } from "./support/raw-http";
import { startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;
const MEDIA_DIR = join("dist", "media", "dupont");
const SVG = "redirects-test-logo.svg";

/** A map's redirects: its old paths with a target (not the `$platform` declaration, nor the dropped URLs). */
const redirectsOf = (file: string) =>
  Object.fromEntries(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string | null>).filter((e): e is [string, string] => !e[0].startsWith("$") && e[1] !== null));
const dupont = redirectsOf("migrations/dupont/redirects.json");

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

function migrationsDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  for (const [code, map] of Object.entries(files)) {
    mkdirSync(join(dir, code));
    writeFileSync(join(dir, code, "redirects.json"), typeof map === "string" ? map : JSON.stringify(map));
  }
  return dir;
}

describe("the demo practices' redirects", () => {
  it.each(Object.entries(dupont))("dupont %s -> 301 %s", async (from, to) => {
    const res = await http(frontend.url, "www.cabinet-dupont.fr", from);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(to);
  });

  it("every target of the demo maps is a page that answers 200", async () => {
    for (const code of ["dupont", "martin", "bernard"]) {
      const map = redirectsOf(`migrations/${code}/redirects.json`);
      for (const target of new Set(Object.values(map))) {
        const res = await http(frontend.url, `${code}.dev.localhost`, target);
        expect(res.status, `${code} ${target}`).toBe(200);
      }
    }
  });

  it("keeps the visitor's query, matches a trailing slash, answers HEAD, and stays on the host", async () => {
    const withQuery = await http(frontend.url, "dupont.dev.localhost", "/honoraires.html?utm_source=annuaire");
    expect(withQuery.headers.location).toBe("/tarifs/?utm_source=annuaire");
    const martin = await http(frontend.url, "www.centre-dentaire-martin.fr", "/implants/");
    expect([martin.status, martin.headers.location]).toEqual([301, "/implantologie/"]);
    const head = await http(frontend.url, "martin.dev.localhost", "/implants", { method: "HEAD" });
    expect([head.status, head.headers.location]).toEqual([301, "/implantologie/"]);
  });

  it("matches an old URL with its query (bernard's old WordPress), and answers 404 to one it does not know, never the home page", async () => {
    const res = await http(frontend.url, "www.dr-bernard-dentiste.fr", "/?page_id=21");
    expect([res.status, res.headers.location]).toEqual([301, "/contact/"]);
    expect((await http(frontend.url, "www.dr-bernard-dentiste.fr", "/?p=21&amp;utm_source=x")).headers.location).toBe("/contact/?utm_source=x");
    expect((await http(frontend.url, "www.dr-bernard-dentiste.fr", "/?page_id=999")).status).toBe(404);
  });

  it("asks the map before the cache: /?page_id=21 is a 301 even when / is a cached hit", async () => {
    const host = "www.dr-bernard-dentiste.fr";
    const cached = async () => (await http(frontend.url, host, "/")).headers["x-cache"];
    await http(frontend.url, host, "/");
    await expect.poll(cached, { timeout: 10_000 }).toBe("HIT");
    const mapped = await http(frontend.url, host, "/?page_id=21");
    expect([mapped.status, mapped.headers.location]).toEqual([301, "/contact/"]);
    const tagged = await http(frontend.url, host, "/?page_id=21&utm_source=annuaire&fbclid=x");
    expect([tagged.status, tagged.headers.location]).toEqual([301, "/contact/?utm_source=annuaire&fbclid=x"]);
    // An old CMS query the map does not name is no page: 404, not the cached home page (a soft 404).
    const other = await http(frontend.url, host, "/?page_id=999");
    expect(other.status).toBe(404);
    // Campaign tags alone leave the home page what it is.
    const home = await http(frontend.url, host, "/?utm_source=annuaire");
    expect([home.status, home.headers["x-cache"]]).toEqual([200, "HIT"]);
  });

  it("sends every spelling of a mapped old URL to its target in one 301", async () => {
    for (const spelling of ["//soins//implants-dentaires.html", "/Soins/Implants-Dentaires.html/", "/soins/implants-dentaires.html/", "/%63abinet.html"]) {
      const res = await http(frontend.url, "www.cabinet-dupont.fr", spelling);
      expect([spelling, res.status, res.headers.location]).toEqual([spelling, 301, spelling.includes("abinet") ? "/philosophie/" : "/implantologie/"]);
    }
  });

  it("keeps each practice's map to itself, and does not redirect a POST", async () => {
    expect((await http(frontend.url, "www.centre-dentaire-martin.fr", "/honoraires.html")).status).toBe(404);
    expect((await http(frontend.url, "www.cabinet-dupont.fr", "/honoraires.html", { method: "POST" })).status).not.toBe(301);
  });
});

describe("old URLs of a WordPress site", () => {
  it("answers a lower-case escape and the old PDF URL with one 301 each, a raw UTF-8 spelling with two", async () => {
    const dir = migrationsDir({
      dupont: { "/l-équipe/": "/equipe/", "/wp-content/uploads/2019/05/Tarifs-2019.pdf": "/tarifs/" },
    });
    const f = await startFrontend({ backendUrl: backend.url, env: { MIGRATIONS_DIR: dir } });
    try {
      for (const spelling of ["/l-%c3%a9quipe/", "/l-%C3%A9quipe", "/wp-content/uploads/2019/05/Tarifs-2019.pdf", "//wp-content/uploads/2019/05/tarifs-2019.pdf"]) {
        const res = await http(f.url, "www.cabinet-dupont.fr", spelling);
        expect([spelling, res.status, res.headers.location]).toEqual([spelling, 301, spelling.includes("pdf") ? "/tarifs/" : "/equipe/"]);
      }
      // Raw UTF-8 in the target, which Node's parser refuses before the map is asked: a 301 to the
      // percent-encoded spelling, which the map then sends to the page (it was a bare 400, the URL lost).
      const raw = await rawRequest(f.port, [{ data: Buffer.from("GET /l-équipe/ HTTP/1.1\r\nHost: www.cabinet-dupont.fr\r\n\r\n", "utf8") }], 5_000);
      expect(raw.status, raw.text).toBe(301);
      const location = /\r\nLocation: (\S+)\r\n/i.exec(raw.text)![1];
      expect(location).toBe("/l-%C3%A9quipe/");
      const next = await http(f.url, "www.cabinet-dupont.fr", location);
      expect([next.status, next.headers.location]).toEqual([301, "/equipe/"]);
    } finally {
      await f.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe("a map that declares its old platform (Joomla), on the real server", () => {
  it("every spelling of a mapped URL: one 301; an unknown CMS query, a dropped URL, an unknown old .html: one 404; a capitalised new path: one 301", async () => {
    const dir = migrationsDir({
      dupont: {
        $platform: "joomla",
        "/index.php?option=com_content&view=article&id=12&Itemid=101": "/philosophie/",
        "/index.php/tarifs": "/tarifs/",
        "/actualites/conges-2019.html": null,
        "/contact": "/contact/",
      },
    });
    // A build-time media file of the practice (the build writes them under dist/media/<code>/).
    mkdirSync(MEDIA_DIR, { recursive: true });
    writeFileSync(join(MEDIA_DIR, SVG), '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    const f = await startFrontend({ backendUrl: backend.url, env: { MIGRATIONS_DIR: dir } });
    const host = "www.cabinet-dupont.fr";
    try {
      for (const [spelling, target] of [
        ["/index.php?view=article&amp;id=12:le-cabinet&amp;option=com_content", "/philosophie/"],
        ["/?id=12&lang=fr&option=com_content&view=article", "/philosophie/"],
        ["/index.php/component/content/article/12-le-cabinet?Itemid=7", "/philosophie/"],
        ["/Tarifs.html", "/tarifs/"],
        ["/fr/tarifs/", "/tarifs/"],
        ["/Contact", "/contact/"],
      ]) {
        const res = await http(f.url, host, spelling);
        expect([spelling, res.status, String(res.headers.location).split("?")[0]]).toEqual([spelling, 301, target]);
      }
      // Cached first: the home page must not answer an old query it does not know.
      await http(f.url, host, "/");
      await expect.poll(async () => (await http(f.url, host, "/")).headers["x-cache"], { timeout: 10_000 }).toBe("HIT");
      for (const url of ["/index.php?option=com_content&view=article&id=99", "/?option=com_content&view=featured", "/actualites/conges-2019.html", "/Actualites/Conges-2019/", "/vieille-page.html"]) {
        const res = await http(f.url, host, url);
        expect([url, res.status]).toEqual([url, 404]);
      }
      expect((await http(f.url, host, "/contact/")).status).toBe(200);
      // The new site's own files and endpoints are no old site's, whatever its platform's folders (Joomla's `/media/`).
      const logo = await http(f.url, host, `/media/dupont/${SVG}`);
      expect([logo.status, logo.headers["content-type"]]).toEqual([200, "image/svg+xml"]);
      expect((await http(f.url, host, "/robots.txt")).status).toBe(200);
      // An old Joomla folder that is no file of the new site: one 404.
      expect((await http(f.url, host, "/media/system/js/core.js")).status).toBe(404);
    } finally {
      await f.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(join(MEDIA_DIR, SVG), { force: true });
    }
  }, 30_000);
});

describe("validation at start", () => {
  it("reports a chain and a target outside the site with the file and key, and serves the chain in one hop", async () => {
    const dir = migrationsDir({
      dupont: { "/vieux.html": "/ancien/", "/ancien": "/philosophie/", "/blog": "https://blog.example.org/" },
    });
    const f = await startFrontend({ backendUrl: backend.url, env: { MIGRATIONS_DIR: dir } });
    try {
      const file = join(dir, "dupont", "redirects.json");
      expect(logMessages(f.output())).toContain(`[warn] redirects: ${file} key "/vieux.html": redirect chain: /vieux.html -> /ancien/ -> /philosophie/; served as one 301 to /philosophie/`);
      expect(logMessages(f.output())).toContain(`[warn] redirects: ${file} key "/blog": target outside the site (https://blog.example.org/): not served`);
      const res = await http(f.url, "www.cabinet-dupont.fr", "/vieux.html");
      expect([res.status, res.headers.location]).toEqual([301, "/philosophie/"]);
      expect((await http(f.url, "www.cabinet-dupont.fr", "/blog/")).status).toBe(404);
    } finally {
      await f.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to start on a loop, naming the file and the key", async () => {
    const dir = migrationsDir({ martin: { "/a.html": "/b/", "/b": "/a.html" }, dupont: dupont });
    try {
      const { code, output } = await runFrontendExpectingFailure({
        ENVIRONMENT: "dev",
        BACKEND_API_URL: `${backend.url}/api/v1/websites`,
        REVALIDATION_SECRET: DEFAULT_SECRET,
        MIGRATIONS_DIR: dir,
      });
      expect(code).toBe(1);
      const file = join(dir, "martin", "redirects.json");
      expect(output).toContain("Refusing to start: Invalid redirect maps:");
      expect(output).toContain(`${file} key "/a.html": redirect loop: /a.html -> /b/ -> /a.html`);
      expect(output).toContain(`${file} key "/b": redirect loop: /b -> /a.html -> /b/`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to start on a file that is not a JSON object", async () => {
    const dir = migrationsDir({ dupont: "[\"/a\", \"/b\"]" });
    try {
      const { code, output } = await runFrontendExpectingFailure({
        ENVIRONMENT: "dev",
        BACKEND_API_URL: `${backend.url}/api/v1/websites`,
        REVALIDATION_SECRET: DEFAULT_SECRET,
        MIGRATIONS_DIR: dir,
      });
      expect(code).toBe(1);
      expect(output).toContain(`${join(dir, "dupont", "redirects.json")}: must be a JSON object mapping an old path to a new path`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
