import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerRequest, findRedirect, formatProblem, loadRedirects, normaliseRedirectPath, parseRedirects, PLATFORM_KEY, RedirectsError } from "./map";

const FILE = "migrations/dupont/redirects.json";
const messages = (problems: { file: string; key: string | null; message: string }[]) => problems.map(formatProblem);

describe("normaliseRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/index.html", "/"],
    ["/INDEX.PHP", "/"],
    ["/Soins/Implants.HTML", "/soins/implants"],
    ["/soins/index.htm", "/soins"],
    ["/soins/", "/soins"],
    ["/soins//", "/soins"],
    // Accents folded (a builder that keeps them in its slugs answers them without).
    ["/%C3%89quipe.php", "/equipe"],
    ["/index.php?ID=3", "/?id=3"],
    ["/?b=2&amp;A=1&utm_source=x&lang=fr", "/?a=1&b=2"],
    ["/page.html.bak", "/page.html.bak"],
    ["/Implants-Dentaires.html/", "/implants-dentaires"],
    ["/soins//index.php", "/soins"],
    ["/%zz", null],
  ])("%s -> %s", (raw, form) => {
    expect(normaliseRedirectPath(raw)).toBe(form);
  });
});

describe("parseRedirects", () => {
  it("keeps plain redirects and reports nothing", () => {
    const { map, errors, warnings } = parseRedirects({ "/ancien-cabinet.html": "/philosophie/", "/praticiens": "/equipe/" }, FILE);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(map.get("/ancien-cabinet")).toBe("/philosophie/");
  });

  it("refuses a loop, naming the file and the key", () => {
    const { errors } = parseRedirects({ "/a": "/b/", "/b": "/a", "/c": "/d/" }, FILE);
    expect(messages(errors)).toEqual([
      `${FILE} key "/a": redirect loop: /a -> /b/ -> /a`,
      `${FILE} key "/b": redirect loop: /b -> /a -> /b/`,
    ]);
  });

  it("refuses a key redirecting to itself", () => {
    const { errors } = parseRedirects({ "/tarifs/": "/tarifs/" }, FILE);
    expect(messages(errors)).toEqual([`${FILE} key "/tarifs/": redirect loop: /tarifs/ -> /tarifs/ (the new path is the old path)`]);
  });

  it("accepts an old URL whose normalised form is its target's (/tarifs.html -> /tarifs/): no loop, no chain", () => {
    const { map, errors, warnings } = parseRedirects({ "/tarifs.html": "/tarifs/", "/Contact": "/contact/" }, FILE);
    expect([errors, warnings]).toEqual([[], []]);
    expect(map.get("/tarifs")).toBe("/tarifs/");
  });

  it("refuses a loop that only appears once old URLs are normalised", () => {
    const { errors } = parseRedirects({ "/contact.html": "/kontakt/", "/Kontakt.php": "/contact/" }, FILE);
    expect(messages(errors)).toEqual([
      `${FILE} key "/contact.html": redirect loop: /contact.html -> /kontakt/ -> /contact/`,
      `${FILE} key "/Kontakt.php": redirect loop: /Kontakt.php -> /contact/ -> /kontakt/`,
    ]);
  });

  it("refuses two spellings of one old URL with different targets", () => {
    const { errors } = parseRedirects({ "/soins.html": "/a/", "/Soins/index.php": "/b/" }, FILE);
    expect(messages(errors)).toEqual([`${FILE} key "/Soins/index.php": same old path as key "/soins.html" with another target`]);
  });

  it("reports a chain with the file and key, and serves it as one hop", () => {
    const { map, errors, warnings } = parseRedirects({ "/vieux": "/ancien/", "/ancien": "/nouveau/" }, FILE);
    expect(errors).toEqual([]);
    expect(messages(warnings)).toEqual([
      `${FILE} key "/vieux": redirect chain: /vieux -> /ancien/ -> /nouveau/; served as one 301 to /nouveau/`,
    ]);
    expect(map.get("/vieux")).toBe("/nouveau/");
    expect(map.get("/ancien")).toBe("/nouveau/");
  });

  it.each([
    ["https://ailleurs.example/page/"],
    ["//ailleurs.example/page/"],
    ["javascript:alert(1)"],
    ["mailto:contact@example.org"],
  ])("reports a target outside the site (%s) and does not serve it", (target) => {
    const { map, errors, warnings } = parseRedirects({ "/externe": target }, FILE);
    expect(errors).toEqual([]);
    expect(messages(warnings)).toEqual([
      `${FILE} key "/externe": target outside the site (${target}): not served; write the new path, e.g. "/contact/"`,
    ]);
    expect(map.size).toBe(0);
  });

  it.each([
    [[], `${FILE}: must be a JSON object mapping an old path to a new path`],
    ["x", `${FILE}: must be a JSON object mapping an old path to a new path`],
    [{ "/a": 3 }, `${FILE} key "/a": the new path must be a string (or null: the old URL answers 404)`],
    [{ "a.html": "/b/" }, `${FILE} key "a.html": the old path must start with a single "/"`],
    [{ "//a": "/b/" }, `${FILE} key "//a": the old path must start with a single "/"`],
    [{ "/a": "b/" }, `${FILE} key "/a": the new path "b/" must start with a single "/"`],
    [{ "/a": "/_sites/martin/" }, `${FILE} key "/a": the new path "/_sites/martin/" is under the internal prefix`],
    [{ "/a%zz": "/b/" }, `${FILE} key "/a%zz": the old path has a malformed percent-escape`],
    [{ "/a": "/b/", "/a/": "/c/" }, `${FILE} key "/a/": same old path as key "/a" with another target`],
  ])("refuses malformed input %j", (json, message) => {
    expect(messages(parseRedirects(json, FILE).errors)).toEqual([message]);
  });
});

