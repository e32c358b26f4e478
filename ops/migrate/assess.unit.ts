import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assessPages, readAssessment, renderAssessment, showsAsCard } from "./assess";
import type { CrawlEntry } from "./files";
import { words } from "./text";

const long = (topic: string, n = 120) => Array.from({ length: n }, (_, i) => `${topic}${i % 17} mot${i}`).join(" ");

function entry(path: string, over: Partial<CrawlEntry> = {}): CrawlEntry {
  const body = over.body_text ?? long(path);
  return {
    url: `http://old.example${path}`,
    status: 200,
    redirects: [],
    final_url: `http://old.example${path}`,
    content_type: "text/html",
    title: `Titre ${path}`,
    meta_description: "Description",
    h1: "Titre",
    body_text: body,
    images: [],
    word_count: body.split(" ").length,
    links: [],
    noindex: false,
    headline: "",
    subheadline: "",
    translation_of: "",
    og_title: "",
    anchors: [],
    published: "",
    error: "",
    ...over,
  };
}

describe("assessPages: what a page says in its own words, not its links' labels", () => {
  const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
  // Two sections of three pages, each page listing its siblings' titles ("Dans la même rubrique", SPIP's idiom).
  const section = (name: string, titles: string[], text: (i: number) => string) =>
    titles.map((t, i) => {
      const others = titles.filter((o) => o !== t).map((o) => ({ url: `http://old.example/${o.replace(/ /g, "-")}`, text: o }));
      return entry(`/${t.replace(/ /g, "-")}`, { title: t, h1: t, body_text: `${t} ${text(i)} Dans la rubrique ${name} ${others.map((o) => o.text).join(" ")}`, links: others.map((o) => o.url), anchors: others });
    });
  const cares = ["soins implant pose racine titane vis", "soins gencive greffe tissu rose collet", "soins couronne ceramique zircone dent pilier"];
  const news = ["breve fermeture estivale cabinet ferme aout", "breve nouveau fauteuil arrive salle deux", "breve recrutement assistante cdi temps plein"];
  const { rows } = assessPages([
    ...section("Soins", cares, (i) => words(40, `propre${i}x`)),
    // A short post of its own words, whose sidebar names a closure and whose text a month: no notice of its time.
    ...section("Breves", news, (i) => (i === 2 ? "Poste a pourvoir en septembre 2021 envoyez votre candidature" : words(20, `breve${i}x`))),
    entry("/plan", { body_text: `Plan du site ${[...cares, ...news].join(" ")}`, links: [...cares, ...news].map((t) => `http://old.example/${t.replace(/ /g, "-")}`), anchors: [...cares, ...news].map((t) => ({ url: `http://old.example/${t.replace(/ /g, "-")}`, text: t })) }),
    // A section's index: its excerpts of the three cares, and words of its own (or hardly any).
    entry("/soins-index", { body_text: `${words(40, "intro")} ${cares.map((_, i) => words(25, `propre${i}x`)).join(" ")}`, links: cares.map((t) => `http://old.example/${t.replace(/ /g, "-")}`) }),
    entry("/soins-liste", { body_text: `${words(5, "intro")} ${cares.map((_, i) => words(25, `propre${i}x`)).join(" ")}`, links: cares.map((t) => `http://old.example/${t.replace(/ /g, "-")}`) }),
  ]);
  const by = (p: string) => rows.find((r) => r.path === p)!;

  it("a page listing its section's titles is no listing of them", () => {
    for (const t of cares) expect(by(`/${t.replace(/ /g, "-")}`).reason, t).not.toMatch(/listing/);
  });

  it("a listing's further page by its query (`?page=4`, `?start=10`) or in the platform's grammar (`?tag/x`) is a listing", () => {
    const posts = ["http://old.example/actualites/un", "http://old.example/actualites/deux"];
    const { rows: more } = assessPages([
      entry("/actualites/?page=4", { body_text: words(60, "nouvelle"), links: posts }),
      entry("/actualites/?start=10", { body_text: words(60, "autre"), links: posts }),
      entry("/actualites/un", { body_text: words(60, "premier") }),
      entry("/actualites/deux", { body_text: words(60, "second") }),
      // A page a hand-made site names by `page` links to nothing: a page.
      entry("/index.php?page=3", { body_text: words(60, "implant") }),
      entry("/index.php?tag/hygiene", { body_text: words(60, "hygiene"), links: ["http://old.example/index.php?post/2019/05/14/x", "http://old.example/index.php?pages/y"] }),
      entry("/index.php?post/2019/05/14/x", { body_text: words(60, "billet") }),
      entry("/index.php?pages/y", { body_text: words(60, "page") }),
      // A post by its id is no listing.
      entry("/?p=34", { body_text: words(60, "article") }),
    ]);
    const reason = (p: string) => more.find((r) => r.path === p)!.reason;
    for (const p of ["/actualites/?page=4", "/actualites/?start=10", "/index.php?tag/hygiene"]) expect(reason(p), p).toMatch(/^listing of/);
    expect(reason("/?p=34")).not.toMatch(/listing/);
    expect(reason("/index.php?page=3")).not.toMatch(/listing/);
  });

  it("a tag page holding one post whole is that post's copy, not its original", () => {
    const body = words(60, "cone");
    const { duplicateOf } = assessPages([entry("/tag/implants/", { body_text: body }), entry("/le-centre-s-equipe-d-un-cone-beam/", { body_text: body })]);
    expect(duplicateOf.get("http://old.example/tag/implants/")).toBe("http://old.example/le-centre-s-equipe-d-un-cone-beam/");
  });

  it("a page of links only is a listing (a site map)", () => {
    expect(by("/plan").reason).toMatch(/^listing of 6 pages/);
  });

  it("a section's index with 30 triples of its own says something; one without is a listing", () => {
    expect(by("/soins-index").reason).not.toMatch(/listing/);
    expect(by("/soins-liste").reason).toMatch(/^listing of 3 pages/);
  });

  it("a blog's list of cards (a date and a byline each, an excerpt, 'Lire la suite') is a listing; a text using one-word labels is not", () => {
    const vocab = "dent gencive soin sourire brossage fil detartrage carie email plaque fluor conseil patient visite controle".split(" ");
    const text = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `${vocab[(seed * 7 + i * 3) % vocab.length]}${(seed * 13 + i) % 50}`).join(" ");
    const posts = Array.from({ length: 8 }, (_, i) => ({ path: `/conseil-${i}`, title: `Conseil numero ${i} pour vos dents`, body: text(i + 1, 150) }));
    const months = ["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout"];
    const cards = posts.map((p, i) => `${p.title} Publié le ${i + 3} ${months[i]} 2021 par Dr Dupont dans Conseils ${p.body.split(" ").slice(0, 30).join(" ")} Lire la suite`);
    const anchors = posts.flatMap((p) => [{ url: `http://old.example${p.path}`, text: p.title }, { url: `http://old.example${p.path}`, text: "Lire la suite" }]);
    const cares = ["Implants", "Couronnes", "Bridges", "Facettes", "Blanchiment"];
    const guide = Array.from({ length: 25 }, (_, i) => `Les Implants ${vocab[i % vocab.length]}${i} et Couronnes ${vocab[(i + 1) % vocab.length]}${i} ou Bridges`).join(" ");
    const { rows: blog } = assessPages([
      ...posts.map((p) => entry(p.path, { title: p.title, body_text: `${p.title} ${p.body}` })),
      entry("/actualites", { body_text: `Actualités ${cards.join(" ")}`, links: posts.map((p) => `http://old.example${p.path}`), anchors }),
      ...cares.map((c, i) => entry(`/${c.toLowerCase()}`, { body_text: `${c} ${text(100 + i, 150)}` })),
      entry("/guide-prothese", { body_text: guide, links: cares.map((c) => `http://old.example/${c.toLowerCase()}`), anchors: cares.map((c) => ({ url: `http://old.example/${c.toLowerCase()}`, text: c })) }),
    ]);
    expect(blog.find((r) => r.path === "/actualites")!.reason).toMatch(/^listing of 8 pages/);
    expect(blog.find((r) => r.path === "/guide-prothese")!.reason).not.toMatch(/listing/);
  });

  it("a short post is judged on its own words, not a sidebar's closure", () => {
    expect(by(`/${news[2].replace(/ /g, "-")}`).reason).toMatch(/^thin/);
  });
});

