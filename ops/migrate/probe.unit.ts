import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REDIRECTS_FILE, StepError, type CrawlEntry } from "./files";
import { LEARNED_IN_MAP_FILE, learnedGrammarOf } from "./redirect-map";
import { readPage } from "./page";
import { LEARNED_FILE, MAX_PROBES, probeIds, saveLearned, type ProbeGet } from "./probe";

const ORIGIN = "http://old.example";
type Answer = { status: number; text: string; type: string; location?: string };
const page = (title: string, text: string, markup = ""): Answer => ({
  status: 200,
  type: "text/html",
  text: `<!DOCTYPE html><html><head><title>Cabinet | ${title}</title></head><body><nav><a href="/">Accueil</a></nav><main>${markup}<h1>${title}</h1><p>${text}</p></main></body></html>`,
});
const moved = (location: string, status = 301): Answer => ({ status, type: "text/html", text: "", location });
const NOT_FOUND: Answer = { status: 404, type: "text/html", text: "<html><head><title>Page introuvable</title></head><body><h1>Erreur 404</h1></body></html>" };

/** A crawled entry of a fake site's answer, read as the crawl reads it. */
function crawled(site: (path: string) => Answer, path: string): CrawlEntry {
  const answer = site(path);
  const { truncated: _t, refresh: _r, ...facts } = readPage(answer.text, `${ORIGIN}${path}`);
  return { url: `${ORIGIN}${path}`, status: answer.status, redirects: [], final_url: `${ORIGIN}${path}`, content_type: answer.type, error: "", ...facts };
}

/** The entries in the order crawl.ts writes them (by URL), as the probes get them. */
const inCrawlOrder = (entries: CrawlEntry[]) => [...entries].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));

function probe(site: (path: string) => Answer, paths: string[]) {
  const asked: string[] = [];
  const get: ProbeGet = async (path) => {
    asked.push(path);
    return site(path);
  };
  return { asked, run: () => probeIds(inCrawlOrder(paths.map((p) => crawled(site, p))), get, () => true) };
}

const ARTICLES: Record<number, [string, string]> = {
  3: ["Dr Sophie Bernard", "Orthodontie des enfants et soins courants."],
  34: ["Gencives qui saignent", "Faut-il s'inquiéter quand les gencives saignent au brossage ?"],
  55: ["Arrivée du Dr Moreau", "Le Dr Lucas Moreau rejoint le cabinet pour la parodontologie."],
};
/** A CMS naming its articles by id: `/actualites/N[/anything]`, `?id=N` on any path (beside `s`), `?s=<section>`. */
function idSite(path: string): Answer {
  const u = new URL(path, ORIGIN);
  const id = u.searchParams.get("id");
  const s = u.searchParams.get("s");
  if (id !== null) return ARTICLES[Number(id)] && s !== "file_download" ? page(...ARTICLES[Number(id)]) : NOT_FOUND;
  if (s === "contact" || u.pathname === "/contact/") return page("Contact", "Téléphone et formulaire.");
  if (s !== null) return NOT_FOUND;
  if (u.pathname === "/") return page("Accueil", "Bienvenue au cabinet.");
  if (u.pathname === "/cabinet/dr-sophie-bernard") return page(...ARTICLES[3]);
  const m = /^\/actualites\/(\d+)(?:\/[^/]*)?$/.exec(u.pathname);
  return m && ARTICLES[Number(m[1])] ? page(...ARTICLES[Number(m[1])]) : NOT_FOUND;
}

