/**
 * What the crawl keeps of one old page, read with cheerio: title, meta description, first H1, the
 * main text and its images (header, navigation, footer, asides, scripts and forms left out), the
 * same-site links of the whole page (menus included: they lead to the other pages),
 * and whether the page asks not to be indexed. Also the URL lists of an XML sitemap.
 */
import { load, type CheerioAPI } from "cheerio";
import { notionId } from "../../src/server/redirects/grammar";
import { DATED, wordCount, words } from "./text";

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
  /** The page's own headline: its H1, else a heading marked as the headline, else the first heading of its content. */
  headline: string;
  /** The headline it has without its H1 (a heading marked as the headline, else its first H2). */
  subheadline: string;
  /** The French version a translation names (hreflang), "" when none: where the translation goes. */
  translation_of: string;
  og_title: string;
  /** Same-site links with their text (menus included), in page order, at most MAX_LINKS. */
  anchors: { url: string; text: string }[];
  /** Other URLs the page names as its own without linking to them (WordPress's `?page_id=N` of its body class). */
  own_urls: string[];
  /**
   * WordPress's post type of a single post its body class names (`single-soin` beside `postid-45`), "" when none: the
   * type's name is the query var WordPress registers for it (`/?soin=<slug>`: redirect-map.ts's `$queryVars`).
   */
  post_type: string;
  /** The pages its breadcrumb names above it (same host, in order; at most MAX_TRAIL). */
  trail: string[];
  /**
   * The numbers its markup names it by, each as `<where>=<number>` (`@data-tilda-page-id=3901342`, `input:entry_id=65`,
   * `article#soin=21`, `body.page-id=12`): candidates of its id on the old platform, which probe.ts asks the old site
   * about. At most MAX_PRINTED_IDS.
   */
  printed_ids: string[];
  /**
   * The date it states it was published (YYYY-MM-DD, or YYYY from a date in words): its metadata, else the `<time>`
   * beside its headline; "" when none. What dates a post (a job offer of its time).
   */
  published: string;
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim();

// Elements that are not the page's own content (and the roles that say so).
const CHROME = new Set(["script", "style", "noscript", "template", "svg", "iframe", "form", "header", "nav", "footer", "aside"]);
const CHROME_ROLES = new Set(["navigation", "banner", "contentinfo"]);
// A form's controls: their labels and choices are no text of the page.
const CONTROLS = new Set(["label", "select", "option", "button", "textarea"]);
// Block elements: their text is separated by a space (cheerio's text() would glue paragraphs together).
const BLOCKS = new Set(["p", "div", "section", "article", "main", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "br", "blockquote", "dd", "dt"]);

/** The parsed tree as cheerio hands it (domhandler's nodes): what the walk below reads of it. */
interface TreeNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: TreeNode[];
  parent?: TreeNode | null;
}

/**
 * The text under `root`, in document order, read in one pass without recursion (a page of 20,000 nested
 * <div> overflowed the stack) and without changing the tree (cheerio's selectors and insertions below a
 * chosen element cost quadratically in its elements: 10,000 of them took seconds). With `content`: the
 * page's own content only (CHROME left out, blocks apart), and its images handed to `image` in order.
 */
