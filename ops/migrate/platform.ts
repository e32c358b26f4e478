/**
 * Which platform the old site ran on, recognised from what the crawl saw (its URLs, the links of its pages,
 * the addresses of its images): WordPress, Joomla, Drupal, Wix, Squarespace, TYPO3, SPIP, Blogger, Ghost, Hugo, CM4all
 * (IONOS MyWebsite), Concrete CMS, Dotclear, PluXml, Odoo, Grav, SiteW, Webador, GoDaddy's builder, DotNetNuke, Craft CMS, Contao, a
 * Notion workspace published as a site (Super, notion.site), or a static site. The redirect map declares it
 * (`"$platform"`), and the server then reads every old URL in that platform's grammar
 * (src/server/redirects/grammar.ts): `?page_id=12` and `?p=12` are one page, `id=12:alias` is `id=12`...
 *
 * Each platform leaves marks no other one does (its upload folders, its query parameters, its CDN); the one
 * with the most marked URLs wins, from MIN_MARKS of them (one stray link to `/wp-content/` on a static site
 * is no WordPress). Nothing marked: static.
 */
import type { Platform } from "../../src/server/redirects/grammar";
import type { CrawlEntry } from "./files";

/**
 * A page URL whose last segment is a Notion id (no extension, no other folder's file: `/<32 hex>`, the dashed UUID,
 * `/<Title-words>-<32 hex>`), on the site's host.
 */