describe("probeIds: an old site's ids learned by asking it", () => {
  it("confirms an id path, an id query on any path beside the parameters it ignores, and a section's query; each page's id read", async () => {
    const { asked, run } = probe(idSite, ["/", "/contact/", "/cabinet/dr-sophie-bernard", "/actualites/34/gencives-qui-saignent", "/actualites/55/lucas-moreau", "/index.php?s=contact"]);
    const result = await run();
    expect(result.learned.idPaths).toEqual(["/actualites"]);
    expect(result.learned.idQuery).toMatchObject({ name: "id", anyPath: true });
    expect(result.learned.idQuery!.with).toContain("s=contact");
    expect(result.learned.idQuery!.with).not.toContain("s=file_download");
    // Every id the old site answered with a crawled page, and that page only; the unknown ones are no one's.
    expect(result.ownUrls.get(`${ORIGIN}/cabinet/dr-sophie-bernard`)).toEqual([`${ORIGIN}/?id=3`]);
    expect(result.ownUrls.get(`${ORIGIN}/actualites/55/lucas-moreau`)).toEqual([`${ORIGIN}/?id=55`]);
    expect(result.ownUrls.get(`${ORIGIN}/contact/`)).toEqual([`${ORIGIN}/?s=contact`]);
    expect(result.ownUrls.get(`${ORIGIN}/`)).toBeUndefined();
    expect(result.probes).toBe(asked.length);
    expect(asked.length).toBeLessThanOrEqual(MAX_PROBES);
  });

  it("refutes a number that is no id: a year before a slug (the slug alone names the post), an id query answered by the home page", async () => {
    const site = (path: string): Answer => {
      const u = new URL(path, ORIGIN);
      if (u.pathname === "/" ) return page("Accueil", "Bienvenue au cabinet."); // `/?id=N` too: the home page
      if (u.pathname === "/blog/2019/implant-ou-bridge") return page("Implant ou bridge ?", "Deux façons de remplacer une dent.");
      if (u.pathname === "/blog/2019") return page("Articles de 2019", "Implant ou bridge ? Deux façons de remplacer une dent.");
      return NOT_FOUND;
    };
    const { run } = probe(site, ["/", "/blog/2019/implant-ou-bridge", "/?id=2019"]);
    const result = await run();
    expect(result.learned).toEqual({ idPaths: [], idQuery: null, idForms: [] });
    expect(result.ownUrls.size).toBe(0);
  });

  it("learns nothing of a site answering every URL with one page, however its slugs and ids are changed (the unknown id's control)", async () => {
    const site = (path: string): Answer => (path.startsWith("/") ? page("Cabinet du Dr Martin", "Une application d'une seule page.") : NOT_FOUND);
    const { run } = probe(site, ["/", "/actualites/55/lucas-moreau"]);
    const result = await run();
    expect(result.learned).toEqual({ idPaths: [], idQuery: null, idForms: [] });
    expect(result.ownUrls.size).toBe(0);
  });
});

