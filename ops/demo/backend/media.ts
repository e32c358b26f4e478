/**
 * GET/HEAD /media/<path>: serves the files of ops/demo/backend/media/.
 *
 * Hand-written rather than express.static so the contract's four image types get exactly their MIME
 * types, anything else is refused, and traversal is rejected explicitly (a test checks it).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";

export const MEDIA_ROOT = fileURLToPath(new URL("./media/", import.meta.url));

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".svg": "image/svg+xml",
};

/** Resolves a request path (below /media/) to a file inside root, or null when it must not be served. */
export function resolveMediaPath(root: string, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null; // malformed percent-encoding
  }
  const segments = decoded.split("/").filter((s) => s !== "");
  if (segments.length === 0) return null;
  if (segments.some((s) => s === "." || s === ".." || s.includes("\\") || s.includes("\0") || s.startsWith(".")))
    return null;
  const full = resolve(root, ...segments);
  const base = resolve(root);
  // Belt and braces: whatever slipped through the segment checks, never leave the media root.
  if (!full.startsWith(base + sep)) return null;
  return TYPES[extname(full).toLowerCase()] ? full : null;
}

export function mediaHandler(root: string = MEDIA_ROOT) {
  return async (req: Request, res: Response): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.status(405).set("Allow", "GET, HEAD").json({ detail: "Method not allowed." });
      return;
    }
    // req.path is relative to the /media mount point and still percent-encoded.
    const file = resolveMediaPath(root, req.path);
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) {
      res.status(404).json({ detail: "Not found." });
      return;
    }
    res.status(200).set({
      "Content-Type": TYPES[extname(file).toLowerCase()],
      "Content-Length": String(info.size),
      "Last-Modified": info.mtime.toUTCString(),
      // The files never change under a given name in a demo; a short cache keeps reloads honest.
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await new Promise<void>((done, fail) => {
      const stream = createReadStream(file);
      stream.on("error", fail);
      res.on("close", () => {
        stream.destroy();
        done();
      });
      stream.pipe(res);
    });
  };
}
