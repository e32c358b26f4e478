/**
 * The build-time media cache: logos and favicons downloaded by the build under public/media/<code>/
 * (copied into dist/media/ by the client build). The social card reads its logo here, never from the
 * network at request time.
 *
 * Stand-in with the signature the build pre-pass (issue 4) exports; reconciled at merge.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { getEnv } from "./env";

export type CachedMediaKind = "logo" | "favicon";

/** Directories searched in order: MEDIA_CACHE_DIR when set, else public/media then dist/media. */
export function mediaCacheRoots(): string[] {
  const dir = getEnv().MEDIA_CACHE_DIR;
  return dir ? [dir] : [join("public", "media"), join("dist", "media")];
}

/** The cached file of a practice's logo or favicon (`<root>/<code>/<kind>.<ext>`, any extension), or null. */
export function mediaCachePath(code: string, kind: CachedMediaKind, roots: string[] = mediaCacheRoots()): string | null {
  for (const root of roots) {
    const dir = join(root, code);
    if (!existsSync(dir)) continue;
    const file = readdirSync(dir)
      .filter((name) => name.startsWith(`${kind}.`) && name.length > kind.length + 1)
      .sort()[0];
    if (file) return join(dir, file);
  }
  return null;
}