describe("assessPages: two short posts of one template, a standing page carrying a notice", () => {
  // Most of their words the template's (GoDaddy's related posts, its share buttons): near-duplicates by their words.
  const template = "Partager cet article sur Facebook ou Twitter. Articles récents : les conseils du cabinet pour vos dents, les nouvelles de l'équipe, les horaires du mois. Prendre rendez-vous au cabinet du lundi au vendredi de 9 heures à 19 heures. Suivez-nous sur les réseaux pour ne rien manquer de la vie du cabinet dentaire.";
  const { rows, duplicateOf } = assessPages([
    entry("/blog/f/fermeture-de-fin-d-annee", { h1: "Fermeture de fin d'année", body_text: `Le cabinet ferme du 24 au 31 décembre. ${template}`, word_count: 60 }),
    entry("/blog/f/nouveau-l-empreinte-optique", { h1: "Nouveau : l'empreinte optique", body_text: `Le cabinet passe à l'empreinte optique. ${template}`, word_count: 60 }),
    entry("/blog/f/nouveau-l-empreinte-optique?print=1", { h1: "Nouveau : l'empreinte optique", body_text: `Le cabinet passe à l'empreinte optique sans pâte. ${template}`, word_count: 62 }),
    entry("/infos-pratiques", { h1: "Infos pratiques", body_text: "Adresse, parking, tram. Le cabinet sera fermé du 3 au 10 janvier 2022.", word_count: 14 }),
    // (The second review's: a notice filed under a section "infos pratiques"; a print view without its H1.)
    entry("/infos-pratiques/a-noter", { h1: "À noter", title: "À noter - Cabinet Petit", body_text: "Le cabinet sera fermé du 1er au 20 août 2021.", word_count: 10 }),
    // Its title says hours (a notice's word) and its text the month a change of them began, in a past year: still the
    // standing page (Notion's and Divi's); a name dating itself is a notice however it is filed.
    entry("/infos-pratiques-du-cabinet", { h1: "Infos pratiques", title: "Horaires et accès - Cabinet du Dr Bernard", body_text: "7 rue Crébillon, au deuxième étage. Lundi, mardi, jeudi et vendredi de 9 h à 18 h 30. Fermé le mercredi depuis avril 2024. Tram 1, arrêt Commerce.", word_count: 30 }),
    entry("/centre/infos-pratiques/", { title: "Horaires et accès - Centre dentaire Martin", headline: "Nous trouver", body_text: "48 quai des Chartrons, de plain-pied. Du lundi au vendredi de 8 h 30 à 19 h 30, le samedi de 9 h à 12 h 30 (depuis septembre 2023).", word_count: 30 }),
    entry("/infos-pratiques-fermeture-aout-2023", { h1: "Infos pratiques : fermeture d'août 2023", body_text: "Le cabinet ferme ses portes pour les congés d'été, retour le lundi suivant avec les horaires habituels.", word_count: 18 }),
    entry("/implants", { h1: "L'implant dentaire", title: "Implants dentaires - Cabinet du Dr Martin", body_text: long("implant"), word_count: 240 }),
    entry("/implants?print=1", { h1: "", title: "Implants dentaires - Cabinet du Dr Martin", body_text: `${long("implant")} Imprimer`, word_count: 241 }),
  ]);
  const by = (path: string) => rows.find((r) => r.path === path)!;

  it("keeps posts that call themselves otherwise apart, however alike their words; a copy that calls itself the same follows its original", () => {
    expect(duplicateOf.get("http://old.example/blog/f/nouveau-l-empreinte-optique")).toBeUndefined();
    expect(by("/blog/f/nouveau-l-empreinte-optique").reason).not.toMatch(/duplicate/);
    expect(duplicateOf.get("http://old.example/blog/f/nouveau-l-empreinte-optique?print=1") ?? by("/blog/f/nouveau-l-empreinte-optique?print=1").reason).toMatch(/nouveau-l-empreinte-optique/);
  });

  it("reads the practical information page carrying this month's closure as a standing page, not as news of its time", () => {
    expect(by("/infos-pratiques").verdict).not.toBe("skip");
    // A notice filed under that section is still news of its time.
    expect(by("/infos-pratiques/a-noter").reason).toMatch(/news of its time/);
  });

  it("reads the practical information page whose text dates a change of hours still in force as a standing page, not a dated notice", () => {
    expect(by("/infos-pratiques-du-cabinet").verdict).not.toBe("skip");
    expect(by("/centre/infos-pratiques/").verdict).not.toBe("skip");
    // Named by its date: a notice.
    expect(by("/infos-pratiques-fermeture-aout-2023").reason).toMatch(/dated notice: fermeture 2023/);
  });

  it("merges a copy that is its page's words whatever it calls itself (a print view without its H1)", () => {
    expect(duplicateOf.get("http://old.example/implants?print=1") ?? by("/implants?print=1").reason).toMatch(/implants/);
  });
});