const NOTION_ID_URL = /\/\/[^/]+\/(?:[^/?#]*\/)?(?:[^/?#.]*-)?(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?(?:[?#]|$)/i;
/** Notion's and its publishers' hosts: Super's images and assets, a notion.site, Notion's image proxy and its file storage. */
const NOTION_HOST = /\/\/(?:images\.spr\.so|assets\.super\.so|[^/]+\.notion\.site|(?:www\.)?notion\.so\/image|file\.notion\.so|prod-files-secure\.s3\.us-west-2\.amazonaws\.com|s3\.us-west-2\.amazonaws\.com\/secure\.notion-static\.com)\//i;

const MARKS: Record<Exclude<Platform, "static">, RegExp> = {
  wordpress: /\/wp-(?:content|includes|json|admin|login\.php)\b|[?&](?:p|page_id|cat|attachment_id)=\d/i,
  joomla: /[?&](?:amp;)?option=com_|[?&](?:amp;)?itemid=\d|\/component\/(?:content|contact|users)\/|\/media\/(?:jui|system)\/|\/index\.php\/[a-z]/i,
  drupal: /[?&]q=(?:node|taxonomy|user)\/|\/node\/\d+\b|\/sites\/(?:default|all)\/files\/|\/taxonomy\/term\/\d/i,
  wix: /\/\/(?:static|video)\.wixstatic\.com\/|\/_files\/ugd\/|\/\/[^/]*\.wix(?:site)?\.com\/|\/_api\/|[?&]lightbox=/i,
  squarespace: /\/\/(?:images|static1?)\.squarespace(?:-cdn)?\.com\/|[?&]format=(?:json|amp)|\/s\/[^/]+\.pdf$|\/universal\/images-v6\//i,
  typo3: /\/typo3(?:conf|temp)\/|\/fileadmin\/|[?&](?:amp;)?(?:cHash|eID)=|[?&](?:amp;)?tx_[a-z0-9]+_pi\d/i,
  spip: /\/spip\.php\?|\/(?:article|rubrique|breve)\d+\.html\b|\/(?:ecrire|squelettes(?:-dist)?|plugins-dist)\/|\/local\/cache-(?:vignettes|gd2)\/|\/IMG\/(?:pdf|jpg|png|doc|odt)\//i,
  blogger: /\/\/[^/]*\.(?:blogspot|blogger)\.com\/|\/\/blogger\.googleusercontent\.com\/|\/feeds\/posts\/default|\/search\/label\/|\/search\?updated-(?:max|min)=/i,
  ghost: /\/content\/(?:images|files|media)\/(?:size\/w\d+\/)?\d{4}\/\d{2}\/|\/ghost\/api\/|\/members\/api\/|\/public\/(?:cards|portal|member-attribution)\.min\.js/i,
  // Its default taxonomies' terms (plural: WordPress's are `/tag/`, `/category/`) and its feeds' name.
  hugo: /\/\/[^/]+\/(?:tags|categories)\/[^/?#]+\/(?:page\/\d+\/)?(?:[?#]|$)|\/index\.xml(?:[?#]|$)/i,
  // Its uploads' and images' scripts (`/.cm4all/uproc.php/0/Documents/x.pdf`, `/.cm4all/iproc.php/...`).
  cm4all: /\/\/[^/]+\/\.cm4all\/(?:uproc|iproc|mediadb|widgetres)/i,
  // Its files' three-level folders, its download routes, its page ids, its core's and themes' folders.
  concrete: /\/application\/(?:files\/\d{4}\/\d{4}\/\d{4}\/|themes\/)|\/download_file\/(?:view|view_inline|force)\/\d|[?&](?:amp;)?cID=\d|\/concrete\/(?:images|js|css|themes)\/|\/ccm\/system\//i,
  // Its queries that are paths (`/index.php?post/2019/05/14/slug`, `?pages/x`, `?tag/y`, `?feed/atom`).
  dotclear: /\/index\.php\?(?:post|pages|category|tag|archive|feed|trackback)\/|\/index\.php\?rsd\b/i,
  // Its numbered objects in its queries (`/index.php?article12/slug`, `?static3/x`), its feeds' script, its files' folder.
  pluxml: /\/index\.php\?(?:article|static|categorie)\d+(?:\/|&|$)|\/feed\.php\?rss|\/data\/medias\//i,
  // Its attachments' and images' routes, its blogs and posts named by ids (`/blog/conseils-2/slug-8`).
  odoo: /\/\/[^/]+\/(?:web\/(?:content|image)\/|website\/(?:image|static)\/|blog\/[a-z0-9-]+-\d+(?:\/|$))/i,
  // Its pages' files and themes under `/user/`, its image cache, its colon parameters (`/blog/tag:implants`).
  grav: /\/\/[^/]+\/(?:user\/(?:pages|themes|plugins)\/|images\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]\/)|\/(?:tag|category|page):[^/?#]+/i,
  // Its pages named by a code in capitals (`/Le_cabinet.B.htm`), its uploads (`/fs/Root/`), its static host.
  sitew: /\/\/[^/]+\/[^/?#]+\.[A-Z]{1,3}\.htm(?:[/?#]|$)|\/\/[^/]+\/fs\/Root\/|\/\/static\.sitew\.com\//,
  // Its CDN's hosts (images, files, scripts) and its posts named by a number (`/blog/2988175_implant-ou-bridge`).
  webador: /\/\/(?:assets|primary)\.jwwb\.nl\/|\/\/[^/]+\/blog\/\d{4,}_[^/?#]+/i,
  // Its CDN (images, uploaded files) and its posts under `/blog/f/`.
  godaddy: /\/\/img1\.wsimg\.com\/|\/\/[^/]+\/blog\/f\/[^/?#.]+/i,
  // Its tabs' ids in paths and queries, its document links, its portals' and modules' folders.
  dnn: /\/tabid\/\d+\/|[?&](?:amp;)?tabid=\d|\/LinkClick\.aspx\?|\/Portals\/\d+\/|\/DesktopModules\//i,
  // Its image transforms' folders (`/uploads/_800x600_crop_center-center_82_line/x.jpg`: Craft names them
  // `_<width>x<height>_<mode>_<position>[_<quality>]_<interlace>`), its control panel's resources, its controllers'
  // `/actions/` (a form's, a link's), a preview's share link, its routing parameter holding a URI (`index.php?p=soins/x`).
  // (Its `X-Powered-By: Craft CMS`, its forms' CRAFT_CSRF_TOKEN and SEOmatic's generator are no URL: the crawl keeps none.)
  craft:
    /\/_(?:\d+|AUTO)x(?:\d+|AUTO)_(?:crop|fit|stretch|letterbox)_[a-z]+-[a-z]+(?:_\d+)?_(?:none|line|plane|partition)\/|\/cpresources\/|\/\/[^/]+\/actions\/[a-z]|[?&]x-craft-(?:live-)?preview=|\/(?:index\.php)?\?p=[a-z][a-z0-9-]*(?:\/|&|$)/i,
  // Its image factory's resized copies (`/assets/images/a/photo-a1b2c3d4.jpg`: a folder of the hash's first character),
  // its listings' pagination (`?page_n12=2`), a reader's `?auto_item=`, its download element's `?file=files/...`, its
  // bundles' and extensions' folders. (Its generator meta and its `mod_article`/`ce_text` markup are no URL.)
  contao:
    /\/assets\/images\/[0-9a-f]\/[^/?#]+-[0-9a-f]{6,}\.[a-z]{3,4}(?:[?#]|$)|[?&](?:amp;)?page_[a-z]\d+=\d|[?&](?:amp;)?auto_item=|[?&](?:amp;)?file=files(?:\/|%2f)|\/bundles\/contao|\/system\/modules\//i,
  // A Notion workspace published as a site (Super, notion.site): a page named by its Notion id (`/<32 hex>`, the
  // dashed UUID, `/<Title-words>-<id>`: a link to a page nobody gave a pretty URL, a link pasted from the app, or the
  // id a page's markup prints as its own, page.ts), and its publishers' hosts (Super's images and assets, notion.site,
  // Notion's image proxy and file storage).
  notion: new RegExp(`${NOTION_ID_URL.source}|${NOTION_HOST.source}`, "i"),
};
const MIN_MARKS = 2;
/**
 * Platforms whose marks are of kinds another tool shares one at a time: each kind must be seen. Hugo's tags and its
 * categories (or its feeds) both: Jekyll's archives, Hexo or a WordPress whose category base is "categories" make one.
 * Joomla's, Concrete's, Odoo's and Grav's: one of their own besides the marks another tool makes too.
 */
const KINDS: Partial<Record<Platform, RegExp[]>> = {
  // WordPress's folders (its theme, its scripts, its API), not only `?p=N`: a hand-made PHP site pages its news with
  // `&p=2`, and every WordPress serves its theme from `/wp-content/` and its scripts from `/wp-includes/`.
  wordpress: [/\/wp-(?:content|includes|json|admin|login\.php)\b/i],
  hugo: [/\/tags\//i, /\/categories\/|\/index\.xml(?:[?#]|$)/i],
  // Joomla's own marks, not only PATHINFO URLs (`/index.php/contact`), which Concrete CMS, Drupal and WordPress make too.
  joomla: [/[?&](?:amp;)?(?:option=com_|itemid=\d)|\/component\/(?:content|contact|users)\/|\/media\/(?:jui|system)\//i],
  // Concrete's files or core, not only `?cID=` (elsewhere a campaign's id); Odoo's attachments or images, not only
  // blogs named by an id (`/blog/conges-noel-2019/` on any site).
  concrete: [/\/application\/(?:files|themes)\/|\/download_file\/|\/concrete\/|\/ccm\/system\//i],
  odoo: [/\/web\/(?:content|image)\/|\/website\/(?:image|static)\//i],
  // Grav's files or themes, not only colon parameters.
  grav: [/\/user\/(?:pages|themes|plugins)\/|\/images\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]\//i],
  // SiteW's uploads or static host, not only pages named `X.B.htm`.
  sitew: [/\/fs\/Root\/|\/\/static\.sitew\.com\//],
  // Webador's CDN, not only posts named by a number.
  webador: [/\/\/(?:assets|primary)\.jwwb\.nl\//i],
  // GoDaddy's CDN, not only posts under `/blog/f/`.
  godaddy: [/\/\/img1\.wsimg\.com\//i],
  // DNN's own folders or document links, not only a `tabid` (another ASP.NET tool may name its pages so).
  dnn: [/\/LinkClick\.aspx\?|\/Portals\/\d+\/|\/DesktopModules\//i],
  // Craft's own marks, not only a `?p=` holding a path (a hand-made PHP site may route its pages so: `?p=contact`), nor
  // `/actions/` (a practice's "Nos actions" section, `/actions/prevention-bucco-dentaire`: the outside review's case).
  craft: [/\/_(?:\d+|AUTO)x(?:\d+|AUTO)_[a-z]+_[a-z]+-[a-z]+|\/cpresources\/|x-craft-(?:live-)?preview=/i],
  // Contao's images, listings or download links, not only a folder of its extensions' kind.
  contao: [/\/assets\/images\/[0-9a-f]\/|page_[a-z]\d+=|auto_item=|file=files(?:\/|%2f)/i],
  // Both: pages named by a 32-hex id alone may be another tool's (a share link's hash), and a publisher's image host
  // alone a page embedding one Notion image.
  notion: [NOTION_ID_URL, NOTION_HOST],
};

export function detectPlatform(entries: CrawlEntry[]): { platform: Platform; marks: number } {
  const counts = new Map<Platform, number>();
  const seen = new Set<string>();
  // (And the URLs a page's markup names as its own, page.ts's own_urls: a Notion page's id printed by its publisher.)
  const urls = entries.flatMap((e) => [e.url, e.final_url, ...e.links, ...e.images.map((i) => i.src), ...(e.own_urls ?? [])]);
  const marked = new Map<Platform, string[]>();
  for (const url of urls) {
    if (seen.has(url)) continue;
    seen.add(url);
    for (const [platform, mark] of Object.entries(MARKS) as [Platform, RegExp][]) {
      if (mark.test(url)) {
        counts.set(platform, (counts.get(platform) ?? 0) + 1);
        if (KINDS[platform]) (marked.get(platform) ?? marked.set(platform, []).get(platform)!).push(url);
      }
    }
  }
  for (const [platform, kinds] of Object.entries(KINDS) as [Platform, RegExp[]][]) {
    if (!kinds.every((kind) => marked.get(platform)?.some((url) => kind.test(url)))) counts.delete(platform);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= MIN_MARKS ? { platform: best[0], marks: best[1] } : { platform: "static", marks: 0 };
}

/**
 * Other names the platform gives a page the crawl saw under one: WordPress names a post or page by its slug,
 * made from its title when it was written (`/?p=34` "Pourquoi mes gencives saignent ?" is also
 * `/pourquoi-mes-gencives-saignent/`, with or without its date: old pretty permalinks still linked elsewhere).
 */
export function aliasesOf(platform: Platform, path: string, headline: string): string[] {
  if (platform !== "wordpress" || !/[?&](?:p|page_id)=\d+/.test(path) || !headline) return [];
  const slug = headline
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug && !/^\d+$/.test(slug) ? [`/${slug}/`] : [];
}

/**
 * A URL the platform gives one post or page (never a listing of several): WordPress `?p=`/`?page_id=`, a Joomla
 * article (`view=article`, `/category/12-alias`), a Drupal `/node/12`, a Wix `/post/slug`, a Squarespace
 * `/blog/2020/1/14/slug`. A short post whose excerpt is on the blog page and on its category page is still a post.
 */
const ITEM_URL: Record<Platform, RegExp | null> = {
  wordpress: /[?&](?:p|page_id)=\d/,
  joomla: /[?&](?:amp;)?view=article\b|\/\d+-[^/?]+(?:\.html?)?\/?(?:\?|$)|\/component\/content\/article\//i,
  drupal: /^\/(?:index\.php\/)?node\/\d+\/?(?:\?|$)|[?&]q=node\/\d/,
  wix: /^\/post\/[^/]+\/?(?:\?|$)/,
  squarespace: /^\/[^/]+\/\d{4}\/\d{1,2}\/\d{1,2}\/[^/]+/,
  typo3: /[?&](?:amp;)?tx_news_pi1(?:%5B|\[)news(?:%5D|\])=\d/i,
  // An article or a brève (a rubrique lists its articles, an author's page and a keyword's list theirs).
  spip: /[?&](?:article|breve)\d+(?:&|$)|[?&]id_(?:article|breve)=\d|^\/(?:article|breve)\d+(?:\.html)?$/,
  // A post (`/2019/05/slug.html`) or a static page (`/p/slug.html`).
  blogger: /^\/(?:\d{4}\/\d{2}|p)\/[^/?]+\.html(?:\?|$)/,
  // Its posts and pages share one shape (`/slug/`): none is known by its URL.
  ghost: null,
  // Its sections' pages (`/soins/implants/`, `/actualites/2021/03/slug/`) and lists share their shapes.
  hugo: null,
  // Its pages' and its blog posts' URLs are names like any other site's.
  cm4all: null,
  // Its pages' URLs are paths like any other site's (`/soins/implants`; `?cID=` names any page).
  concrete: null,
  // A post (`?post/2019/05/14/slug`, or in a "path info" URL); `?pages/x` is a static page, a page of the site.
  dotclear: /(?:\?|\/index\.php\/)post\/\d{4}\/\d{2}\/\d{2}\/[^/?&]/,
  // An article, by its number (`?article12/slug`, or rewritten: `/article12/slug`).
  pluxml: /(?:\?|^\/)article\d+(?:\/|&|$)/,
  // A blog post (`/blog/conseils-2/slug-8`).
  odoo: /^\/(?:[a-z]{2}(?:_[A-Z]{2})?\/)?blog\/[^/]+-\d+\/[^/?]+-\d+\/?(?:\?|$)/,
  // Its posts' and pages' URLs are paths like any other site's.
  grav: null,
  // Its posts' URLs (`/Conseils/slug`) are paths like its lists' (`/Conseils`).
  sitew: null,
  // A blog post (`/blog/2988175_slug`, `/blog/2988175`).
  webador: /^\/blog\/\d+(?:_[^/?]*)?\/?(?:\?|$)/,
  // A blog post (`/blog/f/slug`).
  godaddy: /^\/blog\/f\/[^/?]+\/?(?:\?|$)/,
  // A module's article or item (`/ArticleId/7/`, `?ItemId=9`).
  dnn: /\/(?:itemid|articleid)\/\d|[?&](?:amp;)?(?:itemid|articleid)=\d/i,
  // Its entries' URIs are paths like its listings' (`/actualites/slug`, `/actualites`).
  craft: null,
  // A reader's item named in the query (`/actualites.html?auto_item=slug`); in the path it is shaped as a subpage is.
  contao: /[?&](?:amp;)?auto_item=[^&]/,
  // Its pages, its database items and its ids share one shape (a path): none is known by its URL.
  notion: null,
  static: null,
};

export function isItemUrl(platform: Platform, path: string): boolean {
  return ITEM_URL[platform]?.test(path) ?? false;
}

/** A URL that names its page only by an id (`/node/12`, `/?p=3`): a worse original of a duplicate group than its alias. */
export function isIdOnlyUrl(path: string): boolean {
  const [p, q] = path.split("?");
  const last = p.split("/").filter(Boolean).at(-1) ?? "";
  return (q !== undefined && !/[a-z]{3}/i.test(last.replace(/\.(?:php|html?)$/i, "").replace(/^index$/i, ""))) || /^\d+$/.test(last);
}
