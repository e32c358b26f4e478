import { describe, expect, it } from "vitest";
import { chooseEncoding, matchesEtag } from "./serve";

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
