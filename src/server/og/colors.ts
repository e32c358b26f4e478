/**
 * The practice's theme colours as sRGB hex for the social card (satori does not parse oklch()). The card
 * uses the site's own colours: the same strong shade of each hue and chroma that src/server/site/theme.ts
 * puts on <html> (its lightness chosen per colour for contrast), converted with the same functions.
 */
import type { Theme } from "../backend";
import { parseOklch, themeColor, toSrgb8 } from "../site/theme";

export function oklchToHex(l: number, c: number, h: number): string {
  return `#${toSrgb8({ l, c, h })
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")}`;
}

/** The site's strong primary and accent colours (white text reads on both). */
export function themeColors(theme: Theme): { primary: string; accent: string } {
  const hex = (hue: number, chroma: number) => {
    const { l, c, h } = parseOklch(themeColor(hue, chroma).strong);
    return oklchToHex(l, c, h);
  };
  return { primary: hex(theme.primary_hue, theme.primary_chroma), accent: hex(theme.accent_hue, theme.accent_chroma) };
}
