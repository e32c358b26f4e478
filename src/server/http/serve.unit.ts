import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { assembleEntry } from "../cache/entry";
import { chooseEncoding, matchesEtag, writeEntry } from "./serve";

describe("chooseEncoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br", "br"],
    ["deflate", "identity"],
    ["", "identity"],
    ["*", "br"],
    ["identity", "identity"],
    ["brotli, gzipx", "identity"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["gzip;q=0, br;q=0", "identity"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["x-gzip;q=1", "gzip"],
  ])("%j -> %s", (header, expected) => {
    expect(chooseEncoding(header, true)).toBe(expected);
  });

  it("serves identity when the entry is not compressed (images)", () => {
    expect(chooseEncoding("br, gzip", false)).toBe("identity");
    expect(chooseEncoding(undefined, true)).toBe("identity");
  });
});

describe("matchesEtag", () => {
  const etag = 'W/"abc"';
  it.each([
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc"', true],
    ["*", true],
    ['W/"abd"', false],
    ["", false],
  ])("%j -> %s", (header, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });
});

describe("writeEntry with the stack's headers (the fast path)", () => {
  const stack = ["content-security-policy", "default-src 'none'", "x-content-type-options", "nosniff"];
  const entry = assembleEntry({
    target: { key: "k", code: "dupont", origin: "https://www.cabinet-dupont.fr", url: "/" },
    headers: ["content-type", "text/html; charset=utf-8", "content-security-policy", "default-src 'none'; script-src 'self' 'sha256-x'"],
    servedByStack: true,
    br: null,
    gzip: null,
    identity: Buffer.from("<p>x</p>"),
    identityLength: 8,
    etag: 'W/"e"',
    tags: [],
    renderedAt: 0,
    expiresAt: 1,
  });

  /** The [name, value, …] list writeEntry hands to writeHead. */
  function written(reqHeaders: Record<string, string>): string[] {
    let head: string[] = [];
    const res = { writeHead: (_code: number, h: string[]) => void (head = h), end: () => {} } as unknown as ServerResponse;
    writeEntry(res, reqHeaders, "GET", entry, "HIT", stack);
    return head;
  }
  const values = (head: string[], name: string) => head.flatMap((h, i) => (i % 2 === 0 && h === name ? [head[i + 1]] : []));

  it.each([
    ["a 200", {}],
    ["a 304", { "if-none-match": 'W/"e"' }],
  ])("%s: the page's own policy replaces the stack's, once; the other stack headers stay", (_name, reqHeaders) => {
    const head = written(reqHeaders);
    expect(values(head, "content-security-policy")).toEqual(["default-src 'none'; script-src 'self' 'sha256-x'"]);
    expect(values(head, "x-content-type-options")).toEqual(["nosniff"]);
  });
});
