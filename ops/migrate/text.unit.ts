import { describe, expect, it } from "vitest";
import { lastSegment, LISTING_URL, publishedYear, yearInUrl } from "./text";

describe("yearInUrl and publishedYear", () => {
  it("reads the latest year a URL names, never inside a longer number", () => {
    expect(yearInUrl("/2018/09/10/on-recrute/")).toBe(2018);
    expect(yearInUrl("/index.php?post/2026/09/14/Nous-recrutons")).toBe(2026);
    expect(yearInUrl("/docs/offre-assistante-2016.pdf")).toBe(2016);
    expect(yearInUrl("/uploads/2019/01/tarifs-2021.pdf")).toBe(2021);
    // A Kirby file's timestamp, a Weebly folder, an id: no year.
    expect(yearInUrl("/media/pages/x/5d2f52fa32-1782111600/fiche.pdf")).toBeNull();
    expect(yearInUrl("/uploads/5/8/2/1/58213476/offre.pdf")).toBeNull();
    expect(yearInUrl("/actualites/1026-offre.html")).toBeNull();
    // A segment's leading id, an amount, a year no page can have: none.
    expect(yearInUrl("/actualites/2043-le-cabinet-recrute-une-assistante-dentaire")).toBeNull();
    expect(yearInUrl("/actualites/2019-le-cabinet-recrute")).toBeNull();
    expect(yearInUrl("/docs/offre-assistante-cdi-2000-euros-brut.pdf")).toBeNull();
    expect(yearInUrl("/docs/offre-1950.pdf")).toBeNull();
    expect(yearInUrl("/2019/")).toBe(2019);
    expect(yearInUrl("/actualites/2019-05-14-nouveaux-horaires")).toBe(2019);
  });

  it("takes the date a page states first, then its URL's year, then a month and year (or a date in figures) at the start of its text", () => {
    const page = (path: string, text: string, published?: string) => publishedYear({ path, text, published });
    expect(page("/2019/02/post/", "Publié le 4 mars 2024", "2025-01-02")).toBe(2025);
    expect(page("/2019/02/post/", "Publié le 4 mars 2024")).toBe(2019);
    expect(page("/journal/post", "Publié le 4 mars 2024 par le Dr Martin")).toBe(2024);
    // Odoo's "sept. 14, 2026", a date in figures.
    expect(page("/blog/actualites-1/post-28", "sept. 14, 2026 Nous recrutons")).toBe(2026);
    expect(page("/blog/post", "Le 14/09/2026, nous recrutons")).toBe(2026);
    // A year without its month is no date ("fondé en 2009"), nor one far into the text.
    expect(page("/le-cabinet", "Le cabinet, fondé en 2009, accueille")).toBeNull();
    expect(page("/blog/post", `${"mot ".repeat(200)} 4 mars 2024`)).toBeNull();
    // The date it says it was published, not another of its text (the outside review's).
    expect(page("/blog/offre", "Début du contrat : janvier 2026. Publié le 3 février 2019.")).toBe(2019);
    expect(page("/blog/offre", "Poste à pourvoir en mai - 1950 € net. Le cabinet, que les patients du quartier connaissent bien et qui reçoit petits et grands du lundi au vendredi, est ouvert depuis mai 2024")).toBeNull();
  });
});

describe("lastSegment", () => {
  it("reads a path carried by the query (PluXml's, Dotclear's routes) as the page's", () => {
    expect(lastSegment("/index.php?static2/notre-approche")).toBe("notre-approche");
    expect(lastSegment("/index.php?post/2021/06/07/Un-appareil-dentaire&utm_source=newsletter")).toBe("Un-appareil-dentaire");
    expect(lastSegment("/index.php?category/Recrutement")).toBe("Recrutement");
    // A query of parameters, or one with no path, is no route: the path's own segment.
    expect(lastSegment("/soins/implants.html?id=3/4")).toBe("implants");
    expect(lastSegment("/index.php?page=soins/implants")).toBe("");
    expect(lastSegment("/actualites/nouveau.php?static2")).toBe("nouveau");
  });
});

describe("LISTING_URL", () => {
  it("reads a listing's further page by its number, not a folder named page (Docvadis's `/page/<rubrique>/<title>.html`)", () => {
    expect(["/page/2/", "/actualites/page/3/", "/tag/vie/page/2/", "/blog/page/2", "/category/conseils/"].map((p) => LISTING_URL.test(p))).toEqual([true, true, true, true, true]);
    expect(["/cabinet-petit/page/nos_soins/implants_dentaires.html", "/page/premier-rendez-vous", "/page/le_cabinet/"].map((p) => LISTING_URL.test(p))).toEqual([false, false, false]);
    // The number ends the path (grammar.ts's `\/page\/\d+$`), a slash, `.html` or a query after it: a page under a
    // numbered folder is no listing.
    expect(["/blog/page/2.html", "/page/2.html", "/actualites/page/3?x=1"].map((p) => LISTING_URL.test(p))).toEqual([true, true, true]);
    expect(["/cabinet/page/12/nos-horaires.html", "/page/1/implants.html", "/page/2-nos-soins/"].map((p) => LISTING_URL.test(p))).toEqual([false, false, false]);
  });
});
