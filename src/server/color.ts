/**
 * OKLCH colour arithmetic for the theme: conversion to the sRGB a screen shows, gamut limits and the
 * WCAG contrast ratio. Pure functions, no dependencies, so the contrast guarantee can be tested over the
 * whole hue and chroma range.
 */

export interface Oklch {
  l: number;
  c: number;
  h: number;
}

/** Linear-light sRGB channels; values outside 0..1 mean "out of the sRGB gamut". */
type Rgb = [number, number, number];

/** OKLCH -> linear sRGB (Björn Ottosson's OKLab matrices, as used by CSS Color 4). */
export function oklchToLinearSrgb({ l, c, h }: Oklch): Rgb {
  const rad = (h * Math.PI) / 180;
  const a = c * Math.cos(rad);
  const b = c * Math.sin(rad);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ];
}

const GAMUT_EPSILON = 1e-6;

export function inSrgbGamut(color: Oklch): boolean {
  return oklchToLinearSrgb(color).every((v) => v >= -GAMUT_EPSILON && v <= 1 + GAMUT_EPSILON);
}

/** The largest chroma at this lightness and hue that sRGB can show (binary search, rounded down). */
export function maxSrgbChroma(l: number, h: number): number {
  let lo = 0;
  let hi = 0.5;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (inSrgbGamut({ l, c: mid, h })) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The 8-bit sRGB colour a browser paints: channels clipped to the gamut, gamma-encoded, rounded.
 * (Our theme colours are chosen inside the gamut, so clipping only absorbs rounding noise.)
 */
export function toSrgb8(color: Oklch): Rgb {
  return oklchToLinearSrgb(color).map((v) => {
    const x = Math.min(1, Math.max(0, v));
    const encoded = x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
    return Math.round(encoded * 255);
  }) as Rgb;
}

/** WCAG 2 relative luminance of an 8-bit sRGB colour. */
export function relativeLuminance(rgb8: Rgb): number {
  const [r, g, b] = rgb8.map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: Oklch | Rgb, b: Oklch | Rgb): number {
  const la = relativeLuminance(Array.isArray(a) ? a : toSrgb8(a));
  const lb = relativeLuminance(Array.isArray(b) ? b : toSrgb8(b));
  const [hi, lo] = la > lb ? [la, lb] : [lb, la];
  return (hi + 0.05) / (lo + 0.05);
}

/** The CSS text of a colour, rounded the way the theme emits it (chroma rounded down: stays in gamut). */
export function formatOklch({ l, c, h }: Oklch): string {
  return `oklch(${round(l, 3)} ${Math.floor(c * 10_000) / 10_000} ${round(h, 1)})`;
}

/** Parses what formatOklch wrote; used by the tests to check the emitted text itself. */
export function parseOklch(css: string): Oklch {
  const match = /^oklch\(([\d.]+) ([\d.]+) ([\d.]+)\)$/.exec(css);
  if (!match) throw new Error(`not an oklch() colour: ${css}`);
  return { l: Number(match[1]), c: Number(match[2]), h: Number(match[3]) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
