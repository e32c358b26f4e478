import { describe, expect, it } from "vitest";
import { publishedYear, yearInUrl } from "./text";

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
  });
});