describe("assessPages: a notice filed as practical information is still a notice (an outside review's cases)", () => {
  // Each text long enough not to be a short page, its own words (no template to take out), its date a past year's.
  const notice = (path: string, over: Partial<CrawlEntry>, said: string) => entry(path, { ...over, body_text: `${said} ${long(path.replace(/\W/g, ""), 80)}` });
  const { rows } = assessPages([
    notice("/infos-pratiques-fermeture-24-decembre", { title: "Infos pratiques : fermeture exceptionnelle du 24 décembre", h1: "Infos pratiques : fermeture exceptionnelle du 24 décembre" }, "Le cabinet sera exceptionnellement fermé le mardi 24 décembre 2023. Réouverture le 26 décembre."),
    // A template's title "Infos pratiques" over summer's hours.
    notice("/horaires-ete", { title: "Infos pratiques - Cabinet Martin", h1: "Horaires d'été" }, "Du 15 juillet au 20 août 2023, le cabinet est ouvert de 9 h à 13 h."),
    // A theme's section header as its H1 and headline.
    notice("/actualites/fermeture-estivale", { title: "Fermeture estivale - Cabinet Martin", h1: "Infos pratiques", headline: "Infos pratiques" }, "Le cabinet sera fermé du 1er au 15 août 2022. En cas d'urgence appelez le 15."),
    notice("/actualites/info-utile", { title: "Info utile : fermeture pour congés", h1: "Info utile : fermeture pour congés" }, "Le cabinet sera fermé pour congés du 23 décembre 2022 au 2 janvier 2023."),
    notice("/infos-pratiques/vacances-noel", { title: "Vacances de Noël", h1: "Vacances de Noël", headline: "Informations pratiques" }, "Le cabinet sera fermé du 24 décembre 2022 au 2 janvier 2023."),
    notice("/infos-pratiques-demenagement", { title: "Infos pratiques : le cabinet déménage", h1: "Infos pratiques : le cabinet déménage" }, "Depuis le 3 mai 2021, le cabinet vous accueille au 12 rue Neuve."),
    // "Info" in one name, "pratique" in another: no name calls it the practical information.
    notice("/horaires-du-cabinet", { title: "Horaires - Info", h1: "Un cabinet pratique", headline: "" }, "Le cabinet sera fermé le vendredi 14 octobre 2022 pour une formation."),
    // A Joomla article's leading id is no year (yearInUrl): its names carry none, its text dates a change in force.
    notice("/index.php/2015-infos-pratiques", { title: "Infos pratiques", h1: "Horaires et accès" }, "12 avenue Foch, tram B. Du lundi au jeudi de 8 h à 19 h. Fermé le vendredi depuis mars 2024."),
    // A year its URL does name.
    notice("/infos-pratiques/horaires-2019", { title: "Infos pratiques", h1: "Horaires" }, "Du lundi au jeudi de 8 h à 19 h."),
  ]);
  const by = (path: string) => rows.find((r) => r.path === path)!;

  it("skips a closure, summer's hours, holidays or a move, whichever name says practical information", () => {
    expect(by("/infos-pratiques-fermeture-24-decembre").reason).toMatch(/dated notice: fermeture 2023/);
    expect(by("/horaires-ete").reason).toMatch(/dated notice: horaires 2023/);
    expect(by("/actualites/fermeture-estivale").reason).toMatch(/dated notice: fermeture 2022/);
    expect(by("/actualites/info-utile").reason).toMatch(/dated notice: fermeture 2022/);
    expect(by("/infos-pratiques/vacances-noel").reason).toMatch(/dated notice: vacances 2022/);
    expect(by("/infos-pratiques-demenagement").reason).toMatch(/dated notice: demenage 2021/);
  });

  it("reads each name on its own: 'Info' in the title and 'pratique' in the H1 name no practical information page", () => {
    expect(by("/horaires-du-cabinet").reason).toMatch(/dated notice: horaires 2022/);
  });

  it("reads a URL's year as yearInUrl does: a leading id is none, a year ending the slug is one", () => {
    expect(by("/index.php/2015-infos-pratiques").verdict).not.toBe("skip");
    expect(by("/infos-pratiques/horaires-2019").reason).toMatch(/dated notice: horaires 2019/);
  });
});