describe("findRedirect", () => {
  const table = new Map([
    [
      "dupont",
      parseRedirects(
        { "/cabinet.html": "/philosophie/", "/soins/implants": "/implantologie/", "/index.php?id=3": "/tarifs/", "/équipe": "/equipe/" },
        FILE,
      ).map,
    ],
  ]);

  it.each([
    ["/cabinet.html", "/philosophie/"],
    ["/soins/implants", "/implantologie/"],
    ["/soins/implants/", "/implantologie/"],
    ["/soins/implants?utm_source=x", "/implantologie/?utm_source=x"],
    ["/index.php?id=3", "/tarifs/"],
    // A parameter's name in any case, `&amp;` copied from HTML, any order.
    ["/index.php?ID=3", "/tarifs/"],
    ["/%C3%A9quipe", "/equipe/"],
    // As visitors and old links type them: case, suffix, index file and trailing slash variants.
    ["/Cabinet.html", "/philosophie/"],
    ["/cabinet", "/philosophie/"],
    ["/cabinet/", "/philosophie/"],
    ["/CABINET.HTM", "/philosophie/"],
    ["/cabinet.php", "/philosophie/"],
    ["/cabinet/index.html", "/philosophie/"],
    ["/soins/implants.html?utm_source=x", "/implantologie/?utm_source=x"],
    // Tracking parameters are no part of an old URL: ignored when matching, kept on the target.
    ["/index.php?id=3&utm_source=x", "/tarifs/?utm_source=x"],
    ["/index.php?fbclid=abc&id=3&gclid=1", "/tarifs/?fbclid=abc&gclid=1"],
    ["/index.php?utm_campaign=été&id=3", "/tarifs/?utm_campaign=été"],
    // Every spelling of a named old URL in one step: lower-case escapes, `//`, a slash after the suffix.
    ["/%c3%a9quipe", "/equipe/"],
    ["/soins//implants", "/implantologie/"],
    ["//cabinet.html", "/philosophie/"],
    ["/Cabinet.html/", "/philosophie/"],
  ])("%s -> %s", (url, target) => {
    expect(findRedirect(table, "dupont", url)).toBe(target);
  });

  it.each([["/index.php?id=4"], ["/cabinets.html"], ["/%zz"], ["/philosophie/"], ["/equipe/?utm_source=x"], ["/index.php?utm_source=x"], ["/index.php?id=3x&utm_source=x"]])("%s has no redirect", (url) => {
    expect(findRedirect(table, "dupont", url)).toBeNull();
  });

  it("never redirects a page of the new site to itself", () => {
    const own = new Map([["dupont", parseRedirects({ "/tarifs.html": "/tarifs/", "/?page_id=2": "/" }, FILE).map]]);
    expect(findRedirect(own, "dupont", "/tarifs/")).toBeNull();
    expect(findRedirect(own, "dupont", "/tarifs/?utm_source=x")).toBeNull();
    expect(findRedirect(own, "dupont", "/Tarifs/")).toBe("/tarifs/");
    expect(findRedirect(own, "dupont", "/?page_id=2")).toBe("/");
    expect(findRedirect(own, "dupont", "/")).toBeNull();
  });

  it("keeps each practice's map to itself", () => {
    expect(findRedirect(table, "martin", "/cabinet.html")).toBeNull();
  });
});

