import { afterEach, describe, expect, it, vi } from "vitest";
import * as monitoring from "../monitoring";
import { needsTeam, parseBlocks, picture, resolveBlocks, serviceLinks } from "./blocks";
import type { Media, PageSummary, TeamMember } from "../backend";

const where = { code: "dupont", page: "home" };

const media = (name: string, widths: number[] = []): Media => ({
  url: `https://cms.example.org/media/${name}.webp`,
  width: 1600,
  height: 900,
  alt: `Photo ${name}`,
  mime_type: "image/webp",
  srcset: widths.map((w) => ({ url: `https://cms.example.org/media/${name}-${w}w.webp`, width: w })),
});

const summary = (slug: string, kind: PageSummary["kind"], path = `/${slug}/`): PageSummary => ({
  slug,
  path,
  title: slug[0].toUpperCase() + slug.slice(1),
  kind,
  level: 1,
  parent: null,
  updated_at: "2026-11-02T10:00:00Z",
});

const PAGES: PageSummary[] = [
  summary("home", "home", "/"),
  summary("equipe", "team"),
  summary("implantologie", "service_hub"),
  summary("orthodontie", "service_hub"),
];

const member = (slug: string, name: string): TeamMember => ({
  slug,
  name,
  role: "Chirurgien-dentiste",
  photo: null,
  bio: "",
  skills: [],
  booking_url: null,
});

afterEach(() => vi.restoreAllMocks());

describe("parseBlocks", () => {
  it("skips a block of an unknown type with a warning naming it, and keeps the others", () => {
    const warn = vi.spyOn(monitoring, "reportWarning").mockImplementation(() => {});
    const blocks = parseBlocks(
      [
        { type: "rich_text", id: "a", value: { html: "<p>a</p>" } },
        { type: "carousel", id: "b", value: { slides: [] } },
        { type: "hours", id: "c", value: { heading: "Horaires" } },
      ],
      where,
    );
    expect(blocks.map((b) => b.type)).toEqual(["rich_text", "hours"]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('unknown block type "carousel"'), expect.objectContaining({ id: "b", page: "home" }));
  });

  it("skips a known block whose value breaks the contract, naming the field", () => {
    const warn = vi.spyOn(monitoring, "reportWarning").mockImplementation(() => {});
    const blocks = parseBlocks([{ type: "cta", id: "x", value: { heading: "Venez", label: 42, href: "/contact/" } }], where);
    expect(blocks).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/invalid "cta" block skipped \(field label/), expect.anything());
  });

  it("accepts every block type of the contract", () => {
    vi.spyOn(monitoring, "reportWarning").mockImplementation(() => {});
    const raw = [
      { type: "hero", value: { heading: "H", subheading: "S", image: media("hero"), cta: { label: "RDV", href: "/contact/" } } },
      { type: "rich_text", value: { html: "<p>x</p>" } },
      { type: "image", value: { image: media("img"), caption: "C" } },
      { type: "cards", value: { heading: "Cartes", items: [{ title: "T", text: "x", href: null, image: null }] } },
      { type: "faq", value: { heading: "FAQ", items: [{ question: "Q ?", answer_html: "<p>R</p>" }] } },
      { type: "price_list", value: { heading: "Prix", items: [{ label: "Bilan", price: "23 €", note: null }] } },
      { type: "cta", value: { heading: "Venez", text: "t", label: "RDV", href: "/contact/" } },
      { type: "team", value: { heading: "Équipe", members: "all" } },
      { type: "hours", value: { heading: "Horaires" } },
      { type: "map", value: { heading: "Accès" } },
      { type: "services", value: { heading: "Soins", items: ["implantologie"] } },
    ];
    const parsed = parseBlocks(raw, where);
    expect(parsed.map((b) => b.type)).toEqual(raw.map((b) => b.type));
    // A block without an id gets a stable one, unique on the page.
    expect(new Set(parsed.map((b) => b.id)).size).toBe(raw.length);
    expect(needsTeam(parsed)).toBe(true);
    expect(needsTeam(parsed.filter((b) => b.type !== "team"))).toBe(false);
  });
});

