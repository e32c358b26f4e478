/**
 * The build-time media cache: each practice's logo and favicon, downloaded by the build pre-pass to
 * `{MEDIA_CACHE_DIR}/{code}/{logo|favicon}.{svg|png|jpg|webp}` (MEDIA_CACHE_DIR defaults to dist/media,
 * the client build output the server ships with; the pre-pass also writes public/media/ for the vite
 * dev server). The social card reads the logo through mediaCachePath(); a logo changed in the backend
 * reaches the card at the next build (the specification's "fixed by redeploy").
 */
import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { getEnv } from "./env";
import { PRACTICE_CODE } from "./tenancy/registry";

export type MediaKind = "logo" | "favicon";

/** File extension per media type of the contract, in lookup order. */
export const MEDIA_EXTENSIONS: Record<string, string> = {
  "image/svg+xml": "svg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/** The media cache directory as an absolute path. */
export function mediaCacheDir(dir = getEnv().MEDIA_CACHE_DIR): string {
  return resolve(dir);
}

/** Absolute path of the cached logo or favicon of a practice, or null when the build did not cache one. */
export function mediaCachePath(code: string, kind: MediaKind, dir = mediaCacheDir()): string | null {
  if (!PRACTICE_CODE.test(code)) return null;
  const folder = resolve(dir, code);
  if (!existsSync(folder)) return null;
  const name = readdirSync(folder).find((file) =>
    Object.values(MEDIA_EXTENSIONS).some((ext) => file === `${kind}.${ext}`),
  );
  return name ? resolve(folder, name) : null;
}
