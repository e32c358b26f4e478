/**
 * An old site's URL grammar: how the platform it ran on names a page, so that every spelling of an old URL
 * reaches the one entry of the redirect map (map.ts) and an old CMS query URL the map does not know answers
 * 404, never the page at its path (`/?option=...` answered with the home page is a soft 404 to a search
 * engine). The server (map.ts, on every request a practice's map may name) and the migration toolkit
 * (ops/migrate/, which writes the maps and recognises the platform from its crawl: ops/migrate/platform.ts)
 * compare old URLs in this one form.
 *
 * Every platform: percent-decoded, lower-cased, accents folded, runs of slashes collapsed, a final `index.html`/`index.php`
 * (or IIS's `default.aspx`) and a `.html`/`.htm`/`.php`/`.aspx`/`.asp` suffix dropped, no trailing slash, the home
 * page's names (`/accueil`, `/home`, `/index`, `/default`) the home; in the query `&amp;` read as `&` (copied
 * from HTML), tracking (utm_*, fbclid, gclid...), session (PHPSESSID...) and language (`lang`...) parameters
 * dropped, the others in name order; a document's (`.pdf`, `.jpg`...) whole query dropped (a cache buster such as
 * `?t=` or `?ver=`). Then per platform, by identity:
 *
 *   wordpress    `page_id=N` is `p=N` (one id space), on any path; a post's slug names it with or without its
 *                date (`/2017/03/14/slug/`, `?name=slug`, `/slug/`), a page's path its `?pagename=parent/child`; `replytocom` dropped (a comment form),
 *                and `?amp` and a final `/amp/` (the AMP plugin's view of the page);
 *                `/index.php/` (PATHINFO permalinks) and a language prefix (`/fr/`) dropped; its archives of a category,
 *                a tag or an author are the platform's at the root or under a one-segment front (`/blog/tag/x/`); a
 *                post under a front or a post type's base named by its query var (`?name=slug` of `/blog/slug/`,
 *                `?soin=slug` of `/soins/slug/`, the var one the map learned: `$queryVars`) is the map's one key
 *                ending in that slug (OldUrlForm.frontVar, map.ts)
 *   joomla       `option/view/id` on any path (`/index.php?...`), `id=12:alias` is `id=12`, `Itemid`,
 *                `tmpl`, `print`, `format=html`, `layout=default` dropped (menu position, print view); the SEF
 *                spellings `/component/content/article/12-alias` and `/any/category/12-alias` are article 12;
 *                `/index.php/` and a language prefix dropped
 *   drupal       `?q=node/12` is `/node/12` (clean URLs or not); `_format=html` (Drupal 8's default format: another
 *                `_format`, a REST view, is another document) dropped; `/index.php/` and a language prefix dropped
 *   wix          a page is its path: every query parameter dropped (`?lang=`, `?lightbox=`...)
 *   squarespace  `format` dropped (`?format=json`, `?format=amp`), a language prefix dropped
 *   typo3        `id=N` (a page's uid, or its alias) on any path (`/index.php?id=12`, `/?id=12`); a news item's
 *                `tx_news_pi1[news]=N` is that item whatever page shows it; `L` (language), `cHash` (a checksum),
 *                `no_cache`, `type=98` (the print view) and the news plugin's `controller`/`action` dropped (another
 *                `type`, a sitemap or a feed, is another document); `/index.php/` and a language prefix dropped
 *   spip         an object (article, rubrique, brève, auteur, mot) by its id, in every spelling SPIP gives it:
 *                `spip.php?article12`, `article12.html`, `spip.php?page=article&id_article=12`, `?id_article=12`,
 *                the print view `spip.php?page=imprimer&id_article=12`, `spip.php?action=redirect&type=article&id=12`,
 *                the "ping" `/12` (SPIP's .htaccess); `spip.php` and `?page=sommaire` are the home page; `var_mode`
 *                (a recompute) dropped. A "URL propre"
 *                (`/Les-implants`, `/-Implantologie-`, `/+Breve+`, `/_Auteur_`) is a path like any other
 *   blogger      a post (`/2019/05/slug.html`) or a page (`/p/slug.html`) is its path; `m` (the mobile view, `?m=1`)
 *                and `showComment` (a comment's anchor) dropped; `/search` (labels, pagination) and `/feeds/` are
 *                the platform's listings, and a year's or a month's archive (`/2019/`, `/2019/05/`)
 *   ghost        a page or a post is its path (`/slug/`): every query parameter dropped (`?ref=`, Ghost reads none),
 *                and a final `/amp/` (the AMP view of a post); `/tag/`, `/author/`, `/page/N/` (the feed's
 *                pagination), `/rss/`, `/content/` (its uploads) and `/ghost/` (its admin) are the platform's
 *   hugo         a static site generator's output on a static host: a page is its path, every query parameter
 *                dropped (the host ignores them); its taxonomies (`/tags/`, `/categories/`), a list's further pages
 *                (`/page/N/`) and its feeds (`index.xml`) are the platform's
 *   cm4all       IONOS MyWebsite (and the other hosts of the CM4all builder): a page is its path, every query
 *                parameter dropped (the builder reads none but its blog's `page`); `/.cm4all/` (its uploads and
 *                images) is the platform's
 *   concrete     Concrete CMS (concrete5): a page by its collection id, `cID=N`, on any path (`/index.php?cID=157`,
 *                `/?cID=157`); a file by its id, whatever the download route (`/download_file/view/88/160`,
 *                `/download_file/view/88`, `/download_file/view_inline/88`, `/download_file/force/88` are file 88,
 *                the second number only the page that linked it); `/index.php/` (before pretty URLs) dropped;
 *                `/application/`, `/concrete/`, `/ccm/`, `/download_file/` and `/login` are the platform's
 *   dotclear     Dotclear 2: in its "query string" URLs the query's first word is the path
 *                (`/index.php?post/2019/05/14/slug` is `/post/2019/05/14/slug`, `/index.php?urgence` a plugin's
 *                `/urgence`, as the "path info" URLs `/index.php/post/...` name them), every other parameter dropped
 *                but the search's `q`; its listings (`/category/`, `/tag/`, `/archive/`, `/feed/`, `/page/N`) and its
 *                machinery (`/trackback/`, `/rsd`, `/xmlrpc/`) are the platform's
 *   pluxml       PluXml: its query is a path as Dotclear's is (`/index.php?article12/slug`, and `/article12/slug` once
 *                URL rewriting is on), and an article, a static page or a category is its number, whatever the slug
 *                after it or the zeros before it (`article0012`, `article12/another-slug` and `article12` are article
 *                12); `/feed.php` (its feeds), `/data/` (its files' folder), tags, archives and a list's pages are the
 *                platform's
 *   odoo         Odoo Website: a page is its path, every query parameter dropped (`?download=true`, Odoo reads none
 *                on a page), `/page/<slug>` (the form before Odoo 14) is `/<slug>`, a language prefix dropped
 *                (`/fr_FR/`); a blog post is its id, whichever blog and slug name it (`/blog/conseils-2/slug-8`,
 *                `/blog/2/8`: post 8), a blog its id, a job offer its id (`/jobs/detail/assistant-4`), an attachment
 *                its id (`/web/content/58/questionnaire.pdf`, `/web/content/58-a1b2c3`, `/web/content?id=58`);
 *                `/web/`, `/website/` and a blog's tags, pages and feed are the platform's
 *   grav         Grav: a page is its path, every query parameter dropped (Grav reads none on a page); its colon
 *                parameters in the path are a listing's (`/blog/tag:implants`, `/blog/category:x/page:2`, in any order),
 *                `page:1` the page itself; a listing's parameters, its feeds (`/blog.rss`, `/blog.atom`) and `/user/`
 *                (its pages' files, its themes) and `/images/` (its image cache) are the platform's
 *   sitew        SiteW: a page is its code, whatever the name before it (`/Tarifs.E.htm`, `/honoraires-et-remboursements.E.htm/`
 *                and `/Honoraires_et_remboursements.E.htm` are page E: the builder answers any name with the page's
 *                own address), every query parameter dropped (it reads none but its blog's `page`); `/fs/` (its
 *                uploads), `/sw/` (its forms) and the blog's feed are the platform's
 *   webador      Webador (JouwWeb): a page is its path, every query parameter dropped (the builder reads none on a
 *                page); a blog post is its number, whatever the slug after it (`/blog/2988175_implant-ou-bridge`,
 *                `/blog/2988175_implant-ou-bridge-que-choisir-2021` and `/blog/2988175` are post 2988175: the builder
 *                answers any of them with the post's own address); the blog's listings (`/blog?category=`, `?page=`)
 *                and tags are the platform's
 *   godaddy      GoDaddy's website builder (Websites + Marketing): a page is its path, every query parameter dropped
 *                (a post's `?blogcategory=`, the filter of the list it was reached from, is the post); the blog's
 *                feed (`/blog/f.rss`) is the platform's
 *   dnn          DotNetNuke (DNN): a page is its tab, whatever the path before `/tabid/N/` and the name after it
 *                (`/Soins/Implants/tabid/59/language/fr-FR/Default.aspx`, `/tabid/59/Default.aspx`,
 *                `/Default.aspx?TabId=59` are tab 59), its parameters in the path read as in the query; a module's
 *                article or item is its tab and its ids, in the path or the query (`/Conseils/tabid/78/ArticleId/7/Default.aspx`,
 *                `/Default.aspx?TabId=78&ArticleId=7`; `/tabid/60/ctl/Detail/mid/412/ItemId/9/Titre.aspx`,
 *                `/Default.aspx?tabid=60&ctl=Detail&mid=412&ItemId=9`); `/Default.aspx` alone is the home page (the
 *                common rules); a
 *                document is its ticket (`/LinkClick.aspx?fileticket=X&tabid=..&portalid=0`), `LinkClick.aspx?link=N`
 *                tab N; `/Portals/`, `/DesktopModules/`, `/LinkClick.aspx`, `/Login.aspx` and a tab's URLs are the
 *                platform's
 *   craft        Craft CMS: a page is its entry's URI (a path); Craft's query-string routing, `index.php?p=<uri>` and
 *                `/?p=<uri>` (what Craft answers when the web server's rewrite is bypassed), is the path `/<uri>` when the
 *                value is a path, not a number (`?p=12` stays a query, an unknown one answers 404: WordPress's `?p=12` is
 *                its own grammar's); a preview's `token`, `x-craft-preview` and `x-craft-live-preview` dropped (Craft
 *                shows the live entry without them); the pageTrigger's `/p2` (a listing's further page), `/actions/`
 *                (its controllers), `/cpresources/` and `/admin` are the platform's
 *   contao       Contao: a page is its alias (`/le-cabinet.html`, `/index.php/le-cabinet.html`: the front controller
 *                in the path, dropped as every PHP platform's); a reader page's item named by `?auto_item=<alias>` is
 *                the item's own URL (`/actualites.html?auto_item=x` is `/actualites/x.html`: Contao reads the segment
 *                after the page's alias into `auto_item`); a listing's pagination `?page_n12=2` (`page_` + the
 *                module's letter and id: `page_n` news, `page_e` events...) names a page of the listing, an unknown one
 *                404; `/assets/`, `/bundles/`, `/system/` and `/contao` (its back end) are the platform's
 *   notion       a Notion workspace published as a site (Super, notion.site): a page is its pretty URL (a path its owner
 *                typed) or its Notion id, in whichever spelling (notionId: `/<32 hex>`, the dashed UUID, `/<Title-words>-<id>`,
 *                any case: the id's 32 lower-case hex digits in the last segment); Notion's view parameters `pvs` and `v`
 *                dropped; an id is the platform's path (one the map does not know answers 404); no language prefix dropped
 *   static       the common rules, and on a PHP script (`/index.php`, `/telecharger.php`, the root) a number's zeros dropped
 *                (`id=03` is `id=3`: PHP reads an id through intval())
 */