describe("assessPages", () => {
  const base = long("implant");
  const { rows, groups } = assessPages([
    entry("/soins.html", { body_text: base, word_count: 240 }),
    entry("/soins-copie.html", { body_text: base, word_count: 240 }),
    entry("/soins-bis.html", { body_text: base.replace("mot5 ", "autre "), word_count: 240, meta_description: "" }),
    entry("/court.html", { body_text: "Trois mots seulement", word_count: 3, images: [{ src: "http://old.example/a.jpg", alt: null }, { src: "http://old.example/filet.svg", alt: "" }] }),
    entry("/actualites/2019/brossage.html"),
    entry("/actualites/conges-2019.html"),
    entry("/?p=41", { title: "Nos horaires d'été", body_text: `Publié le 3 juillet 2018. ${long("accueil")}` }),
    entry("/?p=42", { title: "Bienvenue au Dr Lambert", body_text: `Publié le 3 mars 2018. ${long("lambert")}` }),
    entry("/actualites/2019/nouveaux-horaires.html", { title: "Nouveaux horaires : ouvert jusqu'à 20h", body_text: long("horaires") }),
    entry("/actualites/2019/nouveaux-horaires-vacances.html", { title: "Nouveaux horaires pendant les vacances", body_text: long("vacances") }),
    entry("/actualites/2019/nouveaux-horaires-ete.html", { title: "Nouveaux horaires d'été", body_text: long("juillet") }),
    entry("/actus/fermeture.html", { body_text: "Le cabinet sera fermé du 5 au 19 août 2019.", word_count: 10 }),
    entry("/blog/a-partir-de-septembre-le-cabinet-ferme-le-mercredi-24", { title: "À partir de septembre, le cabinet ferme le mercredi", body_text: "sept. 2, 2024 Nous ne recevons plus le mercredi.", word_count: 9 }),
    entry("/actus/ferme-le-mercredi-15-aout-2019", { title: "Cabinet fermé le mercredi 15 août 2019", body_text: long("assomption"), word_count: 120 }),
    entry("/blog/mois-sans-tabac-vos-gencives-vous-disent-merci", { title: "Mois sans tabac : vos gencives vous disent merci", body_text: long("tabac") }),
    entry("/actualites/journee-de-depistage-des-maladies-des-gencives-le-28-mai", { title: "Journée de dépistage des maladies des gencives le 28 mai", body_text: long("depistage") }),
    entry("/actualites/octobre-rose", { title: "Octobre rose : le cabinet se mobilise", body_text: long("rose") }),
    entry("/soins/depistage-du-cancer-buccal", { title: "Dépistage du cancer buccal", body_text: long("cancer") }),
    entry("/le-cabinet/une-journee-au-cabinet", { title: "Une journée au cabinet", body_text: long("visite") }),
    entry("/actus/2019/ferme-le-lundi-de-pentecote", { title: "Cabinet fermé le lundi de Pentecôte", body_text: long("pentecote"), word_count: 120 }),
    entry("/actus/2019/ferme-samedi", { title: "Cabinet fermé samedi", body_text: long("samedi"), word_count: 120 }),
    entry("/actus/2019/ferme-le-jeudi-8-mai-et-vendredi", { title: "Fermé le jeudi 8 mai et vendredi", body_text: long("armistice"), word_count: 120 }),
    entry("/blog/travaux-salle-d-attente", { title: "Travaux dans la salle d'attente", body_text: "17 avril 2023 Du 24 au 28 avril, la salle d'attente est repeinte.", word_count: 14 }),
    entry("/nos-travaux-protheses", { title: "Nos travaux de prothèse", body_text: `Publié le 12 mars 2019. ${long("prothese")}` }),
    entry("/actualites/salle-de-sterilisation", { title: "Une salle de stérilisation toute neuve", body_text: "12 mai 2019 Après trois semaines de travaux, notre nouvelle salle de stérilisation est en service.", word_count: 16 }),
    entry("/?cat=3", { body_text: "Catégorie Lire la suite", word_count: 4, links: ["http://old.example/soins.html"] }),
    entry("/blog.html", { body_text: `${base.split(" ").slice(0, 40).join(" ")} ${long("couronne").split(" ").slice(0, 40).join(" ")}`, word_count: 80, links: ["http://old.example/soins.html", "http://old.example/couronne.html"] }),
    entry("/couronne.html", { body_text: long("couronne"), word_count: 240 }),
    entry("/docs/tarifs.pdf", { content_type: "application/pdf", body_text: "", word_count: 0 }),
    entry("/vieux.html", { status: 404, body_text: "", word_count: 0 }),
    entry("/ancien.html", { redirects: [{ url: "http://old.example/ancien.html", status: 301 }], final_url: "http://old.example/soins.html", body_text: "", word_count: 0 }),
    entry("/panne.html", { status: 0, error: "no answer within 10000 ms", body_text: "", word_count: 0 }),
    entry("/cache.html", { noindex: true }),
  ]);
  const by = (path: string) => rows.find((r) => r.path === path)!;

  it.each([
    ["/soins.html", "reuse", /240 words/],
    ["/soins-copie.html", "reuse", /duplicate of \/soins.html: redirected with it/],
    ["/soins-bis.html", "rewrite", /near-duplicate of \/soins.html \(similarity 0\.\d\d\): merge/],
    ["/court.html", "rewrite", /thin: 3 words \(fewer than 100\)/],
    // Judged by its content, not by the date in its URL: an evergreen post stays.
    ["/actualites/2019/brossage.html", "reuse", /240 words/],
    // A notice of its time, however long: named so (title, headline or URL) and dated in a past year.
    ["/actualites/conges-2019.html", "skip", /dated notice: conges 2019, past/],
    ["/?p=41", "skip", /dated notice: horaires 2018, past/],
    // New regular hours are the practice's hours, not a notice of their time; the holidays' hours are one.
    ["/actualites/2019/nouveaux-horaires.html", "reuse", /\d+ words/],
    ["/actualites/2019/nouveaux-horaires-vacances.html", "skip", /dated notice: /],
    ["/actualites/2019/nouveaux-horaires-ete.html", "skip", /dated notice: /],
    // A newcomer's welcome is kept: it follows the member's page when the new site has one (redirect-map.ts).
    ["/?p=42", "reuse", /\d+ words, linked from 0 pages/],
    ["/actus/fermeture.html", "skip", /dated notice: fermeture 2019/],
    // A regular day of closing is hours the practice keeps, dated or not; one day's closing is a notice.
    ["/blog/a-partir-de-septembre-le-cabinet-ferme-le-mercredi-24", "rewrite", /thin: 9 words/],
    ["/actus/ferme-le-mercredi-15-aout-2019", "skip", /dated notice: ferme 2019/],
    // An event of its time, dated or not (every blind truth drops them); screening as a care, a day at the practice, kept.
    ["/blog/mois-sans-tabac-vos-gencives-vous-disent-merci", "skip", /an event of its time: mois sans tabac/],
    ["/actualites/journee-de-depistage-des-maladies-des-gencives-le-28-mai", "skip", /an event of its time: journee de depistage/],
    ["/actualites/octobre-rose", "skip", /an event of its time: octobre rose/],
    ["/soins/depistage-du-cancer-buccal", "reuse", /\d+ words/],
    ["/le-cabinet/une-journee-au-cabinet", "reuse", /\d+ words/],
    // A holiday's day, a day of this week, a date and another day: notices (the outside review's).
    ["/actus/2019/ferme-le-lundi-de-pentecote", "skip", /dated notice: ferme 2019/],
    ["/actus/2019/ferme-samedi", "skip", /dated notice: ferme 2019/],
    ["/actus/2019/ferme-le-jeudi-8-mai-et-vendredi", "skip", /dated notice: ferme 2019/],
    // Works at the practice, named so: a notice of their time. Works a post's text tells of (a new room): kept.
    ["/blog/travaux-salle-d-attente", "skip", /dated notice: travaux 2023, past/],
    ["/actualites/salle-de-sterilisation", "rewrite", /thin: 16 words/],
    // A page of some length named for works: the practice's own work (the outside review's), kept.
    ["/nos-travaux-protheses", "reuse", /\d+ words/],
    ["/?cat=3", "skip", /listing of 1 pages/],
    ["/blog.html", "skip", /listing of 2 pages \(blog, category, tag or archive\)/],
    ["/docs/tarifs.pdf", "rewrite", /document \(application\/pdf\), linked from no page/],
    ["/vieux.html", "skip", /answers 404 on the old site/],
    ["/ancien.html", "reuse", /redirected by the old site to \/soins.html: follows it/],
    ["/panne.html", "skip", /request failed: no answer/],
    ["/cache.html", "skip", /noindex on the old site/],
  ])("%s: %s", (path, verdict, reason) => {
    expect(by(path).verdict).toBe(verdict);
    expect(by(path).reason).toMatch(reason);
  });

  it("notes what a page lacks, and groups duplicates with the shortest URL first", () => {
    expect(by("/court.html").issues).toEqual(["1 image without alt", "thin"]);
    expect(by("/soins-bis.html").issues).toEqual(["no meta description"]);
    expect(groups).toEqual([["/soins.html", "/soins-bis.html", "/soins-copie.html"]]);
  });

  it("writes a table the operator's edits can be read back from", () => {
    const dir = mkdtempSync(join(tmpdir(), "assess-"));
    const file = join(dir, "content-assessment.md");
    const edited = rows.map((r) => (r.path === "/court.html" ? { ...r, verdict: "skip" as const, notes: "page | retirée" } : r));
    writeFileSync(file, renderAssessment("dupont", edited, groups, 1));
    const read = readAssessment(file);
    expect(read.size).toBe(rows.length);
    expect(read.get("/court.html")).toEqual({ verdict: "skip", notes: "page | retirée" });
    expect(read.get("/soins.html")).toEqual({ verdict: "reuse", notes: "" });
  });
});

