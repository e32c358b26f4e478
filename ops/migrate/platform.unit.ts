import { describe, expect, it } from "vitest";
import { detectPlatform, isItemUrl } from "./platform";
import type { CrawlEntry } from "./files";

/** A crawled page with only what detection reads: its URLs, its links, its images. */
const entry = (url: string, links: string[] = [], images: string[] = []) =>
  ({ url, final_url: url, links, images: images.map((src) => ({ src, alt: null })) }) as unknown as CrawlEntry;

describe("detectPlatform: the old site's platform from what the crawl saw", () => {
  it("recognises TYPO3 by its folders and its query parameters", () => {
    const site = [
      entry("http://a.fr/fr/", ["http://a.fr/fileadmin/user_upload/tarifs.pdf", "http://a.fr/index.php?id=12&L=0&cHash=ab12"], ["http://a.fr/typo3temp/assets/x.png"]),
      entry("http://a.fr/fr/actualites/", ["http://a.fr/index.php?id=32&tx_news_pi1%5Bnews%5D=8"]),
    ];
    expect(detectPlatform(site).platform).toBe("typo3");
  });

  it("recognises WordPress by its folders, not by a `p` parameter alone (a hand-made PHP site's news pages, `&p=2`)", () => {
    const wordpress = [entry("http://a.fr/", ["http://a.fr/?p=12", "http://a.fr/?page_id=3"], ["http://a.fr/wp-content/uploads/2019/05/cabinet.jpg"])];
    expect(detectPlatform(wordpress).platform).toBe("wordpress");
    // Plain permalinks linking only `?p=` still load the theme from /wp-content/ or the scripts from /wp-includes/.
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/?p=12", "http://a.fr/?cat=3", "http://a.fr/wp-includes/js/jquery/jquery.min.js"])]).platform).toBe("wordpress");
    const handMade = [
      entry("http://a.fr/index.php?rub=actus", ["http://a.fr/index.php?rub=actus&p=2", "http://a.fr/index.php?rub=actus&p=3", "http://a.fr/index.php?page=soins&id=3"]),
    ];
    expect(detectPlatform(handMade).platform).toBe("static");
  });

  it("recognises Blogger by its label pages, its feed and its image hosts; a post or a page is one item, an archive none", () => {
    const site = [
      entry("http://a.fr/", ["http://a.fr/search/label/Implants", "http://a.fr/feeds/posts/default", "http://a.fr/2019/05/gencives.html"], ["https://blogger.googleusercontent.com/img/b/R29v/x.jpg"]),
    ];
    expect(detectPlatform(site).platform).toBe("blogger");
    expect(isItemUrl("blogger", "/2019/05/gencives-qui-saignent.html")).toBe(true);
    expect(isItemUrl("blogger", "/2019/05/gencives-qui-saignent.html?m=1")).toBe(true);
    expect(isItemUrl("blogger", "/p/le-cabinet.html")).toBe(true);
    expect(isItemUrl("blogger", "/2019/05/")).toBe(false);
    expect(isItemUrl("blogger", "/search/label/Implants")).toBe(false);
    // One link to a blogspot address is no Blogger site.
    expect(detectPlatform([entry("http://a.fr/", ["https://ami.blogspot.com/"])]).platform).toBe("static");
  });

  it("recognises Ghost by its uploads' folders and its scripts; none of its URLs is an item by its shape", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/tag/conseils/", "http://a.fr/content/files/2021/09/questionnaire.pdf"], ["http://a.fr/content/images/size/w600/2022/01/cabinet.jpg"])];
    expect(detectPlatform(site).platform).toBe("ghost");
    expect(isItemUrl("ghost", "/gencives-qui-saignent/")).toBe(false);
  });

  it("recognises Hugo by its default taxonomies' terms and its feeds (not WordPress's singular tag and category)", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/tags/implants/", "http://a.fr/categories/conseils/", "http://a.fr/soins/implants/"]), entry("http://a.fr/actualites/", ["http://a.fr/actualites/index.xml"])];
    expect(detectPlatform(site).platform).toBe("hugo");
    expect(isItemUrl("hugo", "/soins/implants/")).toBe(false);
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/tag/implants/", "http://a.fr/category/conseils/"])]).platform).not.toBe("hugo");
    // One taxonomy's link is no Hugo site, nor are tags alone (Jekyll's archives, Hexo) or categories alone (a
    // WordPress whose category base is "categories").
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/tags/implants/"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/tags/implants/", "http://a.fr/tags/gencives/", "http://a.fr/tags/enfants/"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/categories/soins/", "http://a.fr/categories/news/", "http://a.fr/tag/x/"])]).platform).not.toBe("hugo");
  });

  it("recognises CM4all (IONOS MyWebsite) by its uploads' and images' scripts; one of them is no such site", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/.cm4all/uproc.php/0/Documents/tarifs.pdf?cdp=a&_=17"], ["http://a.fr/.cm4all/iproc.php/facade.jpg/downsize_1280_0/facade.jpg"])];
    expect(detectPlatform(site).platform).toBe("cm4all");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/.cm4all/uproc.php/0/Documents/tarifs.pdf"])]).platform).toBe("static");
  });

  it("recognises Concrete CMS by its files' folders, its download routes and its page ids, not by /index.php/ alone", () => {
    const site = [
      entry("http://a.fr/", ["http://a.fr/index.php/le-cabinet", "http://a.fr/index.php?cID=157", "http://a.fr/download_file/view/23/157"], ["http://a.fr/application/files/2715/0418/6639/facade.jpg"]),
      entry("http://a.fr/le-cabinet", ["http://a.fr/index.php/soins", "http://a.fr/index.php/contact"]),
    ];
    expect(detectPlatform(site).platform).toBe("concrete");
    expect(isItemUrl("concrete", "/index.php?cID=157")).toBe(false);
  });

  it("recognises Dotclear by its queries that are paths; a post is one item, a static page or a tag none", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/index.php?post/2019/05/14/Les-implants", "http://a.fr/index.php?tag/implant", "http://a.fr/index.php?pages/Le-cabinet"])];
    expect(detectPlatform(site).platform).toBe("dotclear");
    expect(isItemUrl("dotclear", "/index.php?post/2019/05/14/Les-implants")).toBe(true);
    expect(isItemUrl("dotclear", "/index.php/post/2019/05/14/Les-implants")).toBe(true);
    expect(isItemUrl("dotclear", "/index.php?pages/Le-cabinet")).toBe(false);
    expect(isItemUrl("dotclear", "/index.php?tag/implant")).toBe(false);
  });

  it("recognises PluXml by its numbered objects in its queries, its feeds' script and its files' folder", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/index.php?article12/les-implants", "http://a.fr/index.php?static3/honoraires", "http://a.fr/feed.php?rss"], ["http://a.fr/data/medias/images/facade.jpg"])];
    expect(detectPlatform(site).platform).toBe("pluxml");
    expect(isItemUrl("pluxml", "/index.php?article12/les-implants")).toBe(true);
    expect(isItemUrl("pluxml", "/article12/les-implants")).toBe(true);
    expect(isItemUrl("pluxml", "/index.php?static3/honoraires")).toBe(false);
    expect(isItemUrl("pluxml", "/index.php?categorie2/conseils")).toBe(false);
  });

  it("recognises Odoo by its attachments' and images' routes and its blogs named by ids; a post is one item, a blog none", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/blog/conseils-2/mes-gencives-8", "http://a.fr/web/content/58/questionnaire.pdf"], ["http://a.fr/web/image/website/1/logo"])];
    expect(detectPlatform(site).platform).toBe("odoo");
    expect(isItemUrl("odoo", "/blog/conseils-2/mes-gencives-8")).toBe(true);
    expect(isItemUrl("odoo", "/blog/conseils-2")).toBe(false);
    expect(isItemUrl("odoo", "/blog/conseils-2/page/2")).toBe(false);
    // Blogs whose slugs end with a year, campaign ids named `cid`: no Odoo, no Concrete.
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/fermeture-ete-2019/", "http://a.fr/blog/conges-noel-2019/", "http://a.fr/blog/voeux-2020/"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/?cid=12", "http://a.fr/soins/?cid=14", "http://a.fr/tarifs/?cid=15"])]).platform).toBe("static");
  });

  it("recognises Grav by its pages' files, its themes and its image cache, with its colon parameters; not by those alone", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/blog/tag:implants", "http://a.fr/user/pages/04.soins/devis.pdf"], ["http://a.fr/images/a/b/c/0123abcd.jpg"])];
    expect(detectPlatform(site).platform).toBe("grav");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/tag:implants", "http://a.fr/blog/tag:gencives"])]).platform).toBe("static");
  });

  it("recognises SiteW by its pages named by a code with its uploads or its static host; not by such names alone", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/Le_cabinet.B.htm", "http://a.fr/fs/Root/ab12c-plaquette.pdf"], ["https://static.sitew.com/img/logo.png"])];
    expect(detectPlatform(site).platform).toBe("sitew");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/Le_cabinet.B.htm", "http://a.fr/Contact.C.htm"])]).platform).toBe("static");
  });

  it("recognises Webador by its CDN with its numbered posts; DotNetNuke by its folders or document links with its tabs; neither by numbered posts or tabs alone", () => {
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/2988175_implant-ou-bridge"], ["https://primary.jwwb.nl/public/q/m/d/photo.jpg"])]).platform).toBe("webador");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/2988175_implant-ou-bridge", "http://a.fr/blog/2988176_gencives"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/Soins/tabid/59/Default.aspx", "http://a.fr/LinkClick.aspx?fileticket=x&tabid=60"], ["http://a.fr/Portals/0/logo.png"])]).platform).toBe("dnn");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/Soins/tabid/59/Default.aspx", "http://a.fr/Default.aspx?tabid=60"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/f/nouveau---l-empreinte-optique"], ["https://img1.wsimg.com/isteam/ip/abc/photo.jpg"])]).platform).toBe("godaddy");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/blog/f/un-article", "http://a.fr/blog/f/un-autre"])]).platform).toBe("static");
    expect(isItemUrl("godaddy", "/blog/f/nouveau---l-empreinte-optique?blogcategory=Vie+du+cabinet")).toBe(true);
    expect(isItemUrl("webador", "/blog/2988175_implant-ou-bridge")).toBe(true);
    expect(isItemUrl("dnn", "/Conseils/tabid/78/ArticleId/7/Default.aspx")).toBe(true);
    expect(isItemUrl("dnn", "/Soins/tabid/59/Default.aspx")).toBe(false);
  });

  it("recognises Craft CMS by its image transforms' folders, its panel's resources or a preview's link, not by `?p=<path>` alone", () => {
    const transform = "http://a.fr/uploads/_800x600_crop_center-center_82_line/facade.jpg";
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/index.php?p=infos-pratiques"], [transform, "http://a.fr/uploads/_400x300_crop_center-center_82_line/facade.jpg"])]).platform).toBe("craft");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/soins?x-craft-preview=Qk3m&token=h8Yd", "http://a.fr/cpresources/a1b2/css/x.css"])]).platform).toBe("craft");
    // A practice's "Nos actions" section is no Craft controller (the outside review's case): `/actions/` alone is not Craft's own mark.
    const actions = ["http://a.fr/actions/prevention-bucco-dentaire", "http://a.fr/actions/depistage-ecoles", "http://a.fr/index.php?p=contact"];
    expect(detectPlatform([entry("http://a.fr/", actions)]).platform).toBe("static");
    // A hand-made PHP site routing its pages by `?p=` (`/index.php?p=contact`), with a folder no transform names.
    const handMade = [entry("http://a.fr/", ["http://a.fr/index.php?p=contact", "http://a.fr/?p=soins", "http://a.fr/index.php?p=tarifs"], ["http://a.fr/uploads/_thumbs/facade.jpg"])];
    expect(detectPlatform(handMade).platform).toBe("static");
    // WordPress's `?p=12` names a post by a number: no Craft URI.
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/?p=12", "http://a.fr/?p=14"], ["http://a.fr/wp-content/uploads/x.jpg"])]).platform).toBe("wordpress");
    expect(isItemUrl("craft", "/actualites/gencives")).toBe(false);
  });

  it("recognises Contao by its resized images, its listings' pagination, its readers and its download links; not by an `assets/images/` folder alone", () => {
    const contao = [
      entry("http://a.fr/actualites.html", ["http://a.fr/actualites.html?page_n12=2", "http://a.fr/infos-pratiques/honoraires.html?file=files/documents/tarifs.pdf"], ["http://a.fr/assets/images/3/facade-3b8e1f42.jpg"]),
    ];
    expect(detectPlatform(contao).platform).toBe("contao");
    // MODX's and hand-made sites' own `assets/images/` folders (no hash in the name), a `?file=` of another folder.
    const other = [entry("http://a.fr/", ["http://a.fr/telecharger.php?file=tarifs.pdf", "http://a.fr/actualites.html?page=2"], ["http://a.fr/assets/images/a/facade.jpg", "http://a.fr/assets/images/cabinet/salle.jpg"])];
    expect(detectPlatform(other).platform).toBe("static");
    expect(isItemUrl("contao", "/actualites.html?auto_item=bienvenue")).toBe(true);
    expect(isItemUrl("contao", "/actualites.html?page_n12=2")).toBe(false);
  });

  it("recognises SPIP by its spip.php queries, its html URLs and its folders", () => {
    const site = [entry("http://a.fr/", ["http://a.fr/spip.php?page=plan", "http://a.fr/IMG/pdf/tarifs.pdf"]), entry("http://a.fr/Les-implants", ["http://a.fr/article12.html"], ["http://a.fr/local/cache-vignettes/L150xH100/x.jpg"])];
    expect(detectPlatform(site).platform).toBe("spip");
    expect(isItemUrl("spip", "/spip.php?article12")).toBe(true);
    expect(isItemUrl("spip", "/spip.php?page=article&id_article=12")).toBe(true);
    expect(isItemUrl("spip", "/spip.php?rubrique3")).toBe(false);
  });

  it("keeps the others apart: one stray mark is not a platform, WordPress stays WordPress", () => {
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/fileadmin/x.pdf"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/?page_id=2", "http://a.fr/wp-content/uploads/x.pdf"])]).platform).toBe("wordpress");
  });

  it("a TYPO3 news item is one item, never a listing", () => {
    expect(isItemUrl("typo3", "/index.php?id=32&tx_news_pi1%5Bnews%5D=8&cHash=1")).toBe(true);
    expect(isItemUrl("typo3", "/fr/actualites/")).toBe(false);
  });
});