describe("WordPress's query vars of posts and pages under a front or a post type's base", () => {
  const wordpress = (json: Record<string, string | null>) => {
    const { map, errors } = parseRedirects({ [PLATFORM_KEY]: "wordpress", "$queryVars": "membre soin", ...json }, FILE);
    expect(errors).toEqual([]);
    return new Map([["martin", map]]);
  };
  const divi = wordpress({
    "/blog/implant-ou-bridge-que-choisir/": "/remplacer-une-dent/",
    "/soins/implants-dentaires/": "/implantologie/",
    "/soins/parodontologie/": "/parodontologie/",
    // The new page's own spelling the toolkit writes: the same page, so no second answer.
    "/parodontologie": "/parodontologie/",
    "/equipe/dr-julien-martin/": "/equipe/julien-martin/",
    "/le-centre/notre-equipe/": "/equipe/",
    // Two keys ending in one slug to different pages, a dropped one beside a kept one.
    "/soins/bilan/": "/premiere-visite/",
    "/blog/bilan/": "/philosophie/",
    "/blog/au-revoir-dr-claire-vidal/": null,
    "/equipe/au-revoir-dr-claire-vidal/": "/equipe/",
  });

  it.each([
    ["/?name=implant-ou-bridge-que-choisir", "/remplacer-une-dent/"],
    ["/?soin=implants-dentaires", "/implantologie/"],
    ["/index.php?soin=Implants-Dentaires", "/implantologie/"],
    ["/?soin=parodontologie", "/parodontologie/"],
    ["/?membre=dr-julien-martin&fbclid=IwAR0pQz", "/equipe/julien-martin/?fbclid=IwAR0pQz"],
    ["/?pagename=le-centre/notre-equipe", "/equipe/"],
  ])("%s -> %s (WordPress's 301 to the permalink)", (url, target) => {
    expect(findRedirect(divi, "martin", url)).toBe(target);
  });

  it("answers one 404 as before when no key, several keys or a dropped one end in the slug, and for WordPress's own parameters", () => {
    for (const url of ["/?soin=invisalign", "/?name=bilan", "/?name=au-revoir-dr-claire-vidal", "/?s=implants-dentaires", "/?tag=implants-dentaires", "/?soin=implants-dentaires&membre=dr-julien-martin"]) {
      expect(answerRequest(divi, "martin", url), url).toEqual({ status: 404 });
    }
    // On another path the query is no WordPress query var of the front controller.
    expect(findRedirect(divi, "martin", "/contact/?soin=implants-dentaires")).toBeNull();
  });

  it("answers a single var only where it is `name` or a post type's the map learned ($queryVars), spelled as WordPress reads it (review 110, 1)", () => {
    const map = wordpress({
      "/contact.html": "/contact/",
      "/blog/page/2/": "/blog/",
      "/soins/1": "/soins/",
      "/equipe/": "/equipe-soignante/",
      "/soins/implants-dentaires/": "/implantologie/",
    });
    // WordPress ignores a var it did not register (it shows the home page): one 404, as before the front was read.
    const unknown = ["/?q=contact", "/?foo=contact", "/?id=contact", "/?action=contact", "/?format=contact", "/?v=2", "/?ver=2", "/?nocache=2", "/?x=1", "/?et_fb=1", "/?hsa_cam=equipe", "/?view=equipe", "/?share=equipe"];
    // Its query vars are PHP's $_GET keys: `Soin` is not `soin`.
    for (const url of [...unknown, "/?Soin=implants-dentaires", "/?SOIN=Implants-Dentaires", "/?NAME=implants-dentaires"]) expect(answerRequest(map, "martin", url), url).toEqual({ status: 404 });
    expect(findRedirect(map, "martin", "/?soin=implants-dentaires")).toBe("/implantologie/");
    // A WordPress map that learned no post type answers `?name=` alone.
    const bare = new Map([["martin", parseRedirects({ [PLATFORM_KEY]: "wordpress", "/soins/implants-dentaires/": "/implantologie/" }, FILE).map]]);
    expect(answerRequest(bare, "martin", "/?soin=implants-dentaires")).toEqual({ status: 404 });
    expect(findRedirect(bare, "martin", "/?name=implants-dentaires")).toBe("/implantologie/");
  });

  it("indexes only keys a post's permalink can be: no platform path, no number, no document (review 110, 2)", () => {
    const map = wordpress({
      "/blog/page/2/": "/blog/",
      "/2019/05/": "/blog/",
      "/soins/1": "/soins/",
      "/tarifs.pdf": "/tarifs/",
      "/blog/tag/detartrage/": "/detartrage/",
      "/blog/author/dr-x/": null,
    });
    const index = map.get("martin")!.slugKeys;
    for (const slug of ["2", "05", "1", "tarifs.pdf", "tarifs", "detartrage", "dr-x"]) expect(index.has(slug), slug).toBe(false);
    // (`/?name=tarifs.pdf` is `/tarifs.pdf` in the grammar, as before WordPress's front was read: the key itself.)
    for (const url of ["/?soin=tarifs.pdf", "/?soin=2", "/?name=05", "/?membre=1", "/?name=detartrage", "/?soin=dr-x"]) {
      expect(answerRequest(map, "martin", url), url).toEqual({ status: 404 });
    }
  });

  it("reads `?pagename=` as a page's whole path, parents included, never its last segment nor a dot segment (review 110, 7)", () => {
    for (const url of ["/?pagename=notre-equipe", "/?pagename=x/le-centre/notre-equipe", "/?pagename=../../notre-equipe", "/?pagename=..%2F..%2Fnotre-equipe", "/?pagename=le-centre/../notre-equipe", "/?pagename=x/y/implants-dentaires"]) {
      expect(answerRequest(divi, "martin", url), url).toEqual({ status: 404 });
    }
    expect(findRedirect(divi, "martin", "/index.php?pagename=le-centre/notre-equipe/")).toBe("/equipe/");
  });

  it("refuses a malformed $queryVars at load: not a string of post types' vars, WordPress's own, too many, another platform", () => {
    const problems = (json: Record<string, unknown>) => messages(parseRedirects(json, FILE).errors);
    for (const value of [["soin"], "", "Soin", "name", "s soin", "p", "post", "a.b", Array.from({ length: 17 }, (_, i) => `t${i}`).join(" ")]) {
      expect(problems({ [PLATFORM_KEY]: "wordpress", "$queryVars": value }), JSON.stringify(value)).toHaveLength(1);
    }
    expect(problems({ [PLATFORM_KEY]: "drupal", "$queryVars": "soin" })).toHaveLength(1);
    expect(problems({ "$queryVars": "soin" })).toHaveLength(1);
    expect(problems({ [PLATFORM_KEY]: "wordpress", "$queryVars": " membre  soin membre " })).toEqual([]);
  });

  it("is WordPress's only: another platform's map, or one without a platform, reads such a query as before", () => {
    for (const platform of [null, "drupal"] as const) {
      const json = { ...(platform ? { [PLATFORM_KEY]: platform } : {}), "/soins/implants-dentaires/": "/implantologie/" };
      const other = new Map([["martin", parseRedirects(json, FILE).map]]);
      expect(findRedirect(other, "martin", "/?soin=implants-dentaires"), String(platform)).toBeNull();
    }
  });

  it("builds its index once, at load, bounded by the map", () => {
    const map = divi.get("martin")!;
    expect(map.slugKeys.size).toBeLessThanOrEqual(map.size + map.gone.size);
    expect(map.slugKeys.get("implants-dentaires")).toBe("/soins/implants-dentaires");
    expect(map.slugKeys.get("bilan")).toBeNull();
  });
});

