import { describe, expect, it } from "vitest";
import { BAKED_CMS_ORIGIN, cmsOrigin } from "./build-constants";

describe("cmsOrigin", () => {
  it("is the build's constant when the build had one, whatever the runtime says", () => {
    expect(cmsOrigin("https://other.example.org", "https://cms.example.org")).toBe("https://cms.example.org");
    expect(cmsOrigin(undefined, "https://cms.example.org")).toBe("https://cms.example.org");
  });
  it("falls back to the runtime value when the build had none", () => {
    expect(cmsOrigin("https://cms.example.org", undefined)).toBe("https://cms.example.org");
    expect(cmsOrigin(undefined, undefined)).toBeUndefined();
  });
  it("has no baked value outside a vite build", () => {
    expect(BAKED_CMS_ORIGIN).toBeUndefined();
  });
});
