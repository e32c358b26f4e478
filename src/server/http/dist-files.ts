/**
 * The client build's files (dist/: the bundles under /build and /assets, the favicon, the practices'
 * build-time media under /media/<code>/), served from memory.
 *
 * An allow-list: the files the build wrote are listed once, at start (the build never changes while the
 * server runs), and a request names one of them exactly or none. No path a visitor sends reaches the file
 * system: no dot segment, dotfile or escape to resolve, nothing to refuse.
 *
 * Compressed as the client accepts (br, else gzip) for the types worth it, once per file, on its first
 * request, off the event loop (zlib's pool), at the highest ratio: a bundle is fetched by every new visitor's
 * phone and never changes. Each answer is one head and one body, as a cache hit's.
 *
 * Bounded by the build: at most MAX_FILES files listed, bodies kept for files up to MAX_KEPT_FILE_BYTES and
 * MAX_KEPT_BYTES in all (a larger file, which a build does not have, is read from disk each time, uncompressed).
 */
import { readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isCompressible } from "../cache/entry";
import { chooseEncoding, matchesEtag } from "./serve";
import { compress, MIN_COMPRESSED_BYTES } from "./respond";

const MAX_FILES = 10_000;
const MAX_KEPT_FILE_BYTES = 4 * 1024 * 1024;
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

/** The types of what a build holds; anything else is application/octet-stream. */
const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

interface Bodies {
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

interface DistFile {
  abs: string;
  type: string;
  size: number;
  etag: string;
  lastModified: string;
  /** Read (and compressed) on first use; null when the file is not kept (its size, or the total's bound). */
  bodies?: Promise<Bodies | null>;
}


export class DistFiles {
  private readonly files = new Map<string, DistFile>();
  private keptBytes = 0;

  /** Lists the files under `root` (none if it is missing: a server started without a client build). */
  constructor(root: string) {
    const walk = (dir: string) => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names) {
        if (this.files.size >= MAX_FILES) return;
        if (name.startsWith(".")) continue;
        const abs = join(dir, name);
        const stat = statSync(abs, { throwIfNoEntry: false });
        if (!stat) continue;
        if (stat.isDirectory()) walk(abs);
        else if (stat.isFile()) {
          const url = `/${relative(root, abs).split(sep).join("/")}`;
          this.files.set(url, {
            abs,
            type: TYPES[extname(name).toLowerCase()] ?? "application/octet-stream",
            size: stat.size,
            etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
            lastModified: stat.mtime.toUTCString(),
          });
        }
      }
    };
    walk(root);
  }

  /** Whether the build has a file at this URL path (decoded, exact). */
  has(path: string): boolean {
    return this.files.has(path);
  }

  /** How many files are listed (the operator's view, tests). */
  get count(): number {
    return this.files.size;
  }

  /**
   * Answers GET or HEAD of the file at `path` (a URL path, decoded). Resolves false, having written nothing,
   * when the build has no such file.
   */
  async answer(req: IncomingMessage, res: ServerResponse, path: string, cacheControl: string): Promise<boolean> {
    const file = this.files.get(path);
    if (!file) return false;
    const notModified = matchesEtag(req.headers["if-none-match"], file.etag);
    let bodies: Bodies | null = null;
    if (!notModified) {
      try {
        bodies = (await this.bodiesOf(file)) ?? { identity: await readFile(file.abs), br: null, gzip: null };
      } catch {
        // Gone from the disk since the start (a build replaced under a running server): no longer listed, and this
        // request is answered as for any path the build does not have (nothing is written yet).
        this.files.delete(path);
        return false;
      }
      if (res.destroyed) return true;
    }
    // setHeader, not a list to writeHead: what earlier handlers set stays (the headers of every response, an
    // SVG's sandbox policy: media-files.ts).
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("ETag", file.etag);
    res.setHeader("Last-Modified", file.lastModified);
    res.setHeader("Content-Type", file.type);
    if (isCompressible(file.type) && file.size >= MIN_COMPRESSED_BYTES) res.setHeader("Vary", "Accept-Encoding");
    if (!bodies) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"], bodies.br !== null);
    const body = encoding === "br" ? bodies.br! : encoding === "gzip" ? bodies.gzip! : bodies.identity;
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  /** The file's bodies, read and compressed once (concurrent first requests share the work); null: not kept. */
  private bodiesOf(file: DistFile): Promise<Bodies | null> {
    if (file.bodies) return file.bodies;
    if (file.size > MAX_KEPT_FILE_BYTES || this.keptBytes + file.size > MAX_KEPT_BYTES) return Promise.resolve(null);
    this.keptBytes += file.size;
    file.bodies = (async () => {
      const identity = await readFile(file.abs);
      if (!isCompressible(file.type) || identity.length < MIN_COMPRESSED_BYTES) return { identity, br: null, gzip: null };
      const [br, gz] = await Promise.all([compress(identity, "br", "best"), compress(identity, "gzip", "best")]);
      this.keptBytes += br.length + gz.length;
      return { identity, br, gzip: gz };
    })();
    // A file that could not be read: its bytes are not counted (answer() drops it from the list).
    file.bodies.catch(() => {
      file.bodies = undefined;
      this.keptBytes -= file.size;
    });
    return file.bodies;
  }
}
