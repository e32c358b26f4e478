import { describe, expect, it } from "vitest";
import type { Job, PageSummary, TeamMember } from "../backend";
import { robotsTxt, sitemapEntries, sitemapXml } from "./files";
import { isIndexable } from "./indexing";
import { siteOrigin } from "./seo/canonical";

const prod = { ENVIRONMENT: "prod" as const };

const page = (slug: string, path: string, kind: PageSummary["kind"], updated_at = "2026-11-02T10:00:00Z"): PageSummary => ({
  slug,
  path,
  title: slug,
  kind,
  level: path === "/" ? 0 : 1,
  parent: null,
  updated_at,
});
const member = (slug: string): TeamMember => ({ slug, name: slug, role: "Dentiste", photo: null, bio: "", skills: [], booking_url: null });
const job = (slug: string, published_at: string): Job => ({ slug, title: slug, contract: "CDI", location: "Lyon", description_html: "", published_at });

describe("robots.txt", () => {
  it("allows crawling and names the sitemap when indexable", () => {
    expect(robotsTxt(true, "https://www.cabinet-dupont.fr")).toBe(
      "User-agent: *\nAllow: /\nDisallow: /api/contact\n\nSitemap: https://www.cabinet-dupont.fr/sitemap.xml\n",
    );
  });
  it("disallows everything otherwise", () => {
    expect(robotsTxt(false, "https://www.cabinet-dupont.fr")).toBe("User-agent: *\nDisallow: /\n");
  });
});

describe("siteOrigin, the origin of robots.txt and the sitemap", () => {
  it("is the primary domain over https where indexable, else the requested origin", () => {
    expect(siteOrigin(isIndexable(prod), "www.cabinet-dupont.fr", "http://dupont.prod.localhost:3000")).toBe("https://www.cabinet-dupont.fr");
    expect(siteOrigin(isIndexable(prod), null, "http://petit.prod.localhost:3000")).toBe("http://petit.prod.localhost:3000");
  });

  it("is the requested origin on a deployment that is not indexed (a preview host lists its own URLs)", () => {
    expect(siteOrigin(isIndexable({ ENVIRONMENT: "staging" }), "www.cabinet-dupont.fr", "http://dupont.staging.localhost:3000")).toBe(
      "http://dupont.staging.localhost:3000",
    );
  });

  it.each([
    "www.cabinet-dupont.fr/evil",
    "www.cabinet-dupont.fr\nDisallow: /",
    "www.cabinet-dupont.fr\nSitemap: https://evil.example/sitemap.xml",
    "https://www.cabinet-dupont.fr",
    "www.cabinet-dupont.fr:8443",
    "evil.example?x=",
    "localhost",
  ])("a primary_domain that is no bare host (%j) falls back to the requested origin, and robots.txt stays clean", (bad) => {
    const origin = siteOrigin(isIndexable(prod), bad, "https://dupont.example:3000");
    expect(origin).toBe("https://dupont.example:3000");
    const robots = robotsTxt(true, origin);
    expect(robots.match(/^Sitemap:/gm)).toHaveLength(1);
    expect(robots).not.toMatch(/evil|Disallow: \/\n/);
  });
});

describe("sitemap", () => {
  const pages = [
    page("home", "/", "home"),
    page("equipe", "/equipe/", "team", "2026-10-01T08:00:00Z"),
    page("recrutement", "/recrutement/", "jobs"),
    page("implant-unitaire", "/implantologie/implant-unitaire/", "service_detail"),
  ];

  it("lists pages, members under the team page and jobs under the jobs page, with lastmod", () => {
    const entries = sitemapEntries("https://www.cabinet-dupont.fr", pages, [member("claire-dupont")], [job("assistante", "2026-09-15T00:00:00Z")]);
    expect(entries).toEqual([
      { loc: "https://www.cabinet-dupont.fr/", lastmod: "2026-11-02T10:00:00Z" },
      { loc: "https://www.cabinet-dupont.fr/equipe/", lastmod: "2026-10-01T08:00:00Z" },
      { loc: "https://www.cabinet-dupont.fr/recrutement/", lastmod: "2026-11-02T10:00:00Z" },
      { loc: "https://www.cabinet-dupont.fr/implantologie/implant-unitaire/", lastmod: "2026-11-02T10:00:00Z" },
      { loc: "https://www.cabinet-dupont.fr/equipe/claire-dupont/", lastmod: "2026-10-01T08:00:00Z" },
      { loc: "https://www.cabinet-dupont.fr/recrutement/assistante/", lastmod: "2026-09-15T00:00:00Z" },
    ]);
  });

  it("has no member or job pages without a team or jobs page", () => {
    const entries = sitemapEntries("https://x.fr", [page("home", "/", "home")], [member("a")], [job("b", "2026-01-01T00:00:00Z")]);
    expect(entries.map((e) => e.loc)).toEqual(["https://x.fr/"]);
  });

  it("encodes and escapes what it writes, and drops an unparseable date", () => {
    const entries = sitemapEntries("https://x.fr", [page("soins", "/soins-dentaires-&-co/é/", "generic", "not a date")], [], []);
    expect(entries).toEqual([{ loc: "https://x.fr/soins-dentaires-&-co/%C3%A9/", lastmod: null }]);
    expect(sitemapXml(entries)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://x.fr/soins-dentaires-&amp;-co/%C3%A9/</loc></url>\n</urlset>\n',
    );
  });
});
