import { describe, expect, it, vi } from "vitest";
import { BackendError } from "../backend/errors";
import { createBackendClient, type Reader } from "../backend/client";
import type { PageSummary } from "../backend";
import { matchPath, resolvePage } from "./page-view";
import type { SiteShell } from "./site";
import { readPathIndex } from "./unknown-page";
import { isUnknownPath } from "./path-index";

vi.mock("./monitoring", () => ({ reportWarning: vi.fn(), reportError: vi.fn() }));

const at = "2026-11-02T10:00:00Z";
const p = (slug: string, path: string, kind: PageSummary["kind"], level = 1, parent: string | null = null): PageSummary => ({
  slug,
  path,
  title: `Titre ${slug}`,
  kind,
  level,
  parent,
  updated_at: at,
});

const PAGES: PageSummary[] = [
  p("home", "/", "home", 0),
  p("equipe", "/equipe/", "team"),
  p("recrutement", "/recrutement/", "jobs"),
  p("implantologie", "/implantologie/", "service_hub"),
  p("implant-unitaire", "/implantologie/implant-unitaire/", "service_detail", 2, "implantologie"),
  p("greffe-osseuse", "/implantologie/greffe-osseuse/", "service_detail", 2, "implantologie"),
  p("aligneurs", "/orthodontie/aligneurs/", "service_detail", 2, "orthodontie"),
  p("orthodontie", "/orthodontie/", "service_hub"),
  p("remplacer-une-dent", "/remplacer-une-dent/", "need"),
];
const summaryOf = (slug: string) => PAGES.find((x) => x.slug === slug)!;

function page(summary: PageSummary, extra: Record<string, unknown> = {}) {
  return { ...summary, service: null, seo: { title: null, description: `Desc ${summary.slug}`, og_image: null }, blocks: [], related_services: [], ...extra };
}

const TEAM = {
  members: [{ slug: "claire-dupont", name: "Dr Claire Dupont", role: "Chirurgien-dentiste", photo: null, bio: "Fondatrice. Implants.", skills: ["Implantologie"], booking_url: null }],
};
const JOBS = {
  jobs: [{ slug: "assistante", title: "Assistante dentaire", contract: "CDI", location: "Lyon", description_html: "<p>Poste</p><script>x</script>", published_at: at }],
};

function backendWith(payloads: Record<string, unknown>) {
  const calls: string[] = [];
  const reader: Reader = async (endpoint, schema) => {
    calls.push(endpoint);
    if (!(endpoint in payloads)) throw new BackendError("not_found", endpoint, "404", 404);
    return schema.parse(payloads[endpoint]);
  };
  return { backend: createBackendClient(reader), calls };
}

const base = "/sites/dupont";
const payloads = {
  [`${base}/pages/home/`]: page(PAGES[0], {
    blocks: [
      { type: "hero", id: "h", value: { heading: "Bienvenue", subheading: null, image: null, cta: null } },
      { type: "team", id: "t", value: { heading: "Équipe", members: "all" } },
      { type: "faq", id: "f", value: { heading: "FAQ", items: [{ question: "Q ?", answer_html: "<p>R</p>" }] } },
    ],
  }),
  [`${base}/pages/implant-unitaire/`]: page(summaryOf("implant-unitaire")),
  [`${base}/pages/recrutement/`]: page(summaryOf("recrutement")),
  [`${base}/pages/equipe/`]: page(summaryOf("equipe")),
  [`${base}/pages/implantologie/`]: page(summaryOf("implantologie"), {
    blocks: [{ type: "cards", id: "c", value: { heading: "Traitements", items: [{ title: "Implant", text: "", href: "/implantologie/implant-unitaire/", image: null }] } }],
  }),
  [`${base}/pages/remplacer-une-dent/`]: page(summaryOf("remplacer-une-dent"), {
    related_services: ["implantologie", "orthodontie", "parodontologie"],
    blocks: [{ type: "services", id: "s", value: { heading: "Soins", items: ["implantologie"] } }],
  }),
  [`${base}/team/`]: TEAM,
  [`${base}/jobs/`]: JOBS,
};

const shell = {
  config: {},
  practice: { booking_url: "https://booking.example.org/dupont" },
  nav: [],
  pages: PAGES,
} as unknown as SiteShell;

