import { describe, expect, it } from "vitest";
import { ownContent, sectionOf } from "./boilerplate";
import type { CrawlEntry } from "./files";

const page = (url: string, body_text: string) =>
  ({ url, final_url: url, status: 200, redirects: [], error: null, content_type: "text/html", title: "x", body_text, word_count: body_text.split(" ").length }) as unknown as CrawlEntry;

const CHROME = "Retour au blog Ajouter un commentaire Partager sur les réseaux";
const SUBJECTS = ["tabac et gencives", "dents de sagesse", "brosse à dents", "fil dentaire", "premier bilan"];

describe("ownContent: what a site or one of its sections repeats is not a page's own text", () => {
  const posts = SUBJECTS.map((s, i) => page(`http://a.fr/blog/post-${i}.html`, `${s} : un article sur ${s} ${CHROME}`));
  const pages = Array.from({ length: 8 }, (_, i) => page(`http://a.fr/pages/p${i}.html`, `Page ${i} parle de soin numéro ${i} en détail`));

  it("drops a blog post's chrome, carried by half the posts of its folder, though far from half the site", () => {
    const own = ownContent([...posts, ...pages]);
    expect(own.get(posts[0].url)!.text).toBe("tabac et gencives : un article sur tabac et gencives");
    expect(own.get(pages[0].url)!.text).toBe(pages[0].body_text);
  });

  it("keeps the same text in a folder where it is no template (fewer than four pages, or under half of them)", () => {
    const once = page("http://a.fr/pages/merci.html", `Merci de votre visite ${CHROME}`);
    const own = ownContent([...posts.slice(0, 3), ...pages, once]);
    expect(own.get(posts[0].url)!.text).toContain("Retour au blog");
    expect(own.get(once.url)!.text).toContain("Retour au blog");
  });

  it("gives every copy of one text the same own text, whichever folders its URLs are in", () => {
    const alias = page("http://a.fr/node/30", posts[0].body_text);
    const own = ownContent([...posts, ...pages, alias]);
    expect(own.get(alias.url)!.text).toBe(own.get(posts[0].url)!.text);
  });

  it("sectionOf: the folder of a page", () => {
    expect([sectionOf("http://a.fr/blog/x.html"), sectionOf("http://a.fr/blog/tag/y/"), sectionOf("http://a.fr/contact"), sectionOf("http://a.fr/")]).toEqual(["/blog/", "/blog/tag/", "/", "/"]);
  });
});

describe("ownContent: the site's parts of a title", () => {
  it("peels the site's name and its tagline after it, both on most titles, not only the last part", () => {
    const titled = ["Arrivée du Dr Nadia Haddad", "Les implants", "Nos horaires", "Contact", "Le blanchiment"].map((t, i) => ({
      ...page(`http://a.fr/p${i}.html`, `Texte ${i} de la page ${t}`),
      title: `${t} - Cabinet dentaire du Dr Camille Petit - Chirurgien-dentiste à Lille`,
    }));
    const own = ownContent(titled);
    expect(own.get(titled[0].url)!.title).toBe("Arrivée du Dr Nadia Haddad");
    // A part of the page's own name that a separator cuts is kept.
    const colon = { ...page("http://a.fr/q.html", "Texte q"), title: "Éclaircissement : au fauteuil ou à la maison ? - Cabinet dentaire du Dr Camille Petit - Chirurgien-dentiste à Lille" };
    expect(ownContent([...titled, colon]).get(colon.url)!.title).toBe("Éclaircissement - au fauteuil ou à la maison ?");
  });

  it("keeps a title whose every part is the site's or a section's by its first and last parts (a hub, a page titled like the tagline)", () => {
    const titled = (entries: { url: string; title: string }[]) => ownContent(entries.map((e, i) => ({ ...page(e.url, `Texte ${i} de ${e.title}`), title: e.title })));
    const cares = ["Implants", "Parodontologie", "Orthodontie", "Blanchiment", "Prothèses", "Soins conservateurs"];
    const hub = { url: "http://a.fr/nos-soins/", title: "Nos soins - Cabinet dentaire du Dr Martin" };
    expect(titled([...cares.map((t, i) => ({ url: `http://a.fr/nos-soins/${i}`, title: `${t} - Nos soins - Cabinet dentaire du Dr Martin` })), hub]).get(hub.url)!.title).toBe("Nos soins");
    const petit = { url: "http://b.fr/dr-petit", title: "Dr Petit | Dentiste à Lille" };
    expect(titled([...["Implants", "Couronnes", "Contact", "Horaires", "Tarifs"].map((t, i) => ({ url: `http://b.fr/${i}`, title: `${t} | Dr Petit | Dentiste à Lille` })), petit]).get(petit.url)!.title).toBe("Dr Petit");
    const news = { url: "http://c.fr/actualites/", title: "Cabinet Dupont · Actualités" };
    expect(titled([...["Nouveau fauteuil", "Fermeture estivale", "Le fil dentaire", "Bien se brosser", "Arrivée"].map((t, i) => ({ url: `http://c.fr/actualites/${i}`, title: `Cabinet Dupont · Actualités · ${t}` })), news]).get(news.url)!.title).toBe("Actualités");
  });
});