describe("a short post shown as a card by the listings that list it", () => {
  const O = "http://old.example";
  const vocab = "dent gencive soin sourire brossage fil detartrage carie email plaque fluor conseil patient visite controle".split(" ");
  const text = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `${vocab[(seed * 7 + i * 3) % vocab.length]}${(seed * 13 + i) % 50}`).join(" ");
  // A short post: its lead (on the blog's card and on a tag's card), then a sentence the member's page says too.
  const lead = text(1, 14);
  const rest = text(2, 12);
  const site = (path: string, title: string) => {
    const card = `${title} 3 mars 2021 ${lead} Lire la suite`;
    const anchors = [{ url: `${O}${path}`, text: title }, { url: `${O}${path}`, text: "Lire la suite" }];
    return assessPages([
      entry(path, { title, h1: title, body_text: `${title} ${lead} ${rest}`, word_count: 30, links: [`${O}/blog/`, `${O}/tag/vie/`, `${O}/dr-moreau`] }),
      entry("/blog/", { h1: "Actualités", body_text: `Actualités ${card} ${text(9, 40)}`, links: [`${O}${path}`], anchors }),
      entry("/tag/vie/", { h1: "Vie du cabinet", body_text: `Vie du cabinet ${card}`, links: [`${O}${path}`], anchors }),
      entry("/dr-moreau", { h1: "Dr Moreau", body_text: `Dr Moreau ${rest} ${text(5, 80)}` }),
    ]).rows;
  };

  it("is no listing of them: they quote its words (Ghost's welcome, Joomla 4's and SITE123's advice posts)", () => {
    const rows = site("/blog/bienvenue-au-dr-moreau", "Bienvenue au Dr Moreau");
    expect(rows.find((r) => r.path === "/blog/bienvenue-au-dr-moreau")!.reason).not.toMatch(/listing/);
    // The tag's page is still a listing.
    expect(rows.find((r) => r.path === "/tag/vie/")!.reason).toMatch(/^listing of/);
  });

  it("a job's ad is judged as before (the blind truths split on an old ad for a job still offered)", () => {
    const rows = site("/blog/offre-d-emploi-assistant-e-dentaire", "Offre d'emploi : assistant(e) dentaire");
    expect(rows.find((r) => r.path === "/blog/offre-d-emploi-assistant-e-dentaire")!.reason).toMatch(/^listing of/);
  });

  it("showsAsCard: a linked title, a date, then the page's lead; not a page under a section, nor words deep in its text", () => {
    const shared = (a: string) => new Set(a.split(" ").slice(0, -2).map((_, i) => a.split(" ").slice(i, i + 3).join(" ")));
    const page = { text: `Bienvenue au Dr Moreau ${lead} ${rest}`, name: "Bienvenue au Dr Moreau" };
    const card = { text: `Actualités Bienvenue au Dr Moreau 3 mars 2021 ${lead} Lire la suite`, headline: "Actualités" };
    expect(showsAsCard(card, ["Bienvenue au Dr Moreau"], shared(lead), page)).toBe(true);
    // A card wrapped in its link: its blocks run together in the link's text.
    expect(showsAsCard({ text: `Actualités Bienvenue au Dr Moreau ${lead}`, headline: "Actualités" }, [`Bienvenue au Dr Moreau ${lead}`], shared(lead), page)).toBe(true);
    // No link to the page: no card of it (a member's page saying the same sentence).
    expect(showsAsCard(card, [], shared(lead), page)).toBe(false);
    // The words shared are the page's, far into its text: no lead shown.
    const deep = { text: `Bienvenue au Dr Moreau ${text(7, 30)} ${lead}`, name: "Bienvenue au Dr Moreau" };
    expect(showsAsCard(card, ["Bienvenue au Dr Moreau"], shared(lead), deep)).toBe(false);
    // A breadcrumb's link then the lister's own headline and lead: a page under a section (the section's page), no card.
    const section = { text: `Accueil Nos soins Implants ${lead}`, headline: "Implants" };
    expect(showsAsCard(section, ["Accueil Nos soins"], shared(lead), { text: `Nos soins ${lead}`, name: "Nos soins" })).toBe(false);
    // The link's text far before the words shared: a menu, not a card's title.
    expect(showsAsCard({ text: `Bienvenue au Dr Moreau ${text(8, 20)} ${lead}`, headline: "" }, ["Bienvenue au Dr Moreau"], shared(lead), page)).toBe(false);
  });

  it("showsAsCard: a lister sharing more than the card (a blog page showing the posts a post's 'À lire aussi' shows too)", () => {
    const shared = (...parts: string[]) => new Set(parts.flatMap((a) => a.split(" ").slice(0, -2).map((_, i) => a.split(" ").slice(i, i + 3).join(" "))));
    const other = text(3, 14);
    // The post: a category above its headline, a byline, its lead; then another post's card.
    const post = { text: `Vie du cabinet Bienvenue au Dr Moreau Cabinet du Dr Bernard 3 mars 2021 ${lead} À lire aussi Conseils Brossage ${other}`, name: "Bienvenue au Dr Moreau" };
    // The blog page: the other post's card first, then this one's (its category above its linked title).
    const blog = { text: `Le blog Conseils Brossage ${other} 1 min Vie du cabinet Bienvenue au Dr Moreau ${lead} 1 min`, headline: "Le blog" };
    expect(showsAsCard(blog, ["Bienvenue au Dr Moreau"], shared(other, lead, "vie du cabinet"), post)).toBe(true);
    // Without a link to the post, or with its lead far from the link's text: no card of it.
    expect(showsAsCard(blog, ["Brossage des dents"], shared(other, lead), post)).toBe(false);
    const far = { text: `Le blog Conseils Brossage ${other} Bienvenue au Dr Moreau ${text(8, 20)} ${lead}`, headline: "Le blog" };
    expect(showsAsCard(far, ["Bienvenue au Dr Moreau"], shared(other, lead), post)).toBe(false);
  });

  it("showsAsCard: a one-word label is a card's title when it is the page's own name, whole, and its lead follows at once", () => {
    // (Word triples as the assessment reads them: lower case, accents off.)
    const shared = (a: string) => new Set(words(a).slice(0, -2).map((_, i, w) => w.slice(i, i + 3).join(" ")));
    const perioLead = "Parodontologie La parodontologie soigne les tissus qui tiennent les dents";
    const hub = { text: `Accueil Soins Parodontologie ${perioLead} ${rest}`, name: "Parodontologie" };
    // A treatments' index: each treatment's name linked, then its lead.
    const index = { text: `Nos soins Orthodontie Aligner les dents à tout âge ${perioLead} Implantologie Remplacer une dent`, headline: "Nos soins" };
    expect(showsAsCard(index, ["Parodontologie"], shared(perioLead), hub)).toBe(true);
    // A one-word label that is not the page's whole name ("Gencives" for "Parodontologie"), or a name of more words: no.
    expect(showsAsCard(index, ["Gencives"], shared(perioLead), hub)).toBe(false);
    const twoWords = { text: `Accueil Soins Parodontologie ${perioLead} ${rest}`, name: "Parodontologie douce" };
    expect(showsAsCard(index, ["Parodontologie"], shared(perioLead), twoWords)).toBe(false);
    // The word elsewhere than where the shared words begin (a menu's "Parodontologie", the lead quoted further on): no.
    const menu = { text: `Parodontologie Orthodontie Implantologie Actualités ${text(9, 20)} ${perioLead.split(" ").slice(1).join(" ")}`, headline: "Actualités" };
    expect(showsAsCard(menu, ["Parodontologie"], shared(perioLead.split(" ").slice(1).join(" ")), { text: `Parodontologie ${perioLead.split(" ").slice(1).join(" ")} ${rest}`, name: "Parodontologie" })).toBe(false);
  });
});