describe("detectPlatform: a Notion workspace published as a site (Super, notion.site)", () => {
  const id = "2843b47841ec550fc8b9da70b299de17";
  const spr = "https://images.spr.so/cdn-cgi/imagedelivery/Qm7vT2xLk9NpR4wEhs3cYd/6b43ce55-d0b1-fe66-984f-371fea55946b/cabinet.jpg/w=1920";

  it("recognises it by pages named by a Notion id (linked, or printed as a page's own) beside a Notion publisher's host", () => {
    const linked = [entry("http://a.fr/", [`http://a.fr/${id}`, "http://a.fr/Questionnaire-c4a19e7b2d5f4c8a9e1b3d6f7a2c5e80", "http://a.fr/honoraires"], [spr])];
    expect(detectPlatform(linked).platform).toBe("notion");
    // Every page reached by its pretty URL: the ids its markup prints as its own (page.ts's own_urls).
    const printed = [
      { ...entry("http://a.fr/honoraires", [], [spr]), own_urls: [`http://a.fr/${id}`] },
      { ...entry("http://a.fr/contact"), own_urls: ["http://a.fr/c4a19e7b2d5f4c8a9e1b3d6f7a2c5e80"] },
    ] as CrawlEntry[];
    expect(detectPlatform(printed).platform).toBe("notion");
    expect(isItemUrl("notion", `/${id}`)).toBe(false);
  });

  it("needs both kinds: 32-hex paths alone (another tool's share links) or one embedded Notion image are no Notion site", () => {
    expect(detectPlatform([entry("http://a.fr/", [`http://a.fr/${id}`, "http://a.fr/share/c4a19e7b2d5f4c8a9e1b3d6f7a2c5e80"])]).platform).toBe("static");
    expect(detectPlatform([entry("http://a.fr/", ["http://a.fr/soins"], [spr, "https://images.spr.so/x/y.jpg"])]).platform).toBe("static");
    // A hash in a file's name is no page's id.
    expect(detectPlatform([entry("http://a.fr/", [`http://a.fr/static/${id}.css`, `http://a.fr/static/app-${id}.js`], [spr])]).platform).toBe("static");
  });
});
