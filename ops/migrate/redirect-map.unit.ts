import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copiesHome, followSection, isAuthorArchive, isDeadLink, LEARNED_IN_MAP_FILE, learnedGrammarOf, oldHomeUrls, platformArchive, postTypeVars, sectionHeads, skippedPageRow } from "./redirect-map";
import { REDIRECTS_FILE } from "./files";
import { LEARNED_FILE } from "./probe";
import { namesAnObject } from "../../src/server/redirects/grammar";
import { seasonal } from "./match";

describe("skippedPageRow: where a page marked skip still goes", () => {
  const base = { path: "/x/", form: "/x", originalForm: null, listing: false, home: "/", intent: null, member: () => null };
  const member = () => ({ target: "/equipe/nadia-haddad/", confidence: 0.9, by: "member's name" });

  it("a copy of the old home page is the home page; a listing that repeats a blog home page is not", () => {
    expect(skippedPageRow({ ...base, path: "/accueil/", originalForm: "/" })).toMatchObject({ target: "/", by: "a spelling or copy of the old home page" });
    expect(skippedPageRow({ ...base, path: "/category/actualites/", originalForm: "/", listing: true })).toBeNull();
    // The home page's own spelling stays the home page, listing or not.
    expect(skippedPageRow({ ...base, path: "/index.php", form: "/", listing: true })).toMatchObject({ target: "/" });
  });

  it("an author's archive headed by a member's whole name is the member's page; by a first name, or no member's, dropped", () => {
    const named = () => ({ target: "/equipe/lucas-moreau/", confidence: 0.9, by: "member's name" });
    expect(skippedPageRow({ ...base, path: "/author/lucas/", listing: true, platformListing: true, authorArchive: true, member: named })).toMatchObject({ target: "/equipe/lucas-moreau/", by: "an author's archive: the member's page (the page is marked skip)" });
    expect(skippedPageRow({ ...base, path: "/_Claire-Dupont_", listing: true, authorArchive: true, member: () => ({ target: "/equipe/claire-dupont/", confidence: 0.9, by: "member's name" }) })).toMatchObject({ target: "/equipe/claire-dupont/" });
    // A first name alone (Ghost's "Chloé", gone), an author no member is (an agency, `admin`): dropped.
    expect(skippedPageRow({ ...base, path: "/author/chloe/", listing: true, authorArchive: true, member: () => ({ target: "/equipe/chloe-x/", confidence: 0.6, by: "member's first name" }) })).toBeNull();
    expect(skippedPageRow({ ...base, path: "/author/admin/", listing: true, authorArchive: true, member: () => ({ target: "/equipe/", confidence: 0.1, by: "text" }) })).toBeNull();
    // A further page of the archive is no author's archive (AUTHOR_ARCHIVE): a listing, dropped.
    expect(skippedPageRow({ ...base, path: "/author/lucas/page/2/", listing: true, platformListing: true, member: named })).toBeNull();
  });

  it("a notice naming a member is the member's page; a listing whose excerpts name one is dropped", () => {
    expect(skippedPageRow({ ...base, member })).toMatchObject({ target: "/equipe/nadia-haddad/" });
    expect(skippedPageRow({ ...base, path: "/category/actualites/page/2/", listing: true, member })).toBeNull();
    // A welcome naming a newcomer by a first name no other member has ("Bienvenue à Sarah"): hers too.
    const firstName = () => ({ target: "/equipe/sarah-benali/", confidence: 0.6, by: "member's first name" });
    expect(skippedPageRow({ ...base, path: "/+Bienvenue-a-Sarah+", notice: true, member: firstName })).toMatchObject({ target: "/equipe/sarah-benali/" });
    expect(skippedPageRow({ ...base, member: () => ({ target: "/equipe/", confidence: 0.5, by: "text" }) })).toBeNull();
  });

  it("an intent its URL states wins over a member's name, and anything else is dropped", () => {
    const intent = { target: "/contact/", confidence: 0.9, by: "intent: booking" };
    expect(skippedPageRow({ ...base, path: "/rdv", intent, member })).toMatchObject({ target: "/contact/", by: "intent: booking (the page is marked skip)" });
    expect(skippedPageRow({ ...base, intent: { target: "/tarifs/", confidence: 0.5, by: "text" } })).toBeNull();
  });

  it("a listing only the platform makes (a tag's posts) is gone, whatever its topic's name says; another listing keeps its intent", () => {
    const intent = { target: "/equipe/", confidence: 0.9, by: "intent: team" };
    expect(skippedPageRow({ ...base, path: "/tags/equipe/", listing: true, platformListing: true, intent })).toBeNull();
    expect(skippedPageRow({ ...base, path: "/equipe.html", listing: true, intent })).toMatchObject({ target: "/equipe/", by: "intent: team (the page is marked skip)" });
  });

  it("a dated notice of a past year is gone, whatever intent its URL states", () => {
    const intent = { target: "/contact/", confidence: 0.9, by: "intent: booking" };
    expect(skippedPageRow({ ...base, path: "/agenda/fermeture-estivale-2021.html", notice: true, intent })).toBeNull();
    expect(skippedPageRow({ ...base, path: "/agenda/fermeture-estivale-2021.html", notice: true, intent, member })).toMatchObject({ target: "/equipe/nadia-haddad/" });
  });
});