describe("resolveBlocks", () => {
  const resolve = (raw: { type: string; value: unknown }[], team: TeamMember[] | null = null) =>
    resolveBlocks(parseBlocks(raw.map((b, i) => ({ ...b, id: `b${i}` })), where), { pages: PAGES, team });

  it("serves the first hero's image from the page's own origin (the largest paint), every other image from the media origin", () => {
    const [first, second, image] = resolve([
      { type: "hero", value: { heading: "H", subheading: null, image: media("hero", [480, 960]), cta: null } },
      { type: "hero", value: { heading: "H2", subheading: null, image: media("later", [480]), cta: null } },
      { type: "image", value: { image: media("img"), caption: null } },
    ]);
    const own = (name: string) => `/api/media?path=${encodeURIComponent(`/media/${name}.webp`)}`;
    expect(first).toMatchObject({
      image: { src: own("hero"), srcset: `${own("hero-480w")} 480w, ${own("hero-960w")} 960w, ${own("hero")} 1600w` },
    });
    expect(second).toMatchObject({ image: { src: "https://cms.example.org/media/later.webp" } });
    expect(image).toMatchObject({ image: { src: "https://cms.example.org/media/img.webp" } });
  });

  it("leaves a first hero image that is not a backend media file where it is", () => {
    const outside = { ...media("x"), url: "https://photos.example.net/x.webp" };
    const [hero] = resolve([{ type: "hero", value: { heading: "H", subheading: null, image: outside, cta: null } }]);
    expect(hero).toMatchObject({ image: { src: "https://photos.example.net/x.webp" } });
  });

  it("sanitises rich text and FAQ answers", () => {
    const [rich, faq] = resolve([
      { type: "rich_text", value: { html: '<p onclick="x()">a</p><script>alert(1)</script><iframe src="x"></iframe>' } },
      { type: "faq", value: { heading: null, items: [{ question: "Q", answer_html: '<a href="javascript:alert(1)">r</a>' }] } },
    ]);
    expect(rich).toMatchObject({ type: "rich_text", html: "<p>a</p>" });
    expect(faq).toMatchObject({ type: "faq", items: [{ question: "Q", answerHtml: "<a>r</a>" }] });
  });

  it("drops links with unsafe targets from hero, cards and calls to action", () => {
    const [hero, cards, cta] = resolve([
      { type: "hero", value: { heading: "H", subheading: "", image: null, cta: { label: "x", href: "javascript:alert(1)" } } },
      { type: "cards", value: { heading: "C", items: [{ title: "T", text: "", href: "data:text/html,x", image: null }] } },
      { type: "cta", value: { heading: "Venez", text: null, label: "RDV", href: " JavaScript:alert(1)" } },
    ]);
    expect(hero).toMatchObject({ cta: null, subheading: null });
    expect(cards).toMatchObject({ items: [{ href: null }] });
    expect(cta).toMatchObject({ link: null });
  });

  it("keeps safe links as they are", () => {
    const [cta] = resolve([{ type: "cta", value: { heading: "Venez", text: "t", label: "RDV", href: "https://booking.example.org/x" } }]);
    expect(cta).toMatchObject({ link: { label: "RDV", href: "https://booking.example.org/x" } });
  });

  it("resolves team members: all, or the named ones in order, linked under the team page", () => {
    const team = [member("claire", "Dr Claire"), member("thomas", "Dr Thomas"), member("lea", "Léa")];
    const [all, some] = resolve(
      [
        { type: "team", value: { heading: "Tous", members: "all" } },
        { type: "team", value: { heading: "Deux", members: ["thomas", "inconnu", "claire"] } },
      ],
      team,
    );
    expect(all).toMatchObject({ members: [{ slug: "claire" }, { slug: "thomas" }, { slug: "lea" }] });
    expect(some).toMatchObject({
      members: [
        { slug: "thomas", name: "Dr Thomas", href: "/equipe/thomas/" },
        { slug: "claire", href: "/equipe/claire/" },
      ],
    });
  });

  it("links services to published hubs only, with their titles and paths", () => {
    const [services] = resolve([{ type: "services", value: { heading: "Soins", items: ["orthodontie", "parodontologie", "implantologie"] } }]);
    expect(services).toMatchObject({
      items: [
        { slug: "orthodontie", title: "Orthodontie", href: "/orthodontie/" },
        { slug: "implantologie", title: "Implantologie", href: "/implantologie/" },
      ],
    });
    expect(serviceLinks(["home"], PAGES)).toEqual([]);
  });

  it("drops an image block whose URL is not http(s)", () => {
    const bad = { ...media("x"), url: "javascript:alert(1)" };
    expect(resolve([{ type: "image", value: { image: bad, caption: "x" } }])).toEqual([]);
  });
});

describe("picture", () => {
  it("builds a srcset sorted by width, adding the original when the srcset lacks it", () => {
    expect(picture(media("hero", [960, 480]))).toEqual({
      src: "https://cms.example.org/media/hero.webp",
      srcset:
        "https://cms.example.org/media/hero-480w.webp 480w, https://cms.example.org/media/hero-960w.webp 960w, https://cms.example.org/media/hero.webp 1600w",
      width: 1600,
      height: 900,
      alt: "Photo hero",
    });
  });

  it("has no srcset for a single size, and takes a fallback alt when the media has none", () => {
    expect(picture({ ...media("x"), alt: "" }, "Dr Claire")).toMatchObject({ srcset: null, alt: "Dr Claire" });
  });

  it("leaves out srcset candidates with unsafe URLs", () => {
    const m = media("x", [480]);
    m.srcset.push({ url: "javascript:alert(1)", width: 960 });
    expect(picture(m)?.srcset).toBe("https://cms.example.org/media/x-480w.webp 480w, https://cms.example.org/media/x.webp 1600w");
  });
});
