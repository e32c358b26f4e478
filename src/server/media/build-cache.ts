/**
 * The build-time media cache: each practice's logo and favicon, downloaded by the build pre-pass
 * (src/server/prepass/prepass.ts) to `<root>/<code>/<logo|favicon>.<ext>`. The social card reads its logo
 * here, never from the network at request time; a logo changed in the backend reaches the card at the
 * next build (the specification's "fixed by redeploy").
 *
 * The pre-pass fills it with writeMediaCache(); the card finds a file with mediaCachePath().
 *
 * Roots: MEDIA_CACHE_DIR when set (the pre-pass then writes only there), else public/media (the vite dev
 * server's copy) and dist/media (the client build output the server ships with); the pre-pass writes both.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BackendError, expectOk, getMedia, type SiteConfig } from "../backend";
import { PRACTICE_CODE } from "../tenancy/registry";
import { extensionOf } from "./types";
import { mediaPathOf } from "./url";

export type CachedMediaKind = "logo" | "favicon";


/** Directories searched in order (and written by the pre-pass): MEDIA_CACHE_DIR, else public/media and dist/media. */
export function mediaCacheRoots(dir: string | undefined): string[] {
  return dir ? [dir] : [join("public", "media"), join("dist", "media")];
}

/**
 * The cached file of a practice's logo or favicon (`<root>/<code>/<kind>.<ext>`, any extension, so that
 * the caller can refuse a type it cannot use), as an absolute path, or null.
 */
export function mediaCachePath(
  code: string,
  kind: CachedMediaKind,
  roots: string[],
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

/** Logos and favicons are small; anything larger is refused rather than written to disk. */
const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** Downloads one media file of the backend (only its /media/ path, from the origin of the API base URL). */
export async function downloadMedia(apiBaseUrl: string, mediaUrl: string, timeoutMs: number): Promise<Buffer> {
  const path = mediaPathOf(mediaUrl);
  if (!path) throw new BackendError("invalid_payload", mediaUrl, "not a media URL under /media/");
  const response = await expectOk(await getMedia({ baseUrl: new URL(apiBaseUrl).origin, timeoutMs }, path), path);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_MEDIA_BYTES) throw new BackendError("invalid_payload", path, `larger than ${MAX_MEDIA_BYTES} bytes`);
  return bytes;
}

export interface MediaCacheWrite {
  apiBaseUrl: string;
  timeoutMs: number;
  /** Every directory the files are written to ({root}/{code}/logo.svg…). */
  roots: string[];
  log: (line: string) => void;
}

/** Downloads a practice's logo and favicon into every root; a failure is logged, never fatal. */
export async function writeMediaCache(opts: MediaCacheWrite, code: string, config: Pick<SiteConfig, "logo" | "favicon">) {
  const kinds: [CachedMediaKind, SiteConfig["logo"]][] = [
    ["logo", config.logo],
    ["favicon", config.favicon],
  ];
  for (const [kind, media] of kinds) {
    for (const root of opts.roots) clearMedia(resolve(root, code), kind);
    if (!media) continue;
    try {
      const bytes = await downloadMedia(opts.apiBaseUrl, media.url, opts.timeoutMs);
      const file = `${kind}.${extensionOf(media.mime_type)}`;
      for (const root of opts.roots) {
        mkdirSync(resolve(root, code), { recursive: true });
        writeFileSync(join(resolve(root, code), file), bytes);
      }
    } catch (error) {
      opts.log(`prepass: ${code} ${kind} not cached: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Removes an earlier build's file of another format (a logo that went from png to svg). */
function clearMedia(folder: string, kind: CachedMediaKind): void {
  let files: string[];
  try {
    files = readdirSync(folder);
  } catch {
    return;
  }
  for (const file of files) if (file.startsWith(`${kind}.`)) rmSync(join(folder, file), { force: true });
}
