import { describe, expect, it } from "vitest";
import { MAX_ELEMENTS, MAX_IMAGES, MAX_LINKS, MAX_PARSE_CHARS, MAX_SITEMAP_LOCS, MAX_TEXT_CHARS, MAX_URL_CHARS, readPage, readSitemap, refreshTarget } from "./page";

const html = `<!DOCTYPE html><html><head><title> Le  cabinet </title>
<meta name="description" content="Présentation du cabinet."><meta name="ROBOTS" content="noindex, follow"></head>
<body><header><img src="/logo.png" alt="Logo"><nav><a href="/menu.html">Menu</a> Accueil Soins</nav></header>
<main><h1>Notre cabinet</h1><p>Premier paragraphe.</p><p>Deuxième <b>paragraphe</b>, l'équipe.</p>
<img src="/images/facade.jpg" alt="Façade"><img src="photo.png"><img src="filet.svg" alt="">
<a href="soins.html#haut">Soins</a> <a href="https://ailleurs.example/x">Ailleurs</a> <a href="mailto:a@b.fr">Écrire</a>
<script>var tracking = 1;</script><form><input name="q"> Rechercher</form></main>
<footer>Mentions légales <a href="/mentions.html">Mentions</a></footer></body></html>`;

describe("readPage", () => {
  const page = readPage(html, "http://www.cabinet-dupont.fr/dossier/page.html");

  it("names a WordPress page's or post's id of its body classes as its own URL, without linking to it", () => {
    const wp = (classes: string) => readPage(`<html><body class="${classes}"><h1>Le cabinet</h1></body></html>`, "http://www.cabinet.fr/le-cabinet/");
    expect(wp("page-template-default page page-id-12").own_urls).toEqual(["http://www.cabinet.fr/?page_id=12"]);
    expect(wp("post-template-default single single-post postid-34").own_urls).toEqual(["http://www.cabinet.fr/?p=34"]);
    expect(wp("page-id-12").links).toEqual([]);
    // Another theme's class that only looks alike names nothing.
    expect(wp("home page-id-x my-postid-3").own_urls).toEqual([]);
    expect(page.own_urls).toEqual([]);
  });

  it("names a WordPress single post's type of its body classes (the query var WordPress registers for it), not a page's nor a format's", () => {
    const wp = (classes: string) => readPage(`<html><body class="${classes}"><h1>Implants</h1></body></html>`, "http://www.cabinet.fr/soins/implants/").post_type;
    expect(wp("soin-template-default single single-soin postid-45 et_pb_pagebuilder_layout")).toBe("soin");
    expect(wp("post-template-default single single-post postid-34 single-format-standard")).toBe("post");
    expect(wp("single-format-standard single single-membre postid-9")).toBe("membre");
    // A page, or a class alike without the post's id: none.
    expect(wp("page-template-default page page-id-12")).toBe("");
    expect(wp("single single-soin")).toBe("");
  });

  it("reads the date a page states it was published: its metadata, else the <time datetime> beside its headline, none elsewhere", () => {
    const at = (head: string, body: string) => readPage(`<html><head>${head}</head><body>${body}</body></html>`, "http://www.cabinet.fr/blog/post").published;
    expect(at('<meta property="article:published_time" content="2024-03-04T09:00:00+01:00">', '<time datetime="2020-01-01">1er janvier</time>')).toBe("2024-03-04");
    expect(at("", '<dd><time datetime="2026-06-22T09:00:00+02:00" itemprop="datePublished">22 juin 2026</time></dd>')).toBe("2026-06-22");
    expect(at('<meta itemprop="datePublished" content="2021-05-17">', "")).toBe("2021-05-17");
    expect(at('<script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2019-02-11T08:00:00Z"}</script>', "<h1>x</h1>")).toBe("2019-02-11");
    // Beside the headline: in its header, in its article.
    expect(at("", '<article><header><time datetime="2026-09-28">28 septembre</time><h1>On recrute</h1></header><p>Texte</p></article>')).toBe("2026-09-28");
    expect(at("", '<article><div class="meta"><time datetime="2018-09-10">10/09/2018</time></div><div><h1>On recrute</h1></div></article>')).toBe("2018-09-10");
    // Not a sidebar's latest posts, a header's date of the day, a comment's: elsewhere than the post.
    const page = (time: string) => `<header><time datetime="2026-11-27">Aujourd'hui</time></header><aside><time datetime="2025-11-03">x</time></aside><main><section><div><article><h1>On recrute</h1><p>2018</p></article></div></section><ol class="comments"><li><time datetime="2024-02-01">y</time></li></ol>${time}</main>`;
    expect(at("", page(""))).toBe("");
    // A <time> saying the date in words only: its year.
    expect(at("", '<article><h1>Nous recrutons</h1><small><time>sept. 1, 2026</time></small></article>')).toBe("2026");
    // No date, or a value that is none.
    expect(at("", "<h1>x</h1><p>Publié le 4 mars 2024</p>")).toBe("");
    expect(at("", '<h1>x</h1><time datetime="14:30">14 h 30</time>')).toBe("");
  });

  it("names a TYPO3 page's uid of its body id as its own URL, on a page TYPO3 generated only", () => {
    const typo3 = (generator: string, id: string) =>
      readPage(`<html><head><meta name="generator" content="${generator}"></head><body id="${id}"><h1>Honoraires</h1></body></html>`, "http://www.cabinet.fr/fr/patients/honoraires/");
    expect(typo3("TYPO3 CMS", "p25").own_urls).toEqual(["http://www.cabinet.fr/index.php?id=25"]);
    expect(typo3("WordPress 6.4", "p25").own_urls).toEqual([]);
    expect(typo3("TYPO3 CMS", "page").own_urls).toEqual([]);
  });

  it("names a DotNetNuke page's tab of its ServicesFramework variables as its own URL, never a module item's nor a control's", () => {
    const dnn = (generator: string, url: string, extra = "") =>
      readPage(
        `<html><head><meta id="MetaGenerator" name="GENERATOR" content="${generator}" /></head><body id="Body"><form id="Form">${extra}<h1>Implants</h1>` +
          '<input name="__dnnVariable" type="hidden" id="__dnnVariable" value="`{`__scdoff`:`1`,`sf_siteRoot`:`/`,`sf_tabId`:`59`}" /></form></body></html>',
        url,
      ).own_urls;
    expect(dnn("DotNetNuke ", "http://www.cabinet.fr/Soins/Implants.aspx")).toEqual(["http://www.cabinet.fr/Default.aspx?TabId=59"]);
    expect(dnn("DNN Platform", "http://www.cabinet.fr/Soins/Implants.aspx")).toEqual(["http://www.cabinet.fr/Default.aspx?TabId=59"]);
    // Another tool, a module's item on the tab (the list's page is the tab), a control shown instead of the tab's content.
    expect(dnn("WordPress 6.4", "http://www.cabinet.fr/Soins/Implants.aspx")).toEqual([]);
    expect(dnn("DotNetNuke ", "http://www.cabinet.fr/Actualites/tabid/59/ctl/Detail/mid/412/ItemId/9/Default.aspx")).toEqual([]);
    expect(dnn("DotNetNuke ", "http://www.cabinet.fr/Default.aspx?TabId=59&ArticleId=7")).toEqual([]);
    expect(dnn("DotNetNuke ", "http://www.cabinet.fr/terms.aspx", '<div id="dnn_ctr_Terms_lblTerms" class="Normal">x</div>')).toEqual([]);
  });

  it("names an Umbraco node's id of its body's classes as its own URLs, on a page that names Umbraco's folders only", () => {
    const umbraco = (classes: string, marks: string) =>
      readPage(`<html><head></head><body class="${classes}"><h1>Parodontologie</h1>${marks}</body></html>`, "http://www.cabinet.fr/soins/parodontologie/").own_urls;
    const marked = '<a href="/umbraco/" rel="nofollow">Administration</a>';
    expect(umbraco("doctype-page node-1070", marked)).toEqual(["http://www.cabinet.fr/1070.aspx", "http://www.cabinet.fr/?umbPageId=1070"]);
    expect(umbraco("doctype-page node-1070", '<img src="/media/1015/facade.jpg">')).toHaveLength(2);
    // No Umbraco folder named: another tool's class; no number: no node.
    expect(umbraco("doctype-page node-1070", '<a href="/contact/">Contact</a>')).toEqual([]);
    expect(umbraco("node-type-page", marked)).toEqual([]);
  });

  it("names a MODX resource's id of its body's classes as its own URL, on a page that names MODX's asset folders only", () => {
    const modx = (classes: string, css: string) =>
      readPage(`<html><head><base href="http://www.cabinet.fr/"><link rel="stylesheet" href="${css}"></head><body class="${classes}"><h1>Implants</h1></body></html>`, "http://www.cabinet.fr/soins/implantologie.html").own_urls;
    expect(modx("page-18", "assets/templates/cabinet/css/style.css")).toEqual(["http://www.cabinet.fr/index.php?id=18"]);
    expect(modx("page-18", "/assets/components/x/style.css")).toEqual(["http://www.cabinet.fr/index.php?id=18"]);
    // Another tool's folders; WordPress's page classes (`page-id-12`, `page-template-x`) are no resource's.
    expect(modx("page-18", "/wp-content/themes/x/style.css")).toEqual([]);
    expect(modx("page-template-default page-id-12", "assets/templates/cabinet/css/style.css")).toEqual(["http://www.cabinet.fr/?page_id=12"]);
  });

  it("names the Joomla home page's menu item of its body's classes as its own URL, on the home page only", () => {
    const joomla = (url: string, generator = "Joomla! - Open Source Content Management") =>
      readPage(`<html><head><meta name="generator" content="${generator}"></head><body class="site com_content view-featured no-layout no-task itemid-101"><h1>Accueil</h1></body></html>`, url).own_urls;
    expect(joomla("http://www.cabinet.fr/")).toEqual(["http://www.cabinet.fr/index.php?Itemid=101"]);
    expect(joomla("http://www.cabinet.fr/index.php")).toEqual(["http://www.cabinet.fr/index.php?Itemid=101"]);
    // Another page's menu item may show many articles (a blog's posts share their list's); another tool's classes.
    expect(joomla("http://www.cabinet.fr/index.php/actualites/12-horaires")).toEqual([]);
    expect(joomla("http://www.cabinet.fr/index.php?option=com_content&view=article&id=12")).toEqual([]);
    expect(joomla("http://www.cabinet.fr/", "WordPress 6.4")).toEqual([]);
  });

  it("names a Solocal news post's number alone as its own URL, on a post of a page its generator names", () => {
    const solocal = (url: string, generator = "Solocal Site Internet") =>
      readPage(`<html><head><meta name="generator" content="${generator}"></head><body><h1>Bienvenue</h1></body></html>`, url).own_urls;
    expect(solocal("http://www.cabinet.fr/actualites/1086-bienvenue-au-dr-hugo-lambert.html")).toEqual(["http://www.cabinet.fr/actualites/1086.html"]);
    expect(solocal("http://www.cabinet.fr/nos-soins/implantologie.html")).toEqual([]);
    expect(solocal("http://www.cabinet.fr/actualites/1086-bienvenue.html", "Joomla! - Open Source Content Management")).toEqual([]);
  });

  it("names a SPIP object's id of its title's classes as its own URL, on a page SPIP generated only", () => {
    const spip = (generator: string, classes: string) =>
      readPage(`<html><head><meta name="generator" content="${generator}"></head><body><h1 class="${classes}">Les implants</h1></body></html>`, "http://www.cabinet.fr/Les-implants");
    expect(spip("SPIP 3.2.11 [24473]", "crayon article-titre-5 titre").own_urls).toEqual(["http://www.cabinet.fr/spip.php?article5"]);
    expect(spip("SPIP 4.1", "crayon auteur-nom-2 titre").own_urls).toEqual(["http://www.cabinet.fr/spip.php?auteur2"]);
    expect(spip("WordPress 6.4", "crayon article-titre-5 titre").own_urls).toEqual([]);
    expect(spip("SPIP 3.2.11", "crayon meta-valeur-nom_site").own_urls).toEqual([]);
  });

  it("names a Concrete CMS page's collection id of its head's script as its own URL", () => {
    const concrete = (script: string) => readPage(`<html><head><script>var CCM_DISPATCHER_FILENAME = "/index.php";${script}</script></head><body><h1>Le cabinet</h1></body></html>`, "http://www.cabinet.fr/le-cabinet");
    expect(concrete("var CCM_CID = 152;").own_urls).toEqual(["http://www.cabinet.fr/index.php?cID=152"]);
    expect(concrete("var CCM_CID = x;").own_urls).toEqual([]);
  });

  it("reads the numbers its markup names it by, as candidates of its id: a data-…id attribute, a hidden …id field, the body's, main's or an article's <word>-<number>; none where a place names several", () => {
    const printed = (body: string) => readPage(`<html><body class="t-body page-id-12 col-4">${body}</body></html>`, "http://www.cabinet.fr/le-centre").printed_ids;
    expect(
      printed(
        '<div id="allrecords" data-tilda-page-id="3901342" data-tilda-project-id="1184263" data-tilda-page-alias="le-centre"></div><article class="soin" id="soin-021"><h1>Implants</h1></article><form><input type="hidden" name="entry_id" value="65"><input type="hidden" name="XID" value="ab12"></form>',
      ),
    ).toEqual(["@data-tilda-page-id=3901342", "@data-tilda-project-id=1184263", "input:entry_id=65", "body.page-id=12", "body.col=4", "article#soin=21"]);
    // Several numbers in one place (a list's items, a form's fields): no page's id. No number: nothing.
    expect(printed('<ul><li data-item-id="3"></li><li data-item-id="4"></li></ul><div data-page-id="x12"></div><div data-input-lid="7"></div>')).toEqual(["@data-input-lid=7", "body.page-id=12", "body.col=4"]);
  });

  it("names the French version a translation names in its head, on its own host only", () => {
    const read = (lang: string, alternates: string) => readPage(`<html lang="${lang}"><head>${alternates}</head><body><h1>Dental implants</h1></body></html>`, "http://www.cabinet.fr/en/dental-implants/");
    const both = `<link rel="alternate" href="http://www.cabinet.fr/soins/implants/" hreflang="fr" /><link rel="alternate" href="http://www.cabinet.fr/en/dental-implants/" hreflang="en" />`;
    expect(read("en-GB", both).translation_of).toBe("http://www.cabinet.fr/soins/implants/");
    // The French page itself, a page naming no French version, or one on another host: none.
    expect(read("fr-FR", both).translation_of).toBe("");
    expect(read("en-GB", "").translation_of).toBe("");
    expect(read("en", `<link rel="alternate" href="http://autre.fr/implants/" hreflang="fr-FR" />`).translation_of).toBe("");
  });

  it("keeps the headline below the H1: the post's title by its class, else the first H2 outside the sidebars", () => {
    const read = (body: string) => readPage(`<html><body><h1>Cabinet des Drs Dupont</h1>${body}</body></html>`, "http://www.cabinet.fr/index.php?post/2019/05/14/x");
    expect(read(`<div class="widget"><h2>Prendre rendez-vous</h2></div><div class="post"><h2 class="post-title">Les implants</h2></div>`).subheadline).toBe("Les implants");
    expect(read(`<aside><h2>Catégories</h2></aside><main><h2>Nos honoraires</h2></main>`).subheadline).toBe("Nos honoraires");
    expect(read(`<div id="sidebar"><h2>Archives</h2></div>`).subheadline).toBe("");
    // Its headline stays its H1.
    expect(read(`<h2 class="post-title">Les implants</h2>`).headline).toBe("Cabinet des Drs Dupont");
  });

  it("reads the pages its breadcrumb names above it, whatever the platform calls it, on its own host only", () => {
    const trail = (markup: string) => readPage(`<html><body><nav><a href="/menu">Menu</a></nav>${markup}<h1>Implantologie</h1></body></html>`, "http://www.cabinet.fr/-Implantologie-").trail;
    expect(trail('<p class="arbo"><a href="/">Accueil</a> &gt; <a href="/-Nos-soins-">Nos soins</a> &gt; <strong>Implantologie</strong></p>')).toEqual(["http://www.cabinet.fr/", "http://www.cabinet.fr/-Nos-soins-"]);
    expect(trail('<ol class="breadcrumb"><li><a href="/soins/">Soins</a></li><li><a href="http://autre.fr/x">X</a></li><li><a href="/-Implantologie-">Ici</a></li></ol>')).toEqual(["http://www.cabinet.fr/soins/"]);
    expect(trail('<div aria-label="Fil d\'Ariane"><a href="/patients/">Patients</a></div>')).toEqual(["http://www.cabinet.fr/patients/"]);
    expect(trail('<div class="sidebar"><a href="/soins/">Soins</a></div>')).toEqual([]);
  });

  it("keeps the title, description, first H1 and the robots directive", () => {
    expect([page.title, page.meta_description, page.h1, page.noindex]).toEqual(["Le cabinet", "Présentation du cabinet.", "Notre cabinet", true]);
  });

  it("keeps the main text only: no navigation, footer, script or form, paragraphs apart", () => {
    expect(page.body_text).toBe("Notre cabinet Premier paragraphe. Deuxième paragraphe, l'équipe. Soins Ailleurs Écrire");
    expect(page.word_count).toBe(10);
  });

  it("reads the text of a page an ASP.NET form wraps whole (DNN, Kentico, SharePoint), still not a form to fill", () => {
    const aspNet = readPage(
      `<html><body><form method="post" action="/Soins/Implants.aspx" id="Form"><input type="hidden" name="__VIEWSTATE" value="x">
<div id="dnn_ContentPane"><h1>Les implants</h1><p>Une racine en titane remplace la dent.</p></div>
<footer>Mentions légales</footer></form></body></html>`,
      "http://www.cabinet.fr/Soins/Implants.aspx",
    );
    expect(aspNet.body_text).toBe("Les implants Une racine en titane remplace la dent.");
    // ASP.NET's form with no heading at all (SharePoint's `aspnetForm`), and a form module inside it: the text, not the controls.
    const sharePoint = readPage(
      `<html><body><form id="aspnetForm" method="post"><input type="hidden" name="__VIEWSTATE" value="x"><div class="ms-rtestate-field">Les implants remplacent une dent.</div>
<div class="dnnForm"><label>Nom</label><input name="n"><select><option>Madame</option><option>Monsieur</option></select><button>Envoyer</button></div></form></body></html>`,
      "http://www.cabinet.fr/Pages/implants.aspx",
    );
    expect(sharePoint.body_text).toBe("Les implants remplacent une dent.");
    // A sidebar's appointment form around the first <h2> of a page without <h1>, a cookie banner's: still no text of the page.
    expect(readPage(`<html><body><p>Le cabinet vous accueille.</p><div class="sidebar"><form><h2>Prendre rendez-vous</h2><label>Votre nom</label><select><option>Implantologie</option></select><button>Envoyer</button></form></div></body></html>`, "http://www.cabinet.fr/").body_text).toBe("Le cabinet vous accueille.");
    // A form beside the headline, not around it, stays out.
    expect(readPage(`<html><body><h1>Contact</h1><p>Écrivez-nous.</p><form><label>Votre nom</label><input name="n"></form></body></html>`, "http://www.cabinet.fr/contact").body_text).toBe("Contact Écrivez-nous.");
  });

  it("resolves the main text's images (not the header's logo; a missing alt apart from a decorative one) and the page's same-site links, without fragments or other sites", () => {
    expect(page.images).toEqual([
      { src: "http://www.cabinet-dupont.fr/images/facade.jpg", alt: "Façade" },
      { src: "http://www.cabinet-dupont.fr/dossier/photo.png", alt: null },
      { src: "http://www.cabinet-dupont.fr/dossier/filet.svg", alt: "" },
    ]);
    expect(page.links).toEqual([
      "http://www.cabinet-dupont.fr/dossier/soins.html",
      "http://www.cabinet-dupont.fr/mentions.html",
      "http://www.cabinet-dupont.fr/menu.html",
    ]);
  });

  it("keeps the H1 of a WordPress entry header and its shortlink, and caps the text and the links", () => {
    const wp = readPage(
      `<title>Implants - Cabinet</title><link rel="shortlink" href="http://a.fr/?p=34"><body><header class="site-header"><nav>Menu</nav></header><article><header class="entry-header"><h1 class="entry-title">Les implants</h1></header><p>${"mot ".repeat(60_000)}</p>${Array.from({ length: 800 }, (_, i) => `<a href="/p${i}/">${i}</a>`).join("")}</article></body>`,
      "http://a.fr/?page_id=12",
    );
    expect(wp.h1).toBe("Les implants");
    expect(wp.body_text.length).toBe(MAX_TEXT_CHARS);
    expect(wp.links).toHaveLength(MAX_LINKS);
    expect(wp.links[0]).toBe("http://a.fr/?p=34");
  });

  it("reads the body when there is no <main>", () => {
    const bare = readPage("<title>T</title><body><nav>Menu</nav><p>Un deux trois</p></body>", "http://a.fr/");
    expect([bare.body_text, bare.word_count, bare.noindex, bare.meta_description]).toEqual(["Un deux trois", 3, false, ""]);
  });
});