const ctx = () => ({ code: "dupont", tags: new Set<string>() });

describe("matchPath", () => {
  it("finds pages by their exact path, children under team and jobs pages, else the last slug", () => {
    expect(matchPath("/implantologie/implant-unitaire/", PAGES)).toMatchObject({ type: "page", summary: { slug: "implant-unitaire" } });
    expect(matchPath("/equipe/claire-dupont/", PAGES)).toMatchObject({ type: "child", parent: { slug: "equipe" }, slug: "claire-dupont" });
    expect(matchPath("/recrutement/assistante/", PAGES)).toMatchObject({ type: "child", parent: { slug: "recrutement" } });
    expect(matchPath("/implantologie/autre/", PAGES)).toEqual({ type: "unknown", slug: "autre" });
    expect(matchPath("/%E0%A4%A/", PAGES)).toEqual({ type: "unknown", slug: null });
  });
});

describe("resolvePage", () => {
  it("renders a page of the list, reading the team only because a block needs it", async () => {
    const { backend, calls } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/");
    expect(result.type).toBe("view");
    if (result.type !== "view" || result.view.type !== "page") throw new Error("expected a page view");
    expect(result.view.blocks.map((b) => b.type)).toEqual(["hero", "team", "faq"]);
    expect(result.view.blocks[1]).toMatchObject({ members: [{ slug: "claire-dupont", href: "/equipe/claire-dupont/" }] });
    expect(calls).toEqual([`${base}/pages/home/`, `${base}/team/`]);
  });

  it("does not read the team or jobs for a page that needs neither", async () => {
    const { backend, calls } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/implantologie/implant-unitaire/");
    expect(calls).toEqual([`${base}/pages/implant-unitaire/`]);
    if (result.type !== "view") throw new Error("expected a view");
    expect(result.view.breadcrumbs).toEqual([
      { name: "Titre home", path: "/" },
      { name: "Titre implantologie", path: "/implantologie/" },
      { name: "Titre implant-unitaire", path: "/implantologie/implant-unitaire/" },
    ]);
  });

  it("lists the jobs on the jobs page, each under its path", async () => {
    const { backend } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/recrutement/");
    if (result.type !== "view" || result.view.type !== "page") throw new Error("expected a page view");
    expect(result.view.jobs).toEqual([{ slug: "assistante", title: "Assistante dentaire", contract: "CDI", location: "Lyon", href: "/recrutement/assistante/" }]);
  });

  it("links a need page to the services it names that no block links yet, published hubs only", async () => {
    const { backend } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/remplacer-une-dent/");
    if (result.type !== "view" || result.view.type !== "page") throw new Error("expected a page view");
    expect(result.view.relatedServices).toEqual([{ slug: "orthodontie", title: "Titre orthodontie", href: "/orthodontie/" }]);
  });

  it("links a service hub to its detail pages that no block links yet", async () => {
    const { backend } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/implantologie/");
    if (result.type !== "view" || result.view.type !== "page") throw new Error("expected a page view");
    expect(result.view.detailPages).toEqual([{ slug: "greffe-osseuse", title: "Titre greffe-osseuse", href: "/implantologie/greffe-osseuse/" }]);
  });

  it("lists the whole team on the team page even without a team block", async () => {
    const { backend, calls } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/equipe/");
    if (result.type !== "view" || result.view.type !== "page") throw new Error("expected a page view");
    expect(result.view.blocks).toMatchObject([{ type: "team", members: [{ slug: "claire-dupont", href: "/equipe/claire-dupont/" }] }]);
    expect(calls).toContain(`${base}/team/`);
  });

  it("renders a team member under the team page, with the practice's booking link by default", async () => {
    const { backend } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/equipe/claire-dupont/");
    if (result.type !== "view" || result.view.type !== "member") throw new Error("expected a member view");
    expect(result.view.member).toMatchObject({ name: "Dr Claire Dupont", skills: ["Implantologie"], bookingUrl: "https://booking.example.org/dupont" });
    expect(result.view.page).toMatchObject({ title: "Dr Claire Dupont", path: "/equipe/claire-dupont/", level: 2 });
    expect(result.view.breadcrumbs.map((c) => c.path)).toEqual(["/", "/equipe/", "/equipe/claire-dupont/"]);
  });

  it("renders a job under the jobs page with its description sanitised", async () => {
    const { backend } = backendWith(payloads);
    const result = await resolvePage(backend, ctx(), shell, "/recrutement/assistante/");
    if (result.type !== "view" || result.view.type !== "job") throw new Error("expected a job view");
    expect(result.view.job.descriptionHtml).toBe("<p>Poste</p>");
  });

  it.each([
    ["/orthodontie/implant-unitaire/", "/implantologie/implant-unitaire/"],
    ["/implant-unitaire/", "/implantologie/implant-unitaire/"],
    ["/home/", "/"],
    ["/claire-dupont/", "/equipe/claire-dupont/"],
    ["/implantologie/assistante/", "/recrutement/assistante/"],
  ])("redirects %s (a slug under another parent) to %s", async (path, to) => {
    const { backend } = backendWith(payloads);
    expect(await resolvePage(backend, ctx(), shell, path)).toEqual({ type: "redirect", to });
  });

  it.each(["/inconnue/", "/equipe/personne/", "/recrutement/aucun/", "/implantologie/implant-unitaire/en-trop/x/"])(
    "answers not found for %s",
    async (path) => {
      const { backend } = backendWith(payloads);
      expect(await resolvePage(backend, ctx(), shell, path)).toEqual({ type: "not_found" });
    },
  );

  it("does not read the backend for a path whose last segment is not slug-shaped", async () => {
    const { backend, calls } = backendWith(payloads);
    expect(await resolvePage(backend, ctx(), shell, "/wp-login.php/")).toEqual({ type: "not_found" });
    expect(calls).toEqual([]);
  });

  it("records the page's cache tags in the render context", async () => {
    const { backend } = backendWith(payloads);
    const c = ctx();
    await resolvePage(backend, c, shell, "/implantologie/implant-unitaire/");
    expect([...c.tags]).toEqual(expect.arrayContaining(["site:dupont", "page:implant-unitaire", "site:dupont:page:implant-unitaire"]));
  });
});

