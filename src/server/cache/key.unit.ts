import { describe, expect, it } from "vitest";
import { cacheKey, cacheTarget, hostKeyPart, OWN_URL_KEYS_MAX, OWN_URL_MAX_LENGTH, OwnUrlKeys } from "./key";

const key = (url: string, code = "dupont", host = "www.cabinet-dupont.fr", method = "GET") =>
  cacheTarget(method, code, host, "https", url)?.key ?? null;

describe("cacheTarget", () => {
  it("keys by practice and path, never by path alone", () => {
    expect(key("/contact/")).not.toBeNull();
    expect(key("/contact/")).not.toBe(key("/contact/", "martin", "www.cabinet-dupont.fr"));
    expect(key("/contact/")).not.toBe(key("/contact/", "martin", "www.centre-dentaire-martin.fr"));
  });

  it("ignores query parameters a route does not read", () => {
    expect(key("/contact/?utm_source=x&fbclid=1")).toBe(key("/contact/"));
    expect(key("/?gclid=abc")).toBe(key("/"));
    const target = cacheTarget("GET", "dupont", "www.cabinet-dupont.fr", "https", "/contact/?utm_source=x");
    expect(target?.url).toBe("/contact/");
  });

  it("keeps the parameters a route reads, in one order", () => {
    expect(key("/api/og?title=Implant")).not.toBe(key("/api/og?title=Tarifs"));
    expect(key("/api/og?utm_source=x&title=Implant")).toBe(key("/api/og?title=Implant"));
    expect(key("/api/og/?title=Implant")).not.toBeNull();
    const target = cacheTarget("GET", "dupont", "www.cabinet-dupont.fr", "https", "/api/og?x=1&title=A%20b");
    expect(target?.url).toBe("/api/og/?title=A+b");
  });

  it("keys the social card by the title it draws: every spelling of one title is one entry", () => {
    const one = key("/api/og/?title=Contact");
    for (const spelling of ["/api/og?title=Contact", "/api/og?title=%20%20%20Contact", "/api/og?title=Contact%20", "/api/og?title=%09Contact%0A"]) {
      expect(key(spelling), spelling).toBe(one);
    }
    expect(key("/api/og?title=Soins%20%20des%20gencives")).toBe(key("/api/og?title=Soins+des+gencives"));
    // A blank title is the default card, as no title is.
    expect(key("/api/og?title=%20")).toBe(key("/api/og"));
    expect(key("/api/og?title=")).toBe(key("/api/og/"));
  });

  it("caches q-data.json like the page it belongs to, under its own key", () => {
    expect(key("/contact/q-data.json")).not.toBeNull();
    expect(key("/contact/q-data.json")).not.toBe(key("/contact/"));
  });

  it("refuses what must not come from the cache", () => {
    for (const url of [
      "/api/contact",
      "/api/contact/",
      "/api/media?path=/media/x.webp",
      "/api/revalidate",
      "/webhooks/revalidate/",
      "/build/q-abc.js",
      "/assets/x.css",
      "/_sites/martin/",
      "/contact/?qaction=abc",
      "/contact/?x=1&qfunc=abc",
      "/contact/q-data.json?qdata=abc",
      "http://evil.example/contact/",
      "*",
    ]) {
      expect(key(url), url).toBeNull();
    }
    expect(key("/contact/", "dupont", "www.cabinet-dupont.fr", "POST")).toBeNull();
    expect(key("/contact/", "dupont", "bad host!")).toBeNull();
    expect(key("/contact/", "dupont", "www.cabinet-dupont.fr", "HEAD")).toBe(key("/contact/"));
  });

  it("keys by host: one entry per host a page is visited on, whatever the spelling of the host", () => {
    expect(key("/", "dupont", "www.cabinet-dupont.fr")).not.toBe(key("/", "dupont", "cabinet-dupont.fr"));
    expect(key("/", "dupont", "www.cabinet-dupont.fr")).toBe(key("/", "dupont", "WWW.Cabinet-Dupont.fr:443"));
    expect(key("/", "dupont", "dupont.dev.localhost:80")).toBe(key("/", "dupont", "DUPONT.dev.localhost"));
    expect(key("/", "dupont", "dupont.dev.localhost:3000")).not.toBe(key("/", "dupont", "dupont.dev.localhost"));
  });

  it("renders for the origin of the request, port included", () => {
    const target = cacheTarget("GET", "dupont", "Dupont.dev.localhost:3000", "http", "/a/");
    expect(target?.origin).toBe("http://dupont.dev.localhost:3000");
    expect(cacheTarget("GET", "dupont", "dupont.dev.localhost:80", "http", "/a/")?.origin).toBe(
      "http://dupont.dev.localhost",
    );
  });

  it("keys http and https apart (the page prints its scheme), and believes no other scheme", () => {
    const http = cacheTarget("GET", "dupont", "dupont.dev.localhost", "http", "/a/")!;
    const https = cacheTarget("GET", "dupont", "dupont.dev.localhost", "https", "/a/")!;
    expect(http.key).not.toBe(https.key);
    expect(https.origin).toBe("https://dupont.dev.localhost");
    expect(cacheTarget("GET", "dupont", "dupont.dev.localhost", "javascript", "/a/")).toEqual(http);
  });

  it("gives the fast path the same key as the full target", () => {
    for (const url of ["/", "/contact/?utm_source=x", "/api/og?title=A", "/api/contact"]) {
      expect(cacheKey("GET", "dupont", "https", hostKeyPart("dupont.dev.localhost:3000")!, url)).toBe(
        cacheTarget("GET", "dupont", "dupont.dev.localhost:3000", "https", url)?.key ?? null,
      );
    }
  });
});

describe("OwnUrlKeys", () => {
  it("remembers a key per site, scheme and URL", () => {
    const keys = new OwnUrlKeys<object>();
    const [a, b] = [{}, {}];
    keys.remember(a, "https", "/", "a-https-root");
    expect(keys.get(a, "https", "/")).toBe("a-https-root");
    expect([keys.get(a, "http", "/"), keys.get(b, "https", "/"), keys.get(a, "https", "/soins/")]).toEqual([undefined, undefined, undefined]);
    keys.remember(a, "https", "/", "a-https-root");
    expect(keys.count).toBe(1);
  });

  it("never holds more than its bound, nor a long URL", () => {
    const keys = new OwnUrlKeys<object>();
    const site = {};
    keys.remember(site, "https", `/${"a".repeat(OWN_URL_MAX_LENGTH)}`, "long");
    expect(keys.count).toBe(0);
    for (let i = 0; i < OWN_URL_KEYS_MAX * 2 + 10; i++) {
      keys.remember(i % 3 === 0 ? {} : site, i % 2 ? "http" : "https", `/page-${i}/`, `key-${i}`);
      expect(keys.count).toBeLessThanOrEqual(OWN_URL_KEYS_MAX);
    }
    // Full, it forgot everything and started again: the latest is there, the first are not.
    const last = OWN_URL_KEYS_MAX * 2 + 9;
    expect(keys.get(site, last % 2 ? "http" : "https", `/page-${last}/`)).toBe(`key-${last}`);
    expect(keys.get(site, "http", "/page-1/")).toBeUndefined();
  });
});
