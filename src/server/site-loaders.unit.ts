import { describe, expect, it } from "vitest";
import { publicPath } from "./site-loaders";

describe("publicPath", () => {
  it("strips the internal prefix of this practice only", () => {
    expect(publicPath("/_sites/dupont/implantologie/", "dupont")).toBe("/implantologie/");
    expect(publicPath("/_sites/dupont/", "dupont")).toBe("/");
    expect(publicPath("/_sites/dupont", "dupont")).toBe("/");
    expect(publicPath("/contact/", "dupont")).toBe("/contact/");
  });
});