describe("a page the map sends to keeps its data file, and the slug index never answers the home page (an outside review's findings)", () => {
  const ask = (json: Record<string, unknown>, url: string) => answerRequest(new Map([["dupont", parseRedirects(json, FILE).map]]), "dupont", url);

  it("leaves a target's q-data.json to the site under an archive's shape and under a learned id prefix", () => {
    const wordpress = { $platform: "wordpress", "/conseils/prevention/": "/conseils/category/prevention/", "/equipe/dr-martin.html": "/equipe/author/dr-martin/" };
    expect(ask(wordpress, "/conseils/category/prevention/")).toBeNull();
    expect(ask(wordpress, "/conseils/category/prevention/q-data.json")).toBeNull();
    expect(ask(wordpress, "/equipe/author/dr-martin/q-data.json")).toBeNull();
    // Another archive of the same shape, and its data, stay the old platform's: one 404.
    expect(ask(wordpress, "/conseils/category/hygiene/q-data.json")).toEqual({ status: 404 });
    const learned = { $platform: "static", $idPaths: "/actualites", "/actualites/55": "/equipe/", "/actualites/2024": "/actualites/2024/" };
    expect(ask(learned, "/actualites/2024/q-data.json")).toBeNull();
    expect(ask(learned, "/actualites/55/q-data.json")).toEqual({ status: 301, location: "/equipe/" });
  });

  it("does not answer a post type's var with a key that sends to the home page", () => {
    const map = { $platform: "wordpress", $queryVars: "soin membre", "/accueil-2/": "/", "/soins/implants/": "/implantologie/" };
    expect(ask(map, "/?membre=accueil-2")).toEqual({ status: 404 });
    expect(ask(map, "/?soin=implants")).toEqual({ status: 301, location: "/implantologie/" });
  });
});

