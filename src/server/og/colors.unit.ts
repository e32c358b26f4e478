import { describe, expect, it } from "vitest";
import { DEFAULT_THEME, parseOklch, themeColor, toSrgb8 } from "../site/theme";
import { oklchToHex, themeColors } from "./colors";

describe("oklchToHex", () => {
  it.each([
    [1, 0, 0, "#ffffff"],
    [0, 0, 0, "#000000"],
    // Reference values from the CSS Color 4 conversion (oklch.com).
    [0.628, 0.2577, 29.23, "#ff0000"],
    [0.5198, 0.1769, 142.5, "#008000"],
    [0.452, 0.313, 264.05, "#0000ff"],
  ])("oklch(%s %s %s) -> %s", (l, c, h, hex) => {
    expect(oklchToHex(l, c, h)).toBe(hex);
  });

  it("gives different practices different colours", () => {
    const a = themeColors({ primary_hue: 235, primary_chroma: 0.12, accent_hue: 160, accent_chroma: 0.09 });
    const b = themeColors({ primary_hue: 20, primary_chroma: 0.15, accent_hue: 90, accent_chroma: 0.1 });
    expect(a.primary).not.toBe(b.primary);
    expect(a.accent).not.toBe(a.primary);
  });
});

describe("themeColors", () => {
  it("are the site's own strong shades, not a fixed lightness", () => {
    const site = parseOklch(themeColor(DEFAULT_THEME.primary_hue, DEFAULT_THEME.primary_chroma).strong);
    const hex = `#${toSrgb8(site)
      .map((v) => v.toString(16).padStart(2, "0"))
      .join("")}`;
    expect(themeColors(DEFAULT_THEME).primary).toBe(hex);
    // The site's default primary is lighter than the old fixed 0.45 of the card.
    expect(site.l).toBeGreaterThan(0.45);
    expect(themeColors(DEFAULT_THEME).primary).not.toBe(oklchToHex(0.45, DEFAULT_THEME.primary_chroma, DEFAULT_THEME.primary_hue));
  });
});
