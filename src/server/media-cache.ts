/**
 * The build-time media cache: each practice's logo and favicon, downloaded by the build pre-pass
 * (src/server/cache/prepass.ts) to `<root>/<code>/<logo|favicon>.<ext>`. The social card reads its logo
 * here, never from the network at request time; a logo changed in the backend reaches the card at the
 * next build (the specification's "fixed by redeploy").
 *
 * Roots: MEDIA_CACHE_DIR when set (the pre-pass then writes only there), else public/media (the vite dev
 * server's copy) and dist/media (the client build output the server ships with); the pre-pass writes both.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { getEnv } from "./env";
import { PRACTICE_CODE } from "./tenancy/registry";

export type CachedMediaKind = "logo" | "favicon";

/** File extension per media type of the contract (what the pre-pass names its downloads). */
export const MEDIA_EXTENSIONS: Record<string, string> = {
  "image/svg+xml": "svg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/** Directories searched in order (and written by the pre-pass): MEDIA_CACHE_DIR, else public/media and dist/media. */
export function mediaCacheRoots(dir: string | undefined = getEnv().MEDIA_CACHE_DIR): string[] {
  return dir ? [dir] : [join("public", "media"), join("dist", "media")];
}

/**
 * The cached file of a practice's logo or favicon (`<root>/<code>/<kind>.<ext>`, any extension, so that
 * the caller can refuse a type it cannot use), as an absolute path, or null.
 */
export function mediaCachePath(
  code: string,
  kind: CachedMediaKind,
  roots: string[] = mediaCacheRoots(),
): string | null {
  if (!PRACTICE_CODE.test(code)) return null;
  for (const root of roots) {
    const dir = join(root, code);
    if (!existsSync(dir)) continue;
    const file = readdirSync(dir)
      .filter((name) => name.startsWith(`${kind}.`) && name.length > kind.length + 1)
      .sort()[0];
    if (file) return resolve(dir, file);
  }
  return null;
}