describe("a short post with an 'À lire aussi' card of a notice", () => {
  const O = "http://old.example";
  const closure = "Sur consigne de l'Ordre, le cabinet ferme à partir du mardi 17 mars. Pour une urgence, laissez un message.";
  const rows = assessPages([
    entry("/blog/radiographie-numerique", {
      title: "Radiographie numérique : dix fois moins de rayons",
      body_text: `13 janvier 2020 Nouvelle année, nouvel équipement : le cabinet passe à la radiographie numérique, dix fois moins de rayons. À lire aussi COVID-19 : le cabinet ferme ses portes ${closure} 16 mars 2020`,
      word_count: 50,
      links: [`${O}/blog/covid-19-le-cabinet-ferme`],
      anchors: [{ url: `${O}/blog/covid-19-le-cabinet-ferme`, text: "COVID-19 : le cabinet ferme ses portes" }],
    }),
    entry("/blog/covid-19-le-cabinet-ferme", { title: "COVID-19 : le cabinet ferme ses portes", body_text: `16 mars 2020 ${closure}`, word_count: 22 }),
  ]).rows;
  const by = (path: string) => rows.find((r) => r.path === path)!;

  it("is no notice by the card's words: they are the other post's (Hostinger's posts, three cards under each)", () => {
    expect(by("/blog/radiographie-numerique").reason).toMatch(/^thin/);
  });

  it("leaves the notice a notice", () => {
    expect(by("/blog/covid-19-le-cabinet-ferme").verdict).toBe("skip");
  });
});


