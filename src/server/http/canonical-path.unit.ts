import { describe, expect, it } from "vitest";
import { canonicalPath } from "./canonical-path";

describe("canonicalPath", () => {
  it.each([
    ["/", "/"],
    ["/contact/", "/contact/"],
    ["/contact//", "/contact/"],
    ["//contact/", "/contact/"],
    ["/./contact/", "/contact/"],
    ["/x/../contact/", "/contact/"],
    ["/../../contact/", "/contact/"],
    ["/contact/.", "/contact/"],
    ["/a/b/..", "/a/"],
    ["/%63ontact/", "/contact/"],
    ["/%2e%2e/contact/", "/contact/"],
    ["/caf%c3%a9/", "/caf%C3%A9/"],
    ["/a%2fb/", "/a%2Fb/"],
    ["/a%2Fb/", "/a%2Fb/"],
    ["//evil.example/", "/evil.example/"],
  ])("%s -> %s", (path, canonical) => {
    expect(canonicalPath(path)).toBe(canonical);
  });

  it("is idempotent", () => {
    for (const p of ["/a//b/./c/../d", "/%7e/x/%2E/", "/../"]) expect(canonicalPath(canonicalPath(p))).toBe(canonicalPath(p));
  });
});