describe("the path index of the cached 404 page (cache/not-found.ts)", () => {
  const withList = { ...payloads, [`${base}/pages/`]: { pages: PAGES } };
  const deadLinks = [
    "/inconnue/",
    "/equipe/personne/",
    "/recrutement/aucun/",
    "/implantologie/implant-unitaire/en-trop/x/",
    "/lien-mort-42/",
    "/a/b/c/d/",
  ];
  const paths = [
    ...PAGES.map((x) => x.path),
    "/equipe/claire-dupont/",
    "/recrutement/assistante/",
    // slugs under another parent: redirects, so never "unknown"
    "/orthodontie/implant-unitaire/",
    "/implant-unitaire/",
    "/home/",
    "/claire-dupont/",
    "/implantologie/assistante/",
    "/equipe/assistante/",
    ...deadLinks,
  ];

  it("calls a path unknown only where the page route itself answers not found", async () => {
    const { backend } = backendWith(withList);
    const read = await readPathIndex(backend, "dupont");
    if (!read) throw new Error("expected an index");
    const judged = await Promise.all(
      paths.map(async (path) => ({
        path,
        unknown: isUnknownPath(read.index, path),
        // (a page whose own payload this fixture lacks cannot be read: it is a page all the same)
        route: await resolvePage(backend, ctx(), shell, path).then((r) => r.type, () => "page unread"),
      })),
    );
    for (const { path, unknown, route } of judged) if (unknown) expect({ path, route }).toEqual({ path, route: "not_found" });
    // ...and it does prove the plain dead links (the storm it is for).
    expect(judged.filter((j) => j.unknown).map((j) => j.path)).toEqual(deadLinks);
    // The tags of what it read: the page list, the team and the jobs, so an edit of any re-renders the 404 page.
    expect(read.tags).toEqual(expect.arrayContaining(["site:dupont"]));
  });

  it("is not built when a read fails (every unknown path then takes the long way)", async () => {
    const { backend } = backendWith({ [`${base}/pages/`]: { pages: PAGES } });
    expect(await readPathIndex(backend, "dupont")).toBeNull();
  });
});