describe("probeIds: the review's fixes", () => {
  it("asks every id the crawl knows before the sweep, and keeps a prefix's ids apart from another's", async () => {
    const articles: Record<number, [string, string]> = { 55: ["Arrivée du Dr Moreau", "Parodontologie."], 300: ["Nouveaux horaires", "Le cabinet ouvre le samedi."] };
    const site = (path: string): Answer => {
      const u = new URL(path, ORIGIN);
      const id = u.searchParams.get("id");
      if (id !== null) return articles[Number(id)] ? page(...articles[Number(id)]) : NOT_FOUND;
      if (u.pathname === "/") return page("Accueil", "Bienvenue au cabinet.");
      const file = /^\/Fichiers\/(\d+)(?:\/[^/]*)?$/.exec(u.pathname);
      if (file && ["1", "2"].includes(file[1])) return { status: 200, type: "application/pdf", text: `%PDF fichier ${file[1]}` };
      const m = /^\/actualites\/(\d+)(?:\/[^/]*)?$/.exec(u.pathname);
      return m && articles[Number(m[1])] ? page(...articles[Number(m[1])]) : NOT_FOUND;
    };
    // The files first in the crawl's order (`/F` before `/a`): their numbers are no article's (`/?id=1` is no file).
    const { asked, run } = probe(site, ["/", "/Fichiers/1/questionnaire.pdf", "/Fichiers/2/tarifs.pdf", "/actualites/55/arrivee", "/actualites/300/horaires"]);
    const result = await run();
    expect(result.learned.idPaths).toEqual(["/fichiers", "/actualites"]);
    expect(result.learned.idQuery).toMatchObject({ name: "id" });
    expect(result.ownUrls.get(`${ORIGIN}/actualites/300/horaires`)).toEqual([`${ORIGIN}/?id=300`]);
    expect(result.ownUrls.get(`${ORIGIN}/actualites/55/arrivee`)).toEqual([`${ORIGIN}/?id=55`]);
    // (`/?id=1` asked first as the files' subject, refuted; then swept after the known ids.)
    expect(asked.indexOf("/?id=300")).toBeLessThan(asked.lastIndexOf("/?id=1"));
  });

  it("learns no section by a parameter when an unknown value answers a page too (the section probe's control)", async () => {
    const spa = (_path: string): Answer => page("Cabinet du Dr Martin", "Une application d'une seule page.");
    const { run } = probe(spa, ["/", "/contact/", "/soins/", "/?page=2"]);
    const result = await run();
    expect(result.ownUrls.size).toBe(0);
    expect(result.learned).toEqual({ idPaths: [], idQuery: null, idForms: [] });
  });

  it("stops asking after five failed requests in a row", async () => {
    const asked: string[] = [];
    let down = false;
    const get: ProbeGet = async (path) => {
      asked.push(path);
      if (path === "/?id=1") down = true;
      if (down) throw new Error("timeout");
      return idSite(path);
    };
    const paths = ["/", "/contact/", "/cabinet/dr-sophie-bernard", "/actualites/34/gencives-qui-saignent", "/actualites/55/lucas-moreau"];
    const result = await probeIds(paths.map((p) => crawled(idSite, p)), get, () => true);
    expect(asked.length - asked.indexOf("/?id=1")).toBe(5);
    expect(result.probes).toBe(asked.length);
    expect(result.notes.join("; ")).toMatch(/5 requests failed in a row/);
  });
});

/** A block builder's pages: each prints its page id, each served at its address and at `/page<id>.html`; a post prints its blog's. */
const BUILDER: Record<string, { id: number; title: string; text: string }> = {
  "/": { id: 100, title: "Accueil", text: "Bienvenue au centre." },
  "/le-centre": { id: 342, title: "Le centre", text: "Une équipe aux Chartrons." },
  "/tarifs": { id: 780, title: "Tarifs", text: "Honoraires et remboursements." },
  "/actualites": { id: 900, title: "Actualités", text: "Les nouvelles du centre." },
};
function builderSite(path: string): Answer {
  const u = new URL(path, ORIGIN);
  const at = (p: { id: number; title: string; text: string }, id = p.id) => page(p.title, p.text, `<div id="allrecords" data-cms-project-id="77" data-cms-page-id="${id}"></div>`);
  if (u.pathname === "/actualites/post/arrivee-du-dr-moreau") return at({ id: 900, title: "Arrivée du Dr Moreau", text: "Parodontologie." });
  const byId = /^\/page(\d+)\.html$/.exec(u.pathname);
  const found = byId ? Object.values(BUILDER).find((p) => p.id === Number(byId[1])) : BUILDER[u.pathname];
  return found ? at(found) : NOT_FOUND;
}