describe("a meta refresh", () => {
  it("that sends the visitor on at once is read as a redirect to its URL (Hugo's alias pages)", () => {
    const alias = `<!DOCTYPE html><html><head><title>https://a.fr/soins/greffe-osseuse/</title><link rel="canonical" href="https://a.fr/soins/greffe-osseuse/"><meta name="robots" content="noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=https://a.fr/soins/greffe-osseuse/"></head></html>`;
    expect(readPage(alias, "https://a.fr/soins/sinus-lift/").refresh).toBe("https://a.fr/soins/greffe-osseuse/");
    expect(refreshTarget("0;URL='/tarifs.html'", "https://a.fr/old/x.html")).toBe("https://a.fr/tarifs.html");
    expect(refreshTarget("3; url=nouveau.html", "https://a.fr/old/x.html")).toBe("https://a.fr/old/nouveau.html");
  });

  it("that reloads the page, waits longer than a redirect, or names no URL is none", () => {
    expect(refreshTarget("300", "https://a.fr/")).toBeNull();
    expect(refreshTarget("30; url=/ailleurs/", "https://a.fr/")).toBeNull();
    // An empty URL reloads the page (a browser's reading), not a link to "url=".
    expect(refreshTarget("0;url=", "https://a.fr/dir/page.html")).toBeNull();
    expect(refreshTarget("0; URL=", "https://a.fr/dir/page.html")).toBeNull();
    // A page of its own that moves on after a few seconds is a page; one of a few words ("has moved") a redirect.
    expect(refreshTarget("5; url=/", "https://a.fr/real", 120)).toBeNull();
    expect(refreshTarget("5; url=/nouveau/", "https://a.fr/old", 8)).toBe("https://a.fr/nouveau/");
    expect(refreshTarget("0 url=/x", "https://a.fr/")).toBe("https://a.fr/x");
    expect(refreshTarget("", "https://a.fr/")).toBeNull();
    expect(refreshTarget("0; url=javascript:alert(1)", "https://a.fr/")).toBeNull();
    expect(readPage(html, "http://www.cabinet-dupont.fr/dossier/page.html").refresh).toBeNull();
  });
});