export const PLATFORMS = ["wordpress", "joomla", "drupal", "wix", "squarespace", "typo3", "spip", "blogger", "ghost", "hugo", "cm4all", "concrete", "dotclear", "pluxml", "odoo", "grav", "sitew", "webador", "godaddy", "dnn", "craft", "contao", "notion", "static"] as const;
export type Platform = (typeof PLATFORMS)[number];

export const isPlatform = (value: unknown): value is Platform => typeof value === "string" && (PLATFORMS as readonly string[]).includes(value);

/**
 * Campaign, click and referral tracking parameters: never part of an old URL's identity, so `/?page_id=12&utm_source=x`
 * matches the key `/?page_id=12`; they are kept on the target, as the whole query is for a path-only match. A
 * directory's or a partner's link to the home page (`/?ref=annuaire`, `/?src=gmb`) reaches it, never a 404 for an
 * unknown home query.
 */
const TRACKING_PARAM = /^(?:utm_[^=]*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid|igshid|_hsenc|_hsmi|__hstc|__hssc|__hsfp|hsctatracking|mkt_tok|srsltid|ref|referrer|referer|source|src|from|via)(?:=|$)/i;
/** A document or image file, by its extension (a page's `.html`/`.php` is not one). */
const DOCUMENT_PATH = /\.(?:pdf|docx?|odt|xlsx?|ods|pptx?|rtf|txt|zip|jpe?g|png|gif|webp|svg|mp4|mp3)$/i;
/**
 * A visitor's session or account carried in the URL (PHP, Java, ASP, Cold Fusion; Google's `authuser`, which Google
 * Sites writes on its internal links, and its `usp` and `pli`): never part of which page it is.
 */
const SESSION_PARAM = /^(?:phpsessid|jsessionid|aspsessionid[a-z]*|cfid|cftoken|sessionid|session_id|authuser|usp|pli)(?:=|$)/i;
/** The servlet session's path parameter (`;jsessionid=...`, up to the next segment or parameter), on a lower-cased path. */
const SESSION_PATH_PARAM = /;jsessionid=[^/;]*/g;
/** A page's language chosen by a parameter: the new site has one language, the old URL one page. */
const LANGUAGE_PARAM = /^(?:lang|language|lng|hl|locale|wpml_lang|hslang)(?:=|$)/i;
/** SilverStripe's published stage (`?stage=Live`, which its preview links carry): the page itself, as every visitor sees it. */
const LIVE_STAGE = /^stage=live$/i;

/**
 * Whether a query parameter (`name=value` as sent) is no part of which page a URL names: tracking, language,
 * session, SilverStripe's live stage. The one predicate every reading of an old URL's query drops parameters by
 * (params below; learned.ts's id query).
 */
export function isIgnoredParam(param: string): boolean {
  return TRACKING_PARAM.test(param) || LANGUAGE_PARAM.test(param) || SESSION_PARAM.test(param) || LIVE_STAGE.test(param);
}

/** Whether a query parameter (`name` or `name=value`) only tracks a campaign or a click. */
export function isTrackingParam(param: string): boolean {
  return TRACKING_PARAM.test(param);
}

/** SPIP's objects, each with an id of its own: `article12`, `id_article=12`. */
const SPIP_OBJECTS = ["article", "rubrique", "breve", "auteur", "mot", "site", "document", "syndic"] as const;
const SPIP_OBJECT = new RegExp(`^(${SPIP_OBJECTS.join("|")})(\\d+)$`);

