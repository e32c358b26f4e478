import { describe, expect, it } from "vitest";
import { BodyError, MAX_TAGS, secretMatches, validateTags } from "./revalidate";

describe("validateTags", () => {
  it("accepts the three tag shapes and removes duplicates", () => {
    expect(validateTags({ tags: ["page:contact", "site:dupont", "site:dupont:page:home", "page:contact"] })).toEqual([
      "page:contact",
      "site:dupont",
      "site:dupont:page:home",
    ]);
    expect(validateTags({ secret: "x", tags: Array.from({ length: MAX_TAGS }, (_, i) => `page:p${i}`) })).toHaveLength(
      MAX_TAGS,
    );
  });

  it.each([
    [null, /JSON object/],
    [[], /JSON object/],
    ["page:x", /JSON object/],
    [{}, /no tags/],
    [{ tags: [] }, /no tags/],
    [{ tags: "page:x" }, /must be an array/],
    [{ tags: [""] }, /tags\[0\] must be a non-empty string/],
    [{ tags: ["page:a", "  "] }, /tags\[1\] must be a non-empty string/],
    [{ tags: ["page:a", 42] }, /tags\[1\] must be a non-empty string/],
    [{ tags: [null] }, /tags\[0\] must be a non-empty string/],
    [{ tags: Array.from({ length: MAX_TAGS + 1 }, (_, i) => `page:p${i}`) }, /too many tags: 201/],
    [{ tags: ["bogus"] }, /not a known tag: use page:<slug>/],
    [{ tags: ["site:Dupont"] }, /not a known tag/],
    [{ tags: ["site:dupont:pages"] }, /not a known tag/],
    [{ tags: [`page:${"x".repeat(300)}`] }, /longer than 256/],
  ])("%j is refused with a message saying what is wrong", (body, message) => {
    expect(() => validateTags(body)).toThrow(BodyError);
    expect(() => validateTags(body)).toThrow(message);
  });
});

describe("secretMatches", () => {
  it("matches only the exact secret", () => {
    expect(secretMatches("a-long-enough-secret", "a-long-enough-secret")).toBe(true);
    expect(secretMatches("a-long-enough-secreT", "a-long-enough-secret")).toBe(false);
    expect(secretMatches("a-long-enough-secret-and-more", "a-long-enough-secret")).toBe(false);
    expect(secretMatches("", "a-long-enough-secret")).toBe(false);
    expect(secretMatches(undefined, "a-long-enough-secret")).toBe(false);
    expect(secretMatches(["a-long-enough-secret"], "a-long-enough-secret")).toBe(false);
  });
});
