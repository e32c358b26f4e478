import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { CACHED_ROUTES, ROOT_FILES, routeOf, type RouteKind } from "./routes";

describe("routeOf: a practice host's routes are an allow-list", () => {
  const cases: [string, string, RouteKind][] = [
    ["GET", "/", "page"],
    ["GET", "/contact/", "page"],
    ["HEAD", "/soins/implants/", "page"],
    ["GET", "/contact", "page"], // Qwik City's trailing-slash redirect, rendered in the pool
    ["GET", "/contact/q-data.json", "page"],
    ["GET", "/robots.txt", "robots"],
    ["GET", "/sitemap.xml", "sitemap"],
    ["GET", "/api/og", "og"],
    ["HEAD", "/api/og/", "og"],
    ["GET", "/api/media", "media"],
    ["GET", "/api/media/", "media"],
    ["POST", "/api/contact", "contact"],
    ["POST", "/api/contact/", "contact"],
    ["GET", "/api/contact/", "contact"], // answered 405 by the relay's route
    ["GET", "/favicon.svg", "file"],
    ["GET", "/media/dupont/logo.svg", "file"],
    // Each of these reached a render on the main thread (issue 26): now no route.
    ["GET", "/api/og/q-data.json", "none"],
    ["GET", "/api/og/x/", "none"],
    ["GET", "/api/nope/", "none"],
    ["GET", "/api/contact/resultat/", "none"],
    ["GET", "/api/media/q-data.json", "none"],
    ["GET", "/robots.txt/q-data.json", "none"],
    ["GET", "/sitemap.xml/x/", "none"],
    ["GET", "/webhooks/x/", "none"],
    ["GET", "/build/x/", "none"],
    ["GET", "/assets/x/", "none"],
    ["GET", "/API/OG/q-data.json", "none"],
    ["GET", "/_sites/dupont/", "none"],
    ["GET", "/q-manifest.json", "none"],
    ["GET", "/media", "none"],
    ["GET", "/api", "none"],
    ["GET", "*", "none"],
    ["GET", "", "none"],
    // Methods: POST only on the relay, nothing else anywhere.
    ["POST", "/", "none"],
    ["POST", "/api/og", "none"],
    ["PUT", "/api/contact", "none"],
    ["OPTIONS", "/contact/", "none"],
    ["DELETE", "/api/media", "none"],
  ];
  it.each(cases)("%s %s is %s", (method, path, kind) => {
    expect(routeOf(method, path)).toBe(kind);
  });

  it("only pages, robots, sitemap and the card are the page cache's", () => {
    expect([...CACHED_ROUTES].sort()).toEqual(["og", "page", "robots", "sitemap"]);
  });

  it("ROOT_FILES are exactly the files of public/ (a file added there must be listed to be served)", () => {
    const files = readdirSync("public", { withFileTypes: true }).filter((f) => f.isFile());
    expect([...ROOT_FILES].sort()).toEqual(files.map((f) => `/${f.name}`).sort());
  });
});