/** The query parameters a platform names a page by: a request carrying one is an old CMS URL. */
const IDENTITY_PARAMS: Record<Platform, ReadonlySet<string>> = {
  wordpress: new Set(["p", "page_id", "cat", "tag", "m", "author", "attachment_id", "post_type", "paged", "s", "year", "monthnum", "name", "pagename", "feed"]),
  joomla: new Set(["option", "view", "id", "catid", "task", "layout", "itemid", "format"]),
  drupal: new Set(["q"]),
  wix: new Set(),
  squarespace: new Set(["offset", "category", "tag", "author", "month"]),
  typo3: new Set(["id", "type", "eid", "tx_news_pi1[news]", "tx_news_pi1[overwritedemand][categories]", "tx_news_pi1[@widget_0][currentpage]"]),
  // The spellings with an id parameter (`id_article=12`). `spip.php?article12` and `page=plan` are queries on the
  // home path, which answer 404 all the same unless the map knows them (map.ts); `page=sommaire` is the home page.
  spip: new Set(SPIP_OBJECTS.map((o) => `id_${o}`)),
  // A listing's pagination (`/search?updated-max=...&max-results=7`) and a feed's format.
  blogger: new Set(["updated-max", "updated-min", "max-results", "start", "by-date", "reverse-paginate", "alt", "q"]),
  ghost: new Set(),
  hugo: new Set(),
  cm4all: new Set(),
  concrete: new Set(["cid"]),
  // Its queries are paths (byIdentity): what is left of one after them is the search.
  dotclear: new Set(["q"]),
  pluxml: new Set(),
  odoo: new Set(),
  grav: new Set(),
  sitew: new Set(),
  webador: new Set(),
  godaddy: new Set(),
  dnn: new Set(["tabid", "articleid", "itemid", "fileticket"]),
  // Its routing parameter (`?p=<uri>`, byIdentity: a path; a number, which names no URI, stays a query).
  craft: new Set(["p"]),
  // Its `auto_item` (byIdentity: a path) and a listing's `page_n12` (a name with the module's id: byIdentity).
  contao: new Set(["auto_item"]),
  notion: new Set(),
  static: new Set(),
};
/**
 * Every platform's identity parameters: a query naming a page as some CMS does. Not Concrete's `cID`: elsewhere `cid`
 * is a campaign's id (`/?cid=summer`), no page's.
 */
const ANY_IDENTITY: ReadonlySet<string> = new Set(
  Object.entries(IDENTITY_PARAMS)
    .filter(([platform]) => platform !== "concrete")
    .flatMap(([, names]) => [...names]),
);
/**
 * A parameter that names a page as a CMS does: one of their identity parameters, or a query that is a path (Dotclear's
 * and PluXml's `?post/2019/05/14/slug`, `?article12`, SPIP's `?article12`: a name without a value).
 */
const namesAPage = ([name, value]: [string, string]): boolean =>
  ANY_IDENTITY.has(name) || (value === "" && (name.includes("/") || /^(?:article|static|categorie|rubrique|breve)\d+$/.test(name)));

/**
 * Paths only the platform makes (its components, uploads, listings, shortlinks): such an old URL the map does
 * not know answers 404 at once, as an unknown CMS query does. Matched on the normalised path.
 */
const PLATFORM_PATHS: Record<Platform, RegExp | null> = {
  // Its archives of a category, a tag or an author at the root or under the permalink structure's front: WordPress
  // puts them after the front (`with_front`, true by default), so `/blog/%postname%/` makes `/blog/tag/x/` and
  // `/blog/author/x/`. Only with the archive's slug after the base (its rewrite rules are `tag/([^/]+)/?$`...: a
  // bare `/tag/` or `/equipe/author` is a page's path to WordPress), and under one front segment at most: the front
  // a dental practice's blog uses is one word (`/blog/`, `/actualites/`), and each deeper reading took pages of the
  // new site for archives (`/conseils/prevention/category/x/`; an outside review's finding). A one-segment front
  // still reads like a page under a section (`/soins/tag/implants/`): the new site's own pages are exempt (map.ts).
  wordpress: /^(?:\/[^/]+)?\/(?:category|tag|author)\/[^/]|^\/(?:wp-content|wp-includes|wp-admin|wp-json|feed)(?:\/|$)|^\/wp-login|\/feed$/,
  // And a list's feed by its extension (`/actualites.feed`, JOOMLA_FEED): no page.
  joomla: /^\/(?:component|images|media|templates|modules|plugins|administrator|cache)(?:\/|$)|\.feed$/,
  drupal: /^\/(?:node|taxonomy\/term|user|comment|sites\/[^/]+\/files|filter\/tips)(?:\/|$)/,
  wix: /^\/(?:_files|_api|post|blog\/(?:categories|tags|hashtags|page)|service-page|booking-calendar|product-page|event-details)(?:\/|$)|^\/copy-of-/,
  squarespace: /^\/(?:s|static|config|universal|blog\/(?:tag|category|page|\d{4}))(?:\/|$)/,
  typo3: /^\/(?:typo3|typo3conf|typo3temp|uploads|fileadmin\/_processed_)(?:\/|$)/,
  spip: /^\/(?:ecrire|prive|squelettes|squelettes-dist|plugins|plugins-dist|local|tmp|config|img)(?:\/|$)/,
  blogger: /^\/(?:search|feeds)(?:\/|$)|^\/\d{4}(?:\/\d{2})?$/,
  ghost: /^\/(?:tag|author|rss|content|ghost|members)(?:\/|$)|^\/page\/\d+$/,
  hugo: /^\/(?:tags|categories)(?:\/|$)|\/page\/\d+$|(?:^|\/)index\.xml$/,
  cm4all: /^\/\.cm4all(?:\/|$)/,
  concrete: /^\/(?:application|concrete|ccm|download_file|login|dashboard|tools)(?:\/|$)/,
  dotclear: /^\/(?:category|tag|archive|feed|trackback|xmlrpc|page\/\d+|rsd)(?:\/|$)|^\/public\/\.|^\/themes\//,
  pluxml: /^\/(?:feed|data|tag|archives|page\d+|themes|core|plugins)(?:\/|$)|^\/categorie\d+(?:\/[^/]+)?\/page\d+$|^\/(?:article|static|categorie)\d+$/,
  odoo: /^\/(?:web|website)(?:\/|$)|^\/blog\/[^/]+\/(?:tag|page|feed)(?:\/|$)|^\/(?:blog\/post|jobs\/detail)\/\d+$|^\/blog\/\d+$/,
  grav: /^\/(?:user|images)(?:\/|$)|\/[a-z0-9_-]+:[^/]*(?:\/|$)|\.(?:rss|atom)$/,
  sitew: /^\/(?:fs|sw)(?:\/|$)|^\/blog\/rss\.xml$/,
  webador: /^\/blog\/(?:tag|category|feed)(?:\/|$)|^\/blog\/\d+$/,
  godaddy: /^\/blog\/f\.rss$/,
  dnn: /^\/(?:portals|desktopmodules|providers|linkclick|tabid)(?:\/|\.aspx|$)|^\/(?:login|register|keepalive|logoff)$/,
  // Its controllers, its control panel's resources and the panel; a listing's further page by the pageTrigger (`/p2`).
  craft: /^\/(?:actions|cpresources|admin)(?:\/|$)|^\/.+\/p\d+$/,
  contao: /^\/(?:assets|bundles|system|contao)(?:\/|$)/,
  // A page by its id (the form notionIdentity leaves: the 32 hex digits alone as the last segment): an id the map does
  // not know answers one 404, not the page of the new site at that path (there is none) after a slash redirect.
  notion: /(?:^|\/)[0-9a-f]{32}$/,
  static: null,
};

/** DNN's parameters that name no other document, in the path as in the query (dnnIdentity reads both). */
const DNN_NOISE: ReadonlySet<string> = new Set(["language", "portalid", "forcedownload", "popup", "skinsrc", "containersrc", "dnnprintmode"]);