describe("WordPress's front: archives under the permalink structure's front, and what the old site sends home", () => {
  it("knows an author's archive under a front (`/blog/%postname%/` makes `/blog/author/x/`), not its further pages", () => {
    expect(isAuthorArchive("/blog/author/centre-martin/", "wordpress")).toBe(true);
    expect(isAuthorArchive("/author/lucas/", "wordpress")).toBe(true);
    expect(isAuthorArchive("/blog/author/centre-martin/page/2/", "wordpress")).toBe(false);
    expect(isAuthorArchive("/blog/implant-ou-bridge/", "wordpress")).toBe(false);
  });

  it("reads an author's archive at one front segment at most, the front on WordPress only, the root form where it was read before (review 110, 6)", () => {
    // Two segments deep is no WordPress front; a folder so named on another platform is a section's.
    expect(isAuthorArchive("/articles/blog/author/agence-nautilus", "wordpress")).toBe(false);
    for (const platform of ["static", "ghost", null, "drupal"] as const) expect(isAuthorArchive("/equipe/author/dr-x/", platform), String(platform)).toBe(false);
    for (const platform of ["static", "ghost", null] as const) expect(isAuthorArchive("/author/lucas/", platform), String(platform)).toBe(true);
    expect(isAuthorArchive("/author/lucas/", "joomla")).toBe(false);
    // SPIP's "URL propre" of an auteur, as before.
    expect(isAuthorArchive("/_Dr-Martin_", "spip")).toBe(true);
    expect(isAuthorArchive("/_Dr-Martin_.html", "static")).toBe(true);
  });

  it("takes a tag's or a category's archive under a front for a listing, whatever the assessment said (Yoast's noindex tags)", () => {
    expect(platformArchive("/blog/tag/equipe/", "wordpress")).toBe(true);
    expect(platformArchive("/blog/category/actualites/", "wordpress")).toBe(true);
    expect(platformArchive("/blog/author/centre-martin/", "wordpress")).toBe(true);
    expect(platformArchive("/blog/bienvenue-au-dr-hugo-lambert/", "wordpress")).toBe(false);
    // A path of its platform's that is no listing (a DNN tab's detail), or a listing's shape on a platform that has none.
    expect(platformArchive("/Actualites/tabid/60/ctl/Detail/mid/412/ItemId/15/Default.aspx", "dnn")).toBe(false);
    expect(platformArchive("/blog/tag/equipe/", "static")).toBe(false);
    // So a member its excerpts name does not take it: a listing is dropped.
    const member = () => ({ target: "/equipe/hugo-lambert/", confidence: 0.9, by: "member's name" });
    const row = { path: "/blog/tag/equipe/", form: "/blog/tag/equipe", originalForm: null, home: "/", intent: null, member };
    expect(skippedPageRow({ ...row, listing: platformArchive(row.path, "wordpress"), platformListing: true })).toBeNull();
  });

  it("takes a URL the old site sends home for a copy of the home page: its form, WordPress's front page, a language's home (review 110, 3)", () => {
    for (const path of ["/", "/index.php", "/accueil/", "/home", "/?lang=fr", "/index.html"]) expect(copiesHome(path, "wordpress"), path).toBe(true);
    // WordPress 301s its static front page's permalink and its ids to `/`, whatever the page was called.
    for (const path of ["/accueil-2/", "/page-d-accueil/", "/homepage/", "/home-page/", "/acceuil/", "/?page_id=2", "/?p=2"]) expect(copiesHome(path, "wordpress"), path).toBe(true);
    for (const platform of ["static", "wix"] as const) for (const path of ["/fr", "/en/"]) expect(copiesHome(path, platform), `${platform} ${path}`).toBe(true);
    expect(copiesHome("/index.php?static1/accueil", "pluxml")).toBe(true);
    expect(copiesHome("/Accueil.A.htm", "sitew")).toBe(true);
  });

  it("never takes an archive, a listing or a search the old site sends home for the home page, whatever its words (review 110, 3 and 4)", () => {
    for (const path of ["/blog/author/centre-martin/", "/blog/tag/equipe/", "/?s=implant", "/blog/2016/", "/?s=accueil", "/blog/tag/accueil/", "/blog/category/home/", "/blog/author/home/", "/blog/page/2/", "/author/accueil/"]) {
      expect(copiesHome(path, "wordpress"), path).toBe(false);
    }
  });
});