describe("probeIds: ids printed in a page's markup, confirmed by asking the old site", () => {
  const paths = ["/", "/le-centre", "/tarifs", "/actualites", "/actualites/post/arrivee-du-dr-moreau"];

  it("learns the id form the old site answers each page at, and gives each page its spelling: the page the old site shows, never a post printing its blog's id", async () => {
    const { asked, run } = probe(builderSite, paths);
    const result = await run();
    expect(result.learned.idForms).toEqual(["/page{id}.html"]);
    expect(result.ownUrls.get(`${ORIGIN}/le-centre`)).toEqual([`${ORIGIN}/page342.html`]);
    expect(result.ownUrls.get(`${ORIGIN}/`)).toEqual([`${ORIGIN}/page100.html`]);
    // The post prints its blog's id: `/page900.html` shows the blog, so it is the blog's spelling, not the post's.
    expect(result.ownUrls.get(`${ORIGIN}/actualites`)).toEqual([`${ORIGIN}/page900.html`]);
    expect(result.ownUrls.get(`${ORIGIN}/actualites/post/arrivee-du-dr-moreau`)).toBeUndefined();
    // The project's id, the same on every page, is no page's: never asked.
    expect(asked).not.toContain("/page77.html");
    expect(asked).toContain("/page987654321.html");
  });

  it("learns an id in the place of a page's last segment per folder (`/soins/21` for `/soins/implants`), whatever case the folder is crawled in", async () => {
    const soins: Record<number, [string, string]> = { 21: ["Implants", "Remplacer une dent."], 25: ["Parodontologie", "Soigner les gencives."] };
    const slugs: Record<string, number> = { implants: 21, parodontologie: 25 };
    const site = (path: string): Answer => {
      const m = /^\/soins\/([^/]+)$/i.exec(new URL(path, ORIGIN).pathname);
      const id = m ? (/^\d+$/.test(m[1]) ? Number(m[1]) : slugs[m[1].toLowerCase()]) : undefined;
      if (id !== undefined && soins[id]) return page(...soins[id], `<article class="soin" id="soin-${id}"></article>`);
      return path === "/" ? page("Accueil", "Bienvenue.") : NOT_FOUND;
    };
    const result = await probe(site, ["/", "/Soins/implants", "/soins/parodontologie"]).run();
    expect(result.learned.idForms).toEqual(["/soins/{id}"]);
    // (Each page's spelling as its folder was crawled: what a case-sensitive host answers too.)
    expect(result.ownUrls.get(`${ORIGIN}/Soins/implants`)).toEqual([`${ORIGIN}/Soins/21`]);
    expect(result.ownUrls.get(`${ORIGIN}/soins/parodontologie`)).toEqual([`${ORIGIN}/soins/25`]);
  });

  it("learns nothing where an unknown id shows the page too, or where the id's spelling shows another page", async () => {
    // One page for every URL (an application drawing its pages in the browser), its markup naming the route's id: each
    // id's spelling shows "the page", and so does an unknown id's; the control refutes it.
    const app = (path: string): Answer => {
      const id = /^\/page(\d+)\.html$/.exec(path)?.[1] ?? BUILDER[path]?.id ?? 1;
      return page("Centre dentaire", "Une application d'une seule page.", `<div data-cms-page-id="${id}"></div>`);
    };
    const refuted = await probe(app, paths).run();
    expect(refuted.learned.idForms).toEqual([]);
    expect(refuted.ownUrls.size).toBe(0);
    // Every id spelling showing one page (the pages' ids are not the platform's).
    const other = (path: string): Answer => (/^\/page\d+\.html$/.test(path) ? (path === "/page987654321.html" ? NOT_FOUND : builderSite("/tarifs")) : builderSite(path));
    const wrong = await probe(other, paths).run();
    expect(wrong.learned.idForms).toEqual([]);
    expect(wrong.ownUrls.size).toBe(0);
  });
});

