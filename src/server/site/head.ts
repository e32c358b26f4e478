/**
 * Everything a page's <head> carries for search engines and social networks, computed on the server
 * from the page view: title, description, canonical URL, robots, Open Graph and Twitter tags, JSON-LD.
 * The route's `head` export only maps this onto Qwik City's DocumentHead.
 */
import type { DocumentHeadValue } from "@builder.io/qwik-city";
import type { Environment } from "../env";
import type { PracticeInfo, SiteConfig } from "../backend";
import { isIndexable, NOINDEX_META } from "./indexing";
import { mediaProxyUrl } from "../media/url";
import type { PageView } from "./page-view";
import { absoluteUrl, siteOrigin } from "./seo/canonical";
import { lcpImage, lcpPreloadLink, type LcpImage } from "./seo/lcp-preload";
import { breadcrumbJsonLd, dentistJsonLd, faqPageJsonLd, serializeJsonLd } from "./seo/json-ld";

export interface HeadInput {
  env: { ENVIRONMENT: Environment };
  config: Pick<SiteConfig, "name" | "seo" | "domain" | "logo">;
  practice: PracticeInfo;
  /** Null for this practice's 404 page. */
  view: PageView | null;
  /** The origin the request came to (scheme + Host), e.g. http://dupont.dev.localhost:3000. */
  requestOrigin: string;
}

export interface PageHead {
  title: string;
  description: string;
  canonical: string | null;
  robots: string | null;
  og: { title: string; description: string; url: string | null; image: string; imageAlt: string; siteName: string; type: string };
  jsonLd: string[];
  /** The page's first hero image, preloaded (lcp-preload.ts); null without one. */
  lcpImage?: LcpImage | null;
}

export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

export function pageTitle(config: HeadInput["config"], view: PageView | null): string {
  if (!view) return `Page introuvable | ${config.name}`;
  const { page } = view;
  if (page.seoTitle) return page.seoTitle;
  if (page.kind === "home" && view.type === "page") return config.seo.site_title ?? config.name;
  return `${page.title} | ${config.name}`;
}

export function buildPageHead({ env, config, practice, view, requestOrigin }: HeadInput): PageHead {
  const origin = siteOrigin(isIndexable(env), config.domain.primary_domain, requestOrigin);
  const title = pageTitle(config, view);
  const description = view?.page.description ?? config.seo.default_description ?? "";
  const canonical = view ? absoluteUrl(origin, view.page.path) : null;
  // A 404 is never indexed; a non-production deployment never is (the one shared decision).
  const robots = !isIndexable(env) ? NOINDEX_META : view ? null : "noindex";
  // The homepage's own title is usually just "Accueil": the site's title says more on a shared card.
  const ogTitle = view && !(view.type === "page" && view.page.kind === "home") ? view.page.title : title;
  const image = absoluteUrl(origin, `/api/og?title=${encodeURIComponent(ogTitle)}`);

  const jsonLd = [
    dentistJsonLd({
      name: config.name,
      practice,
      origin,
      logoPath: mediaProxyUrl(config.logo?.url),
      description: config.seo.default_description,
    }),
  ];
  if (view?.type === "page") {
    const faqItems = view.blocks.flatMap((b) => (b.type === "faq" ? b.items : []));
    if (faqItems.length) jsonLd.push(faqPageJsonLd(faqItems));
  }
  if (view && view.breadcrumbs.length) jsonLd.push(breadcrumbJsonLd(view.breadcrumbs, origin));

  return {
    title,
    description,
    canonical,
    robots,
    og: {
      title: ogTitle,
      description,
      url: canonical,
      image,
      imageAlt: `${ogTitle} | ${config.name}`,
      siteName: config.name,
      type: view?.page.kind === "home" ? "website" : "article",
    },
    jsonLd: jsonLd.map(serializeJsonLd),
    lcpImage: view?.type === "page" ? lcpImage(view.blocks) : null,
  };
}

/** Qwik City's DocumentHead for a PageHead. */
export function toDocumentHead(head: PageHead): DocumentHeadValue {
  const meta: { name?: string; property?: string; content: string; key: string }[] = [
    { name: "description", content: head.description, key: "description" },
  ];
  if (head.robots) meta.push({ name: "robots", content: head.robots, key: "robots" });
  const og: [string, string | null][] = [
    ["og:type", head.og.type],
    ["og:site_name", head.og.siteName],
    ["og:locale", "fr_FR"],
    ["og:title", head.og.title],
    ["og:description", head.og.description],
    ["og:url", head.og.url],
    ["og:image", head.og.image],
    ["og:image:width", String(OG_IMAGE_SIZE.width)],
    ["og:image:height", String(OG_IMAGE_SIZE.height)],
    ["og:image:alt", head.og.imageAlt],
  ];
  for (const [property, content] of og) if (content) meta.push({ property, content, key: property });
  const twitter: [string, string][] = [
    ["twitter:card", "summary_large_image"],
    ["twitter:title", head.og.title],
    ["twitter:description", head.og.description],
    ["twitter:image", head.og.image],
    ["twitter:image:alt", head.og.imageAlt],
  ];
  for (const [name, content] of twitter) meta.push({ name, content, key: name });
  return {
    title: head.title,
    meta,
    links: [
      ...(head.canonical ? [{ rel: "canonical", href: head.canonical, key: "canonical" }] : []),
      ...(head.lcpImage ? [lcpPreloadLink(head.lcpImage)] : []),
    ],
    scripts: head.jsonLd.map((script, i) => ({ script, props: { type: "application/ld+json" }, key: `ld${i}` })),
  };
}