/** Parameters a platform adds to a page's URL without naming another page. */
const NOISE_PARAMS: Record<Platform, ReadonlySet<string> | "all"> = {
  wordpress: new Set(["replytocom", "amp"]),
  joomla: new Set(["itemid", "tmpl", "print", "format", "page", "layout"]),
  drupal: new Set(["_format"]),
  wix: "all",
  squarespace: new Set(["format"]),
  typo3: new Set(["l", "chash", "no_cache", "type", "tx_news_pi1[controller]", "tx_news_pi1[action]"]),
  spip: new Set(["var_mode", "var_mode_objet", "var_mode_id", "recalcul", "status"]),
  blogger: new Set(["m", "showcomment"]),
  ghost: "all",
  hugo: "all",
  cm4all: "all",
  concrete: new Set(),
  dotclear: new Set(),
  pluxml: new Set(),
  odoo: "all",
  grav: "all",
  sitew: "all",
  webador: "all",
  godaddy: "all",
  dnn: DNN_NOISE,
  // A preview's share link (`?x-craft-preview=...&token=...`): the live entry.
  craft: new Set(["token", "x-craft-preview", "x-craft-live-preview"]),
  contao: new Set(),
  // Notion's own leaves on a link copied from its app: `pvs` ("page view source", `?pvs=4`) and `v` (a database view's
  // id, `?v=<32 hex>`): the same page, in whichever view (Super and notion.site answer both with the page).
  notion: new Set(["pvs", "v"]),
  static: new Set(),
};
/**
 * Noise parameters that are noise with these values only; another value names another document, kept apart.
 * Joomla's `format=html` is the page (`format=feed`, `vcf`, `raw`... are not), its `layout=default` the view's
 * default layout that print links carry (`layout=blog`... lists); TYPO3's `type=98` is the page's print view and
 * `type=0` the page (another type is a sitemap, a feed).
 */
const NOISE_ONLY_AS: Partial<Record<Platform, Record<string, ReadonlySet<string>>>> = {
  joomla: { format: new Set(["html"]), layout: new Set(["default"]) },
  // Drupal 8+'s `_format=html` is the page in its default format (`_format=json`, `hal_json`... its REST views, not).
  drupal: { _format: new Set(["html"]) },
  typo3: { type: new Set(["98", "0"]) },
};
/** A language first segment (`/fr/`, `/en-gb/`): ISO 639-1 codes of the languages practices' sites use. */
const LANGUAGE_PREFIX = /^\/(?:fr|en|de|es|it|nl|pt|ar|zh|ru|pl|ca|eu|br)(?:[-_][a-z]{2})?(?=\/|$)/;

export interface OldUrlForm {
  /** The normalised form (path, then `?` and the identity query when one is left). */
  form: string;
  /** The path part of `form`. */
  path: string;
  /** Whether the URL names a page by a CMS query (`?p=12`, `?option=...`, `?q=node/12`), whatever its path. */
  cmsQuery: boolean;
  /** Whether its path is one only the platform makes (PLATFORM_PATHS): `/component/...`, `/node/12`, `/s/x.pdf`. */
  cmsPath: boolean;
  /**
   * WordPress only: the one query var on its front controller (`/`, `/index.php`, under a language prefix) beside its
   * noise (`replytocom`, `amp`) and the ignored parameters, its name as sent (case kept) and its value in a path
   * segment's form (lower-cased, accents folded): `?soin=Implants` is `{ name: "soin", value: "implants" }`. What
   * WordPress may answer with a 301 to a post's permalink wherever its structure puts it (map.ts decides which vars).
   */
  frontVar?: { name: string; value: string };
}

/** A URL's part decoded, or null for a malformed escape (the one reading of an escape here, in learned.ts and map.ts). */
export function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** The path rules every platform shares. */
function commonPath(decoded: string): string {
  const path = noTrailingSlash(decoded.toLowerCase().replace(/\/{2,}/g, "/"));
  // Slashes first, so `/Implants.html/` and `/soins//implants.html` lose their suffix like `/implants.html`.
  // (ASP.NET's `.aspx` and classic ASP's `.asp` too: IIS sites' pages, `/Soins/Implants.aspx`, `/default.aspx`.)
  const page = noTrailingSlash(path.replace(/\/(?:index|default)\.(?:html?|php|aspx?)$/, "/").replace(/\.(?:html?|php|aspx?)$/, ""));
  return HOME_NAME.test(page) ? "/" : page;
}

/** The home page by its name (`/accueil.html`, `/home`, `/index`, IIS's `/default`): a site builder's, or a hand-made site's, home. */
const HOME_NAME = /^\/(?:accueil|home|index|default)$/;

const noTrailingSlash = (path: string) => (path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path);

/**
 * The parameters of a query as `[name, value]`, names and values lower-cased, `&amp;` read as `&`, the ignored ones
 * (isIgnoredParam) left out; null on a bad escape. `names`, when given, receives each kept name decoded as sent. The learned id query (learned.ts) reads a query so too.
 */
