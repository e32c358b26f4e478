import { describe, expect, it } from "vitest";
import { answerRequest, findRedirect, parseRedirects, PLATFORM_KEY, type RedirectTable } from "./map";
import { oldUrlForm, type Platform } from "./grammar";

const FILE = "migrations/x/redirects.json";
const table = (json: Record<string, string | null>): RedirectTable => {
  const { map, errors } = parseRedirects(json, FILE);
  expect(errors).toEqual([]);
  return new Map([["x", map]]);
};

describe("an old site's URL grammar: every spelling of one page has one form", () => {
  const same: [Platform, string, string[]][] = [
    ["wordpress", "/?page_id=12", ["/?p=12", "/index.php?page_id=12", "/?page_id=12&amp;utm_source=x", "/?lang=fr&page_id=12", "/?page_id=12&replytocom=3", "/fr/?p=12"]],
    ["wordpress", "/2019/05/gencives/", ["/index.php/2019/05/gencives", "/2019/05/Gencives/?amp", "/fr/2019/05/gencives/", "/2019/05/14/gencives/", "/gencives", "/?name=gencives", "/2019/05/14/gencives/amp/", "/gencives/amp"]],
    [
      "joomla",
      "/index.php?option=com_content&view=article&id=12&Itemid=101",
      [
        "/index.php?view=article&amp;id=12:le-cabinet&amp;option=com_content",
        "/?option=com_content&id=12&view=article&lang=fr",
        "/index.php?option=com_content&view=article&id=12:le-cabinet&catid=3&Itemid=7&tmpl=component&print=1",
        "/index.php/component/content/article/12-le-cabinet?Itemid=101",
        "/component/content/article/3-cabinet/12-le-cabinet.html",
        "/fr/actualites/12-le-cabinet",
      ],
    ],
    ["joomla", "/index.php/le-cabinet", ["/le-cabinet", "/Le-Cabinet.html", "/fr/le-cabinet/", "/index.php/fr/le-cabinet"]],
    ["drupal", "/node/12", ["/?q=node/12", "/index.php?q=node/12", "/?q=fr/node/12/", "/fr/node/12", "/Node/12/"]],
    ["wix", "/blank-1", ["/blank-1?lang=fr", "/Blank-1?lightbox=x", "/blank-1/"]],
    ["squarespace", "/blog/gencives", ["/blog/gencives?format=amp", "/fr/blog/gencives/"]],
    ["static", "/soins/implants.html", ["/Soins/Implants.HTM", "/soins/implants/", "/soins/implants.html?utm_source=x", "/soins/implants.php?PHPSESSID=3f9a1c0e"]],
    ["static", "/actualites.php?id=14", ["/actualites.php?id=14&PHPSESSID=3f9a1c0e", "/actualites.php?jsessionid=A1B2&id=14"]],
    // A file's query is a cache buster or a token: the same document, on every platform.
    ["static", "/app/download/93/tarifs.pdf?t=1600876543", ["/app/download/93/tarifs.pdf", "/app/download/93/Tarifs.PDF?t=1", "/app/download/93/tarifs.pdf?ver=2&utm_source=x"]],
    ["wordpress", "/wp-content/uploads/2019/05/questionnaire.pdf", ["/wp-content/uploads/2019/05/questionnaire.pdf?ver=5.2"]],
  ];
  it.each(same)("%s: %s", (platform, key, spellings) => {
    const form = oldUrlForm(key, platform)!.form;
    for (const spelling of spellings) expect(oldUrlForm(spelling, platform)?.form, spelling).toBe(form);
  });

  it("different pages stay different", () => {
    expect(oldUrlForm("/?p=12", "wordpress")!.form).not.toBe(oldUrlForm("/?p=13", "wordpress")!.form);
    expect(oldUrlForm("/?option=com_content&view=article&id=12", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=12", "joomla")!.form);
    expect(oldUrlForm("/?option=com_content&view=category&id=8&start=5", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=8", "joomla")!.form);
    // A print view in the default layout is the page; a category's blog layout is another listing.
    expect(oldUrlForm("/index.php/le-cabinet/acces?tmpl=component&print=1&layout=default", "joomla")!.form).toBe(oldUrlForm("/index.php/le-cabinet/acces", "joomla")!.form);
    expect(oldUrlForm("/?option=com_content&view=category&id=8&layout=blog", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=8", "joomla")!.form);
    // A page named "amp" is a page: only a final `/amp/` after a page's path is its AMP view.
    expect(oldUrlForm("/amp/", "wordpress")!.form).toBe("/amp");
    expect(oldUrlForm("/gencives/amp/", "static")!.form).toBe("/gencives/amp");
    // Only a file's query is dropped: a page script's parameters name its page.
    expect(oldUrlForm("/download.php?id=3", "static")!.form).not.toBe(oldUrlForm("/download.php?id=4", "static")!.form);
  });
});

describe("a map that declares its platform", () => {
  const joomla = table({
    [PLATFORM_KEY]: "joomla",
    "/index.php?option=com_content&view=article&id=12&Itemid=101": "/philosophie/",
    "/index.php/contact": "/contact/",
    "/actualites/conges-2019.html": null,
    "/contact": "/contact/",
  });

  it("answers every spelling of a mapped URL with one 301 to its target", () => {
    for (const url of ["/index.php?option=com_content&amp;view=article&amp;id=12:le-cabinet", "/?id=12&option=com_content&view=article&utm_source=x", "/index.php/component/content/article/12-le-cabinet"]) {
      expect(findRedirect(joomla, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    }
    expect(findRedirect(joomla, "x", "/Contact")).toBe("/contact/");
    expect(findRedirect(joomla, "x", "/contact/")).toBeNull();
  });

  it("answers 404, never the page at its path, for every query-shaped old URL it does not know", () => {
    for (const url of ["/index.php?option=com_content&view=article&id=99", "/?option=com_content&view=featured", "/?id=12", "/?anything=1", "/index.php?Itemid=101&option=com_contact"]) {
      expect(answerRequest(joomla, "x", url), url).toEqual({ status: 404 });
    }
    // Tracking and language parameters only: the page itself.
    expect(answerRequest(joomla, "x", "/?utm_source=x&lang=fr")).toBeNull();
  });

  it("answers one 404 for a dropped old URL and an old page suffix it does not know; the site's own paths are left alone", () => {
    expect(answerRequest(joomla, "x", "/actualites/conges-2019.html")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/Actualites/Conges-2019/")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/ancienne-page.html")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/implantologie/")).toBeNull();
    expect(answerRequest(joomla, "x", "/")).toBeNull();
  });

  it("a map without a platform reads as before: no query rule", () => {
    const plain = table({ "/?page_id=2": "/philosophie/" });
    expect(answerRequest(plain, "x", "/?page_id=9")).toBeNull();
    expect(answerRequest(plain, "x", "/old.html")).toBeNull();
    expect(findRedirect(plain, "x", "/?page_id=2&amp;utm_source=x")).toBe("/philosophie/?utm_source=x");
  });

  it("refuses an unknown platform, a dropped home page, and a target spelled like a dropped URL", () => {
    const errors = (json: Record<string, string | null>) => parseRedirects(json, FILE).errors.map((e) => e.message);
    expect(errors({ [PLATFORM_KEY]: "typo3" })).toEqual([expect.stringContaining("platform must be one of")]);
    expect(errors({ "/index.html": null })).toEqual(["the home page cannot be dropped (null)"]);
    expect(errors({ "/a.html": "/b/", "/b.html": null })).toEqual([expect.stringContaining("would answer 404")]);
  });
});