describe("postTypeVars: WordPress's custom post types the crawl saw, for the map's $queryVars", () => {
  it("keeps the types of the crawled single posts and the map's own, none of WordPress's, bounded", () => {
    const entries = [
      { status: 200, post_type: "soin" },
      { status: 200, post_type: "membre" },
      { status: 200, post_type: "soin" },
      // A post's `single-post`, a page that failed, a type named like one of WordPress's own vars, a crawl of an earlier version.
      { status: 200, post_type: "post" },
      { status: 404, post_type: "promo" },
      { status: 200, post_type: "tag" },
      { status: 200 },
    ];
    expect(postTypeVars(entries, undefined)).toEqual(["membre", "soin"]);
    expect(postTypeVars(entries, "projet soin")).toEqual(["membre", "projet", "soin"]);
    // A map's malformed value is not kept (the loader would refuse it).
    expect(postTypeVars(entries, "Projet s")).toEqual(["membre", "soin"]);
    expect(postTypeVars(Array.from({ length: 40 }, (_, i) => ({ status: 200, post_type: `t${i}` })), undefined)).toHaveLength(16);
  });
});

describe("isDeadLink", () => {
  it("is a 404 or a 410 (the crawl's status is the last hop's), not a refusal, a server error or the crawler's failure", () => {
    expect([404, 410].map((status) => isDeadLink({ status }))).toEqual([true, true]);
    // 403 to a robot, 429, a 500 or 503 say nothing of the page; 0 is a request that failed (a timeout); 301 off the site.
    expect([200, 301, 403, 429, 500, 503, 0].map((status) => isDeadLink({ status }))).toEqual([false, false, false, false, false, false, false]);
  });
});

