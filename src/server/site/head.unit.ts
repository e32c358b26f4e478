import { describe, expect, it } from "vitest";
import type { PracticeInfo } from "../backend";
import type { PageView } from "./page-view";
import { buildPageHead, pageTitle, toDocumentHead, type HeadInput } from "./head";

const practice: PracticeInfo = {
  name: "Cabinet dentaire Dupont",
  address: { street: "12 rue Vauban", postal_code: "69006", city: "Lyon", country: "FR" },
  geo: null,
  phone: "+33 4 78 00 00 00",
  email: null,
  hours: [],
  access_info: null,
  parking: null,
  transit: null,
  booking_url: null,
};

const config: HeadInput["config"] = {
  name: "Cabinet dentaire Dupont",
  seo: { site_title: "Cabinet dentaire Dupont, Lyon 6e", default_description: "Dentistes à Lyon.", default_og_image: null },
  domain: { primary_domain: "www.cabinet-dupont.fr", aliases: [] },
  logo: { url: "http://backend:8000/media/dupont/logo.svg", width: 320, height: 96, alt: "", mime_type: "image/svg+xml", srcset: [] },
};

const detail: PageView = {
  type: "page",
  page: { slug: "implant-unitaire", title: "L'implant unitaire", kind: "service_detail", level: 2, path: "/implantologie/implant-unitaire/", seoTitle: null, description: "Un implant." },
  blocks: [{ type: "faq", id: "f", heading: null, items: [{ question: "Q ?", answerHtml: "<p>R</p>" }] }],
  relatedServices: [],
  detailPages: [],
  jobs: null,
  breadcrumbs: [
    { name: "Accueil", path: "/" },
    { name: "Implantologie", path: "/implantologie/" },
    { name: "L'implant unitaire", path: "/implantologie/implant-unitaire/" },
  ],
};

const home: PageView = {
  type: "page",
  page: { slug: "home", title: "Accueil", kind: "home", level: 0, path: "/", seoTitle: null, description: null },
  blocks: [],
  relatedServices: [],
  detailPages: [],
  jobs: null,
  breadcrumbs: [],
};

const input = (env: "dev" | "staging" | "prod", view: PageView | null, requestOrigin = "http://dupont.dev.localhost:3000"): HeadInput => ({
  env: { ENVIRONMENT: env },
  config,
  practice,
  view,
  requestOrigin,
});

describe("buildPageHead", () => {
  it("in production: canonical, Open Graph and JSON-LD on the primary domain, no robots meta", () => {
    const head = buildPageHead(input("prod", detail, "http://10.0.0.5:3000"));
    expect(head.canonical).toBe("https://www.cabinet-dupont.fr/implantologie/implant-unitaire/");
    expect(head.robots).toBeNull();
    expect(head.og.url).toBe(head.canonical);
    expect(head.og.image).toBe("https://www.cabinet-dupont.fr/api/og?title=L%27implant%20unitaire");
    expect(head.jsonLd.join()).toContain('"logo":"https://www.cabinet-dupont.fr/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg"');
  });

  it.each(["dev", "staging"] as const)("in %s: everything on the request host, and noindex, nofollow", (env) => {
    const head = buildPageHead(input(env, detail));
    expect(head.canonical).toBe("http://dupont.dev.localhost:3000/implantologie/implant-unitaire/");
    expect(head.robots).toBe("noindex, nofollow");
    expect(head.og.image.startsWith("http://dupont.dev.localhost:3000/api/og?title=")).toBe(true);
    expect(head.jsonLd.join()).not.toContain("cabinet-dupont.fr/");
  });

  it("in production without a primary domain: the request host", () => {
    const head = buildPageHead({ ...input("prod", detail, "https://petit.prod.example.org"), config: { ...config, domain: { primary_domain: null, aliases: [] } } });
    expect(head.canonical).toBe("https://petit.prod.example.org/implantologie/implant-unitaire/");
  });

  it("uses the page's description, else the site's", () => {
    expect(buildPageHead(input("prod", detail)).description).toBe("Un implant.");
    expect(buildPageHead(input("prod", home)).description).toBe("Dentistes à Lyon.");
  });

  it("carries Dentist, FAQPage (faq blocks) and BreadcrumbList (level 2) JSON-LD", () => {
    const types = buildPageHead(input("prod", detail)).jsonLd.map((s) => JSON.parse(s)["@type"]);
    expect(types).toEqual(["Dentist", "FAQPage", "BreadcrumbList"]);
    expect(buildPageHead(input("prod", home)).jsonLd.map((s) => JSON.parse(s)["@type"])).toEqual(["Dentist"]);
  });

  it("the 404 page: no canonical, noindex even in production", () => {
    const head = buildPageHead(input("prod", null));
    expect(head.canonical).toBeNull();
    expect(head.robots).toBe("noindex");
    expect(head.title).toBe("Page introuvable | Cabinet dentaire Dupont");
  });
});

describe("pageTitle", () => {
  it("is the SEO title when set, the site title on the homepage, else page | practice", () => {
    expect(pageTitle(config, home)).toBe("Cabinet dentaire Dupont, Lyon 6e");
    expect(pageTitle(config, detail)).toBe("L'implant unitaire | Cabinet dentaire Dupont");
    const seo = { ...detail, page: { ...detail.page, seoTitle: "Implant dentaire à Lyon" } } as PageView;
    expect(pageTitle(config, seo)).toBe("Implant dentaire à Lyon");
  });
});

describe("toDocumentHead", () => {
  it("maps every tag once: description, robots, canonical, Open Graph, Twitter, JSON-LD", () => {
    const doc = toDocumentHead(buildPageHead(input("dev", detail)));
    const byName = (name: string) => doc.meta!.filter((m) => m.name === name || m.property === name).map((m) => m.content);
    expect(byName("description")).toEqual(["Un implant."]);
    expect(byName("robots")).toEqual(["noindex, nofollow"]);
    expect(byName("og:title")).toEqual(["L'implant unitaire"]);
    expect(byName("og:image")).toHaveLength(1);
    expect(byName("twitter:card")).toEqual(["summary_large_image"]);
    expect(doc.links).toEqual([{ rel: "canonical", href: "http://dupont.dev.localhost:3000/implantologie/implant-unitaire/", key: "canonical" }]);
    expect(doc.scripts!.map((s) => s.props?.type)).toEqual(["application/ld+json", "application/ld+json", "application/ld+json"]);
  });
});
