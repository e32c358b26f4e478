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