describe("Docvadis's news items and home page", () => {
  it("showsAsCard: a news item whose title stands in a breadcrumb, then under the section's heading and a date line", () => {
    const lead = "le cabinet accueille une nouvelle praticienne diplomee en chirurgie implantaire elle pose les implants";
    const item = `Accueil Actualités Arrivée du Dr Nadia Haddad Actualités du cabinet Publié le 07/11/2016 dans Vie du cabinet Arrivée du Dr Nadia Haddad ${lead}`;
    const list = { text: `Actualités du cabinet : Vie du cabinet 7 novembre 2016 Vie du cabinet Arrivée du Dr Nadia Haddad ${lead} Lire la suite`, headline: "Actualités du cabinet : Vie du cabinet" };
    const triples = (a: string) => words(a).slice(0, -2).map((_, i) => words(a).slice(i, i + 3).join(" "));
    // The words they share: the item's text, and the section's heading and category both print.
    const shared = new Set([...triples(lead), "actualites du cabinet", "vie du cabinet"]);
    const crumbs = ["Accueil", "Actualités"];
    expect(showsAsCard(list, ["Arrivée du Dr Nadia Haddad"], shared, { text: item, name: "Arrivée du Dr Nadia Haddad", crumbs })).toBe(true);
    // The same words without a breadcrumb link before its first title: that one opens it, and the lead is too far.
    expect(showsAsCard(list, ["Arrivée du Dr Nadia Haddad"], shared, { text: item, name: "Arrivée du Dr Nadia Haddad", crumbs: ["Accueil"] })).toBe(false);
    // Its title deep in its text is no opening.
    const deep = `Accueil Actualités Arrivée du Dr Nadia Haddad ${long("x", 20)} Arrivée du Dr Nadia Haddad ${lead}`;
    expect(showsAsCard(list, ["Arrivée du Dr Nadia Haddad"], shared, { text: deep, name: "Arrivée du Dr Nadia Haddad", crumbs })).toBe(false);
  });

  it("showsAsCard: a page's name repeated in its opening sentences, no breadcrumb before it, opens it where it first stands", () => {
    // (The review's repro: "Implants" said twice more in its lead; a listing showing that lead after a link.)
    const lead = "Les implants remplacent une dent absente Un implant en titane porte une couronne et les implants tiennent des annees";
    const other = "Le fil dentaire retire la plaque entre les dents la ou la brosse ne passe pas";
    const page = { text: `Implants ${lead} Le bilan prealable comprend un scanner A lire aussi Le fil dentaire ${other}`, name: "Implants", crumbs: ["Le fil dentaire", "Accueil"] };
    const lister = { text: `Nos soins Le fil dentaire ${other} Voir Les implants dentaires ${lead} En savoir plus`, headline: "Nos soins" };
    const triples = (a: string) => words(a).slice(0, -2).map((_, i, w) => w.slice(i, i + 3).join(" "));
    const shared = new Set(triples(page.text).filter((t) => new Set(triples(lister.text)).has(t)));
    expect(showsAsCard(lister, ["Les implants dentaires"], shared, page)).toBe(true);
  });

  it("the page the root redirects to on the same host, and its copy, is the home page, not a listing of the pages it links to", () => {
    const O = "http://old.example";
    const targets = ["implants", "blanchiment", "facettes", "equipe", "contact", "tarifs"].map((t) => `/site/page/${t}.html`);
    const labels = targets.map((t, i) => `${long(`lien${i}`, 5)} ${t.split("/").at(-1)!.replace(".html", "")}`);
    const body = labels.join(" ");
    const anchors = targets.map((t, i) => ({ url: `${O}${t}`, text: labels[i] }));
    const home = (path: string) => entry(path, { body_text: body, links: targets.map((t) => `${O}${t}`), anchors });
    const pages = targets.map((t) => entry(t));
    const root = entry("/", { redirects: [{ url: `${O}/`, status: 302 }] as unknown as CrawlEntry["redirects"], final_url: `${O}/site/index.html`, body_text: body });
    const facts = assessPages([root, home("/site/"), home("/site/index.html"), ...pages]);
    expect([...facts.homeUrls].sort()).toEqual([`${O}/site/`, `${O}/site/index.html`]);
    expect(facts.rows.find((r) => r.path === "/site/")!.reason).not.toMatch(/listing/);
    // With a root of its own (no redirect), the same page of links is a listing (a site map).
    const alone = assessPages([entry("/"), home("/site/"), ...pages]);
    expect(alone.homeUrls.size).toBe(0);
    expect(alone.rows.find((r) => r.path === "/site/")!.reason).toMatch(/^listing of/);
    // A crawl started below the root, at the practice's folder: that folder's index is the home page.
    expect([...assessPages([home("/site/"), ...pages]).homeUrls]).toEqual([`${O}/site/`]);
    // A root sent to a dated notice, a maintenance page or a promotion is no home page (a redirect there is a soft 404).
    const sentTo = (path: string, over: Partial<CrawlEntry>) =>
      assessPages([{ ...root, final_url: `${O}${path}` }, entry(path, over), home("/site/"), ...pages]).homeUrls;
    const notice = { h1: "Fermeture du cabinet - Covid 19", title: "Fermeture du cabinet - Covid 19", body_text: "Le cabinet est fermé jusqu'au 11 mai 2020 en raison du confinement. Pour une urgence appelez le 15." };
    expect(sentTo("/actualites/2020/fermeture-covid.html", notice).size).toBe(0);
    // (Even a notice at a folder's index: the assessment skips it.)
    expect(sentTo("/fermeture-covid/", notice).size).toBe(0);
    expect(sentTo("/maintenance/", { h1: "Site en maintenance" }).size).toBe(0);
    expect(sentTo("/promo-blanchiment.html", { h1: "Blanchiment -20 %" }).size).toBe(0);
    // By its links: the page the pages' "Accueil" links point to, whatever its shape; not another one.
    const accueil = (to: string) => targets.map((t) => entry(t, { links: [`${O}${to}`], anchors: [{ url: `${O}${to}`, text: "Accueil" }] }));
    expect([...assessPages([{ ...root, final_url: `${O}/site/start.php` }, home("/site/start.php"), ...accueil("/site/start.php")]).homeUrls]).toEqual([`${O}/site/start.php`]);
    expect(assessPages([root, home("/site/index.html"), ...accueil("/site/autre.html"), entry("/site/autre.html")]).homeUrls.size).toBe(0);
  });
});

