/**
 * The social card's fonts, from the @fontsource/inter npm package (woff: satori reads woff and ttf, not
 * woff2), read once from disk. Never fetched from the network.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface CardFont {
  name: string;
  data: Buffer;
  weight: 400 | 700;
  style: "normal";
}

let fonts: CardFont[] | undefined;

export function cardFonts(): CardFont[] {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const load = (weight: 400 | 700): CardFont => ({
      name: "Inter",
      data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
      weight,
      style: "normal",
    });
    fonts = [load(400), load(700)];
  }
  return fonts;
}
