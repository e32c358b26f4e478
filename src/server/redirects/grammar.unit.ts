import { describe, expect, it } from "vitest";
import { answerRequest, findRedirect, parseRedirects, PLATFORM_KEY, type RedirectTable } from "./map";
import { joomlaCategoryPaths, notionId, oldUrlForm, type Platform } from "./grammar";

const FILE = "migrations/x/redirects.json";
const table = (json: Record<string, string | null>): RedirectTable => {
  const { map, errors } = parseRedirects(json, FILE);
  expect(errors).toEqual([]);
  return new Map([["x", map]]);
};

describe("an old site's URL grammar: every spelling of one page has one form", () => {
  const same: [Platform, string, string[]][] = [
    ["wordpress", "/?page_id=12", ["/?p=12", "/index.php?page_id=12", "/?page_id=12&amp;utm_source=x", "/?lang=fr&page_id=12", "/?page_id=12&replytocom=3", "/fr/?p=12"]],
    ["wordpress", "/2019/05/gencives/", ["/index.php/2019/05/gencives", "/2019/05/Gencives/?amp", "/fr/2019/05/gencives/", "/2019/05/14/gencives/", "/gencives", "/?name=gencives", "/2019/05/14/gencives/amp/", "/gencives/amp"]],
    [
      "joomla",
      "/index.php?option=com_content&view=article&id=12&Itemid=101",
      [
        "/index.php?view=article&amp;id=12:le-cabinet&amp;option=com_content",
        "/?option=com_content&id=12&view=article&lang=fr",
        "/index.php?option=com_content&view=article&id=12:le-cabinet&catid=3&Itemid=7&tmpl=component&print=1",
        "/index.php/component/content/article/12-le-cabinet?Itemid=101",
        "/component/content/article/3-cabinet/12-le-cabinet.html",
        "/fr/actualites/12-le-cabinet",
      ],
    ],
    ["joomla", "/index.php/le-cabinet", ["/le-cabinet", "/Le-Cabinet.html", "/fr/le-cabinet/", "/index.php/fr/le-cabinet", "/le-cabinet?Itemid=107", "/index.php/le-cabinet?Itemid=7&amp;utm_source=x"]],
    ["drupal", "/node/12", ["/?q=node/12", "/index.php?q=node/12", "/?q=fr/node/12/", "/fr/node/12", "/Node/12/", "/node/12?_format=html"]],
    ["drupal", "/", ["/?_format=html"]],
    ["wordpress", "/le-cabinet/equipements/", ["/?pagename=le-cabinet/equipements", "/index.php?pagename=le-cabinet%2Fequipements&utm_source=x", "/?pagename=/le-cabinet/equipements/"]],
    ["wix", "/blank-1", ["/blank-1?lang=fr", "/Blank-1?lightbox=x", "/blank-1/"]],
    ["squarespace", "/blog/gencives", ["/blog/gencives?format=amp", "/fr/blog/gencives/"]],
    ["typo3", "/index.php?id=25", ["/?id=25", "/index.php?id=25&L=0", "/index.php?L=1&amp;id=25&cHash=28843b0d", "/index.php?id=25&type=98&no_cache=1", "/fr/?id=25&utm_source=x"]],
    [
      "typo3",
      "/index.php?id=32&tx_news_pi1[news]=8&tx_news_pi1[controller]=News&tx_news_pi1[action]=detail",
      ["/index.php?id=40&tx_news_pi1%5Bnews%5D=8&tx_news_pi1%5Baction%5D=detail&cHash=e44d", "/?tx_news_pi1[news]=8"],
    ],
    ["typo3", "/fr/cabinet/equipe/", ["/cabinet/equipe", "/index.php/fr/cabinet/equipe.html", "/Fr/Cabinet/Equipe/?L=0"]],
    [
      "spip",
      "/spip.php?article12",
      [
        "/article12.html",
        "/spip.php?page=article&id_article=12",
        "/spip.php?id_article=12&amp;page=article",
        "/spip.php?article12&lang=fr&var_mode=calcul",
        "/spip.php?page=imprimer&id_article=12",
        "/spip.php?action=redirect&type=article&id=12&status=301",
        // The other parameters of any spelling (a search's highlight, the article's rubrique), SPIP 1.x, leading zeros.
        "/article12.html?var_recherche=implant",
        "/spip.php?page=article&id_article=12&var_recherche=implant",
        "/spip.php?page=article&id_article=12&id_rubrique=3",
        "/spip.php?article12&id_rubrique=3",
        "/article.php3?id_article=12",
        "/article012.html",
        "/spip.php?action=redirect&type=article&id=012",
        // SPIP's "ping": a number alone on the root, as its .htaccess rewrites it.
        "/12",
        "/12?utm_source=sms",
      ],
    ],
    ["blogger", "/2019/05/gencives-qui-saignent.html", ["/2019/05/gencives-qui-saignent.html?m=1", "/2019/05/gencives-qui-saignent.html?m=0&utm_source=facebook", "/2019/05/gencives-qui-saignent.html?showComment=1474625392000#c123"]],
    ["blogger", "/p/le-cabinet.html", ["/p/le-cabinet.html?m=1", "/p/le-cabinet.html?fbclid=x"]],
    ["ghost", "/gencives-qui-saignent/", ["/gencives-qui-saignent/amp/", "/Gencives-Qui-Saignent", "/gencives-qui-saignent/?ref=doctolib", "/gencives-qui-saignent/?sujet=x&utm_source=y"]],
    ["spip", "/spip.php?rubrique3", ["/rubrique3.html", "/spip.php?page=rubrique&id_rubrique=3", "/rubrique.php3?id_rubrique=3"]],
    ["spip", "/spip.php?rubrique3&debut_articles=10", ["/spip.php?page=rubrique&id_rubrique=3&debut_articles=10", "/rubrique3.html?debut_articles=10"]],
    ["spip", "/", ["/spip.php", "/spip.php?page=sommaire", "/spip.php?lang=fr"]],
    ["spip", "/-Implantologie-", ["/-Implantologie-.html", "/-implantologie-/"]],
    ["static", "/soins/implants.html", ["/Soins/Implants.HTM", "/soins/implants/", "/soins/implants.html?utm_source=x", "/soins/implants.php?PHPSESSID=3f9a1c0e", "/soins/implants?authuser=0"]],
    ["static", "/actualites.php?id=14", ["/actualites.php?id=14&PHPSESSID=3f9a1c0e", "/actualites.php?jsessionid=A1B2&id=14"]],
    // A servlet's session in the path, on any platform and in any case.
    ["static", "/cabinet-petit/contact.html", ["/cabinet-petit/contact.html;jsessionid=8F2C61A0D4E3", "/Cabinet-Petit/Contact.html;JSESSIONID=x?utm_source=y"]],
    ["joomla", "/index.php?option=com_content&view=article&id=12", ["/index.php;jsessionid=1F?option=com_content&view=article&id=12"]],
    // A file's query is a cache buster or a token: the same document, on every platform.
    ["static", "/app/download/93/tarifs.pdf?t=1600876543", ["/app/download/93/tarifs.pdf", "/app/download/93/Tarifs.PDF?t=1", "/app/download/93/tarifs.pdf?ver=2&utm_source=x"]],
    ["wordpress", "/wp-content/uploads/2019/05/questionnaire.pdf", ["/wp-content/uploads/2019/05/questionnaire.pdf?ver=5.2"]],
  ];
  it.each(same)("%s: %s", (platform, key, spellings) => {
    const form = oldUrlForm(key, platform)!.form;
    for (const spelling of spellings) expect(oldUrlForm(spelling, platform)?.form, spelling).toBe(form);
  });

  it("different pages stay different", () => {
    // SPIP: one id in another object's space is another object; another `page` is another document.
    expect(oldUrlForm("/spip.php?article12", "spip")!.form).not.toBe(oldUrlForm("/spip.php?rubrique12", "spip")!.form);
    expect(oldUrlForm("/spip.php?article12", "spip")!.form).not.toBe(oldUrlForm("/spip.php?article13", "spip")!.form);
    // Not the ping's: a leading zero, a folder, a number in a path, a number on another platform.
    for (const other of ["/012", "/12/", "/2019/12", "/-12-"]) expect(oldUrlForm(other, "spip")!.form, other).not.toBe(oldUrlForm("/spip.php?article12", "spip")!.form);
    expect(oldUrlForm("/12", "wordpress")!.form).not.toBe(oldUrlForm("/?p=12", "wordpress")!.form);
    expect(oldUrlForm("/spip.php?page=plan", "spip")!.form).not.toBe(oldUrlForm("/spip.php?page=backend", "spip")!.form);
    expect(oldUrlForm("/spip.php?rubrique3&debut_articles=10", "spip")!.form).not.toBe(oldUrlForm("/spip.php?rubrique3", "spip")!.form);
    expect(oldUrlForm("/?p=12", "wordpress")!.form).not.toBe(oldUrlForm("/?p=13", "wordpress")!.form);
    expect(oldUrlForm("/?option=com_content&view=article&id=12", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=12", "joomla")!.form);
    expect(oldUrlForm("/?option=com_content&view=category&id=8&start=5", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=8", "joomla")!.form);
    // A print view in the default layout is the page; a category's blog layout is another listing.
    expect(oldUrlForm("/index.php/le-cabinet/acces?tmpl=component&print=1&layout=default", "joomla")!.form).toBe(oldUrlForm("/index.php/le-cabinet/acces", "joomla")!.form);
    expect(oldUrlForm("/?option=com_content&view=category&id=8&layout=blog", "joomla")!.form).not.toBe(oldUrlForm("/?option=com_content&view=category&id=8", "joomla")!.form);
    // A page named "amp" is a page: only a final `/amp/` after a page's path is its AMP view.
    expect(oldUrlForm("/amp/", "wordpress")!.form).toBe("/amp");
    expect(oldUrlForm("/gencives/amp/", "static")!.form).toBe("/gencives/amp");
    // TYPO3: another `type` (a sitemap, a feed) is another document than the page; the print view is the page.
    expect(oldUrlForm("/?id=1&type=1533906435", "typo3")!.form).not.toBe(oldUrlForm("/?id=1", "typo3")!.form);
    expect(oldUrlForm("/?id=12", "typo3")!.form).not.toBe(oldUrlForm("/?id=13", "typo3")!.form);
    // WordPress: another page's path is another page; Drupal: another format (a REST view) is another document.
    expect(oldUrlForm("/?pagename=le-cabinet/equipe", "wordpress")!.form).not.toBe(oldUrlForm("/?pagename=le-cabinet/equipements", "wordpress")!.form);
    expect(oldUrlForm("/?pagename=", "wordpress")!.form).not.toBe("/");
    expect(oldUrlForm("/node/12?_format=json", "drupal")!.form).not.toBe(oldUrlForm("/node/12", "drupal")!.form);
    expect(oldUrlForm("/?_format=hal_json", "drupal")!.form).not.toBe("/");
    // Only a file's query is dropped: a page script's parameters name its page.
    expect(oldUrlForm("/download.php?id=3", "static")!.form).not.toBe(oldUrlForm("/download.php?id=4", "static")!.form);
  });
});

describe("a map that declares its platform", () => {
  const joomla = table({
    [PLATFORM_KEY]: "joomla",
    "/index.php?option=com_content&view=article&id=12&Itemid=101": "/philosophie/",
    "/index.php/contact": "/contact/",
    "/actualites/conges-2019.html": null,
    "/contact": "/contact/",
  });

  it("answers every spelling of a mapped URL with one 301 to its target", () => {
    for (const url of ["/index.php?option=com_content&amp;view=article&amp;id=12:le-cabinet", "/?id=12&option=com_content&view=article&utm_source=x", "/index.php/component/content/article/12-le-cabinet"]) {
      expect(findRedirect(joomla, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    }
    expect(findRedirect(joomla, "x", "/Contact")).toBe("/contact/");
    // A menu item's Itemid on a page's own path: the path names the page (an Itemid alone names one on the home path).
    expect(findRedirect(joomla, "x", "/Contact?Itemid=107")?.split("?")[0]).toBe("/contact/");
    expect(findRedirect(joomla, "x", "/contact/")).toBeNull();
  });

  it("answers 404, never the page at its path, for every query-shaped old URL it does not know", () => {
    for (const url of ["/index.php?option=com_content&view=article&id=99", "/?option=com_content&view=featured", "/?id=12", "/?anything=1", "/index.php?Itemid=101&option=com_contact", "/index.php?Itemid=999", "/index.php/?Itemid=999", "/fr/?Itemid=999"]) {
      expect(answerRequest(joomla, "x", url), url).toEqual({ status: 404 });
    }
    // Tracking and language parameters only: the page itself (HubSpot's and Marketo's as well as Google's).
    expect(answerRequest(joomla, "x", "/?utm_source=x&lang=fr")).toBeNull();
    expect(answerRequest(joomla, "x", "/?hsLang=fr")).toBeNull();
    expect(answerRequest(joomla, "x", "/?__hstc=1.2.3&__hssc=4&__hsfp=5&_hsenc=p2ANqtz&_hsmi=9&mkt_tok=abc")).toBeNull();
    expect(findRedirect(joomla, "x", "/index.php?option=com_content&view=article&id=12&_hsenc=p2&hsLang=fr")?.split("?")[0]).toBe("/philosophie/");
  });

  it("answers 404 for a home query of any other parameter, on every platform: the CMSs' many page parameters are not all listed", () => {
    const maps = {
      wordpress: table({ [PLATFORM_KEY]: "wordpress", "/?p=12": "/philosophie/" }),
      joomla,
      typo3: table({ [PLATFORM_KEY]: "typo3", "/?id=12": "/philosophie/" }),
      drupal: table({ [PLATFORM_KEY]: "drupal", "/?q=node/12": "/philosophie/" }),
      static: table({ [PLATFORM_KEY]: "static", "/index.php?page=cabinet": "/philosophie/" }),
    };
    const unknown: [keyof typeof maps, string][] = [
      ["wordpress", "/?category_name=actualites"],
      ["wordpress", "/?page=2"],
      ["wordpress", "/?rest_route=/wp/v2/posts"],
      ["joomla", "/?start=10"],
      ["joomla", "/index.php?limitstart=5"],
      ["typo3", "/?tx_ttnews[tt_news]=12"],
      ["drupal", "/?page=1"],
      ["drupal", "/?q=contact"],
      ["drupal", "/?q=fr/actualites"],
      ["static", "/?rubrique=3"],
      ["static", "/index.php?page=inconnue"],
    ];
    for (const [platform, url] of unknown) expect(answerRequest(maps[platform], "x", url), `${platform} ${url}`).toEqual({ status: 404 });
  });

  it("answers one 404 for a dropped old URL and an old page suffix it does not know; the site's own paths are left alone", () => {
    expect(answerRequest(joomla, "x", "/actualites/conges-2019.html")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/Actualites/Conges-2019/")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/ancienne-page.html")).toEqual({ status: 404 });
    expect(answerRequest(joomla, "x", "/implantologie/")).toBeNull();
    expect(answerRequest(joomla, "x", "/")).toBeNull();
  });

  it("a map without a platform reads as before: no query rule", () => {
    const plain = table({ "/?page_id=2": "/philosophie/" });
    expect(answerRequest(plain, "x", "/?page_id=9")).toBeNull();
    expect(answerRequest(plain, "x", "/old.html")).toBeNull();
    expect(findRedirect(plain, "x", "/?page_id=2&amp;utm_source=x")).toBe("/philosophie/?utm_source=x");
  });

  it("refuses an unknown platform, a dropped home page, and a target spelled like a dropped URL", () => {
    const errors = (json: Record<string, string | null>) => parseRedirects(json, FILE).errors.map((e) => e.message);
    expect(errors({ [PLATFORM_KEY]: "magnolia" })).toEqual([expect.stringContaining("platform must be one of")]);
    expect(errors({ "/index.html": null })).toEqual(["the home page cannot be dropped (null)"]);
    // A spelling of the home page sent elsewhere would send the home page there.
    expect(errors({ [PLATFORM_KEY]: "wordpress", "/home/": "/equipe/" })).toEqual([expect.stringContaining("a spelling of the home page can only go to the home page")]);
    expect(errors({ [PLATFORM_KEY]: "wordpress", "/accueil.html": "/" })).toEqual([]);
    expect(errors({ "/a.html": "/b/", "/b.html": null })).toEqual([expect.stringContaining("would answer 404")]);
  });
});

describe("a TYPO3 site's map", () => {
  const typo3 = table({ [PLATFORM_KEY]: "typo3", "/fr/patients/honoraires/": "/tarifs/", "/index.php?id=25": "/tarifs/" });

  it("sends the page's uid in any spelling, and its speaking URL, to the target in one 301; language roots go home", () => {
    for (const url of ["/index.php?id=25", "/?L=0&id=25", "/index.php?type=98&id=25&utm_source=x", "/fr/patients/honoraires/?type=98"]) {
      expect(findRedirect(typo3, "x", url)?.split("?")[0], url).toBe("/tarifs/");
    }
    for (const url of ["/fr/", "/fr", "/en/", "/index.php"]) expect(answerRequest(typo3, "x", url), url).toEqual({ status: 301, location: "/" });
    expect(findRedirect(typo3, "x", "/en/?utm_source=gmb")).toBe("/?utm_source=gmb");
  });

  it("answers 404 for a uid, a news item or a file download it does not know, and for TYPO3's own folders", () => {
    for (const url of ["/index.php?id=999", "/?id=25&type=1533906435", "/index.php?tx_news_pi1[news]=77", "/index.php?eID=dumpFile&f=9", "/typo3conf/ext/site/x.css"]) {
      expect(answerRequest(typo3, "x", url), url).toEqual({ status: 404 });
    }
  });
});

describe("a Blogger site's map", () => {
  const blogger = table({ [PLATFORM_KEY]: "blogger", "/2019/05/gencives-qui-saignent.html": "/parodontologie/", "/p/le-cabinet.html": "/philosophie/" });

  it("sends a post or a page in its mobile view, with a comment's anchor or a campaign's parameters, to the target in one 301", () => {
    for (const url of ["/2019/05/gencives-qui-saignent.html?m=1", "/2019/05/gencives-qui-saignent.html?showComment=1474625392000", "/p/le-cabinet.html?m=0&utm_source=facebook"]) {
      expect(findRedirect(blogger, "x", url)?.split("?")[0], url).toMatch(/^\/(?:parodontologie|philosophie)\/$/);
    }
  });

  it("answers 404 for the platform's listings it does not know: labels, their pagination, feeds, archives", () => {
    for (const url of ["/search/label/Implants", "/search?updated-max=2016-06-27T17:00:00%2B02:00&max-results=7", "/feeds/posts/default?alt=rss", "/2019/", "/2019/05/", "/?m=1&q=x"]) {
      expect(answerRequest(blogger, "x", url), url).toEqual({ status: 404 });
    }
  });
});

describe("a Ghost site's map", () => {
  const ghost = table({ [PLATFORM_KEY]: "ghost", "/gencives-qui-saignent/": "/parodontologie/" });

  it("answers 404 for the platform's listings and folders it does not know: tags, authors, the feed's pages, uploads", () => {
    for (const url of ["/tag/implants/", "/author/sophie/", "/page/2/", "/rss/", "/content/files/2021/09/x.pdf", "/ghost/"]) {
      expect(answerRequest(ghost, "x", url), url).toEqual({ status: 404 });
    }
    expect(findRedirect(ghost, "x", "/gencives-qui-saignent/amp/?ref=x")?.split("?")[0]).toBe("/parodontologie/");
  });
});

describe("a Hugo site's map", () => {
  const hugo = table({ [PLATFORM_KEY]: "hugo", "/soins/implants/": "/implantologie/" });

  it("answers 404 for the generator's taxonomies, a list's further pages and its feeds it does not know", () => {
    for (const url of ["/tags/equipe/", "/categories/conseils/", "/tags/implants/page/2/", "/actualites/page/2/", "/index.xml", "/actualites/index.xml"]) {
      expect(answerRequest(hugo, "x", url), url).toEqual({ status: 404 });
    }
  });

  it("answers 404 for another CMS's query URL on the home path, a page's spelling or the home page's, never the home page", () => {
    for (const url of ["/?p=12", "/?page_id=3", "/index.php?id=3", "/index.php?option=com_content&id=3", "/?q=node/1"]) {
      expect(answerRequest(hugo, "x", url), url).toEqual({ status: 404 });
    }
    // Noise on the home page is the home page (Hugo's host ignored it).
    expect(answerRequest(hugo, "x", "/?ref=newsletter")).toBeNull();
    // Whatever spelling of the home page the map knows.
    const withHome = table({ [PLATFORM_KEY]: "hugo", "/accueil.html": "/", "/soins/implants/": "/implantologie/" });
    for (const url of ["/?p=12", "/accueil.html?p=12", "/index?q=node/1", "/index.php?id=3"]) expect(answerRequest(withHome, "x", url), url).toEqual({ status: 404 });
    // On a page's path, such a query is the visitor's: the page.
    expect(findRedirect(withHome, "x", "/soins/implants/?id=3")?.split("?")[0]).toBe("/implantologie/");
  });

  it("sends a page with any query (the static host ignored them) to the target in one 301", () => {
    for (const url of ["/soins/implants/?objet=rdv", "/soins/implants/index.html?utm_source=x&page=2", "/soins/implants"]) {
      expect(findRedirect(hugo, "x", url)?.split("?")[0], url).toBe("/implantologie/");
    }
  });
});

describe("a CM4all (IONOS MyWebsite) site's map", () => {
  const cm4all = table({ [PLATFORM_KEY]: "cm4all", "/nos-soins/implantologie/": "/implantologie/" });

  it("sends a page with any query (the builder reads none) to the target in one 301; its uploads it does not know answer 404", () => {
    for (const url of ["/nos-soins/implantologie/?sujet=x", "/nos-soins/Implantologie", "/nos-soins/implantologie/?utm_source=x&page=2"]) {
      expect(findRedirect(cm4all, "x", url)?.split("?")[0], url).toBe("/implantologie/");
    }
    expect(answerRequest(cm4all, "x", "/.cm4all/uproc.php/0/Documents/inconnu.pdf?cdp=a&_=1")).toEqual({ status: 404 });
  });
});

describe("a Concrete CMS site's map", () => {
  const concrete = table({ [PLATFORM_KEY]: "concrete", "/index.php?cID=152": "/philosophie/", "/download_file/view/88/160": "/tarifs/", "/soins/orthodontie": "/orthodontie/" });

  it("sends a page by its collection id on any path, a file by its id on any download route, a page before pretty URLs, in one 301", () => {
    for (const url of ["/?cID=152", "/index.php?cID=152&utm_source=x", "/index.php?cid=152", "/index.php?cID=0152"]) expect(findRedirect(concrete, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    for (const url of ["/download_file/view/88", "/download_file/view_inline/88", "/download_file/force/88/12", "/download_file/88"]) expect(findRedirect(concrete, "x", url)?.split("?")[0], url).toBe("/tarifs/");
    for (const url of ["/index.php/soins/orthodontie", "/Soins/Orthodontie/", "/soins/orthodontie?ccm_paging_p=1&utm_source=x"]) expect(findRedirect(concrete, "x", url)?.split("?")[0], url).not.toBeUndefined();
    expect(findRedirect(concrete, "x", "/index.php/soins/orthodontie")?.split("?")[0]).toBe("/orthodontie/");
  });

  it("answers 404 for a page id, a file or a folder of the platform it does not know", () => {
    expect(answerRequest(concrete, "x", "/index.php?cID=999")).toEqual({ status: 404 });
    expect(answerRequest(concrete, "x", "/?cID=999")).toEqual({ status: 404 });
    expect(answerRequest(concrete, "x", "/download_file/view/77/160")).toEqual({ status: 404 });
    expect(answerRequest(concrete, "x", "/application/files/1/2/3/x.pdf")).toEqual({ status: 404 });
  });
});

describe("a Dotclear site's map", () => {
  const dotclear = table({ [PLATFORM_KEY]: "dotclear", "/index.php?pages/Le-cabinet": "/philosophie/", "/index.php?post/2019/05/14/Les-implants": "/implantologie/", "/index.php?urgence": "/urgence-dentaire/" });

  it("reads a query that is a path as that path: the query-string and the path-info URLs of a page are one, in one 301", () => {
    for (const url of ["/index.php/pages/Le-cabinet", "/index.php?pages/Le-cabinet&utm_source=gmb", "/?pages/Le-cabinet"]) expect(findRedirect(dotclear, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    expect(findRedirect(dotclear, "x", "/index.php/post/2019/05/14/Les-implants")?.split("?")[0]).toBe("/implantologie/");
    // A plugin's own URL type (an alias) is a path like the others.
    expect(findRedirect(dotclear, "x", "/index.php/urgence")?.split("?")[0]).toBe("/urgence-dentaire/");
    expect(oldUrlForm("/index.php?post/2019/05/14/Les-implants&utm_medium=email", "dotclear")?.form).toBe("/post/2019/05/14/les-implants");
  });

  it("answers 404 for a query that is a path it does not know, never the home page", () => {
    for (const url of ["/index.php?post/2020/01/01/Inconnu", "/index.php?tag/implant", "/?pages/Inconnue", "/index.php?feed/atom"]) expect(answerRequest(dotclear, "x", url), url).toEqual({ status: 404 });
  });
});

describe("a PluXml site's map", () => {
  const pluxml = table({ [PLATFORM_KEY]: "pluxml", "/index.php?static2/notre-approche": "/philosophie/", "/index.php?article22/dentier-et-si-vous-passiez-au-fixe": "/implantologie/all-on-4/" });

  it("reads an object by its number, whatever its slug, its zeros or the URL's mode, in one 301", () => {
    for (const url of ["/index.php?static2", "/index.php?static002/notre-approche", "/static2/notre-approche", "/?static2/notre-approche", "/index.php?static2/notre-approche&utm_source=x", "/index.php?static2/Autre-Titre"]) {
      expect(findRedirect(pluxml, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    }
    expect(findRedirect(pluxml, "x", "/article0022/dentier")?.split("?")[0]).toBe("/implantologie/all-on-4/");
    // Another number is another object; a category's further page is no category.
    expect(findRedirect(pluxml, "x", "/index.php?static20/notre-approche")).toBeNull();
    expect(oldUrlForm("/index.php?categorie2/page2", "pluxml")?.form).not.toBe(oldUrlForm("/index.php?categorie2", "pluxml")?.form);
  });

  it("reads a long run of zeros in linear time (no backtracking a visitor can make last)", () => {
    const started = performance.now();
    for (const url of [`/article${"0".repeat(100_000)}x`, `/?article${"0".repeat(100_000)}x`, `/index.php?static${"0".repeat(100_000)}`]) oldUrlForm(url, "pluxml");
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("answers 404 for an object, a list or a feed of the platform it does not know, never the home page", () => {
    for (const url of ["/index.php?article99/inconnu", "/index.php?static7", "/index.php?tag/implant", "/index.php?categorie2/conseils/page2", "/index.php?categorie2/page2", "/feed.php?rss", "/index.php?page2", "/article77/x"]) {
      expect(answerRequest(pluxml, "x", url), url).toEqual({ status: 404 });
    }
  });
});

describe("an Odoo site's map", () => {
  const odoo = table({
    [PLATFORM_KEY]: "odoo",
    "/le-cabinet": "/philosophie/",
    "/blog/nos-conseils-2/mes-gencives-saignent-8": "/gencives-qui-saignent/",
    "/web/content/58/questionnaire-medical.pdf": "/premiere-visite/",
    "/jobs/detail/assistant-dentaire-4": "/recrutement/assistante-dentaire/",
  });

  it("reads a page by its path in any form, a post, a job or an attachment by its id, in one 301", () => {
    for (const url of ["/page/le-cabinet", "/fr/le-cabinet", "/fr_FR/le-cabinet/", "/le-cabinet?utm_source=x"]) expect(findRedirect(odoo, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    for (const url of ["/blog/nos-conseils-2/8", "/blog/2/8", "/blog/conseils-2/mes-gencives-saignent-8", "/fr/blog/nos-conseils-2/mes-gencives-saignent-8?fbclid=x"]) expect(findRedirect(odoo, "x", url)?.split("?")[0], url).toBe("/gencives-qui-saignent/");
    for (const url of ["/web/content/58", "/web/content/58?download=true", "/web/content/58/autre-nom.pdf"]) expect(findRedirect(odoo, "x", url)?.split("?")[0], url).toBe("/premiere-visite/");
    expect(findRedirect(odoo, "x", "/jobs/detail/4")?.split("?")[0]).toBe("/recrutement/assistante-dentaire/");
    // An attachment by its id, then a checksum, or by its query; a post of Odoo 12 (`/post/`).
    for (const url of ["/web/content/58-a1b2c3d/q.pdf", "/web/content/58-1234567", "/web/content?model=ir.attachment&id=58&field=datas"]) expect(findRedirect(odoo, "x", url)?.split("?")[0], url).toBe("/premiere-visite/");
    expect(findRedirect(odoo, "x", "/blog/notre-blog-2/post/mes-gencives-8")?.split("?")[0]).toBe("/gencives-qui-saignent/");
    expect(oldUrlForm("/blog/conseils-2", "odoo")?.form).toBe(oldUrlForm("/blog/2", "odoo")?.form);
  });

  it("answers 404 for a post, an attachment or a list of the platform it does not know", () => {
    for (const url of ["/blog/nos-conseils-2/inconnu-99", "/web/content/77", "/web/content?id=77", "/blog/nos-conseils-2/page/2", "/blog/nos-conseils-2/feed", "/blog/nos-conseils-2/tag/implant-3", "/blog/autre-9"]) {
      expect(answerRequest(odoo, "x", url), url).toEqual({ status: 404 });
    }
  });
});

describe("a Grav site's map", () => {
  const grav = table({ [PLATFORM_KEY]: "grav", "/soins/blanchiment": "/blanchiment/", "/blog/tag:implants/category:conseils": null });

  it("reads its colon parameters in any order, page:1 as the page itself, any query dropped, in one 301", () => {
    for (const url of ["/soins/blanchiment/page:1", "/soins/blanchiment/page:01", "/soins/blanchiment.html", "/soins/blanchiment/?utm_source=x", "/soins/blanchiment?usp=sharing&pli=1"]) expect(findRedirect(grav, "x", url)?.split("?")[0], url).toBe("/blanchiment/");
    expect(oldUrlForm("/blog/category:conseils/tag:implants", "grav")?.form).toBe(oldUrlForm("/blog/tag:implants/category:conseils", "grav")?.form);
  });

  it("answers 404 for a listing, a feed or a file of the platform it does not know", () => {
    for (const url of ["/blog/tag:inconnu", "/blog/page:3", "/blog.rss", "/user/pages/04.soins/x.pdf", "/images/a/b/c/0123.jpg"]) expect(answerRequest(grav, "x", url), url).toEqual({ status: 404 });
  });
});

describe("accents in an old URL", () => {
  it("are folded: a builder that keeps them in its slugs answers them without, in any case or escape", () => {
    const map = table({ "/l-%C3%A9quipe": "/equipe/", "/soins/d%C3%A9tartrage": "/parodontologie/" });
    for (const url of ["/l-equipe", "/L-%C3%89quipe/", "/l-équipe?utm_source=x", "/l-e%CC%81quipe"]) expect(findRedirect(map, "x", url)?.split("?")[0], url).toBe("/equipe/");
    expect(findRedirect(map, "x", "/soins/detartrage.html")?.split("?")[0]).toBe("/parodontologie/");
  });
});

describe("a SiteW site's map", () => {
  const sitew = table({ [PLATFORM_KEY]: "sitew", "/Honoraires_et_remboursements.E.htm": "/tarifs/", "/blog/rss.xml": null });

  it("reads a page by its code, whatever its name, case, hyphens, final slash or query, in one 301", () => {
    for (const url of ["/Tarifs.E.htm", "/honoraires-et-remboursements.E.htm/", "/HONORAIRES_ET_REMBOURSEMENTS.E.htm?utm_source=x&fbclid=y"]) {
      expect(findRedirect(sitew, "x", url)?.split("?")[0], url).toBe("/tarifs/");
    }
    expect(oldUrlForm("/Le_cabinet.B.htm", "sitew")?.form).not.toBe(oldUrlForm("/Le_cabinet.BE.htm", "sitew")?.form);
  });

  it("answers 404 for a page's code, an upload or a form of the platform it does not know", () => {
    for (const url of ["/Inconnue.ZZ.htm", "/fs/Root/abc12-plaquette.pdf", "/sw/form/send"]) expect(answerRequest(sitew, "x", url), url).toEqual({ status: 404 });
  });
});

describe("IIS's pages and home page, in the common rules", () => {
  it("reads `.aspx` and `.asp` as a suffix and `default` as the home page's name, for every platform", () => {
    for (const platform of [null, "dnn", "static", "wordpress"] as const) {
      expect(oldUrlForm("/Soins/Implants.aspx", platform)?.form, String(platform)).toBe(oldUrlForm("/soins/implants/", platform)?.form);
      expect(oldUrlForm("/Le-Cabinet.asp", platform)?.form, String(platform)).toBe("/le-cabinet");
      for (const home of ["/default.aspx", "/Default.asp", "/default.htm", "/index.aspx"]) expect(oldUrlForm(home, platform)?.form, `${platform} ${home}`).toBe("/");
    }
  });
});

describe("a GoDaddy builder site's map", () => {
  const godaddy = table({ [PLATFORM_KEY]: "godaddy", "/blog/f/nouveau---l-empreinte-optique": "/technologies/" });
  it("reads a post whatever list filter it was reached from, and answers 404 for its feed", () => {
    expect(findRedirect(godaddy, "x", "/blog/f/nouveau---l-empreinte-optique?blogcategory=Vie+du+cabinet")?.split("?")[0]).toBe("/technologies/");
    expect(answerRequest(godaddy, "x", "/blog/f.rss")).toEqual({ status: 404 });
  });
});

describe("a Webador site's map", () => {
  const webador = table({ [PLATFORM_KEY]: "webador", "/blog/2988175_implant-ou-bridge-que-choisir-2021": "/remplacer-une-dent/", "/soins": "/implantologie/" });

  it("reads a post by its number, whatever its slug (an old one, none), case, final slash or query, in one 301", () => {
    for (const url of ["/blog/2988175", "/blog/2988175_implant-ou-bridge", "/Blog/2988175_Implant-ou-bridge-que-choisir-2021/", "/blog/2988175_x?gclid=abc"]) {
      expect(findRedirect(webador, "x", url)?.split("?")[0], url).toBe("/remplacer-une-dent/");
    }
    expect(oldUrlForm("/blog/2988175_a", "webador")?.form).not.toBe(oldUrlForm("/blog/2988176_a", "webador")?.form);
    // A page's query is nobody's identity: the page.
    expect(findRedirect(webador, "x", "/soins?page=2")?.split("?")[0]).toBe("/implantologie/");
  });

  it("answers 404 for a post it does not know, and for the blog's listings", () => {
    for (const url of ["/blog/1111111_inconnu", "/blog/1111111", "/blog/tag/implants"]) expect(answerRequest(webador, "x", url), url).toEqual({ status: 404 });
  });
});

describe("a DotNetNuke site's map", () => {
  const dnn = table({
    [PLATFORM_KEY]: "dnn",
    "/Soins/Implants/tabid/59/language/fr-FR/Default.aspx": "/implantologie/",
    "/Actualites/tabid/60/ctl/Detail/mid/412/ItemId/9/Default.aspx": "/equipe/thomas-dupont/",
    "/Conseils/tabid/78/ArticleId/7/Default.aspx": "/implantologie/",
    "/LinkClick.aspx?fileticket=Lm4Tz9RbQ2c%3d&tabid=112&portalid=0": "/tarifs/",
    "/Default.aspx": "/",
  });

  it("reads a page by its tab, a module's item or article by its id, a document by its ticket, in one 301", () => {
    const cases: [string, string[]][] = [
      ["/implantologie/", ["/tabid/59/Default.aspx", "/Default.aspx?TabId=59&language=fr-FR", "/soins/implants/tabid/59/default.aspx", "/LinkClick.aspx?link=59&tabid=55&portalid=0&mid=392"]],
      ["/equipe/thomas-dupont/", ["/tabid/60/ctl/Detail/mid/412/ItemId/9/Default.aspx", "/Default.aspx?tabid=60&ctl=Detail&mid=412&ItemId=9", "/Actualites/tabid/60/ctl/Detail/mid/412/ItemId/9/Le-Dr-Thomas-Dupont.aspx"]],
      ["/implantologie/", ["/conseils/tabid/78/articleid/7/default.aspx", "/Default.aspx?TabId=78&ArticleId=7"]],
      ["/tarifs/", ["/LinkClick.aspx?fileticket=Lm4Tz9RbQ2c%3d&tabid=112&portalid=0&forcedownload=true", "/linkclick.aspx?fileticket=lm4tz9rbq2c%3d"]],
    ];
    for (const [target, urls] of cases) for (const url of urls) expect(findRedirect(dnn, "x", url)?.split("?")[0], url).toBe(target);
    // Every other parameter of the tab names another document: a blog's entries, a list's pages, another tab's item 9,
    // another module's article 7, a control of the tab (in the path or the query) are other URLs (the outside review's).
    const form = (url: string) => oldUrlForm(url, "dnn")?.form;
    const distinct = [
      "/Blog/tabid/57/EntryId/12/Implant-ou-bridge.aspx",
      "/Blog/tabid/57/EntryId/13/Gencives-qui-saignent.aspx",
      "/Blog/tabid/57/Default.aspx",
      "/Blog/tabid/57/Page/2/Default.aspx",
      "/Actualites/tabid/70/ItemId/9/Default.aspx",
      "/FAQ/tabid/80/ItemId/9/Default.aspx",
      "/Events/tabid/81/ModuleID/500/ItemID/9/Default.aspx",
      "/Events/tabid/81/ModuleID/501/ItemID/9/Default.aspx",
      "/Blog/tabid/80/ArticleId/7/Default.aspx",
      "/Conseils/tabid/78/ArticleId/7/Default.aspx",
      "/Conseils.aspx?ArticleId=7",
      "/tabid/59/ctl/Login/Default.aspx",
      "/Default.aspx?tabid=59&ctl=Login",
      "/tabid/59/Default.aspx",
    ].map(form);
    expect(new Set(distinct).size).toBe(distinct.length - 1); // the control in the path and in the query: one URL
    expect(form("/tabid/59/ctl/Login/Default.aspx")).toBe(form("/Default.aspx?tabid=59&ctl=Login"));
  });

  it("answers 404 for a tab, an item, a control, a document or a folder of the platform it does not know, never the home page", () => {
    for (const url of ["/tabid/99/Default.aspx", "/Default.aspx?tabid=99", "/Default.aspx?tabid=60&ctl=Detail&mid=412&ItemId=99", "/tabid/59/ctl/Login/Default.aspx", "/Soins/Implants/tabid/59/ctl/Register/Default.aspx?returnurl=%2f", "/LinkClick.aspx?fileticket=zzz", "/Portals/0/Documents/x.pdf", "/Login.aspx"]) {
      expect(answerRequest(dnn, "x", url), url).toEqual({ status: 404 });
    }
  });

  it("leaves the new site's own pages alone: a parameter DNN reads only beside others, a folder no DNN path", () => {
    for (const url of ["/implantologie/?link=newsletter", "/implantologie/?mid=2", "/resources/", "/mid/"]) {
      expect(answerRequest(dnn, "x", url), url).not.toEqual({ status: 404 });
    }
  });
});

describe("a query that is a path, or Concrete's page id, on the home path of a platform that reads no query", () => {
  it("answers 404 (an old CMS's URL), while a campaign's `cid` is no page's id: the home page", () => {
    for (const platform of ["wix", "ghost", "hugo", "cm4all", "odoo"] as const) {
      const map = table({ [PLATFORM_KEY]: platform, "/ancienne-page": "/philosophie/" });
      for (const url of ["/index.php?post/2019/05/14/slug", "/?article12/slug", "/?tag/x", "/index.php?static3"]) expect(answerRequest(map, "x", url), `${platform} ${url}`).toEqual({ status: 404 });
      expect(answerRequest(map, "x", "/?cid=summer"), platform).toBeNull();
    }
  });
});

describe("a referral's parameters", () => {
  it("are tracking on every platform: a directory's link to the home page reaches it, a page's keeps its 301", () => {
    for (const platform of ["static", "wordpress", "joomla", "hugo"] as const) {
      const map = table({ [PLATFORM_KEY]: platform, "/soins/implants.html": "/implantologie/" });
      for (const url of ["/?ref=annuaire", "/?src=gmb", "/?source=pagesjaunes&utm_medium=x", "/?from=doctolib"]) expect(answerRequest(map, "x", url), `${platform} ${url}`).toBeNull();
      expect(findRedirect(map, "x", "/soins/implants.html?ref=annuaire"), platform).toBe("/implantologie/?ref=annuaire");
      // Another unknown query on the home path stays an old CMS URL's 404 where the platform reads queries.
      if (platform !== "hugo") expect(answerRequest(map, "x", "/?foo=bar"), platform).toEqual({ status: 404 });
    }
  });
});

describe("the home page's names", () => {
  it("are the home page on a map that declares its platform: one 301 home, never a 404", () => {
    const site = table({ [PLATFORM_KEY]: "static", "/soins.html": "/implantologie/" });
    for (const url of ["/accueil.html", "/Accueil", "/home.html", "/index", "/accueil/"]) expect(answerRequest(site, "x", url), url).toEqual({ status: 301, location: "/" });
    // A page under a folder of that name is a page of its own.
    expect(answerRequest(site, "x", "/accueil/horaires.html")).not.toEqual({ status: 301, location: "/" });
  });
});

describe("a hand-made PHP site's ids", () => {
  const site = table({ [PLATFORM_KEY]: "static", "/index.php?page=soins&id=3": "/implantologie/", "/telecharger.php?doc=7": "/tarifs/" });

  it("are numbers, as PHP's intval() reads them: a zero before one names the same page or document, in one 301", () => {
    for (const url of ["/index.php?page=soins&id=03", "/?id=003&page=soins", "/index.php/?page=soins&id=03"]) expect(findRedirect(site, "x", url)?.split("?")[0], url).toBe("/implantologie/");
    expect(findRedirect(site, "x", "/telecharger.php?doc=07")).toBe("/tarifs/");
    expect(oldUrlForm("/index.php?page=soins&id=03", "static")?.form).toBe("/?id=3&page=soins");
  });

  it("keeps a number apart from another, a page's name, a zero alone and a number on a path that is no PHP script", () => {
    expect(findRedirect(site, "x", "/index.php?page=soins&id=30")).toBeNull();
    expect(oldUrlForm("/index.php?page=soins&id=0", "static")?.form).toBe("/?id=0&page=soins");
    expect(oldUrlForm("/index.php?page=0x3", "static")?.form).toBe("/?page=0x3");
    expect(oldUrlForm("/soins.html?id=03", "static")?.form).toBe("/soins?id=03");
    // (An ASP page's code is no PHP id: `code=0042` stays as written.)
    expect(oldUrlForm("/fiche.asp?code=0042", "static")?.form).toBe("/fiche?code=0042");
  });
});

describe("a Craft CMS site's map", () => {
  const craft = table({ [PLATFORM_KEY]: "craft", "/le-cabinet": "/philosophie/", "/soins/parodontologie": "/parodontologie/", "/actualites": null });

  it("reads Craft's routing parameter holding an entry's URI as that path, and a preview's link as the entry, in one 301", () => {
    for (const url of ["/index.php?p=le-cabinet", "/?p=le-cabinet", "/index.php?p=/le-cabinet/", "/?p=Le-Cabinet&utm_source=x", "/le-cabinet?token=h8Yd2K&x-craft-preview=Qk3m", "/le-cabinet/?x-craft-live-preview=Rw8L"]) {
      expect(findRedirect(craft, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    }
    expect(findRedirect(craft, "x", "/index.php?p=soins/parodontologie/")?.split("?")[0]).toBe("/parodontologie/");
    expect(oldUrlForm("/index.php?p=soins/parodontologie", "craft")?.form).toBe("/soins/parodontologie");
    // A slug that kept its accents (Craft limits slugs to ASCII only when told to) is its path's, folded as a path is.
    expect(oldUrlForm("/?p=soins/d%C3%A9tartrage", "craft")?.form).toBe(oldUrlForm("/soins/détartrage", "craft")?.form);
  });

  it("answers 404 for a URI, a number, a listing's further page or a folder of the platform it does not know, never the home page", () => {
    for (const url of ["/index.php?p=nope", "/?p=soins/implants", "/?p=12", "/index.php?p=12", "/actualites/p9", "/index.php?p=actualites/p7", "/cpresources/x.css", "/actions/users/login"]) {
      expect(answerRequest(craft, "x", url), url).toEqual({ status: 404 });
    }
    // A number is no URI a section's format makes: it stays a query (Craft would look for the entry at `/12`).
    expect(oldUrlForm("/?p=12", "craft")?.form).toBe("/?p=12");
    // `p` on another path is read as a URI on the front controller only (the root, `/index.php`, where the rewrite sends
    // it): elsewhere it stays a query, an old CMS query the map does not know (404), never the page at its path.
    expect(oldUrlForm("/le-cabinet?p=equipe", "craft")?.form).toBe("/le-cabinet?p=equipe");
    expect(answerRequest(craft, "x", "/le-cabinet?p=equipe")).toEqual({ status: 404 });
  });

  it("leaves WordPress's `?p=12` in its own grammar, and a map that declares no platform to the common rules", () => {
    expect(oldUrlForm("/?p=le-cabinet", "wordpress")?.form).not.toBe("/le-cabinet");
    expect(oldUrlForm("/index.php?p=12", "wordpress")?.form).toBe("/?p=12");
    // A static site's script routing by `p` is a front controller's (the generic rule below).
    expect(oldUrlForm("/?p=contact", "static")).toMatchObject({ form: "/contact", cmsQuery: true });
    expect(oldUrlForm("/?p=contact", null)?.form).toBe("/?p=contact");
    // A preview's parameters are Craft's: elsewhere `token` may name a document (a download link).
    expect(oldUrlForm("/telecharger.php?token=ab12", "static")?.form).toBe("/telecharger?token=ab12");
  });
});

describe("a Contao site's map", () => {
  const contao = table({
    [PLATFORM_KEY]: "contao",
    "/le-cabinet.html": "/philosophie/",
    "/actualites/bienvenue-au-dr-nadia-haddad.html": "/equipe/nadia-haddad/",
    "/questions-frequentes/le-blanchiment-abime-t-il-les-dents.html": "/blanchiment/",
    "/infos-pratiques/honoraires.html?file=files/documents/tarifs-2019.pdf": "/tarifs/",
    "/actualites.html": null,
    "/actualites.html?page_n12=2": null,
  });

  it("reads the front controller in the path and a reader's `auto_item` as the item's own URL, in one 301", () => {
    for (const url of ["/index.php/le-cabinet.html", "/Le-Cabinet.html", "/index.php/le-cabinet.html?fbclid=x"]) expect(findRedirect(contao, "x", url)?.split("?")[0], url).toBe("/philosophie/");
    for (const url of ["/actualites.html?auto_item=bienvenue-au-dr-nadia-haddad", "/index.php/actualites/bienvenue-au-dr-nadia-haddad.html", "/index.php/actualites.html?auto_item=Bienvenue-au-Dr-Nadia-Haddad"]) {
      expect(findRedirect(contao, "x", url)?.split("?")[0], url).toBe("/equipe/nadia-haddad/");
    }
    expect(findRedirect(contao, "x", "/questions-frequentes.html?auto_item=le-blanchiment-abime-t-il-les-dents")?.split("?")[0]).toBe("/blanchiment/");
    expect(findRedirect(contao, "x", "/index.php/infos-pratiques/honoraires.html?file=files/documents/tarifs-2019.pdf")?.split("?")[0]).toBe("/tarifs/");
    expect(oldUrlForm("/actualites.html?auto_item=x", "contao")?.form).toBe(oldUrlForm("/actualites/x.html", "contao")?.form);
    expect(oldUrlForm("/actualites.html?auto_item=r%C3%A9ouverture", "contao")?.form).toBe(oldUrlForm("/actualites/réouverture.html", "contao")?.form);
  });

  it("answers 404 for an item, a listing's page or a folder of the platform it does not know, never the home page or the listing's", () => {
    for (const url of ["/actualites.html?auto_item=portes-ouvertes-2024", "/actualites.html?page_n12=9", "/actualites.html?page_n12=0", "/actualites/implant-ou-bridge-2024.html", "/assets/images/a/x.jpg", "/system/modules/x"]) {
      expect(answerRequest(contao, "x", url), url).toEqual({ status: 404 });
    }
    // A listing's further page is another page of it, not its first.
    expect(oldUrlForm("/actualites.html?page_n12=2", "contao")?.form).not.toBe(oldUrlForm("/actualites.html", "contao")?.form);
    expect(oldUrlForm("/actualites.html?page_n12=2", "contao")?.cmsQuery).toBe(true);
  });

  it("keeps `auto_item` and `page_n` Contao's: another platform's page keeps its query, an empty or a path-like item no item", () => {
    expect(oldUrlForm("/actualites.html?auto_item=x", "static")?.form).toBe("/actualites?auto_item=x");
    expect(oldUrlForm("/actualites.html?page_n12=2", "static")?.cmsQuery).toBe(false);
    expect(oldUrlForm("/actualites.html?auto_item=", "contao")?.path).toBe("/actualites");
    expect(oldUrlForm("/actualites.html?auto_item=a/b", "contao")?.path).toBe("/actualites");
    // A page's other query (a form's subject) leaves the page: the page's 301.
    expect(findRedirect(contao, "x", "/le-cabinet.html?objet=rendez-vous")?.split("?")[0]).toBe("/philosophie/");
  });
});

describe("every platform's front controller: a query that is a path names the page at that path", () => {
  // Written after three blind sites of platforms the toolkit did not know (ExpressionEngine, ProcessWire, SilverStripe),
  // each taken for a static site: their spellings through the front controller answered 404.
  it.each([
    ["/index.php?it=soins/implants/", "/soins/implants"], // ProcessWire, rewrites off
    ["/?it=/le-cabinet/equipe/", "/le-cabinet/equipe"],
    ["/index.php?url=/honoraires/", "/honoraires"], // SilverStripe 3
    ["/index.php?url=/soins/implantologie/&stage=Live", "/soins/implantologie"], // its published stage is the page
    ["/index.php?/le-centre", "/le-centre"], // ExpressionEngine, CodeIgniter
    ["/index.php?/actualites/article/implant-ou-bridge&utm_source=x", "/actualites/article/implant-ou-bridge"],
    ["/index.php/soins/implants-dentaires/", "/soins/implants-dentaires"], // PATHINFO, on a static site too
    ["/?it=/%C3%A9quipe/", "/equipe"],
  ])("%s is %s, a CMS query (404 when the map does not know it)", (url, form) => {
    expect(oldUrlForm(url, "static")).toMatchObject({ form, path: form, cmsQuery: url.includes("?") });
  });

  it("reads nothing else so: an id, a second parameter, a parameter the platform reads as its own, a page that is no front controller, a map with no platform", () => {
    expect(oldUrlForm("/?p=12", "static")?.form).toBe("/?p=12"); // no letter: an id
    expect(oldUrlForm("/?url=/le-cabinet/&page=2", "static")?.form).toBe("/?page=2&url=/le-cabinet/");
    expect(oldUrlForm("/soins/?it=implants", "static")?.form).toBe("/soins?it=implants"); // not the front controller
    expect(oldUrlForm("/search?q=implants", "blogger")?.path).toBe("/search"); // Blogger's `q` is a search
    expect(oldUrlForm("/?q=node/12", "drupal")?.form).toBe("/node/12"); // Drupal's own grammar
    expect(oldUrlForm("/?s=implant", "static")?.form).toBe("/?s=implant"); // a search parameter
    // A search's words, a referral's tag, a shop's controller: no page's path (the outside review's findings).
    expect(oldUrlForm("/?q=implants", "static")?.form).toBe("/?q=implants");
    expect(oldUrlForm("/?r=implants", "static")?.form).toBe("/?r=implants");
    expect(oldUrlForm("/index.php?route=information/contact", "static")?.form).toBe("/?route=information/contact");
    expect(oldUrlForm("/?it=/le-cabinet/", null)?.form).toBe("/?it=/le-cabinet/");
    expect(oldUrlForm("/contact/?stage=Stage", "static")?.form).toBe("/contact?stage=stage"); // the draft stage: another view
    expect(oldUrlForm("/contact/?stage=Live", "static")?.form).toBe("/contact");
  });
});

describe("the front controller's spellings on the server (map.ts), after an outside review", () => {
  it("answers an old home page spelled through the front controller as the map says, not 404", () => {
    const home = table({ [PLATFORM_KEY]: "static", "/index.php?p=accueil": "/", "/index.php?url=/home/": "/" });
    expect(oldUrlForm("/index.php?p=accueil", "static")).toMatchObject({ form: "/", cmsQuery: false });
    expect(answerRequest(home, "x", "/index.php?p=accueil")).toEqual({ status: 301, location: "/" });
    expect(answerRequest(home, "x", "/index.php?url=/home/")).toEqual({ status: 301, location: "/" });
  });

  it("answers an unknown routed page 404 at once, whatever spelling of the front controller carries it", () => {
    const map = table({ [PLATFORM_KEY]: "static", "/soins/implants.html": "/implantologie/" });
    for (const url of ["/?url=/inconnu", "/index.php/?url=/inconnu", "/index.php?it=inconnu/", "/index.php?/inconnu"]) {
      expect(answerRequest(map, "x", url), url).toEqual({ status: 404 });
    }
    // A known one: its target, in one 301.
    expect(answerRequest(map, "x", "/index.php?it=soins/implants/")).toEqual({ status: 301, location: "/implantologie/" });
    // The new site's own pages are not the map's.
    expect(answerRequest(map, "x", "/implantologie/")).toBeNull();
    expect(answerRequest(map, "x", "/?q=implants")).toEqual({ status: 404 });
  });
});


describe("a WordPress site's front and query vars", () => {
  it("knows its archives under the permalink structure's front (`/blog/%postname%/`): an unknown one answers one 404", () => {
    for (const path of ["/blog/tag/equipe/", "/blog/author/centre-martin/", "/blog/category/actualites/", "/tag/equipe/", "/author/x"]) {
      expect(oldUrlForm(path, "wordpress")?.cmsPath, path).toBe(true);
    }
    for (const path of ["/blog/implant-ou-bridge/", "/blog/tagada/", "/soins/authorise/", "/blog/"]) expect(oldUrlForm(path, "wordpress")?.cmsPath, path).toBe(false);
    const wordpress = table({ [PLATFORM_KEY]: "wordpress", "/blog/implant-ou-bridge/": "/remplacer-une-dent/" });
    expect(answerRequest(wordpress, "x", "/blog/author/agence-nautilus/")).toEqual({ status: 404 });
    expect(answerRequest(wordpress, "x", "/blog/tag/orthodontie/")).toEqual({ status: 404 });
    expect(answerRequest(wordpress, "x", "/blog/nouveau-billet/")).toBeNull();
  });

  it("takes `category`, `tag`, `author` for an archive only first or after one front segment, and followed by the archive's slug (review 110, 5)", () => {
    // A bare base is a page's path to WordPress (its rules are `tag/([^/]+)/?$`...), two segments deep is no front.
    for (const path of ["/equipe/author", "/soins/category", "/tag", "/author/", "/articles/blog/tag/x", "/conseils/prevention/category/x/", "/a/b/author/x"]) {
      expect(oldUrlForm(path, "wordpress")?.cmsPath, path).toBe(false);
    }
    const wordpress = table({ [PLATFORM_KEY]: "wordpress", "/blog/implant-ou-bridge/": "/remplacer-une-dent/" });
    for (const url of ["/equipe/author", "/soins/category/", "/conseils/prevention/category/x/"]) expect(answerRequest(wordpress, "x", url), url).toBeNull();
  });

  it("loads a map sending to a page of the new site spelled like an archive, and leaves that page to the site (review 110, 5)", () => {
    const { errors } = parseRedirects({ [PLATFORM_KEY]: "wordpress", "/conseils-prevention/": "/conseils/category/prevention/", "/le-cabinet/equipe/": "/equipe/author/" }, FILE);
    expect(errors).toEqual([]);
    const wordpress = table({ [PLATFORM_KEY]: "wordpress", "/conseils-prevention/": "/conseils/category/prevention/" });
    expect(answerRequest(wordpress, "x", "/conseils/category/prevention/")).toBeNull();
    // Another archive under that front is still the old platform's.
    expect(answerRequest(wordpress, "x", "/conseils/category/hygiene/")).toEqual({ status: 404 });
  });

  it("reads the one query var on the front controller from the form's own parse, its name as sent (frontVar)", () => {
    const frontVar = (url: string) => oldUrlForm(url, "wordpress")?.frontVar;
    expect(frontVar("/?name=implant-ou-bridge-que-choisir")).toEqual({ name: "name", value: "implant-ou-bridge-que-choisir" });
    expect(frontVar("/?soin=Implants-Dentaires")).toEqual({ name: "soin", value: "implants-dentaires" });
    expect(frontVar("/?Soin=implants-dentaires")).toEqual({ name: "Soin", value: "implants-dentaires" });
    expect(frontVar("/?membre=dr-amelie-perrin&fbclid=IwAR0pQz&utm_source=x")).toEqual({ name: "membre", value: "dr-amelie-perrin" });
    expect(frontVar("/fr/?soin=r%C3%A9paration")).toEqual({ name: "soin", value: "reparation" });
    expect(frontVar("/index.php/?membre=dr-julien-martin&replytocom=3")).toEqual({ name: "membre", value: "dr-julien-martin" });
    // Two vars, another path, no query, only ignored parameters, another platform, a long query: none.
    for (const url of ["/?soin=a&membre=b", "/soins/?soin=implants", "/", "/?utm_source=x", `/?${Array.from({ length: 50 }, (_, i) => `v${i}=1`).join("&")}`]) expect(frontVar(url), url).toBeUndefined();
    expect(oldUrlForm("/?soin=implants", "drupal")?.frontVar).toBeUndefined();
  });
});

describe("Notion's page ids: a page published from Notion (Super, notion.site) by its id, in every spelling", () => {
  const id = "2843b47841ec550fc8b9da70b299de17";
  const form = (url: string) => oldUrlForm(url, "notion")?.form;

  it("reads the 32 hex digits, the dashed UUID, Notion's `Title-words-<id>`, in any case, with a final slash, as one id", () => {
    for (const spelling of [`/${id}`, `/${id.toUpperCase()}`, "/2843b478-41ec-550f-c8b9-da70b299de17", `/Infos-pratiques-${id}`, `/Horaires-et-acces-${id}/`, "/Infos-2843B478-41EC-550F-C8B9-DA70B299DE17", `/${id}?pvs=4`, `/Infos-pratiques-${id}?v=08323bd5a8c388eb0abc17ad3c709647&utm_source=x`]) {
      expect(form(spelling), spelling).toBe(`/${id}`);
    }
    // The id in the last segment only, its folder kept (a Notion id is the page's, the folder the publisher's path).
    expect(form(`/blog/Un-titre-${id}`)).toBe(`/blog/${id}`);
  });

  it("leaves a pretty URL as it is, and any other hex as it is (a 31- or 33-digit run, a number glued to words, a file)", () => {
    expect(form("/infos-pratiques?pvs=4")).toBe("/infos-pratiques");
    expect(form("/soins/orthodontie-enfant")).toBe("/soins/orthodontie-enfant");
    expect(form(`/${id.slice(1)}`)).toBe(`/${id.slice(1)}`);
    expect(form(`/a${id}`)).toBe(`/a${id}`);
    expect(form(`/Infos${id}`)).toBe(`/infos${id}`);
    expect(form(`/${id}.pdf`)).toBe(`/${id}.pdf`);
    // (No language prefix dropped: a pretty URL is any path its owner typed.)
    expect(form("/en/soins")).toBe("/en/soins");
    // Other platforms do not read a Notion id.
    expect(oldUrlForm(`/Infos-pratiques-${id}`, "static")?.form).toBe(`/infos-pratiques-${id}`);
  });

  it("answers every spelling of a mapped id with the map's one 301, and an id it does not know with one 404, never the home page", () => {
    const map = table({ [PLATFORM_KEY]: "notion", [`/${id}`]: "/acces/", "/infos-pratiques": "/acces/", "/soins/detartrage": null });
    for (const spelling of ["/2843B478-41EC-550F-C8B9-DA70B299DE17", `/Infos-pratiques-${id}?pvs=4`, `/${id}/`, "/infos-pratiques?v=1"]) {
      expect(answerRequest(map, "x", spelling), spelling).toEqual({ status: 301, location: "/acces/" });
    }
    for (const unknown of ["/0b7e2c1d9f8a4e3b8c6d5a4f3e2d1c0b", "/Blanchiment-dentaire-5d41c8e2a7b94f06b3e1d2c9a8f70e65?pvs=4", "/5d41c8e2-a7b9-4f06-b3e1-d2c9a8f70e65"]) {
      expect(answerRequest(map, "x", unknown), unknown).toEqual({ status: 404 });
    }
    // A pretty URL the map does not know is the new site's to answer, as on any platform.
    expect(answerRequest(map, "x", "/blog")).toBeNull();
  });

  it("reads any segment a visitor sends in linear time", () => {
    const long = `/${"a-".repeat(50_000)}${"f".repeat(31)}`;
    const started = performance.now();
    expect(form(long)).toBe(long.toLowerCase());
    expect(notionId(`${"-".repeat(100_000)}${id}`)).toBe(id);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("Joomla's categories in SEF URLs: a numbered segment with numbered children is a category, the last one the article", () => {
  const crawled = [
    "/actualites/6-vie-du-cabinet/31-ouverture-de-notre-site-internet.html",
    "/index.php/actualites/7-conseils/35-dent-cassee-que-faire.html?utm_source=x",
    "/le-cabinet/equipe/6-dr-thomas-dupont.html",
    "/le-cabinet/equipements/1-presentation/9-hygiene-et-sterilisation.html",
    "/component/content/article/3-cat/12-alias",
  ];
  const categories = joomlaCategoryPaths(crawled);

  it("reads the categories from the URLs: route and number, not the article's own, nor `/component/`'s", () => {
    expect([...categories].sort()).toEqual(["/actualites/6", "/actualites/7", "/le-cabinet/equipements/1"]);
    // A single numbered segment says nothing; a malformed escape is skipped.
    expect([...joomlaCategoryPaths(["/le-cabinet/equipe/6-dr-thomas-dupont.html", "/a/%E0%A4%A/1-x/2-y"])]).toEqual([]);
  });

  it("a category's blog page keeps its identity: never the article with the same number, in any spelling", () => {
    const category = oldUrlForm("/actualites/6-vie-du-cabinet.html", "joomla", categories)!.form;
    const article6 = oldUrlForm("/le-cabinet/equipe/6-dr-thomas-dupont.html", "joomla", categories)!.form;
    expect(category).not.toBe(article6);
    expect(article6).toBe(oldUrlForm("/index.php?option=com_content&view=article&id=6", "joomla")!.form);
    expect(category).toBe(oldUrlForm("/index.php?option=com_content&view=category&id=6", "joomla")!.form);
    for (const spelling of ["/actualites/6-vie-du-cabinet", "/index.php/actualites/6-Vie-du-cabinet.html", "/actualites/6", "/actualites/6-x/"]) {
      expect(oldUrlForm(spelling, "joomla", categories)!.form, spelling).toBe(category);
    }
    // Its articles are theirs; without the crawl's categories the old reading stands (a map that names none).
    expect(oldUrlForm("/actualites/6-vie-du-cabinet/31-x.html", "joomla", categories)!.form).toBe(oldUrlForm("/?option=com_content&view=article&id=31", "joomla")!.form);
    expect(oldUrlForm("/actualites/6-vie-du-cabinet.html", "joomla")!.form).toBe(article6);
  });

  it("a list's feed is no page, nor the article of its number: a path only the platform makes", () => {
    for (const feed of ["/actualites/6-vie-du-cabinet.feed?type=rss", "/actualites/7-conseils.feed?type=atom", "/actualites.feed?type=rss"]) {
      const form = oldUrlForm(feed, "joomla", categories)!;
      expect(form.form, feed).not.toContain("view=");
      expect(form.cmsPath, feed).toBe(true);
    }
  });
});