describe("probeIds: the old site's same-site redirects followed", () => {
  /** idSite, whose `?id=N` answers a 301 (or 302) to the article's address. */
  const redirecting = (status: number, to = ORIGIN) => (path: string): Answer => {
    const u = new URL(path, ORIGIN);
    const id = u.searchParams.get("id");
    if (id !== null && [...u.searchParams].length === 1) return ARTICLES[Number(id)] ? moved(`${to}/actualites/${id}/article`, status) : NOT_FOUND;
    return idSite(path);
  };
  const paths = ["/", "/contact/", "/actualites/34/gencives-qui-saignent", "/actualites/55/lucas-moreau"];

  it("takes a page the old site redirects an id's spelling to (one or two hops, same origin) as the page shown there", async () => {
    for (const status of [301, 302]) {
      const result = await probe(redirecting(status), paths).run();
      expect(result.learned.idQuery, String(status)).toMatchObject({ name: "id" });
      expect(result.ownUrls.get(`${ORIGIN}/actualites/55/lucas-moreau`)).toEqual([`${ORIGIN}/?id=55`]);
    }
    // Two hops: `/?id=55` -> `/actualites/55` -> `/actualites/55/article`.
    const twice = (path: string): Answer => {
      const m = /^\/actualites\/(\d+)$/.exec(new URL(path, ORIGIN).pathname);
      return m ? moved(`/actualites/${m[1]}/article`) : redirecting(301)(path).location ? moved(`/actualites/${new URL(path, ORIGIN).searchParams.get("id")}`) : redirecting(301)(path);
    };
    expect((await probe(twice, paths).run()).learned.idQuery).toMatchObject({ name: "id" });
  });

  it("follows no redirect to another host, nor a third hop, nor one robots.txt disallows", async () => {
    expect((await probe(redirecting(301, "http://other.example"), paths).run()).learned.idQuery).toBeNull();
    const chain = (path: string): Answer => {
      const u = new URL(path, ORIGIN);
      const hop = Number(u.searchParams.get("hop") ?? 0);
      if (u.searchParams.has("id") && [...u.searchParams].length <= 2) return hop < 3 ? moved(`/?id=${u.searchParams.get("id")}&hop=${hop + 1}`) : idSite(`/actualites/${u.searchParams.get("id")}/x`);
      return idSite(path);
    };
    expect((await probe(chain, paths).run()).learned.idQuery).toBeNull();
    // A hop robots.txt disallows is not asked: that id's page stays unknown, another id's is learned.
    const asked: string[] = [];
    const get: ProbeGet = async (path) => (asked.push(path), redirecting(301)(path));
    const result = await probeIds(paths.map((p) => crawled(idSite, p)), get, (url) => new URL(url).pathname !== "/actualites/55/article");
    expect(result.learned.idQuery).toMatchObject({ name: "id" });
    expect(result.ownUrls.get(`${ORIGIN}/actualites/34/gencives-qui-saignent`)).toEqual([`${ORIGIN}/?id=34`]);
    expect(result.ownUrls.get(`${ORIGIN}/actualites/55/lucas-moreau`)).toBeUndefined();
    expect(asked).toContain("/?id=55");
    expect(asked).not.toContain("/actualites/55/article");
  });
});

