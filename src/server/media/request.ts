/**
 * What /api/media accepts: `path`, a media path under /media/ of the backend's origin (never a URL from
 * the visitor: no scheme, no host), and an optional `w` from a small set of widths. Everything else is
 * refused with 400 before anything is fetched: other hosts, absolute or protocol-relative URLs, `..`
 * and `.` segments in any encoding (%2e%2e, %2f, backslashes, double encoding), control characters,
 * and file types outside the contract's four image types.
 */

/** The widths `w` may ask for (srcset steps). Anything else is refused: a visitor must not fill the cache. */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 960, 1280, 1600] as const;

import { mediaTypeOfName } from "./types";

const MAX_PATH_LENGTH = 512;
/** RFC 3986 pchar minus ":" "@" (never needed in a file name, and "@" reads as user-info to some parsers). */
const SEGMENT = /^(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/;

export type MediaRequest =
  | { ok: true; path: string; type: string; width: number | null }
  | { ok: false; error: string };

export function parseMediaRequest(params: URLSearchParams): MediaRequest {
  const fail = (error: string): MediaRequest => ({ ok: false, error });
  const paths = params.getAll("path");
  if (paths.length !== 1) return fail(paths.length ? "one `path` only" : "`path` is required");
  const raw = paths[0];
  if (raw.length > MAX_PATH_LENGTH) return fail("`path` is too long");
  if (!raw.startsWith("/media/")) return fail("`path` must be a media path starting with /media/");

  const segments: string[] = [];
  for (const segment of raw.slice("/media/".length).split("/")) {
    if (!SEGMENT.test(segment)) return fail("`path` has an empty segment or a character outside a media file name");
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return fail("`path` has a malformed escape");
    }
    // After one decoding a segment is a plain name: a "%" left means double encoding, a "/" or "\" an
    // encoded separator, a leading "." a traversal or hidden file.
    if (decoded.startsWith(".") || /[/\\%]|\p{Cc}/u.test(decoded)) return fail("`path` must not leave /media/");
    segments.push(decoded);
  }
  const name = segments[segments.length - 1];
  const type = mediaTypeOfName(name);
  if (!type) return fail("`path` must name a webp, png, jpg or svg file");

  const widths = params.getAll("w");
  let width: number | null = null;
  if (widths.length > 1) return fail("one `w` only");
  if (widths.length === 1) {
    width = (MEDIA_WIDTHS as readonly number[]).find((w) => String(w) === widths[0]) ?? null;
    if (width === null) return fail(`\`w\` must be one of ${MEDIA_WIDTHS.join(", ")}`);
  }
  return { ok: true, path: `/media/${segments.map(encodeURIComponent).join("/")}`, type, width };
}
