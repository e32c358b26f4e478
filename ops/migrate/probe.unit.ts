import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StepError, type CrawlEntry } from "./files";
import { learnedGrammarOf } from "./redirect-map";
import { readPage } from "./page";
import { LEARNED_FILE, MAX_PROBES, probeIds, type ProbeGet } from "./probe";

const ORIGIN = "http://old.example";
type Answer = { status: number; text: string; type: string };
const page = (title: string, text: string): Answer => ({
  status: 200,
  type: "text/html",
  text: `<!DOCTYPE html><html><head><title>Cabinet | ${title}</title></head><body><nav><a href="/">Accueil</a></nav><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
});
const NOT_FOUND: Answer = { status: 404, type: "text/html", text: "<html><head><title>Page introuvable</title></head><body><h1>Erreur 404</h1></body></html>" };

/** A crawled entry of a fake site's answer, read as the crawl reads it. */
function crawled(site: (path: string) => Answer, path: string): CrawlEntry {
  const answer = site(path);
  const { truncated: _t, refresh: _r, ...facts } = readPage(answer.text, `${ORIGIN}${path}`);
  return { url: `${ORIGIN}${path}`, status: answer.status, redirects: [], final_url: `${ORIGIN}${path}`, content_type: answer.type, error: "", ...facts };
}

function probe(site: (path: string) => Answer, paths: string[]) {
  const asked: string[] = [];
  const get: ProbeGet = async (path) => {
    asked.push(path);
    return site(path);
  };
  return { asked, run: () => probeIds(paths.map((p) => crawled(site, p)), get, () => true) };
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
    expect(result.learned).toEqual({ idPaths: [], idQuery: null });
    expect(result.ownUrls.size).toBe(0);
  });

  it("learns nothing of a site answering every URL with one page, however its slugs and ids are changed (the unknown id's control)", async () => {
    const site = (path: string): Answer => (path.startsWith("/") ? page("Cabinet du Dr Martin", "Une application d'une seule page.") : NOT_FOUND);
    const { run } = probe(site, ["/", "/actualites/55/lucas-moreau"]);
    const result = await run();
    expect(result.learned).toEqual({ idPaths: [], idQuery: null });
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
      const file = /^\/file_download\/(\d+)(?:\/[^/]*)?$/.exec(u.pathname);
      if (file && ["1", "2"].includes(file[1])) return { status: 200, type: "application/pdf", text: `%PDF fichier ${file[1]}` };
      const m = /^\/actualites\/(\d+)(?:\/[^/]*)?$/.exec(u.pathname);
      return m && articles[Number(m[1])] ? page(...articles[Number(m[1])]) : NOT_FOUND;
    };
    // The files first: their numbers are no article's (`/?id=1` is no file).
    const { asked, run } = probe(site, ["/", "/file_download/1/questionnaire.pdf", "/file_download/2/tarifs.pdf", "/actualites/55/arrivee", "/actualites/300/horaires"]);
    const result = await run();
    expect(result.learned.idPaths).toEqual(["/file_download", "/actualites"]);
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
    expect(result.learned).toEqual({ idPaths: [], idQuery: null });
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

  it("refuses a malformed learned-grammar.json, or one whose values do not load, with a StepError", () => {
    for (const content of ["[]", JSON.stringify({ idPaths: "/actualites", idQuery: null }), JSON.stringify({ idPaths: [], idQuery: { name: "id" } }), JSON.stringify({ idPaths: ["/api"], idQuery: null }), JSON.stringify({ idPaths: ["actualites"], idQuery: null })])
      expect(() => withFile(content, ["/"]), content).toThrow(StepError);
  });
});