describe("readPage at its bounds (issue 26)", () => {
  it("reads a page of more elements than the bound in part, says so, and keeps at most 200 images", () => {
    const page = readPage(`<title>T</title><main><h1>Galerie</h1>${"<img src=/p.jpg>".repeat(3 * MAX_ELEMENTS)}</main>`, "http://a.fr/");
    expect(page.truncated).toBe(`page over the crawler's bounds: read in part (the first ${MAX_ELEMENTS} elements)`);
    expect([page.title, page.h1, page.images.length]).toEqual(["T", "Galerie", MAX_IMAGES]);
  });

  it("parses at most a million characters, and keeps no link or image address over 2,048 characters", () => {
    const long = `/gen/${"x".repeat(MAX_URL_CHARS)}`;
    const page = readPage(`<main><a href="/ok/">ok</a><a href="${long}">g</a><img src="${long}"><p>${"mot ".repeat(MAX_PARSE_CHARS / 4)}</p></main>`, "http://a.fr/");
    expect(page.truncated).toMatch(/^page over the crawler's bounds: read in part \(the first 1000000 characters of \d+\)$/);
    expect(page.links).toEqual(["http://a.fr/ok/"]);
    expect(page.images).toEqual([]);
    expect(readPage("<main><p>Court.</p></main>", "http://a.fr/").truncated).toBe("");
  });

  it("reads deeply nested elements without overflowing the stack (20,000 <div> did)", () => {
    const page = readPage(`<main>${"<div>".repeat(MAX_ELEMENTS - 10)}fond</main>`, "http://a.fr/");
    expect([page.body_text, page.truncated]).toEqual(["fond", ""]);
    expect(readPage(`<main>${"<div>".repeat(2 * MAX_ELEMENTS)}fond</main>`, "http://a.fr/").truncated).toMatch(/first 10000 elements/);
  }, 20_000); // about 2.4 s alone: two 10,000-deep trees; over the default 5 s with two make test runs side by side
});

describe("readSitemap", () => {
  it("lists a sitemap's pages and an index's sitemaps", () => {
    const urlset = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> http://a.fr/x.html </loc></url><url><loc>http://a.fr/y.html</loc></url></urlset>`;
    expect(readSitemap(urlset)).toEqual({ index: false, locs: ["http://a.fr/x.html", "http://a.fr/y.html"] });
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://a.fr/s1.xml</loc></sitemap></sitemapindex>`;
    expect(readSitemap(index)).toEqual({ index: true, locs: ["http://a.fr/s1.xml"] });
  });

  it("reads a sitemap by scanning it: entities and CDATA decoded, image locations not pages, 50,000 at most, an unclosed <loc> ends it", () => {
    const entities = `<urlset><url><loc> http://a.fr/x?a=1&amp;b=&#233; </loc><image:image><image:loc>http://a.fr/i.jpg</image:loc></image:image></url><url><loc><![CDATA[http://a.fr/y?a&b]]></loc></url></urlset>`;
    expect(readSitemap(entities)).toEqual({ index: false, locs: ["http://a.fr/x?a=1&b=é", "http://a.fr/y?a&b"] });
    const huge = `<urlset>${Array.from({ length: MAX_SITEMAP_LOCS + 10 }, (_, i) => `<url><loc>http://a.fr/${i}</loc></url>`).join("")}</urlset>`;
    expect(readSitemap(huge).locs).toHaveLength(MAX_SITEMAP_LOCS);
    expect(readSitemap(`<urlset><url><loc>http://a.fr/1</loc></url>${"<url><loc>".repeat(100_000)}</urlset>`).locs).toEqual(["http://a.fr/1"]);
  });
});

describe("readPage: the Notion page a Notion publisher's page prints as its own", () => {
  const next = (pageProps: object) => `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps }, page: "/[[...slug]]" })}</script>`;
  const page = (body: string) => `<html><head><title>Infos</title></head><body><main class="super-content"><article class="notion-root"><p class="notion-text">Horaires</p></article></main>${body}</body></html>`;

  it("names Super's pageId (a dashed UUID) as the page's id URL, `/<32 hex>`", () => {
    const facts = readPage(page(next({ siteId: "6c2f9a4e-81d3-4b7a-9e05-3d8c1f72ab46", pageId: "2843B478-41EC-550F-C8B9-DA70B299DE17", path: "/infos-pratiques" })), "http://a.fr/infos-pratiques");
    expect(facts.own_urls).toEqual(["http://a.fr/2843b47841ec550fc8b9da70b299de17"]);
  });

  it("names none on a page without Notion's markup (another Next.js site), nor where several pageIds are named", () => {
    const data = next({ pageId: "2843b478-41ec-550f-c8b9-da70b299de17" });
    expect(readPage(`<html><body><main><p>Texte</p></main>${data}</body></html>`, "http://a.fr/x").own_urls).toEqual([]);
    const two = `<script id="__NEXT_DATA__" type="application/json">{"a":{"pageId":"2843b47841ec550fc8b9da70b299de17"},"b":{"pageId":"c4a19e7b2d5f4c8a9e1b3d6f7a2c5e80"}}</script>`;
    expect(readPage(page(two), "http://a.fr/x").own_urls).toEqual([]);
    expect(readPage(page(next({ pageId: "not-an-id" })), "http://a.fr/x").own_urls).toEqual([]);
  });
});