describe("learnedGrammarOf: the grammar the map is drafted with", () => {
  const withFile = (content: string, newPaths: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), "learned-"));
    try {
      writeFileSync(join(dir, LEARNED_FILE), content);
      return learnedGrammarOf(dir, {}, newPaths);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("drops a learned prefix a page of the new site falls under, with a note", () => {
    const { learned, notes } = withFile(JSON.stringify({ idPaths: ["/actualites", "/file_download"], idQuery: null }), ["/", "/actualites/", "/actualites/2024/bilan/"]);
    expect(learned.idPaths).toEqual(["/file_download"]);
    expect(notes).toEqual([expect.stringMatching(/\/actualites dropped: the new site's page \/actualites\/2024\/bilan\//)]);
  });

  it("drops a learned id form a page of the new site is spelled in, with a note", () => {
    const { learned, notes } = withFile(JSON.stringify({ idPaths: [], idQuery: null, idForms: ["/soins/{id}", "/page{id}.html"] }), ["/", "/soins/2024/"]);
    expect(learned.idForms).toEqual(["/page{id}.html"]);
    expect(notes).toEqual([expect.stringMatching(/\/soins\/\{id\} dropped: the new site's page \/soins\/2024\//)]);
  });

  it("refuses a malformed learned-grammar.json, or one whose values do not load, with a StepError", () => {
    for (const content of ["[]", JSON.stringify({ idPaths: "/actualites", idQuery: null }), JSON.stringify({ idPaths: [], idQuery: { name: "id" } }), JSON.stringify({ idPaths: ["/api"], idQuery: null }), JSON.stringify({ idPaths: ["actualites"], idQuery: null })])
      expect(() => withFile(content, ["/"]), content).toThrow(StepError);
  });
});

describe("the learned grammar across runs: a re-crawl withdraws a rule, an operator's edit wins", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "learned-runs-"));
    dirs.push(dir);
    return dir;
  };
  const put = (dir: string, file: string, json: unknown) => writeFileSync(join(dir, file), JSON.stringify(json));
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("withdraws a rule the last crawl's probes no longer confirm; keeps the map's when the probes stopped on failures", async () => {
    const dir = tempDir();
    // The toolkit wrote `$idPaths: /actualites` into the map last time, and the map still holds it as written.
    put(dir, LEARNED_IN_MAP_FILE, { $idPaths: "/actualites" });
    const previous = { $platform: "static", $idPaths: "/actualites" };
    put(dir, REDIRECTS_FILE, previous);
    // The old site now names its articles by their slug only: `/actualites/55` is no page.
    const slugOnly = (path: string): Answer => (/^\/actualites\/\d+$/.test(new URL(path, ORIGIN).pathname) ? NOT_FOUND : idSite(path));
    const result = await probe(slugOnly, ["/", "/actualites/34/gencives-qui-saignent", "/actualites/55/lucas-moreau"]).run();
    expect(result.learned.idPaths).toEqual([]);
    saveLearned(dir, result);
    expect(learnedGrammarOf(dir, previous, ["/"]).learned.idPaths).toEqual([]);
    // The old site down mid-probes: its silence refutes nothing.
    saveLearned(dir, { ...result, stopped: true });
    expect(learnedGrammarOf(dir, previous, ["/"]).learned.idPaths).toEqual(["/actualites"]);
  });

  it("keeps an operator's edit of the map's learned keys over the crawl's, with a note; follows the crawl where the map holds what the toolkit wrote", () => {
    const dir = tempDir();
    put(dir, LEARNED_FILE, { idPaths: ["/actualites"], idQuery: null, idForms: ["/page{id}.html"] });
    put(dir, LEARNED_IN_MAP_FILE, { $idPaths: "/actualites" });
    put(dir, REDIRECTS_FILE, { $idPaths: "/actualites" });
    expect(learnedGrammarOf(dir, { $idPaths: "/actualites" }, ["/"])).toMatchObject({ operator: false, learned: { idPaths: ["/actualites"], idForms: ["/page{id}.html"] } });
    // A prefix added by hand, or the keys removed: the operator's.
    const edited = learnedGrammarOf(dir, { $idPaths: "/actualites /nouvelles" }, ["/"]);
    expect(edited).toMatchObject({ operator: true, learned: { idPaths: ["/actualites", "/nouvelles"], idForms: [] } });
    expect(edited.notes).toEqual([expect.stringMatching(/as edited in .*redirects\.json kept/)]);
    expect(learnedGrammarOf(dir, {}, ["/"])).toMatchObject({ operator: true, learned: { idPaths: [], idForms: [] } });
    // --fresh drafts anew: the crawl's.
    expect(learnedGrammarOf(dir, {}, ["/"], { fresh: true })).toMatchObject({ operator: false, learned: { idPaths: ["/actualites"] } });
    // No record of the toolkit's writing: keys in the map are an operator's; no keys, the crawl's.
    rmSync(join(dir, LEARNED_IN_MAP_FILE));
    expect(learnedGrammarOf(dir, { $idPaths: "/nouvelles" }, ["/"]).learned.idPaths).toEqual(["/nouvelles"]);
    expect(learnedGrammarOf(dir, {}, ["/"]).learned.idPaths).toEqual(["/actualites"]);
  });
});

describe("probeIds: the review of the id forms", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const builderPaths = ["/", "/le-centre", "/tarifs", "/actualites", "/actualites/post/arrivee-du-dr-moreau"];
  const live = (site: (path: string) => Answer, answer: (path: string) => Answer | undefined) => (path: string) => answer(path) ?? site(path);
  /** Crawled from `site`, then probed while the old site answers as `now` does. */
  async function probeNow(site: (path: string) => Answer, now: (path: string) => Answer, paths: string[]) {
    const asked: string[] = [];
    const get: ProbeGet = async (path) => (asked.push(path), now(path));
    return { asked, result: await probeIds(inCrawlOrder(paths.map((p) => crawled(site, p))), get, () => true) };
  }
  /** A migration folder whose map and record hold what the toolkit last wrote: `/page{id}.html`. */
  const drafted = () => {
    const dir = mkdtempSync(join(tmpdir(), "learned-silence-"));
    dirs.push(dir);
    writeFileSync(join(dir, REDIRECTS_FILE), JSON.stringify({ $platform: "static", $idForms: "/page{id}.html" }));
    writeFileSync(join(dir, LEARNED_IN_MAP_FILE), JSON.stringify({ $idForms: "/page{id}.html" }));
    return dir;
  };

  it("refutes nothing where the old site said nothing (429, 5xx, a timeout): the map's learned values stand, with a note", async () => {
    const silent: [string, (path: string) => Answer][] = [
      ["HTTP 429", () => ({ status: 429, type: "text/html", text: "Too many requests" })],
      ["HTTP 503", () => ({ status: 503, type: "text/html", text: "Maintenance" })],
      ["timeout", () => { throw new Error("no answer within 10000 ms (timeout)"); }],
    ];
    for (const [why, now] of silent) {
      const { result } = await probeNow(builderSite, now, builderPaths);
      expect(result.learned.idForms, why).toEqual([]);
      expect(result.undecided.join("; "), why).toMatch(new RegExp(`undecided \\(.*${why.split(" ")[1] ?? why}`));
      const dir = drafted();
      saveLearned(dir, result);
      const drafting = learnedGrammarOf(dir, { $platform: "static", $idForms: "/page{id}.html" }, ["/"]);
      expect(drafting.learned.idForms, why).toEqual(["/page{id}.html"]);
      expect(drafting.notes.join("\n"), why).toMatch(/undecided .*silence refutes nothing/);
    }
    // A page the old site answers 404 at its id's spelling, and 200 elsewhere: refuted, and withdrawn.
    const { result } = await probeNow(builderSite, live(builderSite, (p) => (/^\/page\d+\.html$/.test(p) ? NOT_FOUND : undefined)), builderPaths);
    expect(result.undecided).toEqual([]);
    const dir = drafted();
    saveLearned(dir, result);
    expect(learnedGrammarOf(dir, { $platform: "static", $idForms: "/page{id}.html" }, ["/"]).learned.idForms).toEqual([]);
  });

  it("leaves every rule undecided when no page of the old site was crawled (a site answering 503 to the whole crawl)", async () => {
    const down = (): Answer => ({ status: 503, type: "text/html", text: "Maintenance" });
    const { result } = await probeNow(down, down, ["/"]);
    expect(result.undecided).toEqual([expect.stringMatching(/no page of the old site was crawled/)]);
    const dir = drafted();
    saveLearned(dir, result);
    expect(learnedGrammarOf(dir, { $platform: "static", $idForms: "/page{id}.html" }, ["/"]).learned.idForms).toEqual(["/page{id}.html"]);
  });

  it("keeps requests for the printed ids' forms however many ids the id query's sweep could ask", async () => {
    // A CMS: articles `/actualites/N/slug` and `?id=N`, each printing its page id P = N + 5000 (`/page<P>.html`).
    const ids = Array.from({ length: 130 }, (_, i) => 201 + i);
    const article = (n: number) => page(`Article ${n}`, `Texte de l'article numéro ${n}.`, `<div data-cms-page-id="${n + 5000}"></div>`);
    const site = (path: string): Answer => {
      const u = new URL(`${ORIGIN}${path}`);
      const id = u.searchParams.get("id");
      if (id !== null) return ids.includes(Number(id)) ? article(Number(id)) : NOT_FOUND;
      if (path === "/") return page("Accueil", "Bienvenue.", `<div data-cms-page-id="1"></div>`);
      const m = /^\/actualites\/(\d+)(?:\/[^/]*)?$/.exec(path) ?? /^\/page(\d+)\.html$/.exec(path);
      const n = m === null ? NaN : path.startsWith("/page") ? Number(m[1]) - 5000 : Number(m[1]);
      return ids.includes(n) ? article(n) : NOT_FOUND;
    };
    const { asked, result } = await probeNow(site, site, ["/", ...ids.map((n) => `/actualites/${n}/article-${n}`)]);
    expect(result.learned.idPaths).toEqual(["/actualites"]);
    expect(result.learned.idQuery).toMatchObject({ name: "id" });
    expect(result.learned.idForms).toEqual(["/page{id}.html"]);
    expect(asked.length).toBeLessThanOrEqual(MAX_PROBES);
    expect(result.notes.join("; ")).toMatch(/ids not asked \(the bound of 250 requests, 60 kept for the printed ids\)/);
  });

  it("confirms a printed id's form on pages whose id no other page prints, in the crawl's order, trying another after a mismatch", async () => {
    // Sorted as the crawl writes them, `/actualites` and its post come first: both print the blog's id 900.
    const { asked, result } = await probeNow(builderSite, builderSite, builderPaths);
    expect(result.learned.idForms).toEqual(["/page{id}.html"]);
    expect(result.ownUrls.get(`${ORIGIN}/actualites`)).toEqual([`${ORIGIN}/page900.html`]);
    expect(asked.slice(asked.indexOf("/page342.html") - 1, asked.indexOf("/page342.html") + 1)).not.toContain("/page900.html");
    // A page printing a number its spelling shows another page at (a template's stale id), first in the crawl's order:
    // another page is asked, and the form is still the site's.
    const stale = (path: string): Answer => (path === "/a-propos" ? page("À propos", "Notre histoire.", `<div data-cms-page-id="780"></div>`) : builderSite(path));
    const staleSite = (path: string): Answer => (path === "/a-propos" ? stale(path) : builderSite(path));
    const withStale = await probeNow(staleSite, staleSite, ["/a-propos", ...builderPaths]);
    expect(withStale.result.learned.idForms).toEqual(["/page{id}.html"]);
  });

  it("asks a folder's spelling as the crawl found it: its case and its escapes, never a character the HTTP client refuses", async () => {
    // A real server's view: the path as sent, compared byte for byte (no re-encoding, no case folding).
    const soins: Record<string, [string, string, number]> = { implants: ["Implants", "Remplacer une dent.", 21], parodontologie: ["Parodontologie", "Soigner les gencives.", 25] };
    const serving = (folder: string) => (path: string): Answer => {
      if (path === "/") return page("Accueil", "Bienvenue.");
      if (!path.startsWith(`${folder}/`)) return NOT_FOUND;
      const last = path.slice(folder.length + 1);
      const found = Object.values(soins).find(([, , id]) => String(id) === last) ?? soins[last];
      return found ? page(found[0], found[1], `<article id="soin-${found[2]}"></article>`) : NOT_FOUND;
    };
    for (const [folder, stored] of [["/Soins", "/soins/{id}"], ["/actualit%C3%A9s", "/actualités/{id}"], ["/c%C5%93ur", "/cœur/{id}"]]) {
      const site = serving(folder);
      const { asked, result } = await probeNow(site, site, ["/", `${folder}/implants`, `${folder}/parodontologie`]);
      expect(result.learned.idForms, folder).toEqual([stored]);
      expect(result.ownUrls.get(`${ORIGIN}${folder}/implants`), folder).toEqual([`${ORIGIN}${folder}/21`]);
      // Only what an HTTP request line may carry: printable ASCII.
      expect(asked.filter((p) => !/^[\x21-\x7e]+$/.test(p)), folder).toEqual([]);
    }
  });

  it("follows a redirect to the same host over the other scheme, as the crawl does", async () => {
    const https = (path: string): Answer => {
      const u = new URL(`${ORIGIN}${path}`);
      const id = u.searchParams.get("id");
      if (id !== null && [...u.searchParams].length === 1) return ARTICLES[Number(id)] ? moved(`https://old.example/actualites/${id}/article`) : NOT_FOUND;
      return idSite(path);
    };
    const { result } = await probeNow(idSite, https, ["/", "/contact/", "/actualites/34/gencives-qui-saignent", "/actualites/55/lucas-moreau"]);
    expect(result.learned.idQuery).toMatchObject({ name: "id" });
    expect(result.ownUrls.get(`${ORIGIN}/actualites/55/lucas-moreau`)).toEqual([`${ORIGIN}/?id=55`]);
  });
});
