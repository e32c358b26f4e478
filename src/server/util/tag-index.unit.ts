import { describe, expect, it } from "vitest";
import { TagIndex } from "./tag-index";

describe("TagIndex", () => {
  it("returns the union of the keys the tags name, and nothing else", () => {
    const index = new TagIndex<string>();
    index.add("dupont /", ["site:dupont", "page:home", "site:dupont:page:home"]);
    index.add("martin /", ["site:martin", "page:home", "site:martin:page:home"]);
    index.add("dupont /contact/", ["site:dupont", "page:contact", "site:dupont:page:contact"]);
    expect([...index.keysFor(["page:home"])].sort()).toEqual(["dupont /", "martin /"]);
    expect([...index.keysFor(["site:dupont:page:home"])]).toEqual(["dupont /"]);
    expect([...index.keysFor(["site:dupont"])].sort()).toEqual(["dupont /", "dupont /contact/"]);
    expect([...index.keysFor(["site:martin", "page:contact"])].sort()).toEqual(["dupont /contact/", "martin /"]);
    expect(index.keysFor(["site:leroy"]).size).toBe(0);
  });

  it("forgets a removed key and drops tags left without keys", () => {
    const index = new TagIndex<string>();
    index.add("a", ["site:x", "page:p"]);
    index.add("b", ["site:x"]);
    index.remove("a", ["site:x", "page:p"]);
    expect([...index.keysFor(["site:x", "page:p"])]).toEqual(["b"]);
    expect(index.tagCount).toBe(1);
    index.remove("b", ["site:x"]);
    expect(index.tagCount).toBe(0);
  });
});
