/**
 * What the crawl keeps of one old page, read with cheerio: title, meta description, first H1, the
 * main text and its images (header, navigation, footer, asides, scripts and forms left out), the
 * same-site links of the whole page (menus included: they lead to the other pages),
 * and whether the page asks not to be indexed. Also the URL lists of an XML sitemap.
 */
import { load } from "cheerio";
import { wordCount } from "./text";

export interface PageFacts {
  title: string;
  meta_description: string;
  h1: string;
  body_text: string;
  /** `alt` null when the attribute is missing (an issue), "" when the image says it is decorative (alt=""). */
  images: { src: string; alt: string | null }[];
  word_count: number;
  links: string[];
  noindex: boolean;
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim();

// Elements that are not the page's own content.
const CHROME = "script, style, noscript, template, svg, iframe, form, header, nav, footer, aside, [role=navigation], [role=banner], [role=contentinfo]";
// Block elements: their text is separated by a space (cheerio's text() would glue paragraphs together).
const BLOCKS = "p, div, section, article, main, li, h1, h2, h3, h4, h5, h6, td, th, br, blockquote, dd, dt";

/**
 * A page's text and links are kept up to these bounds (a 4.5 MB page was stored whole, and a link generator's
 * 3,000 links a page filled the crawl's state): the text is enough to assess and match a page, the links
 * enough to reach a real site's every page from its menus.
 */
export const MAX_TEXT_CHARS = 20_000;
export const MAX_LINKS = 500;

/** The page's facts; links and image sources are absolute against `pageUrl` (or the page's <base>). */
export function readPage(html: string, pageUrl: string): PageFacts {
  const $ = load(html);
  const base = safeUrl($("base[href]").attr("href") ?? "", pageUrl) ?? pageUrl;
  const robots = $('meta[name="robots" i], meta[name="googlebot" i]')
    .map((_, el) => $(el).attr("content") ?? "")
    .get()
    .join(",");
  const host = new URL(pageUrl).host;
  const links = new Set<string>();
  // WordPress names each post's shortlink (`/?p=34`) only in the head: an old URL someone may have shared.
  $('a[href], link[rel~="shortlink" i][href]').each((_, el) => {
    const href = safeUrl($(el).attr("href")!, base);
    if (href && new URL(href).host === host) links.add(href);
  });

  // Read before the chrome goes: WordPress puts the H1 in <header class="entry-header">.
  const h1 = clean($("h1").first().text());
  const main = $("main").first().length ? $("main").first() : $("body");
  main.find(CHROME).remove();
  // The page's own images (a logo in the header is not content to migrate).
  const images = main
    .find("img[src]")
    .map((_, el) => {
      const alt = $(el).attr("alt");
      return { src: safeUrl($(el).attr("src")!, base) ?? "", alt: alt === undefined ? null : clean(alt) };
    })
    .get()
    .filter((img) => img.src);
  main.find(BLOCKS).each((_, el) => {
    $(el).prepend(" ").append(" ");
  });
  const body = clean(main.text());
  return {
    title: clean($("title").first().text()),
    meta_description: clean($('meta[name="description" i]').attr("content") ?? ""),
    h1,
    body_text: body.slice(0, MAX_TEXT_CHARS),
    images,
    word_count: wordCount(body),
    links: [...links].slice(0, MAX_LINKS).sort(), // the first ones in the page (its menus), then sorted
    noindex: /noindex/i.test(robots),
  };
}

/** An absolute http(s) URL without its fragment, or null. */
export function safeUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/** The path and query of an absolute URL: how old URLs are written in the assessment and the map. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** The <loc> URLs of a sitemap, and whether it is a sitemap index (its locs are more sitemaps). */
export function readSitemap(xml: string): { index: boolean; locs: string[] } {
  const $ = load(xml, { xml: true });
  const index = $("sitemapindex").length > 0;
  const locs = $(index ? "sitemap > loc" : "url > loc")
    .map((_, el) => clean($(el).text()))
    .get()
    .filter(Boolean);
  return { index, locs };
}
