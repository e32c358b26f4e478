import { describe, expect, it } from "vitest";
import { isPageShaped, isUnknownPath, judgedPagePath, type PathIndex } from "./path-index";

const index: PathIndex = {
  pagePaths: new Set(["/", "/equipe/", "/implantologie/", "/implantologie/implant-unitaire/"]),
  slugs: new Set(["home", "equipe", "implantologie", "implant-unitaire", "claire-dupont"]),
};

describe("isPageShaped: the paths a 404 page's index may judge", () => {
  it.each(["/lien-mort/", "/a/b-2/c/", "/implantologie/x/"])("judges %s", (path) => {
    expect(isPageShaped(path)).toBe(true);
  });

  it.each([
    ["the home page", "/"],
    ["no trailing slash (the router redirects it)", "/lien-mort"],
    ["a query", "/lien-mort/?utm_source=x"],
    ["upper case", "/Lien-Mort/"],
    ["an escape", "/%C3%A9t%C3%A9/"],
    ["a dot (a file, a dot segment)", "/robots.txt/"],
    ["a dot segment", "/a/../b/"],
    ["a double slash", "/a//b/"],
    ["Qwik's data file", "/lien/q-data.json"],
    ["the internal prefix", "/_sites/dupont/"],
    ["health", "/healthz/"],
    ["readiness", "/readyz/"],
    ["media files", "/media/martin/x/"],
    ["the build", "/build/x/"],
    ["the assets", "/assets/x/"],
    ["the practice's endpoints", "/api/og/"],
    ["the webhook", "/webhooks/revalidate/"],
    ["the metrics (internal port only: a plain 404 here, never a practice's 404 page)", "/metrics/"],
  ])("leaves %s to the page route: %s", (_why, path) => {
    expect(isPageShaped(path)).toBe(false);
  });
});

describe("isUnknownPath", () => {
  it("proves a path no page has, whose last segment is no slug", () => {
    expect(isUnknownPath(index, "/lien-mort/")).toBe(true);
    expect(isUnknownPath(index, "/implantologie/inconnue/")).toBe(true);
  });

  it("never calls a page, or a path ending in a known slug (a child or a redirect), unknown", () => {
    expect(isUnknownPath(index, "/equipe/")).toBe(false);
    expect(isUnknownPath(index, "/implantologie/implant-unitaire/")).toBe(false);
    expect(isUnknownPath(index, "/equipe/claire-dupont/")).toBe(false);
    expect(isUnknownPath(index, "/autre/implant-unitaire/")).toBe(false);
  });

  it("proves nothing about a path it may not judge", () => {
    expect(isUnknownPath(index, "/Lien-Mort/")).toBe(false);
    expect(isUnknownPath(index, "/healthz/")).toBe(false);
  });
});

describe("judgedPagePath: the page path a request names, its trailing slash added when only that is missing", () => {
  it.each([
    ["/lien-mort/", "/lien-mort/"],
    ["/lien-mort", "/lien-mort/"],
    ["/soins/ancien-soin", "/soins/ancien-soin/"],
    ["/lien-mort?x=1", null],
    ["/Lien-Mort", null],
    ["/robots.txt", null],
    ["/page.html", null],
    ["/", null],
    ["/healthz", null],
    ["/media/martin/x", null],
  ])("%s -> %s", (url, judged) => {
    expect(judgedPagePath(url)).toBe(judged);
  });

  it("proves an old clean URL is no page through its slashed path, and leaves a page's own path alone", () => {
    expect(isUnknownPath(index, judgedPagePath("/ancienne-page")!)).toBe(true);
    expect(isUnknownPath(index, judgedPagePath("/implantologie")!)).toBe(false);
  });
});