describe("a headline several pages share is a section's, not a page's name (Docvadis's news items, through assessPages)", () => {
  const O = "http://old.example";
  const items = [
    { path: "/actualites/arrivee", title: "Arrivée du Dr Nadia Haddad", lead: "Le Dr Nadia Haddad rejoint le cabinet ce mois-ci diplômée en chirurgie implantaire elle prendra en charge la pose des implants" },
    { path: "/actualites/anesthesie", title: "Nouveau l'anesthésie sans douleur", lead: "Le cabinet s'équipe d'un système d'anesthésie assistée par ordinateur le produit est injecté goutte à goutte sans douleur" },
    { path: "/actualites/site", title: "Notre site fait peau neuve", lead: "Bienvenue sur le nouveau site du cabinet vous y trouverez nos horaires nos soins et des fiches santé pour mieux comprendre" },
  ];
  const more = (k: number) => `${long(`suite${k}`, 6)} la suite du texte de cette actualité`;
  /**
   * Each item: a breadcrumb ending in its title, the section's heading (its headline), a date line, its title and
   * lead, then an "À lire aussi" card of the next item (a longer excerpt than the news page's). The news page shows
   * each title and lead.
   */
  const site = (headlines: readonly string[]) => {
    const next = (k: number) => items[(k + 1) % items.length];
    const news = entry("/actualites", {
      h1: "Actualités",
      body_text: `Nos actualités ${items.map((i) => `${i.title} ${i.lead} Lire la suite`).join(" ")}`,
      links: items.map((i) => `${O}${i.path}`),
      anchors: items.map((i) => ({ url: `${O}${i.path}`, text: i.title })),
    });
    const pages = items.map((i, k) =>
      entry(i.path, {
        title: i.title,
        h1: headlines[k],
        body_text: `Accueil Actualités ${i.title} ${headlines[k]} Publié le 07/11/2016 dans Vie du cabinet ${i.title} ${i.lead} ${more(k)} À lire aussi ${next(k).title} ${next(k).lead} ${more(k + 1).split(" ").slice(0, 6).join(" ")}`,
        links: [`${O}/`, `${O}/actualites`, `${O}${next(k).path}`],
        anchors: [
          { url: `${O}/`, text: "Accueil" },
          { url: `${O}/actualites`, text: "Actualités" },
          { url: `${O}${next(k).path}`, text: next(k).title },
        ],
      }),
    );
    return assessPages([entry("/", { h1: "Cabinet dentaire" }), news, ...pages]).rows;
  };
  const reasons = (rows: ReturnType<typeof site>) => items.map((i) => rows.find((r) => r.path === i.path)!.reason);

  it("names each item by its own title: the news page shows it as a card, it is no listing", () => {
    expect(reasons(site(items.map(() => "Actualités du cabinet")))).toEqual(items.map(() => expect.not.stringMatching(/^listing of/)));
    // The headline folded as the site's text is (case, accents, spaces): still one section's heading.
    expect(reasons(site(["Actualités du cabinet", "ACTUALITES du  Cabinet", "Actualités du cabinet "]))).toEqual(items.map(() => expect.not.stringMatching(/^listing of/)));
    // Each item its own headline (not in its text as written): named by it, no card is found, and the first item,
    // quoted whole by the news page and the previous item's card, is taken for a listing of them.
    expect(reasons(site(items.map((i) => `${i.title} : l'actualité`)))[0]).toMatch(/^listing of/);
  });
});
