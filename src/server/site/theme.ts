/**
 * The practice theme as inline OKLCH CSS variables on <html> (the specification's rule). The backend
 * sends hue and chroma only; the lightness is ours, chosen per colour so that white text on the primary
 * and accent colours (and those colours as text on their own pale tints) keeps a WCAG contrast of at
 * least 4.5:1, whatever hue and chroma arrive. The chroma is reduced to what sRGB can show at that
 * lightness, so the browser paints exactly the colour whose contrast was computed.
 * An out-of-range or missing value falls back to the default theme with a warning.
 */
import { themeSchema, type Theme } from "../backend/schemas";
import { reportWarning } from "../monitoring";

export const DEFAULT_THEME: Theme = { primary_hue: 235, primary_chroma: 0.12, accent_hue: 160, accent_chroma: 0.09 };

export const HUE_RANGE = [0, 360] as const;
export const CHROMA_RANGE = [0, 0.37] as const;

/** WCAG AA for body text is 4.5:1; the margin absorbs the browser's own rounding of oklch(). */
export const MIN_CONTRAST = 4.5;
const TARGET_CONTRAST = 4.6;

const WHITE: [number, number, number] = [255, 255, 255];
/** Pale tints: section backgrounds, hover fills. Dark body text and the strong colour both read on them. */
const SOFT_LIGHTNESS = 0.965;
const SOFT_MAX_CHROMA = 0.03;

export function validTheme(raw: unknown, code: string): Theme {
  const parsed = themeSchema.safeParse(raw);
  const t = parsed.success ? parsed.data : undefined;
  const inRange =
    t &&
    [t.primary_hue, t.accent_hue].every((h) => Number.isFinite(h) && h >= HUE_RANGE[0] && h <= HUE_RANGE[1]) &&
    [t.primary_chroma, t.accent_chroma].every((c) => Number.isFinite(c) && c >= CHROMA_RANGE[0] && c <= CHROMA_RANGE[1]);
  if (inRange) return t;
  reportWarning("theme: missing or out-of-range value, default theme used", { code, theme: raw });
  return DEFAULT_THEME;
}

/** One theme colour: the strong shade (white text on it) and its pale tint, as CSS text. */
export interface ThemeColor {
  strong: string;
  hover: string;
  soft: string;
}

/** The colour as emitted: lightness and hue rounded first, then the chroma capped to the gamut there. */
function inGamut(l: number, c: number, h: number): Oklch {
  const rounded = parseOklch(formatOklch({ l, c: 0, h }));
  return parseOklch(formatOklch({ ...rounded, c: Math.min(c, maxSrgbChroma(rounded.l, rounded.h)) }));
}

/**
 * The lightest shade of (hue, chroma) that white text, and the tint below, contrast with at
 * TARGET_CONTRAST. Lighter is more colourful; contrast falls as lightness rises, so a bisection
 * between a shade that passes (near-black) and one that fails (light) finds it in a dozen steps.
 */
export function themeColor(hue: number, chroma: number): ThemeColor {
  const h = hue % 360;
  const soft = inGamut(SOFT_LIGHTNESS, Math.min(chroma, SOFT_MAX_CHROMA), h);
  const readable = (l: number) => {
    const shade = inGamut(l, chroma, h);
    return contrastRatio(shade, WHITE) >= TARGET_CONTRAST && contrastRatio(shade, soft) >= TARGET_CONTRAST;
  };
  let pass = 0.1;
  let fail = 0.8;
  if (!readable(pass) || readable(fail)) throw new Error(`theme: no readable lightness for hue ${hue} chroma ${chroma}`);
  while (fail - pass > 0.001) {
    const mid = (pass + fail) / 2;
    if (readable(mid)) pass = mid;
    else fail = mid;
  }
  const strong = inGamut(pass, chroma, h);
  const hover = inGamut(Math.max(0, strong.l - 0.07), chroma, h);
  return { strong: formatOklch(strong), hover: formatOklch(hover), soft: formatOklch(soft) };
}

const computed = new Map<string, string>();
const MEMO_LIMIT = 512;

/**
 * The value of the <html> style attribute: the four values as received (what the specification
 * names) and the colours every style rule derives from. Memoised: a practice's theme rarely changes.
 */
export function themeStyle(theme: Theme): string {
  const key = `${theme.primary_hue}/${theme.primary_chroma}/${theme.accent_hue}/${theme.accent_chroma}`;
  const hit = computed.get(key);
  if (hit) return hit;
  const primary = themeColor(theme.primary_hue, theme.primary_chroma);
  const accent = themeColor(theme.accent_hue, theme.accent_chroma);
  const style = [
    `--primary-hue:${theme.primary_hue}`,
    `--primary-chroma:${theme.primary_chroma}`,
    `--accent-hue:${theme.accent_hue}`,
    `--accent-chroma:${theme.accent_chroma}`,
    `--primary:${primary.strong}`,
    `--primary-hover:${primary.hover}`,
    `--primary-soft:${primary.soft}`,
    `--accent:${accent.strong}`,
    `--accent-hover:${accent.hover}`,
    `--accent-soft:${accent.soft}`,
  ].join(";");
  if (computed.size >= MEMO_LIMIT) computed.clear();
  computed.set(key, style);
  return style;
}

/*
 * OKLCH colour arithmetic: conversion to the sRGB a screen shows, gamut limits and the WCAG contrast
 * ratio. Pure functions, no dependencies, so the contrast guarantee can be tested over the whole hue and
 * chroma range.
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
