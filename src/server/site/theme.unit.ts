import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  contrastRatio,
  DEFAULT_THEME,
  inSrgbGamut,
  MIN_CONTRAST,
  parseOklch,
  themeColor,
  themeStyle,
  toSrgb8,
  validTheme,
} from "./theme";
import * as monitoring from "../monitoring";

const WHITE: [number, number, number] = [255, 255, 255];
/** The body text colour of global.css (--text). */
const TEXT: [number, number, number] = [0x1b, 0x23, 0x30];

function hues(step: number): number[] {
  const out: number[] = [];
  for (let h = 0; h <= 360; h += step) out.push(h);
  return out;
}
function chromas(step: number): number[] {
  const out: number[] = [];
  for (let i = 0; i * step <= 0.37 + 1e-9; i++) out.push(Math.round(i * step * 1000) / 1000);
  if (out[out.length - 1] !== 0.37) out.push(0.37);
  return out;
}

describe("the contrast guarantee over the whole hue and chroma range", () => {
  // 73 hues x 39 chromas: every combination is checked on the CSS text the theme emits. The colours are
  // computed once for the three checks (about 1 s on this machine; the checks themselves take little).
  const grid = hues(5).flatMap((h) => chromas(0.01).map((c) => [h, c] as const));
  let themed: { h: number; c: number; color: ReturnType<typeof themeColor> }[] = [];
  beforeAll(() => {
    themed = grid.map(([h, c]) => ({ h, c, color: themeColor(h, c) }));
  }, 30_000);

  it("white text on the strong and hover shades, and the strong shade on its tint, reach 4.5:1", () => {
    const failures: string[] = [];
    for (const { h, c, color } of themed) {
      const strong = parseOklch(color.strong);
      const hover = parseOklch(color.hover);
      const soft = parseOklch(color.soft);
      const checks = {
        "white on strong": contrastRatio(WHITE, strong),
        "white on hover": contrastRatio(WHITE, hover),
        "strong on soft": contrastRatio(strong, soft),
        "text on soft": contrastRatio(TEXT, soft),
      };
      for (const [what, ratio] of Object.entries(checks)) {
        if (ratio < MIN_CONTRAST) failures.push(`h=${h} c=${c}: ${what} ${ratio.toFixed(2)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("emits colours inside the sRGB gamut, so the browser paints what was computed", () => {
    for (const { color } of themed) {
      for (const css of [color.strong, color.hover, color.soft]) expect(inSrgbGamut(parseOklch(css)), `${css}`).toBe(true);
    }
  });

  it("keeps the hue and as much of the chroma as the gamut allows", () => {
    const strong = parseOklch(themeColor(235, 0.12).strong);
    expect(strong.h).toBe(235);
    expect(strong.c).toBeGreaterThan(0.1);
    // A colourful theme is not turned into near-black: the lightness stays in a usable band.
    for (const { color } of themed) {
      const l = parseOklch(color.strong).l;
      expect(l).toBeGreaterThan(0.35);
      expect(l).toBeLessThan(0.7);
    }
  });

  it("treats hue 360 as hue 0", () => {
    expect(themeColor(360, 0.2)).toEqual(themeColor(0, 0.2));
  });

  it("differs per hue: two practices with different themes get different colours", () => {
    expect(themeColor(30, 0.15).strong).not.toBe(themeColor(250, 0.15).strong);
    expect(toSrgb8(parseOklch(themeColor(30, 0.15).strong))).not.toEqual(toSrgb8(parseOklch(themeColor(250, 0.15).strong)));
  });
});

describe("validTheme", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps a theme inside the ranges, edges included", () => {
    const warn = vi.spyOn(monitoring, "reportWarning").mockImplementation(() => {});
    const edge = { primary_hue: 360, primary_chroma: 0.37, accent_hue: 0, accent_chroma: 0 };
    expect(validTheme(edge, "dupont")).toEqual(edge);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ["missing", undefined],
    ["not an object", "blue"],
    ["a missing field", { primary_hue: 10, primary_chroma: 0.1, accent_hue: 20 }],
    ["a hue above 360", { primary_hue: 361, primary_chroma: 0.1, accent_hue: 20, accent_chroma: 0.1 }],
    ["a negative hue", { primary_hue: 10, primary_chroma: 0.1, accent_hue: -1, accent_chroma: 0.1 }],
    ["a chroma above 0.37", { primary_hue: 10, primary_chroma: 0.38, accent_hue: 20, accent_chroma: 0.1 }],
    ["a string chroma", { primary_hue: 10, primary_chroma: "0.1", accent_hue: 20, accent_chroma: 0.1 }],
  ])("falls back to the default theme with a warning for %s", (_what, raw) => {
    const warn = vi.spyOn(monitoring, "reportWarning").mockImplementation(() => {});
    expect(validTheme(raw, "dupont")).toEqual(DEFAULT_THEME);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("theme"), expect.objectContaining({ code: "dupont" }));
  });
});

describe("themeStyle", () => {
  it("carries the four values and the derived OKLCH colours", () => {
    const style = themeStyle({ primary_hue: 20, primary_chroma: 0.15, accent_hue: 140, accent_chroma: 0.1 });
    expect(style).toContain("--primary-hue:20;");
    expect(style).toContain("--primary-chroma:0.15;");
    expect(style).toContain("--accent-hue:140;");
    expect(style).toContain("--accent-chroma:0.1;");
    expect(style).toMatch(/--primary:oklch\(0\.\d+ 0\.\d+ 20\);/);
    expect(style).toMatch(/--accent:oklch\(0\.\d+ 0\.\d+ 140\);/);
    expect(style).toMatch(/--primary-soft:oklch\(0\.965 0\.\d+ 20\)/);
    // Nothing in it can break out of the attribute.
    expect(style).not.toMatch(/["<>]/);
  });
});