describe("loadRedirects", () => {
  function dirWith(files: Record<string, string>) {
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name.split("/")[0]), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  it("reads every practice's file and ignores other files", () => {
    const dir = dirWith({
      "dupont/redirects.json": JSON.stringify({ "/a": "/b/" }),
      "martin/redirects.json": JSON.stringify({ "/c": "/d/" }),
      "martin/crawl.json": "[]",
    });
    const { table, warnings } = loadRedirects(dir);
    expect([...table.keys()]).toEqual(["dupont", "martin"]);
    expect(warnings).toEqual([]);
  });

  it("means no redirects when the directory does not exist", () => {
    expect(loadRedirects(join(tmpdir(), "no-such-migrations-dir")).table.size).toBe(0);
  });

  it("throws one error naming every problem of every file", () => {
    const dir = dirWith({
      "dupont/redirects.json": JSON.stringify({ "/a": "/b/", "/b.html": "/a" }),
      "martin/redirects.json": "{not json",
    });
    expect(() => loadRedirects(dir)).toThrow(RedirectsError);
    try {
      loadRedirects(dir);
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toContain(`${join(dir, "dupont", "redirects.json")} key "/a": redirect loop`);
      expect(text).toContain(`${join(dir, "martin", "redirects.json")}: is not valid JSON`);
    }
  });

  it("accepts the committed demo maps", () => {
    const { table } = loadRedirects("migrations");
    expect(table.size).toBeGreaterThanOrEqual(1);
  });
});

describe("a Joomla map's categories (read from its keys): a category's blog page is not the article of its number", () => {
  const { map, errors } = parseRedirects(
    {
      [PLATFORM_KEY]: "joomla",
      "/le-cabinet/equipe/6-dr-thomas-dupont.html": "/equipe/thomas-dupont/",
      "/actualites/6-vie-du-cabinet/40-le-dr-thomas-dupont-rejoint-le-cabinet.html": "/equipe/thomas-dupont/",
      "/actualites/6-vie-du-cabinet.html": null,
    },
    "redirects.json",
  );
  const table = new Map([["x", map]]);

  it("loads both keys apart, answers the category's pages and feeds 404 and the article its page", () => {
    expect(errors).toEqual([]);
    for (const url of ["/actualites/6-vie-du-cabinet.html", "/actualites/6-vie-du-cabinet.html?start=6", "/actualites/6-vie-du-cabinet.html?limitstart=0", "/actualites/6-vie-du-cabinet.feed?type=rss"]) {
      expect(answerRequest(table, "x", url), url).toEqual({ status: 404 });
    }
    expect(findRedirect(table, "x", "/le-cabinet/equipe/6-dr-thomas-dupont.html?fbclid=1")?.split("?")[0]).toBe("/equipe/thomas-dupont/");
    expect(findRedirect(table, "x", "/index.php?option=com_content&view=article&id=6")).toBe("/equipe/thomas-dupont/");
  });
});