describe("skippedPageRow: a dead link", () => {
  const base = { path: "/urgences", form: "/urgences", originalForm: null, listing: false, home: "/", intent: null, member: () => null };
  const intent = { target: "/contact/", confidence: 0.9, by: "intent: emergency" };

  it("stays dead whatever intent its URL states (the page was elsewhere: /urgences.html)", () => {
    expect(skippedPageRow({ ...base, intent, dead: true })).toBeNull();
    expect(skippedPageRow({ ...base, intent })).toMatchObject({ target: "/contact/" });
  });

  it("is still the home page when it spells the home page", () => {
    expect(skippedPageRow({ ...base, path: "/index.htm", form: "/", dead: true })).toMatchObject({ target: "/", by: "a spelling or copy of the old home page" });
  });
});

describe("sectionHeads: the pages indexing a folder of other pages", () => {
  const heads = sectionHeads(["http://x.fr/soins/", "http://x.fr/Soins/Parodontie.html", "http://x.fr/soins/implants/", "http://x.fr/nos-soins", "http://x.fr/nos-soins/", "http://x.fr/blog/index.html"]);

  it("a folder's page, its index or its .html twin heads it; a page alone, or spelled with a slash, heads nothing", () => {
    expect(heads("http://x.fr/soins/")).toBe(true);
    expect(heads("http://x.fr/Soins/index.html")).toBe(true);
    expect(heads("http://x.fr/soins.html")).toBe(true);
    expect(heads("http://x.fr/nos-soins")).toBe(false);
    expect(heads("http://x.fr/nos-soins/")).toBe(false);
    expect(heads("http://x.fr/soins/implants/")).toBe(false);
    // A folder's own index is no page under it.
    expect(heads("http://x.fr/blog/")).toBe(false);
  });
});

describe("followSection: a page under the bar follows its old section's page where its text points", () => {
  const section = { target: "/implantologie/", confidence: 0.7, by: "slug, title, text" };

  it("its text's guess within the section's page: that page, for review", () => {
    expect(followSection({ target: "/implantologie/", confidence: 0.05, by: "text" }, section, "/", "/soins/implants/")).toMatchObject({ target: "/implantologie/", confidence: 0.05 });
    expect(followSection({ target: "/implantologie/implant-unitaire/", confidence: 0.05, by: "text" }, section, "/", "/soins/implants/")?.target).toBe("/implantologie/");
  });

  it("nothing when its text points elsewhere, the section went home, nowhere or unsurely", () => {
    expect(followSection({ target: "/parodontologie/", confidence: 0.05, by: "text" }, section, "/", "/soins/implants/")).toBeNull();
    expect(followSection({ target: "/tarifs/", confidence: 0.05, by: "text" }, { target: "/", confidence: 0.6, by: "overview" }, "/", "/soins/")).toBeNull();
    expect(followSection({ target: "/implantologie/", confidence: 0.05, by: "text" }, null, "/", "/soins/implants/")).toBeNull();
    expect(followSection({ target: "/implantologie/", confidence: 0.05, by: "text" }, { ...section, confidence: 0.1 }, "/", "/soins/implants/")).toBeNull();
  });
});

describe("namesAnObject: an old CMS query naming a page by its id (never redirected to the home page)", () => {
  it("is an article's, a post's, a page's id in the platform's form, whatever its spelling; not a view, a menu item or a listing", () => {
    expect(namesAnObject("/index.php?option=com_content&amp;view=article&amp;id=31&amp;Itemid=104", "joomla")).toBe(true);
    expect(namesAnObject("/?page_id=12&utm_source=x", "wordpress")).toBe(true);
    expect(namesAnObject("/spip.php?page=article&id_article=3", "spip")).toBe(true);
    expect(namesAnObject("/index.php?option=com_content&view=featured&Itemid=101", "joomla")).toBe(false);
    expect(namesAnObject("/?paged=2", "wordpress")).toBe(false);
    expect(namesAnObject("/?utm_source=x", "wordpress")).toBe(false);
    expect(namesAnObject("/?id=3", "static")).toBe(false);
  });
});

