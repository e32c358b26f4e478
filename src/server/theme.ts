/**
 * The practice theme as inline OKLCH CSS variables on <html>. Lightness is fixed by us, not the
 * backend, so that text on the primary and accent colours stays readable whatever hue and chroma
 * arrive. An out-of-range or missing value falls back to the default theme with a warning.
 */
import { themeSchema, type Theme } from "./backend/schemas";
import { reportWarning } from "./monitoring";

export const DEFAULT_THEME: Theme = { primary_hue: 235, primary_chroma: 0.12, accent_hue: 160, accent_chroma: 0.09 };

export function validTheme(raw: unknown, code: string): Theme {
  const parsed = themeSchema.safeParse(raw);
  const t = parsed.success ? parsed.data : undefined;
  const inRange =
    t &&
    [t.primary_hue, t.accent_hue].every((h) => h >= 0 && h <= 360) &&
    [t.primary_chroma, t.accent_chroma].every((c) => c >= 0 && c <= 0.37);
  if (inRange) return t;
  reportWarning("theme: missing or out-of-range value, default theme used", { code, theme: raw });
  return DEFAULT_THEME;
}

export function themeStyle(theme: Theme): string {
  return [
    `--primary-h:${theme.primary_hue}`,
    `--primary-c:${theme.primary_chroma}`,
    `--accent-h:${theme.accent_hue}`,
    `--accent-c:${theme.accent_chroma}`,
  ].join(";");
}
