/**
 * The practice logo for the social card, from the build-time media cache. Every supported format (svg,
 * png, jpg, webp: the specification's list) is rasterised to a PNG of bounded size with sharp, because
 * satori embeds only PNG/JPEG data reliably and does not read WebP at all.
 */
import { extname } from "node:path";
import { loadImageLibrary } from "../media/resize";
import { mediaTypeOfName } from "../media/types";

/** The box the logo is fitted into on the card, in pixels. */
export const LOGO_BOX = { width: 440, height: 150 } as const;

export interface CardLogo {
  src: string;
  width: number;
  height: number;
}

export type LogoLookup =
  | { logo: CardLogo; warning?: undefined }
  | { logo: null; warning: string | null; context?: Record<string, unknown> };

/**
 * The logo of `code` ready for the card, or null with the warning to report: the logo is missing from
 * the cache, has a type outside the supported list, or cannot be decoded.
 */
export async function loadCardLogo(code: string, path: string | null): Promise<LogoLookup> {
  if (!path) return { logo: null, warning: `og card: logo not in media cache: ${code}`, context: { code } };
  const type = extname(path).toLowerCase();
  if (!mediaTypeOfName(path)) {
    return { logo: null, warning: `og card: unsupported logo type ${type || "(none)"} for ${code}: ${path}`, context: { code, path } };
  }
  // Outside the try: a library that cannot load is no logo's fault (the card fails, and says why).
  const sharp = await loadImageLibrary();
  try {
    const { data, info } = await sharp(path, { density: type === ".svg" ? 300 : undefined, limitInputPixels: 40_000_000 })
      .resize({ ...LOGO_BOX, fit: "inside" })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { logo: { src: `data:image/png;base64,${data.toString("base64")}`, width: info.width, height: info.height } };
  } catch (error) {
    return { logo: null, warning: `og card: unreadable logo for ${code}: ${path}`, context: { code, path, error: String(error) } };
  }
}
