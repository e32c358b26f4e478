import { describe, expect, it } from "vitest";
import { analyticsScript } from "./analytics";

const base = { indexable: true, url: "https://stats.example.org/script.js", practiceWebsiteId: "practice-id", defaultWebsiteId: "default-id" };

describe("analyticsScript", () => {
  it("uses the practice's website id", () => {
    expect(analyticsScript(base)).toEqual({ src: "https://stats.example.org/script.js", websiteId: "practice-id" });
  });
  it("falls back to the build's website id", () => {
    expect(analyticsScript({ ...base, practiceWebsiteId: null })?.websiteId).toBe("default-id");
    expect(analyticsScript({ ...base, practiceWebsiteId: "  " })?.websiteId).toBe("default-id");
  });
  it.each([
    ["not indexable", { indexable: false }],
    ["no script URL", { url: undefined }],
    ["an empty script URL", { url: "" }],
    ["no website id at all", { practiceWebsiteId: null, defaultWebsiteId: undefined }],
  ])("is absent with %s", (_name, change) => {
    expect(analyticsScript({ ...base, ...change })).toBeNull();
  });
});