export function params(query: string, names?: string[]): [string, string][] | null {
  const out: [string, string][] = [];
  for (const raw of query.replace(/&(?:amp|#0*38|#x0*26);/gi, "&").split(/[&;]/)) {
    if (!raw || isIgnoredParam(raw)) continue;
    const eq = raw.indexOf("=");
    const name = decode((eq === -1 ? raw : raw.slice(0, eq)).replace(/\+/g, " "));
    const value = decode((eq === -1 ? "" : raw.slice(eq + 1)).replace(/\+/g, " "));
    if (name === null || value === null) return null;
    // (Each kept name as sent, at the same index, for a caller that must tell `soin` from `Soin`: WordPress's query
    // vars are PHP's $_GET keys, case-sensitive.)
    names?.push(name);
    out.push([name.toLowerCase(), value.toLowerCase()]);
  }
  return out;
}

const NON_ASCII = /[^\p{ASCII}]/u;
/** A text's accents folded (`l-équipe` is `l-equipe`), as a path's are; only a text holding a character beyond ASCII is normalised. */
const folded = (text: string) => (NON_ASCII.test(text) ? text.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : text);
/** A PHP script's path, or the root a PHP site's `index.php` answers (`/index.php/` too: Apache's PATH_INFO). */
const PHP_SCRIPT = /^\/$|\.php\/?$/;
/** A number written with zeros before it (`03`, `007`), not `0` alone; at most 15 digits (a number, not a code). */
const ZERO_PADDED = /^0\d{1,14}$/;

/**
 * The one form an old URL is compared in, for `platform` (null: a map that declares none, the common rules).
 * Null for a malformed escape, which matches nothing. `categories`: a Joomla site's category paths
 * (joomlaCategoryPaths of its URLs), whose SEF pages are categories, not the articles of their numbers.
 */
export function oldUrlForm(raw: string, platform: Platform | null, categories?: ReadonlySet<string>): OldUrlForm | null {
  const hash = raw.indexOf("#");
  const url = hash === -1 ? raw : raw.slice(0, hash);
  const q = url.indexOf("?");
  const decoded = decode(q === -1 ? url : url.slice(0, q));
  // (The names as sent, for WordPress's front controller's query var: frontVar.)
  const names: string[] | undefined = platform === "wordpress" && q !== -1 ? [] : undefined;
  let list = params(q === -1 ? "" : url.slice(q + 1), names);
  if (decoded === null || list === null) return null;
  let frontVar: OldUrlForm["frontVar"];
  // Accents folded too: a builder that keeps them in its slugs answers them without (`/l-équipe` and `/l-equipe`).
  // (Only a path holding a character beyond ASCII is normalised: nearly every request's is plain ASCII.)
  // A Java servlet's session in the path (`/contact.html;jsessionid=8F2C...`, URL rewriting for a visitor without
  // cookies, copied into links and bookmarks) names no page, as its query spelling `?jsessionid=` (SESSION_PARAM) does not.
  // (Asked of the path only when it holds one: every request of a migrated practice's site is read here.)
  let path = folded(decoded).toLowerCase();
  if (path.includes(";jsessionid=")) path = path.replace(SESSION_PATH_PARAM, "");
  path = path.replace(/\/{2,}/g, "/");
  let cmsQuery = false;
  let anyIdentity = false;
  if (platform !== null) {
    const identity = IDENTITY_PARAMS[platform];
    const noise = NOISE_PARAMS[platform];
    // Joomla's Itemid alone names a menu item, a page, on the home path (`/index.php?Itemid=101`): noise beside the
    // article it places, and on a page's own path (`/contact?Itemid=107`: the path names the page, the Itemid only the
    // menu item shown active).
    // (The home path as the platform reads it: `/index.php/`, `/fr/` are `/`.)
    const home = (path.replace(/^\/index\.php(?=\/|$)/, "").replace(LANGUAGE_PREFIX, "") || "/") === "/";
    const keep = (name: string) => platform === "joomla" && name === "itemid" && home && !list!.some(([n]) => n === "option" || n === "id");
    const other = (name: string, value: string) => {
      const only = NOISE_ONLY_AS[platform]?.[name];
      return only !== undefined && !only.has(value);
    };
    // A platform that reads no query still meets old CMS queries on its home path (`/?p=12`, `/index.php?id=3`: a site
    // before it, a probe): naming a page as some CMS does, such a URL is one, and answers 404 (decided below, once the
    // path is known: on another path the query is the visitor's, `/implantologie/?id=3` the page).
    anyIdentity = noise === "all" && list.some(namesAPage);
    const all = list;
    // WordPress's one query var on its front controller (frontVar), read from this parse: counted first, so a long
    // query costs no second walk (WordPress's two noise parameters beside it at most).
    if (names !== undefined && home && all.length <= 3 && noise !== "all") {
      const at = all.findIndex(([name]) => !noise.has(name));
      if (at !== -1 && all.every(([name], i) => i === at || noise.has(name))) frontVar = { name: names[at], value: folded(all[at][1]) };
    }
    list = noise === "all" ? [] : list.filter(([name, value]) => !noise.has(name) || keep(name) || other(name, value));
    cmsQuery = list.some(([name]) => identity.has(name));
    // `/index.php/contact` (PATHINFO URLs) is `/contact` on every platform: a PHP script answers the path after it
    // (a CMS's front controller routes it; a hand-made script shows what it shows for `/contact`, or itself).
    path = path.replace(/^\/index\.php(?=\/|$)/, "") || "/";
    // `/fr/contact` is the one-language site's `/contact` (not a static site's, whose `/fr/` may be a folder of its own).
    // (Nor a Notion site's: a pretty URL is any path its owner typed, `/en/` a page of its own.)
    if (platform !== "static" && platform !== "wix" && platform !== "notion") path = path.replace(LANGUAGE_PREFIX, "") || "/";
    const named = byIdentity(platform, path, list, all, categories);
    cmsQuery ||= named.cmsQuery === true;
    ({ path, list } = named);
    // Every platform: a front controller's query that is a path (the rule at frontControllerPath).
    const routed = frontControllerPath(path, list, identity);
    if (routed !== null) {
      path = routed;
      list = [];
      // The home page by one of its names (`?p=accueil`, SilverStripe's `?url=/home/`) is the home page, as the map
      // knows it: not a CMS query, which would answer 404 before the map is asked (an outside review's finding).
      cmsQuery = commonPath(routed) !== "/";
    }
  }
  // A hand-made PHP site's script (`/index.php`, `/telecharger.php`, the root that runs `index.php`) reads an id through
  // PHP's intval(): `id=03` is `id=3`, as a CMS's number is whatever its zeros (PluXml's `article0017`, SPIP's `article012`).
  if (platform === "static" && PHP_SCRIPT.test(path)) list = list.map(([name, value]): [string, string] => [name, ZERO_PADDED.test(value) ? String(Number(value)) : value]);
  // A file's URL names the file: a query on it is a cache buster or a download token (`?t=1600876543`,
  // `?ver=2`), never another document.
  if (DOCUMENT_PATH.test(path)) list = [];
  path = commonPath(path);
  cmsQuery ||= anyIdentity && path === "/";
  list.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const query = list.map(([name, value]) => (value === "" ? name : `${name}=${value}`)).join("&");
  const shape = platform === null ? null : PLATFORM_PATHS[platform];
  const form: OldUrlForm = { form: query ? `${path}?${query}` : path, path, cmsQuery, cmsPath: shape !== null && shape.test(path) };
  if (frontVar !== undefined) form.frontVar = frontVar;
  return form;
}

/**
 * WordPress's own query vars (WP::$public_query_vars, and those of its sitemaps and REST API): none of them is a post
 * type's (a map's `$queryVars`, learned.ts): each names something else (a search, an archive, an id, a feed).
 */
const WORDPRESS_QUERY_VARS: ReadonlySet<string> = new Set([
  "m", "p", "posts", "w", "cat", "withcomments", "withoutcomments", "s", "search", "exact", "sentence", "calendar", "page", "paged",
  "more", "tb", "pb", "author", "order", "orderby", "year", "monthnum", "day", "hour", "minute", "second", "name", "category_name",
  "tag", "tag_id", "feed", "author_name", "pagename", "page_id", "error", "attachment", "attachment_id", "subpost", "subpost_id",
  "preview", "preview_id", "preview_nonce", "robots", "favicon", "taxonomy", "term", "cpage", "post_type", "embed", "rest_route",
  "sitemap", "sitemap-subtype", "sitemap-stylesheet", "customize_changeset_uuid",
]);
/** Whether a parameter is one of WordPress's own query vars (WORDPRESS_QUERY_VARS), as WordPress spells them. */
export const isWordPressQueryVar = (name: string): boolean => WORDPRESS_QUERY_VARS.has(name);

/** The parameters naming an object by its id, in the grammar's form (`id=31`, `p=12`, `cid=4`, SPIP's `article=3`). */
const OBJECT_ID = new RegExp(`^(?:id|p|cid|[a-z]+_id|id_[a-z]+|${SPIP_OBJECTS.join("|")})=\\d`);

/**
 * An old CMS query naming an object by its id, in the platform's form: not one naming a view or a menu item, which
 * may be the home page itself (Joomla's `view=featured&Itemid=101`). The migration toolkit never sends one the old
 * site answered with its home page there (ops/migrate/redirect-map.ts).
 */
export function namesAnObject(path: string, platform: Platform | null): boolean {
  const url = oldUrlForm(path, platform);
  const query = url?.cmsQuery ? (url.form.split("?")[1] ?? "") : "";
  return query.split("&").some((p) => OBJECT_ID.test(p));
}

/** A page's AMP view (`/slug/amp/`, WordPress's plugin, Ghost's) is the page (`/slug/`). */
const withoutAmp = (path: string) => path.replace(/^(\/.+?)\/amp\/?$/, "$1/");

/** A page's identity: its path and its identity query; `cmsQuery` when a query named it that is no parameter (queryPath). */
interface Identity {
  path: string;
  list: [string, string][];
  cmsQuery?: boolean;
}

/** The platform's own identity of a page (see the table at the top). */
function byIdentity(platform: Platform, path: string, list: [string, string][], raw: [string, string][], categories?: ReadonlySet<string>): Identity {
  switch (platform) {
    case "wordpress": {
      const renamed = list.map(([name, value]): [string, string] => [name === "page_id" ? "p" : name, value]);
      const id = renamed.find(([name]) => name === "p" || name === "attachment_id");
      // A post or page by its id is that post on any path (`/index.php?p=3`, `/blog/?p=3`).
      if (id) return { path: "/", list: [id] };
      // A post by its slug: `?name=slug`, `/2017/03/14/slug/` (day and name permalinks) and `/slug/` are one post; a
      // page by its path: `?pagename=le-cabinet/equipements` is `/le-cabinet/equipements/` (WordPress's query vars).
      const name = renamed.find(([n, v]) => (n === "name" || n === "pagename") && v !== "");
      if (name) return { path: `/${name[1].replace(/^\/+/, "")}`.replace(/\/{2,}/g, "/"), list: renamed.filter((p) => p !== name) };
      // The AMP plugin's `/slug/amp/` is the page itself (as `?amp` is).
      const page = withoutAmp(path);
      return { path: page.replace(/^\/\d{4}\/\d{1,2}(?:\/\d{1,2})?(?=\/[^/\d][^/]*\/?$)/, ""), list: renamed };
    }
    case "joomla": {
      const cleaned = list.map(([name, value]): [string, string] => [name, name === "id" || name === "catid" ? value.replace(/:.*$/, "") : value]);
      if (cleaned.some(([name]) => name === "option")) {
        // `catid` only places an article in a menu; the article is its id.
        const article = cleaned.some(([n, v]) => n === "view" && v === "article") && cleaned.some(([n]) => n === "id");
        return { path: "/", list: article ? cleaned.filter(([n]) => n !== "catid") : cleaned };
      }
      // SEF: `/component/content/article/12-alias` and an article under its category, `/actualites/12-alias`
      // or `/actualites/12` (the id without its alias).
      const clean = commonPath(path);
      // A list's feed (`/actualites/6-vie-du-cabinet.feed?type=rss`: the router reads the extension as `format`) is
      // no page, nor the article of that number: the path itself (PLATFORM_PATHS: one 404 unless the map knows it).
      if (JOOMLA_FEED.test(clean)) return { path, list: cleaned };
      const component = /^\/component\/content\/article\/(?:[^/]+\/)*?(\d+)(?:-[^/]*)?$/.exec(clean);
      if (component) return { path: "/", list: [["id", component[1]], ["option", "com_content"], ["view", "article"]] };
      const sef = /^\/component\//.test(clean) ? null : JOOMLA_SEF.exec(clean);
      if (!sef) return { path, list: cleaned };
      // A numbered segment the old site also shows with numbered children (`/actualites/6-vie-du-cabinet/31-...`)
      // is a category (its blog or list), not the article of that number (joomlaCategoryPaths): category 6.
      const view = categories?.has(`${sef[1]}/${Number(sef[2])}`) ? "category" : "article";
      return { path: "/", list: [["id", sef[2]], ["option", "com_content"], ["view", view]] };
    }
    case "typo3": {
      // A news item is itself on whichever page shows it (`id` names the detail page, not the item).
      const news = list.find(([name]) => name === "tx_news_pi1[news]");
      if (news) return { path: "/", list: [news] };
      // A page by its uid (or alias) is that page on any path (`/index.php?id=12`, `/fr/?id=12`).
      if (list.some(([name]) => name === "id")) return { path: "/", list };
      return { path, list };
    }
    case "spip":
      return spipIdentity(path, list);
    case "ghost":
      return { path: withoutAmp(path), list };
    case "concrete": {
      // A page by its collection id is that page on any path (`cID=0157` is 157).
      const cid = list.find(([name]) => name === "cid");
      if (cid) return { path: "/", list: [["cid", /^\d+$/.test(cid[1]) ? String(Number(cid[1])) : cid[1]]] };
      const file = CONCRETE_DOWNLOAD.exec(commonPath(path));
      return file ? { path: `/download_file/${Number(file[1])}`, list: [] } : { path, list };
    }
    case "dotclear":
      return queryPath(path, list, ["q"]);
    case "pluxml": {
      // `/index.php?article12/slug`, `/article0012/other-slug`, `/?article12`: article 12.
      const named = queryPath(path, list, []);
      const object = PLUXML_OBJECT.exec(commonPath(named.path));
      return object ? { ...named, path: `/${object[1]}${Number(object[2])}`, list: [] } : named;
    }
    case "odoo":
      return odooIdentity(path, raw);
    case "sitew": {
      // A page by its code (`/<name>.<code>.htm`, lower-cased here), whatever the name.
      const page = /^\/[^/]*\.([a-z]{1,3})\.htm\/?$/.exec(path);
      return { path: page ? `/page.${page[1]}` : path, list };
    }
    case "dnn":
      return dnnIdentity(path, list);
    case "craft":
      return craftIdentity(path, list);
    case "contao":
      return contaoIdentity(path, list);
    case "notion":
      return { path: notionIdentity(path), list };
    case "webador": {
      // A post by its number (`/blog/<number>_<slug>`), whatever the slug.
      const post = /^\/blog\/(\d+)(?:_[^/]*)?\/?$/.exec(path);
      return { path: post ? `/blog/${Number(post[1])}` : path, list };
    }
    case "grav": {
      // Its colon parameters in any order (`tag:x/page:2` is `page:2/tag:x`), `page:1` the page itself.
      const segments = commonPath(path).split("/");
      const isParam = (s: string) => /^[a-z0-9_-]+:/.test(s);
      const params = segments.filter((s) => isParam(s) && !/^page:0*1$/.test(s)).sort();
      const page = segments.filter((s) => !isParam(s)).join("/") || "/";
      return { path: params.length ? `${page === "/" ? "" : page}/${params.join("/")}` : page, list: [] };
    }
    case "drupal": {
      const q = list.find(([name]) => name === "q");
      if (!q) return { path, list };
      // `?q=fr/node/12` and `?q=node/12/` name `/node/12` as clean URLs do.
      const named = `/${q[1]}`.replace(/\/{2,}/g, "/");
      return { path: named.replace(LANGUAGE_PREFIX, "") || "/", list: list.filter((p) => p !== q) };
    }
    default:
      return { path, list };
  }
}

/**
 * DNN's page, module item or document (see the top of this file): its parameters in the path
 * (`/tabid/60/ctl/Detail/mid/412/ItemId/9/Default.aspx`) read with its query's, every one kept but the noise (a
 * blog's `EntryId/12`, a list's `Page/2`, a module's `mid` and `ItemId` name other documents of the tab). A module's
 * detail view (`ctl=Detail`) is the item's own URL; any other control (`ctl=Login`) is another URL, which the map
 * does not know.
 */
function dnnIdentity(path: string, list: [string, string][]): Identity {
  const segments = path.split("/").filter(Boolean);
  const at = segments.indexOf("tabid");
  const pairs = [...list];
  // The pairs after `tabid`, up to the page's name (`Default.aspx`, a title's `.aspx`).
  if (at !== -1) for (let i = at; i + 1 < segments.length && !segments[i + 1].endsWith(".aspx"); i += 2) pairs.push([segments[i], segments[i + 1]]);
  const value = (name: string) => pairs.find(([n]) => n === name)?.[1];
  const number = (name: string) => {
    const v = value(name);
    return v !== undefined && /^\d+$/.test(v) ? String(Number(v)) : null;
  };
  if (path === "/linkclick.aspx") {
    const ticket = value("fileticket");
    if (ticket) return { path: `/linkclick/${ticket}`, list: [] };
    const link = number("link");
    if (link !== null) return { path: `/tabid/${link}`, list: [] };
    return { path, list };
  }
  const tab = number("tabid");
  // (No tab: a friendly path, `/Soins/Implants.aspx`, or `/Default.aspx`, the home page by the common rules.)
  if (tab === null) return { path, list };
  const rest = pairs
    .filter(([n, v]) => n !== "tabid" && !DNN_NOISE.has(n) && !(n === "ctl" && v === "detail"))
    .map(([n, v]): [string, string] => [n, /^\d+$/.test(v) ? String(Number(v)) : v]);
  // (Each of them names a document of the tab: one the map does not know answers 404, never the tab's page.)
  return { path: `/tabid/${tab}`, list: rest, cmsQuery: rest.length > 0 };
}

/**
 * Craft's query-string routing: on its front controller (`/index.php`, `/`), `p` holds the URI of the entry shown
 * (`index.php?p=soins/orthodontie`, Craft's `pathParam`), the path itself once rewritten. Only a value that is a path:
 * letters in it, no number alone (`?p=12` names no URI a section's format makes; it stays a query, which answers 404
 * unless the map knows it). Such a URL names a page by a CMS query: one the map does not know answers 404.
 */
function craftIdentity(path: string, list: [string, string][]): Identity {
  const uri = list.find(([name]) => name === "p");
  const routed = path === "/" && uri ? routedPath(uri[1]) : null;
  return routed === null ? { path, list } : { path: routed, list: list.filter((p) => p !== uri), cmsQuery: true };
}

/**
 * A URI a front controller is handed (Craft's `p`, frontControllerPath's), as the path it names: slugs, slash-separated,
 * with a letter in it (accented or not; `?p=12` is an id), its slashes around dropped and its accents folded as a path's
 * (Craft keeps them in a slug unless told to limit slugs to ASCII). Null for anything else. Two tests, not a lookahead
 * after `\/*`: that one was tried again at every slash a visitor repeats (50 ms of the main thread for a 16 KiB
 * `?p=////...`, an outside review's case).
 */
function routedPath(uri: string): string | null {
  if (!ROUTED_URI.test(uri) || !LETTER.test(uri)) return null;
  return `/${folded(uri).replace(/^\/+|\/+$/g, "")}`;
}
const ROUTED_URI = /^\/*[^/?#\s]+(?:\/[^/?#\s]+)*\/*$/u;
const LETTER = /\p{L}/u;

/**
 * Contao's identities (the table at the top): a reader page's item by its alias in the path (`auto_item`, the segment
 * after the page's alias, `/actualites/x.html`, is `?auto_item=x` on the page `/actualites.html`), and a listing's
 * pagination (`page_n12=2`: `page_` and the module's letter and id), which names another page of the listing.
 */
function contaoIdentity(path: string, list: [string, string][]): Identity {
  const paged = list.some(([name]) => CONTAO_PAGINATION.test(name));
  const item = list.find(([name, value]) => name === "auto_item" && /^[^/]+$/.test(value));
  if (!item) return { path, list, cmsQuery: paged };
  const page = commonPath(path);
  return { path: `${page === "/" ? "" : page}/${folded(item[1])}`, list: list.filter((p) => p !== item), cmsQuery: true };
}

/**
 * A Notion page's id in a path's last segment, in every spelling Notion and its publishers (Super, notion.site) answer:
 * the 32 hex digits (`/2843b478...de17`), the dashed UUID the API and the block ids write (`/2843b478-41ec-...`), either
 * after Notion's `<Title-words>-` (`/Infos-pratiques-2843b478...de17`, the form Notion's own links take: the words are
 * the title when the link was copied, any words answer), in any case. The id as 32 lower-case hex digits, else null.
 * Read from the segment's end only (the id's length is fixed): linear whatever a visitor sends.
 */
export function notionId(segment: string): string | null {
  const hex = segment.slice(-32).toLowerCase();
  if (NOTION_HEX.test(hex) && (segment.length === 32 || segment[segment.length - 33] === "-")) return hex;
  const dashed = segment.slice(-36).toLowerCase();
  if (NOTION_UUID.test(dashed) && (segment.length === 36 || segment[segment.length - 37] === "-")) return dashed.replace(/-/g, "");
  return null;
}
const NOTION_HEX = /^[0-9a-f]{32}$/;
const NOTION_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Notion's identity of a page (the table at the top): a last segment naming a page's id (notionId) is that id alone,
 * its folder kept (`/Infos-pratiques-<id>/` is `/<id>`); any other path is itself (a pretty URL).
 */
function notionIdentity(path: string): string {
  const clean = commonPath(path);
  const at = clean.lastIndexOf("/");
  const id = notionId(clean.slice(at + 1));
  return id === null ? path : `${clean.slice(0, at + 1)}${id}`;
}

/**
 * The parameters through which front controllers are handed the path of the page to show when the web server's
 * rewrite is bypassed: ProcessWire's `it` (`/index.php?it=soins/implants/`), SilverStripe's and CakePHP's `url`
 * (`/index.php?url=/le-cabinet/`), Craft's and hand-made scripts' `p` (`/index.php?p=contact`). Not `q` nor `r`, which
 * hold a search's words or a referral's tag on the sites that do not route by them (`/?q=implants`: no page of the old
 * site), nor OpenCart's `route`, whose values are its controllers, no page's path (an outside review's findings).
 */
const ROUTING_PARAMS: ReadonlySet<string> = new Set(["it", "url", "p"]);

/**
 * Every platform's front controller (`/`, `/index.php`, its path already dropped): a query that is nothing but a path
 * names the page at that path, the one the platform shows there. Either a name without a value that starts with a
 * slash (CodeIgniter's and ExpressionEngine's `/index.php?/le-centre`), or one of ROUTING_PARAMS holding a path
 * (routedPath: `?p=12` is an id, not a path) that the platform's own grammar does not read as something else
 * (WordPress's `p` is a post's id: `identity`). The only parameter left after the noise. Such a query names a page by
 * a CMS query, unless it names the home page: one the map does not know answers 404 (map.ts), never the page at `/`.
 */
function frontControllerPath(path: string, list: [string, string][], identity: ReadonlySet<string>): string | null {
  if (path !== "/" || list.length !== 1) return null;
  const [name, value] = list[0];
  const route = value === "" && name.startsWith("/") ? name : ROUTING_PARAMS.has(name) && !identity.has(name) ? value : null;
  return route === null ? null : routedPath(route);
}

/** A Contao listing's page parameter: `page_` + the module type's letter(s) + the module's id (`page_n12`, `page_e18`). */
const CONTAO_PAGINATION = /^page_[a-z]+\d+$/;

/**
 * A query that is a path (Dotclear's, PluXml's "query string" URLs): on the dispatcher (`/index.php`, `/`), the first
 * parameter, a name without a value, is the path (`?post/2019/05/14/slug&utm_source=x` is `/post/2019/05/14/slug`),
 * whatever its first word (the platform's URL types, and its plugins' own: an alias's `?urgence`); of the other
 * parameters only `kept` stay. Such a query names a page as a CMS query does: one the map does not know answers 404.
 */
function queryPath(path: string, list: [string, string][], kept: string[]): Identity {
  const first = list[0];
  if (path !== "/" || !first || first[1] !== "") return { path, list };
  return { path: `/${first[0]}`, list: list.slice(1).filter(([name]) => kept.includes(name)), cmsQuery: true };
}

/**
 * PluXml's numbered objects: an article, a static page, a category, by their number (`article12/slug`; the zeros
 * before it go with Number). Not a category's further page (`categorie2/page2`, `categorie2/soins/page2`).
 */
const PLUXML_OBJECT = /^\/(article|static|categorie)(\d+)(?:\/(?!page\d+$)[^/]*)?$/;

/**
 * Odoo's identities (the table at the top): a page by its path (`/page/<slug>` is `/<slug>`), a blog by its id
 * (`/blog/conseils-2`, `/blog/2`), a post by its id whichever blog and slug name it (`/blog/conseils-2/slug-8`,
 * `/blog/2/8`, Odoo 12's `/blog/notre-blog-1/post/slug-8`), a job offer by its id (`/jobs/detail/assistant-4`), an
 * attachment by its id (`/web/content/58`, `/web/content/58-a1b2c3/q.pdf`: its id, then a checksum; and its query form
 * `/web/content?model=ir.attachment&id=58`, the only query Odoo reads on these routes; `raw`: the query's parameters
 * before the noise was dropped).
 */
function odooIdentity(path: string, raw: [string, string][]): Identity {
  const page = commonPath(path).replace(/^\/page(?=\/[^/]+$)/, "");
  const post = /^\/blog\/[^/]+\/(?:post\/)?(?:[^/]*-)?(\d+)$/.exec(page);
  if (post) return { path: `/blog/post/${Number(post[1])}`, list: [] };
  const blog = /^\/blog\/(?:[^/]*-)?(\d+)$/.exec(page);
  if (blog) return { path: `/blog/${Number(blog[1])}`, list: [] };
  const job = /^\/jobs\/detail\/(?:[^/]*-)?(\d+)$/.exec(page);
  if (job) return { path: `/jobs/detail/${Number(job[1])}`, list: [] };
  const file = /^\/web\/(content|image)\/(\d+)(?:-[^/]*)?(?:\/[^/]*)?$/.exec(page);
  if (file) return { path: `/web/${file[1]}/${Number(file[2])}`, list: [] };
  const id = raw.find(([name, value]) => name === "id" && /^\d+$/.test(value));
  if (/^\/web\/(?:content|image)$/.test(page) && id) return { path: `${page}/${Number(id[1])}`, list: [] };
  return { path: page, list: [] };
}

/** Concrete CMS's download routes: the file's id, then (optionally) the page that linked it. */
const CONCRETE_DOWNLOAD = /^\/download_file\/(?:(?:view|view_inline|force)\/)?(\d+)(?:\/\d+)?$/;

/** What survives beside a SPIP object's identity: a list's pagination (`debut_articles=10`: another page of it). */
const SPIP_KEPT = /^debut_/;
/** SPIP's one script, on the root (`/spip.php`, `/`), where every query names an object or a page. */
const SPIP_ENTRY = /^\/(?:spip\.php)?$/;
const isSpipObject = (name: string | undefined): name is string => name !== undefined && (SPIP_OBJECTS as readonly string[]).includes(name);

/**
 * SPIP's identity of an object (the table at the top): `[object, id]` on the path `/`, whatever the spelling, the id
 * as a number (`article012` is article 12), nothing else kept but a list's pagination; the home page for `spip.php`
 * and its `page=sommaire`; other `page=` values (a site map, a feed, an unknown page) stay as they are, and answer
 * 404 unless the map names them.
 */
function spipIdentity(path: string, list: [string, string][]): Identity {
  const identity = spipObject(path, list);
  if (identity === "home") return { path: "/", list: list.filter(([n]) => n !== "page") };
  if (identity === null) return SPIP_ENTRY.test(path) ? { path: "/", list } : { path, list };
  return { path: "/", list: [[identity[0], String(Number(identity[1]))], ...list.filter(([n]) => SPIP_KEPT.test(n))] };
}

/** The object a SPIP URL names (`[object, id]`), "home", or null (not an object's URL). */
function spipObject(path: string, list: [string, string][]): [string, string] | "home" | null {
  // `/article12.html` (SPIP's "html" URLs), after the common suffix rules.
  const named = SPIP_OBJECT.exec(commonPath(path).slice(1));
  if (named) return [named[1], named[2]];
  const value = (name: string) => list.find(([n]) => n === name)?.[1];
  const idOf = (object: string) => list.find(([n, v]) => n === `id_${object}` && /^\d+$/.test(v))?.[1];
  // SPIP 1.x: `/article.php3?id_article=12`.
  const legacy = /^\/(article|rubrique|breve|auteur|mot)\.php3?$/.exec(path);
  if (legacy) {
    const id = idOf(legacy[1]);
    return id === undefined ? null : [legacy[1], id];
  }
  // SPIP's "ping", `/1234`: the .htaccess SPIP ships rewrites a number alone on the root to the article of that
  // number (`RewriteRule ^([1-9][0-9]*)$ spip.php?action=redirect&type=article&status=301&id=$1`). A number with a
  // leading zero, a slash after it or anything else is not rewritten: a path like any other.
  const ping = /^\/([1-9]\d*)$/.exec(path);
  if (ping) return ["article", ping[1]];
  if (!SPIP_ENTRY.test(path)) return null;
  // `page=article&id_article=12` (beside `id_rubrique=3`, the article's place), its print view `page=imprimer`.
  const page = value("page");
  const pageId = isSpipObject(page) ? idOf(page) : undefined;
  if (pageId !== undefined) return [page!, pageId];
  // `spip.php?article12`: a parameter without a value.
  const bare = list.map(([name, v]) => (v === "" ? SPIP_OBJECT.exec(name) : null)).find((m) => m !== null);
  if (bare) return [bare[1], bare[2]];
  // `action=redirect&type=article&id=12`: SPIP's redirect to an object's URL.
  const type = value("type");
  if (value("action") === "redirect" && isSpipObject(type) && /^\d+$/.test(value("id") ?? "")) return [type, value("id")!];
  const ids = list.filter(([n, v]) => n.startsWith("id_") && isSpipObject(n.slice(3)) && /^\d+$/.test(v));
  if (ids.length === 1 && (page === undefined || /^imprimer/.test(page))) return [ids[0][0].slice(3), ids[0][1]];
  return page === "sommaire" ? "home" : null;
}

/**
 * Joomla's SEF path of a component's item: a menu item's route (`/actualites`, `/le-cabinet/equipe`), then a numbered
 * segment (`6-vie-du-cabinet`, `12`): the route (lower-cased, its suffix dropped) and the number. Linear: segments
 * without a slash, the last one numbered.
 */
const JOOMLA_SEF = /^(\/[^/]+(?:\/[^/]+)*)\/(\d+)(?:-[^/]+)?$/;
/** A list's feed in Joomla's SEF URLs: the router reads a last extension as `format` (`.feed?type=rss|atom`). */
const JOOMLA_FEED = /\.feed$/;
/** A numbered segment of a Joomla SEF path (`6-vie-du-cabinet`, `31`): its number, the first `-` ending it. */
const JOOMLA_NUMBERED = /^(\d+)(?:-|$)/;

/**
 * The category paths of a Joomla site, from its URLs (its crawl; a map's keys): a numbered segment followed, further
 * down the same path, by another numbered one is a category, the last numbered segment the article
 * (`/actualites/6-vie-du-cabinet/31-ouverture.html`: article 31 of category 6, whose own blog page is
 * `/actualites/6-vie-du-cabinet.html`; Joomla 1.5's section blog, 3's categories shown in a blog). Each as its route
 * and its number (`/actualites/6`), what oldUrlForm reads a SEF page of that number under that route as: category 6,
 * never the article 6 of another menu item (`/le-cabinet/equipe/6-dr-thomas-dupont.html`). One pass over each path.
 */
export function joomlaCategoryPaths(urls: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const url of urls) {
    const q = url.search(/[?#]/);
    const decoded = decode(q === -1 ? url : url.slice(0, q));
    if (decoded === null) continue;
    const clean = commonPath(folded(decoded).toLowerCase().replace(/^\/index\.php(?=\/|$)/, "").replace(LANGUAGE_PREFIX, "") || "/");
    if (/^\/component\//.test(clean)) continue;
    const segments = clean.split("/").slice(1);
    // From the end: a numbered segment with a numbered one after it; the first segment is a menu item's alias.
    let after = false;
    for (let i = segments.length - 1; i >= 1; i--) {
      const numbered = JOOMLA_NUMBERED.exec(segments[i]);
      if (!numbered) continue;
      if (after) out.add(`/${segments.slice(0, i).join("/")}/${Number(numbered[1])}`);
      after = true;
    }
  }
  return out;
}