describe("seasonal: the hours of a holiday or a season, gone with their time (not new hours for good)", () => {
  it("names a holiday or a season in the URL or the title", () => {
    expect(seasonal("/actualites/horaires-des-fetes-2022", "")).toBe(true);
    expect(seasonal("/blog/horaires-d-ete-2022", "")).toBe(true);
    expect(seasonal("/blog/2019/12/horaires", "Horaires des vacances de Pâques")).toBe(true);
    expect(seasonal("/journal/nouveaux-horaires-rentree-2022", "Nouveaux horaires à la rentrée")).toBe(false);
    expect(seasonal("/actualites/le-cabinet-ferme-le-mercredi", "")).toBe(false);
  });
});

describe("learnedGrammarOf: a missing map, a lost record (the review of the id forms)", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** A migration folder after a normal run: the crawl learned `/page{id}.html`, and the toolkit wrote it into the map. */
  const afterRun = (files: { map?: unknown; record?: unknown }) => {
    const dir = mkdtempSync(join(tmpdir(), "learned-map-"));
    dirs.push(dir);
    writeFileSync(join(dir, LEARNED_FILE), JSON.stringify({ idPaths: [], idQuery: null, idForms: ["/page{id}.html"] }));
    if (files.record !== undefined) writeFileSync(join(dir, LEARNED_IN_MAP_FILE), JSON.stringify(files.record));
    if (files.map !== undefined) writeFileSync(join(dir, REDIRECTS_FILE), JSON.stringify(files.map));
    return dir;
  };

  it("drafts a deleted map anew: the crawl's grammar, no edit of an operator's kept", () => {
    // runRedirects reads a missing map as {}: that is no operator removing the learned keys.
    const dir = afterRun({ record: { $idForms: "/page{id}.html" } });
    const drafted = learnedGrammarOf(dir, {}, ["/"]);
    expect(drafted).toMatchObject({ operator: false, learned: { idForms: ["/page{id}.html"] } });
    expect(drafted.notes).toEqual([]);
    // A map that exists with the keys removed is still an operator's edit.
    const edited = afterRun({ record: { $idForms: "/page{id}.html" }, map: { $platform: "static" } });
    expect(learnedGrammarOf(edited, { $platform: "static" }, ["/"])).toMatchObject({ operator: true, learned: { idForms: [] } });
  });

  it("takes a map holding the crawl's values, with its record lost, as the toolkit's (so a later withdrawal applies)", () => {
    const map = { $platform: "static", $idForms: "/page{id}.html" };
    expect(learnedGrammarOf(afterRun({ map }), map, ["/"])).toMatchObject({ operator: false, learned: { idForms: ["/page{id}.html"] } });
    // Values the crawl did not write are an operator's, record or not.
    const byHand = { $platform: "static", $idForms: "/page{id}.html /soins/{id}" };
    expect(learnedGrammarOf(afterRun({ map: byHand }), byHand, ["/"])).toMatchObject({ operator: true, learned: { idForms: ["/page{id}.html", "/soins/{id}"] } });
  });
});

describe("oldHomeUrls: the old home page off the root, unless the operator skips it (Docvadis's /cabinet-petit/)", () => {
  const O = "http://old.example";
  const home = new Set([`${O}/cabinet-petit/`, `${O}/cabinet-petit/index.html`]);
  const duplicateOf = new Map([[`${O}/cabinet-petit/index.html`, `${O}/cabinet-petit/`]]);
  it("keeps the home page and its copy, whose skip as a copy is no operator's drop", () => {
    const verdicts = new Map([["/cabinet-petit/", { verdict: "rewrite" }], ["/cabinet-petit/index.html", { verdict: "skip" }]]);
    expect([...oldHomeUrls(home, duplicateOf, verdicts)].sort()).toEqual([...home].sort());
  });
  it("drops it when the operator's assessment skips its original: no redirect of it, nor of its copies, to /", () => {
    expect(oldHomeUrls(home, duplicateOf, new Map([["/cabinet-petit/", { verdict: "skip" }]])).size).toBe(0);
  });
});
