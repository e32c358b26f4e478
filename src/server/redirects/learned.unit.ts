import { describe, expect, it } from "vitest";
import { answerRequest, formatProblem, parseRedirects } from "./map";
import { idPathOf, idQueryOf, MAX_ID_FORMS, MAX_ID_PATHS, parseLearned } from "./learned";

const FILE = "migrations/bernard/redirects.json";
const LEARNED = {
  $platform: "static",
  $idPaths: "/actualites /file_download",
  $idQuery: "/*?id",
  $idQueryWith: "s=cabinet s=soins",
  "/actualites/55/lucas-moreau": "/equipe/lucas-moreau/",
  "/file_download/3/questionnaire.pdf": "/premiere-visite/",
  "/actualites/12/fermeture-estivale": null,
  "/?id=14": "/orthodontie/orthodontie-enfant/",
  "/?id=55": "/equipe/lucas-moreau/",
  "/?s=file_download&id=3": "/premiere-visite/",
  "/soins": null,
};

describe("a map's id grammar learned by probing the old site ($idPaths, $idQuery, $idQueryWith)", () => {
  const { map, errors } = parseRedirects(LEARNED, FILE);
  const table = new Map([["bernard", map]]);
  const ask = (url: string) => answerRequest(table, "bernard", url);

  it("loads, and answers every spelling of a page's id with its target", () => {
    expect(errors.map(formatProblem)).toEqual([]);
    for (const url of ["/actualites/55", "/Actualites/55/lucas-moreau/", "/actualites/55/any-title", "/?id=55", "/index.php?id=55&utm_source=x"])
      expect(ask(url), url).toMatchObject({ status: 301, location: expect.stringMatching(/^\/equipe\/lucas-moreau\//) });
    expect(ask("/file_download/3")).toEqual({ status: 301, location: "/premiere-visite/" });
    expect(ask("/soins/?id=14")).toEqual({ status: 301, location: "/orthodontie/orthodontie-enfant/" });
    expect(ask("/index.php?s=soins&id=14")).toEqual({ status: 301, location: "/orthodontie/orthodontie-enfant/" });
    // The key spelled with another parameter is its own URL (a file, not article 3).
    expect(ask("/?s=file_download&id=3")).toEqual({ status: 301, location: "/premiere-visite/" });
  });

  it("answers an unknown id, a dropped one, and an id beside a parameter the old site was not found to ignore with one 404", () => {
    for (const url of ["/actualites/999", "/actualites/999/x", "/actualites/12", "/?id=312", "/index.php?id=19", "/soins/?id=999", "/?s=file_download&id=14", "/?id=14&s=file_download"])
      expect(ask(url), url).toEqual({ status: 404 });
  });

  it("leaves a map without them as it was, and refuses malformed values", () => {
    const plain = parseRedirects({ $platform: "static", "/actualites/55/lucas-moreau": "/equipe/lucas-moreau/" }, FILE).map;
    expect(answerRequest(new Map([["b", plain]]), "b", "/actualites/55")).toBeNull();
    expect(parseRedirects({ $idPaths: "actualites", $idQuery: "?id" }, FILE).errors.map((e) => e.key)).toEqual(["$idPaths", "$idQuery"]);
    expect(parseLearned(undefined, undefined, "s=x").errors.map((e) => e.key)).toEqual(["$idQueryWith"]);
  });

  it("reduces a path or a query only by a learned rule", () => {
    const learned = parseLearned("/actualites", "/?id").learned;
    expect(idPathOf("/actualites/0055/x?a=1", learned)).toEqual({ url: "/actualites/55?a=1", id: "/actualites/55" });
    expect(idPathOf("/actualites/2019-bilan", learned).id).toBeNull();
    expect(idPathOf("/actualites/55/a/b", learned).id).toBeNull();
    expect(idQueryOf("/index.php?id=7", learned)).toBe("/?id=7");
    // Learned on the front controller only: another path's `?id=` is the visitor's.
    expect(idQueryOf("/soins/?id=7", learned)).toBeNull();
  });
});

describe("the learned grammar's review fixes", () => {
  const { map, errors } = parseRedirects({ ...LEARNED, "/contact": "/contact/" }, FILE);
  const table = new Map([["bernard", map]]);
  const ask = (url: string) => answerRequest(table, "bernard", url);

  it("answers an id path with a parameter that is no part of its identity as the map without $idPaths did: 301 to the page", () => {
    expect(errors.map(formatProblem)).toEqual([]);
    for (const url of ["/actualites/55/lucas-moreau?print=1", "/actualites/55?page=2"]) expect(ask(url), url).toEqual({ status: 301, location: "/equipe/lucas-moreau/" });
    // Known neither with its query nor by its path alone: one 404.
    expect(ask("/actualites/999/x?print=1")).toEqual({ status: 404 });
  });

  it("never takes a route the server answers itself, nor a page of the new site, by a learned rule", () => {
    expect(parseLearned("/api /media/docs /build /actualites", undefined).errors.map((e) => e.key)).toEqual(["$idPaths"]);
    expect(parseLearned("/Robots.txt", undefined).errors.map((e) => e.key)).toEqual(["$idPaths"]);
    // The id query: not on a server route, not on a page the map sends to (the front controller is its own path).
    for (const url of ["/media/bernard/logo.svg?id=55", "/api/og?id=55", "/api/media?id=55", "/contact/?id=55", "/equipe/lucas-moreau/?id=14"]) expect(ask(url), url).toBeNull();
    expect(ask("/?id=55")).toEqual({ status: 301, location: "/equipe/lucas-moreau/" });
    // A new-site page under a learned prefix is not its own key's loop (the request compared as sent, not reduced).
    const page = parseRedirects({ $platform: "static", $idPaths: "/actualites", "/actualites/2024": "/actualites/2024/" }, FILE);
    expect(page.errors.map(formatProblem)).toEqual([]);
    expect(answerRequest(new Map([["b", page.map]]), "b", "/actualites/2024/")).toBeNull();
    expect(answerRequest(new Map([["b", page.map]]), "b", "/actualites/2024")).toEqual({ status: 301, location: "/actualites/2024/" });
  });

  it("stores and compares prefixes decoded: an accented or escaped prefix applies", () => {
    expect(parseLearned("/actualit%C3%A9s /Nouveaut\u0065\u0301s", undefined).learned.idPaths).toEqual(["/actualités", "/nouveautés"]);
    const accented = parseRedirects({ $platform: "static", $idPaths: "/actualit%C3%A9s", "/actualités/55/lucas": "/equipe/lucas/" }, FILE);
    expect(accented.errors).toEqual([]);
    for (const url of ["/actualit%C3%A9s/55", "/Actualités/55/autre-titre", "/actualit%c3%a9s/55/x/"])
      expect(answerRequest(new Map([["b", accented.map]]), "b", url), url).toEqual({ status: 301, location: "/equipe/lucas/" });
  });

  it("reads the id query without the parameters grammar.ts ignores (language, session, stage=live, tracking)", () => {
    const learned = parseLearned(undefined, "/*?id").learned;
    expect(idQueryOf("/?id=55&lang=fr&PHPSESSID=abc&stage=Live&utm_source=x", learned)).toBe("/?id=55");
    expect(idQueryOf("/soins/?hl=fr&id=55&jsessionid=1", learned)).toBe("/?id=55");
  });

  it("reduces no path with a dot segment or an escaped slash", () => {
    const learned = parseLearned("/actualites", undefined).learned;
    for (const url of ["/actualites/55/..", "/actualites/55/.", "/actualites/55%2Fx", "/actualites/55/a%2Fb", "/actualites/../actualites/55"]) expect(idPathOf(url, learned).id, url).toBeNull();
    expect(parseLearned("/a%2Fb", undefined).errors.map((e) => e.key)).toEqual(["$idPaths"]);
  });
});

describe("ids printed in a page's markup: a map's learned id forms ($idForms)", () => {
  const { map, errors } = parseRedirects(
    {
      $platform: "static",
      $idForms: "/page{id}.html /soins/{id}",
      "/le-centre": "/philosophie/",
      "/page3901342.html": "/philosophie/",
      "/soins/implants-dentaires": "/implantologie/",
      "/soins/21": "/implantologie/",
      "/page4412876.html": "/mentions-legales/",
    },
    FILE,
  );
  const table = new Map([["martin", map]]);
  const ask = (url: string) => answerRequest(table, "martin", url);

  it("answers every spelling of an id form the map knows with one 301 to its page's target", () => {
    expect(errors.map(formatProblem)).toEqual([]);
    for (const url of ["/page3901342.html", "/Page3901342.html", "/page03901342.html/", "/page3901342.html?utm_source=instagram&utm_medium=bio"])
      expect(ask(url), url).toEqual({ status: 301, location: expect.stringMatching(/^\/philosophie\//) });
    for (const url of ["/soins/21", "/Soins/021/", "/soins/21?fbclid=x"]) expect(ask(url), url).toEqual({ status: 301, location: expect.stringMatching(/^\/implantologie\//) });
  });

  it("answers an id in a learned form that the map does not know with one 404, and leaves other paths alone", () => {
    for (const url of ["/page3901224.html", "/page31415926.html", "/soins/999"]) expect(ask(url), url).toEqual({ status: 404 });
    // Not the form: a slug under the folder, another page's name, the id with a suffix of its own.
    expect(idPathOf("/soins/implants", map.learned).id).toBeNull();
    expect(idPathOf("/page3901342.htm", map.learned).id).toBeNull();
    expect(idPathOf("/soins/21/x", map.learned).id).toBeNull();
    // A map without the key: an unknown id in the folder is left to the site, a known one with leading zeros is unknown.
    const plain = parseRedirects({ $platform: "static", "/soins/21": "/implantologie/" }, FILE).map;
    expect(answerRequest(new Map([["m", plain]]), "m", "/soins/999")).toBeNull();
    expect(answerRequest(new Map([["m", plain]]), "m", "/soins/021")).toBeNull();
  });

  it("refuses a form without one {id} in its last segment, with a digit beside it, or under a route the server answers itself", () => {
    for (const bad of ["/page.html", "/page{id}{id}.html", "/{id}/x", "/page1{id}.html", "/p{id}2", "/api/{id}", "/media/{id}", "soins/{id}", "/a/../{id}"])
      expect(parseLearned(undefined, undefined, undefined, bad).errors.map((e) => e.key), bad).toEqual(["$idForms"]);
    expect(parseLearned(undefined, undefined, undefined, "/Page{id}.HTML /actualit%C3%A9s/{id}").learned.idForms).toEqual(["/page{id}.html", "/actualités/{id}"]);
  });
});

describe("the learned grammar: the review of the id forms", () => {
  it("checks an id form as decoded, the form it is stored and read back in: an escaped brace or digit is refused", () => {
    // `%7Bid%7D` is a second `{id}` once decoded; `%31` a digit beside the id (`/page1231.html` would read as id 123).
    for (const bad of ["/page%7Bid%7D{id}.html", "/x{id}%7Bid%7D", "/page{id}%31.html", "/page%31{id}.html", "/page%7B{id}.html", "/soins%2F{id}", "/p%25{id}"])
      expect(parseLearned(undefined, undefined, undefined, bad).errors.map((e) => e.key), bad).toEqual(["$idForms"]);
    expect(idPathOf("/page1231.html", parseLearned(undefined, undefined, undefined, "/page{id}.html").learned)).toEqual({ url: "/page1231.html", id: "/page1231.html" });
    // What loads is stored so that it loads again, the same.
    for (const form of ["/Page{id}.HTML", "/actualit%C3%A9s/{id}", "/c%C5%93ur/{id}.html"]) {
      const stored = parseLearned(undefined, undefined, undefined, form).learned.idForms;
      expect(parseLearned(undefined, undefined, undefined, stored.join(" ")), form).toEqual({ learned: expect.objectContaining({ idForms: stored }), errors: [] });
    }
  });

  it(`loads at most ${MAX_ID_FORMS} id forms and ${MAX_ID_PATHS} prefixes, and names the bound when refusing more`, () => {
    const forms = (n: number) => Array.from({ length: n }, (_, i) => `/f${"abcdefghijklmnopqrstuvwxyz"[i % 26]}${"abcdefghijklmnopqrstuvwxyz"[Math.floor(i / 26)]}/{id}`).join(" ");
    const prefixes = (n: number) => Array.from({ length: n }, (_, i) => `/p${"abcdefghijklmnopqrstuvwxyz"[i % 26]}${"abcdefghijklmnopqrstuvwxyz"[Math.floor(i / 26)]}`).join(" ");
    expect(parseLearned(prefixes(MAX_ID_PATHS), undefined, undefined, forms(MAX_ID_FORMS)).errors).toEqual([]);
    expect(parseLearned(undefined, undefined, undefined, forms(MAX_ID_FORMS + 1)).errors).toEqual([{ key: "$idForms", message: expect.stringMatching(new RegExp(`at most ${MAX_ID_FORMS} id forms \\(${MAX_ID_FORMS + 1} given\\)`)) }]);
    expect(parseLearned(prefixes(MAX_ID_PATHS + 1), undefined).errors).toEqual([{ key: "$idPaths", message: expect.stringMatching(new RegExp(`at most ${MAX_ID_PATHS} prefixes`)) }]);
    // (A map with 5,000 forms loaded, and cost every request of the practice about a millisecond.)
    expect(parseRedirects({ $platform: "static", $idForms: forms(300), "/a": "/b/" }, FILE).errors.map((p) => p.key)).toEqual(["$idForms"]);
  });
});

describe("$idQueryWith is bounded as the forms and prefixes are (an outside review's finding)", () => {
  it("loads 16 parameters and refuses 17", () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => `s=v${i}`).join(" ");
    expect(parseLearned(undefined, "/*?id", pairs(16)).errors).toEqual([]);
    expect(parseLearned(undefined, "/*?id", pairs(17)).errors.map((e) => e.key)).toEqual(["$idQueryWith"]);
  });
});