function textOf(root: TreeNode, content: boolean, image?: (el: TreeNode) => void, wrappers?: ReadonlySet<TreeNode>): string {
  const parts: string[] = [];
  const stack: (TreeNode | null)[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (node === null) {
      parts.push(" "); // the end of a block
      continue;
    }
    if (node === undefined) break;
    if (node.type === "text") {
      parts.push(node.data ?? "");
      continue;
    }
    if (node.type === "comment" || node.type === "directive") continue;
    const name = node.name?.toLowerCase() ?? "";
    if (content && node !== root && !wrappers?.has(node) && (CHROME.has(name) || CHROME_ROLES.has(node.attribs?.role ?? ""))) continue;
    // (A form's controls, inside a form read as the page: see `wrappers` in readPage.)
    if (content && wrappers?.size && CONTROLS.has(name)) continue;
    if (content && name === "img" && node.attribs?.src !== undefined) image?.(node);
    const block = content && BLOCKS.has(name);
    if (block) {
      parts.push(" ");
      stack.push(null);
    }
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return parts.join("");
}

/**
 * A page's text and links are kept up to these bounds (a 4.5 MB page was stored whole, and a link generator's
 * 3,000 links a page filled the crawl's state): the text is enough to assess and match a page, the links
 * enough to reach a real site's every page from its menus.
 */
export const MAX_TEXT_CHARS = 20_000;
export const MAX_LINKS = 500;
/** A link's text kept: a menu label or an anchor is a few words; a whole card as a link is cut. */
export const MAX_ANCHOR_CHARS = 200;
/** A page's own images kept: a gallery page shows a few dozen; the rest of a longer list is dropped. */
export const MAX_IMAGES = 200;
/**
 * A link or image address longer than this is not kept: the sitemaps protocol's limit (a URL "must be less
 * than 2,048 characters"); a generator's 3.9 KB links each made a queued URL and a stored link that large.
 */
export const MAX_URL_CHARS = 2048;

/**
 * What is parsed of a page, so that its parse is bounded in time and memory (issue 26: 4.4 MB pages of
 * 120,000 <img> held the crawl at 100% CPU for 150 s and more, nothing saved; 20,000 <img> alone took 13 s,
 * as cheerio's selectors below an element cost quadratically in its elements). Lighthouse calls a page of
 * 1,400 elements heavy; the heaviest page-builder pages have a few thousand. At these bounds a page parses in
 * 0.1-0.5 s (10,000 nested <div> the slowest, on a loaded 2-core machine). A longer page is read up to the
 * bound (its head, its menus, its first content) and marked.
 */
export const MAX_PARSE_CHARS = 1_000_000;
/** A breadcrumb's links kept: deeper trails are no site's. */
const MAX_TRAIL = 10;
const MAX_PRINTED_IDS = 12;
export const MAX_ELEMENTS = 10_000;

/** The page cut before its (MAX_ELEMENTS + 1)th tag and at MAX_PARSE_CHARS, and why it was cut ("" if whole). */
export function boundedHtml(html: string): { html: string; truncated: string } {
  let end = html.length;
  let why = "";
  if (end > MAX_PARSE_CHARS) {
    end = MAX_PARSE_CHARS;
    why = `the first ${MAX_PARSE_CHARS} characters of ${html.length}`;
  }
  const tag = /<[A-Za-z]/g;
  for (let count = 0; tag.exec(html) !== null && tag.lastIndex <= end; ) {
    if (++count > MAX_ELEMENTS) {
      end = tag.lastIndex - 2;
      why = `the first ${MAX_ELEMENTS} elements`;
      break;
    }
  }
  return { html: why ? html.slice(0, end) : html, truncated: why ? `page over the crawler's bounds: read in part (${why})` : "" };
}

/**
 * The page's facts; links and image sources are absolute against `pageUrl` (or the page's <base>). `truncated`
 * says what was left unread of a page over the bounds above ("" when it was read whole).
 */
export function readPage(fullHtml: string, pageUrl: string): PageFacts & { truncated: string; refresh: string | null } {
  const { html, truncated } = boundedHtml(fullHtml);
  const $ = load(html);
  const base = safeUrl($("base[href]").attr("href") ?? "", pageUrl) ?? pageUrl;
  const robots = $('meta[name="robots" i], meta[name="googlebot" i]')
    .map((_, el) => $(el).attr("content") ?? "")
    .get()
    .join(",");
  const host = new URL(pageUrl).host;
  const links = new Set<string>();
  const anchors: { url: string; text: string }[] = [];
  // WordPress names each post's shortlink (`/?p=34`) only in the head: an old URL someone may have shared.
  $('a[href], link[rel~="shortlink" i][href]').each((_, el) => {
    const href = bounded(safeUrl($(el).attr("href")!, base));
    if (!href || new URL(href).host !== host) return;
    links.add(href);
    // The link's text: what the old site calls the page it links to (a menu label, an anchor).
    if ((el as TreeNode).name === "a" && anchors.length < MAX_LINKS) {
      const text = clean(textOf(el as TreeNode, false) || ($(el).attr("title") ?? "")).slice(0, MAX_ANCHOR_CHARS);
      if (text) anchors.push({ url: href, text });
    }
  });
  // WordPress's themes name a page's or post's id in the body's classes (`page-id-12`, `postid-34`): its
  // `?page_id=12`/`?p=34` is an old URL of that page too (older menus, shares). Not crawled: an old site may
  // answer an id it does not redirect with its home page.
  const wpId = /(?:^|\s)(page-id|postid)-(\d+)(?=\s|$)/.exec($("body").attr("class") ?? "");
  // WordPress's body_class names a single post's type beside its id (`single single-soin postid-45`; a post's is
  // `single-post`, its format's `single-format-standard`): register_post_type gives a type its name as its query var
  // unless told otherwise, so the old site read `/?soin=<slug>` (redirect-map.ts writes the types seen: `$queryVars`).
  const postType = wpId?.[1] === "postid" ? (/(?:^|\s)single-(?!format-)([a-z0-9_-]{1,20})(?=\s|$)/.exec($("body").attr("class") ?? "")?.[1] ?? "") : "";
  // TYPO3 names the page's uid in the body's id (`<body id="p12">`, its default template's idiom): its
  // `/index.php?id=12` is an old URL of that page too (the URLs before speaking URLs, old links and bookmarks).
  const typo3Id = /^typo3\b/i.test($('meta[name="generator" i]').attr("content") ?? "") ? /^p(\d+)$/.exec($("body").attr("id") ?? "") : null;
  // SPIP's templates name the object a page shows in its title's classes (`<h1 class="crayon article-titre-12">`,
  // `auteur-nom-2`, the Crayons editing idiom): its `spip.php?article12` is an old URL of that page too (the
  // URLs before "URLs propres", links in other sites and in old e-mails).
  const spipId = /^spip\b/i.test($('meta[name="generator" i]').attr("content") ?? "")
    ? /(?:^|\s)(article|rubrique|breve|mot|auteur)-(?:titre|nom)-(\d+)(?=\s|$)/.exec($("h1").first().attr("class") ?? "")
    : null;
  // Concrete CMS names the page's collection id in a script of its head (`var CCM_CID = 152;`): its
  // `/index.php?cID=152` is an old URL of that page too (content blocks link pages so, before pretty URLs).
  const concreteId = /\bvar CCM_CID = (\d+);/.exec(html);
  // DotNetNuke names the page's tab in the ServicesFramework's variables (`__dnnVariable`: `` `sf_tabId`:`55` ``, its
  // generator `DotNetNuke`/`DNN`): its `/Default.aspx?TabId=55` (and `/tabid/55/...`, one tab in DNN's grammar) is an old
  // URL of that page too (menus and links before friendly URLs, `/Soins/Implants/tabid/59/Default.aspx`). Not on a
  // module's item (`/tabid/60/ctl/Detail/mid/412/ItemId/9/...`, `?ArticleId=7`): its tab is the list's page; nor on a
  // control the tab shows instead of its own content (`/terms.aspx`, `/privacy.aspx`, `ctl=Login`: the control's ids
  // carry no module's number, `dnn_ctr_Terms_...`, where a module's are `dnn_ctr412_...`).
  const dnnTab =
    /^(?:dotnetnuke|dnn)\b/i.test(($('meta[name="generator" i]').attr("content") ?? "").trim()) &&
    !/[/?&](?:ctl|mid|itemid|articleid)[/=]/i.test(pageUrl) &&
    !/\bid=["']dnn_ctr_[a-z]/i.test(html)
      ? /[`"']sf_tabId[`"']\s*:\s*[`"'](\d+)[`"']/.exec($("#__dnnVariable").attr("value") ?? "")
      : null;
  // Umbraco finds a node by its id (its ContentFinderByIdPath: `/1057.aspx`, `/1057`; and `?umbPageId=1057` on any
  // path), and its templates name the node in the body's classes (`node-1057`, `@Model.Id`): old URLs of that page
  // too (links an editor pasted from the backoffice's link picker). Only on a page Umbraco made: its backoffice's
  // `/umbraco/`, its plugins' `/App_Plugins/` or its media folders (`/media/1043/x.pdf`) named in it.
  const umbracoNode = /["'](?:https?:\/\/[^"'/]+)?\/(?:umbraco\/|App_Plugins\/|media\/\d{4,}\/)/i.test(html)
    ? /(?:^|\s)node-(\d+)(?=\s|$)/.exec($("body").attr("class") ?? "")
    : null;
  // MODX answers a resource at `/index.php?id=18` (and `/?id=18`) as at its friendly URL, and templates name the
  // resource in the body's classes (`page-18`, `[[*id]]`): an old URL of that page too (links pasted before friendly
  // URLs were on). Only on a page MODX made: its templates' or its components' folders (`/assets/templates/x/`,
  // `/assets/components/`) named in it.
  const modxId = /["'](?:https?:\/\/[^"'/]+)?\/?assets\/(?:templates|components)\//i.test(html)
    ? /(?:^|\s)page-(\d+)(?=\s|$)/.exec($("body").attr("class") ?? "")
    : null;
  // Joomla's templates name the menu item shown in the body's classes (`itemid-101`, Protostar's and Cassiopeia's), and
  // Joomla answers a menu item alone at `/index.php?Itemid=101` (links built before SEF URLs): on the home page, that
  // is the home's menu item. (Elsewhere a menu item may show many articles: a blog's posts share their list's.)
  const joomlaHomeItem =
    /^joomla!/i.test(($('meta[name="generator" i]').attr("content") ?? "").trim()) && /^\/(?:index\.php\/?)?$/i.test(new URL(pageUrl).pathname) && !new URL(pageUrl).search
      ? /(?:^|\s)itemid-(\d+)(?=\s|$)/.exec($("body").attr("class") ?? "")
      : null;
  // Solocal's "Site Internet" finds a news post by its number (`/actualites/1086-bienvenue-au-dr-hugo-lambert.html`),
  // and answers its number alone (`/actualites/1086.html`, a link typed short) with the post: an old URL of it too.
  // Only on a page its generator names.
  const solocalPost = /^solocal\b/i.test(($('meta[name="generator" i]').attr("content") ?? "").trim())
    ? /^(\/[^/?#]+\/\d+)-[^/?#]+\.html$/i.exec(new URL(pageUrl).pathname)
    : null;
  // A Notion publisher names the Notion page it shows in its markup (Super: its `__NEXT_DATA__`'s `"pageId"`, the dashed
  // UUID), and answers that page at its id too (`/<32 hex>`, the dashed UUID, `/<Title-words>-<id>`, with a 308 to its
  // pretty URL): an old URL of that page too (links pasted from the Notion app, the page before it had a pretty URL),
  // which the crawl reached by its pretty URL only.
  const notionPage = notionPageId($);
  // A translation (its <html lang> another language than French, the new sites' one) naming its French version in
  // its head (`<link rel="alternate" hreflang="fr" href>`, Polylang's, WPML's, any multilingual CMS's): an English
  // page goes where its French version goes (redirect-map.ts).
  const lang = ($("html").attr("lang") ?? "").trim().toLowerCase();
  const french = $('link[rel~="alternate" i][hreflang][href]')
    .filter((_, el) => /^fr\b/i.test($(el).attr("hreflang") ?? ""))
    .first()
    .attr("href");
  const frenchUrl = lang && !/^fr\b/.test(lang) && french ? bounded(safeUrl(french, base)) : null;
  const translationOf = frenchUrl && new URL(frenchUrl).host === host && frenchUrl !== pageUrl ? frenchUrl : "";
  const idUrl = wpId
    ? bounded(safeUrl(`/?${wpId[1] === "page-id" ? "page_id" : "p"}=${wpId[2]}`, pageUrl))
    : typo3Id
      ? bounded(safeUrl(`/index.php?id=${typo3Id[1]}`, pageUrl))
      : spipId
        ? bounded(safeUrl(`/spip.php?${spipId[1]}${spipId[2]}`, pageUrl))
        : concreteId
          ? bounded(safeUrl(`/index.php?cID=${concreteId[1]}`, pageUrl))
          : dnnTab
            ? bounded(safeUrl(`/Default.aspx?TabId=${dnnTab[1]}`, pageUrl))
            : null;
  const idUrls = [
    idUrl ?? (modxId ? bounded(safeUrl(`/index.php?id=${modxId[1]}`, pageUrl)) : null),
    joomlaHomeItem ? bounded(safeUrl(`/index.php?Itemid=${joomlaHomeItem[1]}`, pageUrl)) : null,
    solocalPost ? bounded(safeUrl(`${solocalPost[1]}.html`, pageUrl)) : null,
    notionPage ? bounded(safeUrl(`/${notionPage}`, pageUrl)) : null,
    ...(umbracoNode ? [`/${umbracoNode[1]}.aspx`, `/?umbPageId=${umbracoNode[1]}`].map((u) => bounded(safeUrl(u, pageUrl))) : [])].filter(
    (u): u is string => !!u,
  );

  // Its breadcrumb (by its class, its ARIA label or schema.org's BreadcrumbList; SPIP's `arbo`): the pages above it,
  // which head a section of the old site whatever their URLs say (`/-Nos-soins-` over `/-Implantologie-`).
  const trail: string[] = [];
  $('[class*="breadcrumb" i], [class~="arbo"], [class*="ariane" i], [aria-label*="ariane" i], [aria-label*="breadcrumb" i], [itemtype*="BreadcrumbList" i]')
    .first()
    .find("a[href]")
    .each((_, el) => {
      const href = bounded(safeUrl($(el).attr("href")!, base));
      if (href && new URL(href).host === host && trail.length < MAX_TRAIL && href !== pageUrl) trail.push(href);
    });

  // The first H1 anywhere: WordPress puts it in <header class="entry-header">, which the content leaves out.
  const h1Node = $("h1").get(0) as TreeNode | undefined;
  const h1 = h1Node ? clean(textOf(h1Node, false)) : "";
  // A headline outside <h1>: Joomla's `<h2 itemprop="headline">`, a theme's first <h2> in the article.
  // (Simple selectors only: a descendant combinator costs quadratically on deeply nested pages.)
  const headlineNode = (h1Node ?? $('[itemprop="headline" i]').get(0) ?? $("h2").get(0)) as TreeNode | undefined;
  const headline = headlineNode ? clean(textOf(headlineNode, false)) : "";
  // The headline without the H1: a theme that puts the site's name in every page's H1 (Dotclear's, Blogger's) titles
  // a post with another heading (redirect-map.ts decides which H1 is the site's): the one marked as the headline or
  // the post's title by its class, else the first <h2> outside the sidebars and the page's header and footer (a
  // widget's "Prendre rendez-vous" is no page's headline).
  const belowH1 = ($('[itemprop="headline" i], .post-title, .entry-title, .article-title').get(0) ??
    $("h2")
      .filter((_, el) => $(el).closest("aside, nav, header, footer, .widget, .sidebar, #sidebar").length === 0)
      .get(0)) as TreeNode | undefined;
  const subheadline = belowH1 ? clean(textOf(belowH1, false)) : "";
  const main = ($("main").get(0) ?? $("body").get(0) ?? $.root().get(0)) as TreeNode;
  // A form around the page's H1 or its main content, or ASP.NET's own form (its `__VIEWSTATE`), is the page, not a form
  // to fill: ASP.NET Web Forms (DNN, Kentico, Sitefinity, SharePoint) put the whole body in one `<form id="Form">`,
  // whose text was all left out. Not a form around a mere first <h2> (a sidebar's appointment form, a cookie banner);
  // and inside such a page its forms' controls (labels, options, buttons) are still no text of the page.
  const wrappers = new Set<TreeNode>();
  const aspNet = $('input[name="__VIEWSTATE" i]').get(0) as TreeNode | undefined;
  for (const inside of [h1Node, $("main").get(0) as TreeNode | undefined, $("article").get(0) as TreeNode | undefined, aspNet]) {
    for (let node = inside?.parent; node; node = node.parent) if (node.name?.toLowerCase() === "form") wrappers.add(node);
  }
  // The page's own images (a logo in the header is not content to migrate), its text without the chrome.
  const images: PageFacts["images"] = [];
  const body = clean(
    textOf(main, true, (el) => {
      if (images.length >= MAX_IMAGES) return;
      const src = bounded(safeUrl(el.attribs!.src, base));
      const alt = el.attribs!.alt;
      if (src) images.push({ src, alt: alt === undefined ? null : clean(alt).slice(0, 1000) });
    }, wrappers),
  );
  return {
    title: clean($("title").first().text()).slice(0, 1000),
    meta_description: clean($('meta[name="description" i]').attr("content") ?? "").slice(0, 1000),
    h1: h1.slice(0, 1000),
    body_text: body.slice(0, MAX_TEXT_CHARS),
    images,
    word_count: wordCount(body),
    links: [...links].slice(0, MAX_LINKS).sort(), // the first ones in the page (its menus), then sorted
    noindex: /noindex/i.test(robots),
    headline: headline.slice(0, 1000),
    subheadline: subheadline.slice(0, 1000),
    translation_of: translationOf,
    og_title: clean($('meta[property="og:title" i]').attr("content") ?? "").slice(0, 1000),
    anchors,
    own_urls: idUrls,
    post_type: postType,
    trail,
    printed_ids: printedIds($),
    published: publishedDate($, headlineNode),
    truncated,
    refresh: refreshTarget($('meta[http-equiv="refresh" i]').attr("content") ?? "", base, wordCount(body)),
  };
}

/**
 * A meta refresh that sends the visitor on at once is a redirect the old site made in HTML: Hugo's and Jekyll's
 * aliases (the page a renamed page leaves at its old URL), hand-made "this page has moved" pages. Read as one
 * (crawl.ts follows it as it follows a 301). After longer, a page a visitor reads first: one of a few words only
 * ("Cette page a déménagé") is still a redirect, a page with content of its own is a page.
 */
const REFRESH_AS_REDIRECT_S = 1;
const MOVED_PAGE_S = 5;
const MOVED_PAGE_WORDS = 50;

/**
 * The numbers a page's markup names it by, wherever a template prints an id (decision 0052, amended 2026-11-28, "ids
 * printed in a page's markup"): a `data-…id` attribute (Tilda's `data-tilda-page-id`), a hidden field named `…id`
 * (ExpressionEngine's comment form's `entry_id`), and the `<word>-<number>` of the body's, main's or an article's id or
 * classes (`<article id="soin-21">`, WordPress's `page-id-12`, Umbraco's `node-1057`). A place naming several numbers
 * on one page (a list's items, form fields) names none of them: no id of the page. Which of them is the page's id, and
 * in which URL, only the old site can say (probe.ts asks it); nothing here is an old URL yet.
 */
function printedIds($: CheerioAPI): string[] {
  const found = new Map<string, Set<string>>();
  const add = (where: string, id: string) => {
    if (!/^\d{1,15}$/.test(id)) return;
    const ids = found.get(where) ?? new Set<string>();
    found.set(where, ids.add(String(Number(id))));
  };
  $("*").each((_, el) => {
    const node = el as TreeNode;
    for (const [name, value] of Object.entries(node.attribs ?? {})) if (/^data-(?:[a-z0-9]+[-_])*[a-z0-9]*id$/i.test(name)) add(`@${name.toLowerCase()}`, value.trim());
  });
  $('input[type="hidden" i][name]').each((_, el) => {
    const name = ($(el).attr("name") ?? "").toLowerCase();
    if (/^[a-z][a-z0-9]*[-_]?id$/.test(name)) add(`input:${name}`, ($(el).attr("value") ?? "").trim());
  });
  $("body, main, article").each((_, el) => {
    const tag = (el as TreeNode).name!.toLowerCase();
    const named = /^([a-z][a-z0-9_-]*?)[-_](\d{1,15})$/i;
    const id = named.exec($(el).attr("id") ?? "");
    if (id) add(`${tag}#${id[1].toLowerCase()}`, id[2]);
    for (const token of ($(el).attr("class") ?? "").split(/\s+/)) {
      const m = named.exec(token);
      if (m) add(`${tag}.${m[1].toLowerCase()}`, m[2]);
    }
  });
  return [...found]
    .filter(([, ids]) => ids.size === 1)
    .slice(0, MAX_PRINTED_IDS)
    .map(([where, ids]) => `${where}=${[...ids][0]}`);
}

/**
 * The Notion page a page of a Notion publisher shows, by the id its markup prints (32 lower-case hex digits): Super's
 * `__NEXT_DATA__` names it as its pageProps' `"pageId"`. Only on a page with Notion's markup (an element of a
 * `notion-` class: a Next.js site of another kind names other ids so), and only when the page names one id there (a
 * page listing several pages' ids names none of them as its own). Null otherwise.
 */
function notionPageId($: CheerioAPI): string | null {
  if ($('[class^="notion-"], [class*=" notion-"]').length === 0) return null;
  const data = $("script#__NEXT_DATA__").first().text();
  const ids = new Set<string | null>();
  // (Read up to a second id: one pass over the script at most.)
  for (const m of data.matchAll(/"pageId"\s*:\s*"([0-9a-fA-F-]{32,36})"/g)) {
    ids.add(notionId(m[1]));
    if (ids.size > 1) break;
  }
  const [id] = ids;
  return ids.size === 1 ? (id ?? null) : null;
}

/**
 * PageFacts.published: the first of the page's own dates that is one (an ISO date at its start): its metadata, then
 * the `<time>` beside its headline (in the headline's element, or up to two above it: the post's header, the post),
 * never one elsewhere on the page (a sidebar's latest posts, a comment's, a header's date of the day: the outside
 * review's counter-examples).
 */
function publishedDate($: CheerioAPI, headline: TreeNode | undefined): string {
  const jsonLd = $('script[type="application/ld+json" i]')
    .map((_, el) => /"datePublished"\s*:\s*"([^"]+)"/.exec($(el).text())?.[1] ?? "")
    .get();
  const stated = [$('meta[property="article:published_time" i]').attr("content"), $('[itemprop="datePublished" i]').attr("datetime"), $('[itemprop="datePublished" i]').attr("content"), ...jsonLd];
  // (Its headline: the H1, else the heading marked so, else its first H2, as readPage finds it.)
  let scope = headline ? $(headline as never).parent() : $([]);
  for (let level = 0; level < 3 && scope.length && !scope.is("body, html"); level++, scope = scope.parent()) {
    const time = scope.find("time").first();
    if (time.length) {
      // (A <time> without its datetime says the date in words, Odoo's "sept. 1, 2026": its year.)
      stated.push(time.attr("datetime") ?? DATED.exec(words(time.text()).join(" "))?.[1]);
      break;
    }
  }
  for (const value of stated) {
    const date = /^\s*(\d{4}(?:-\d{2}-\d{2}|$))/.exec(value ?? "")?.[1];
    if (date) return date;
  }
  return "";
}

/**
 * The URL a meta refresh's `content` (`0; url=/new/`, `0;URL='/new/'`, `0 url=/new/`) sends to, or null: none, one
 * naming no URL (`0;url=` reloads the page), or after longer than a redirect waits for a page of `words` words.
 */
export function refreshTarget(content: string, base: string, words = 0): string | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:[;,]\s*|\s+)(?:url\s*=\s*)?(['"]?)([^'"]*)\2\s*$/i.exec(content);
  if (!m || m[3].trim() === "") return null;
  const delay = Number(m[1]);
  if (delay > MOVED_PAGE_S || (delay > REFRESH_AS_REDIRECT_S && words >= MOVED_PAGE_WORDS)) return null;
  return bounded(safeUrl(m[3].trim(), base));
}

/** A URL kept only under MAX_URL_CHARS. */
function bounded(url: string | null): string | null {
  return url !== null && url.length <= MAX_URL_CHARS ? url : null;
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

// Not pages: the crawl records images through the pages that show them, and skips other assets.
const ASSET = /\.(?:jpe?g|png|gif|webp|avif|svg|ico|css|js|mjs|map|zip|gz|mp4|mp3|woff2?|ttf|eot|xml|txt|json)$/i;

/**
 * The old site's own URL `href` names (resolved against `start`), or null for another site or an asset: the same host
 * over either scheme (a site crawled over http:// whose CMS sends on to https://), written in the start URL's scheme,
 * without its fragment. What the crawl follows and queues (crawl.ts), and where the probes follow a redirect (probe.ts).
 */
export function onSiteUrl(href: string, start: URL): string | null {
  const url = safeUrl(href, start.href);
  if (!url || url.length > MAX_URL_CHARS) return null;
  const u = new URL(url);
  if (u.host !== start.host || ASSET.test(u.pathname)) return null;
  u.protocol = start.protocol;
  return u.href;
}

/** The path and query of an absolute URL: how old URLs are written in the assessment and the map. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** The <loc> URLs kept of one sitemap: the sitemaps protocol's own maximum per file. */
export const MAX_SITEMAP_LOCS = 50_000;

/**
 * The <loc> URLs of a sitemap, and whether it is a sitemap index (its locs are more sitemaps). Read with a
 * linear scan, not an XML parser: cheerio's `url > loc` took 85 s on a 4 MB sitemap of 100,000 URLs, and
 * parsing 200,000 nested <url> took 10 s, before the crawl had asked a single page. A sitemap is <loc>
 * elements in <url> (or <sitemap> in an index); `image:loc` and the like are other names, not read.
 */
export function readSitemap(xml: string): { index: boolean; locs: string[] } {
  const index = /<sitemapindex[\s>]/.test(xml);
  const locs: string[] = [];
  for (let at = xml.indexOf("<loc>"); at !== -1 && locs.length < MAX_SITEMAP_LOCS; at = xml.indexOf("<loc>", at)) {
    const end = xml.indexOf("</loc>", at);
    if (end === -1) break; // never closed: nothing further is a location
    const loc = clean(xmlText(xml.slice(at + "<loc>".length, end)));
    if (loc) locs.push(loc);
    at = end;
  }
  return { index, locs };
}

/** An XML element's text: CDATA sections as they are, the five named entities and character references decoded. */
function xmlText(raw: string): string {
  return raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (_, cdata: string | undefined, entity: string | undefined) => {
    if (cdata !== undefined) return cdata;
    const e = entity!.toLowerCase();
    if (e.startsWith("#")) {
      const code = e.startsWith("#x") ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e]!;
  });
}
