/**
 * The practice theme (OKLCH hue and chroma, lightness fixed by us as in src/global.css) as sRGB hex
 * colours: satori does not parse oklch().
 */
import type { Theme } from "../backend";

/** The lightness src/global.css gives --primary and --accent: white text stays readable on both. */
export const THEME_LIGHTNESS = 0.45;

export function oklchToHex(l: number, c: number, hDeg: number): string {
  const h = (hDeg * Math.PI) / 180;
  const a = c * Math.cos(h);
  const b = c * Math.sin(h);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ];
  return `#${linear
    .map((x) => {
      const v = x <= 0.0031308 ? 12.92 * x : 1.055 * Math.max(x, 0) ** (1 / 2.4) - 0.055;
      return Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, "0");
    })
    .join("")}`;
}

export function themeColors(theme: Theme): { primary: string; accent: string } {
  return {
    primary: oklchToHex(THEME_LIGHTNESS, theme.primary_chroma, theme.primary_hue),
    accent: oklchToHex(THEME_LIGHTNESS, theme.accent_chroma, theme.accent_hue),
  };
}
