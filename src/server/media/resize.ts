/**
 * Resized raster media (the image optimizer): the original fetched once, resized with sharp to one of
 * the allowed widths in its own format, and kept in a byte-bounded in-process LRU. Concurrent requests
 * for the same image and width share one fetch and one resize.
 */
import { LRUCache } from "lru-cache";

/** Byte budget of the resized-image cache. */
export const RESIZE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** How long a resized image is kept before the original is fetched again (media may be replaced). */
export const RESIZE_CACHE_TTL_MS = 60 * 60 * 1000;
/** Originals larger than this are not resized (nor held in memory). */
export const RESIZE_MAX_SOURCE_BYTES = 15 * 1024 * 1024;

export interface ResizedImage {
  body: Buffer;
  type: string;
}

/** Fetches an original: its bytes and content type, or null when the backend has no such file. */
export type OriginalFetcher = (path: string) => Promise<{ body: Buffer; type: string } | null>;

export class MediaNotFound extends Error {}

let imageLibrary: Promise<typeof import("sharp").default> | undefined;

/**
 * sharp (libvips), imported once, on first use: at a module's import it cost every thread that loads the server's
 * shared chunk (the render workers too, which need it for a card's logo only) about 0.1 s of CPU at start. The main
 * thread imports it just after listening, and readiness waits for it (src/entry.express.tsx): a broken install
 * keeps a deploy from going live, as it did when the import failed the start, and the first resize does not pay it.
 */
export function loadImageLibrary(): Promise<typeof import("sharp").default> {
  imageLibrary ??= import("sharp").then((m) => m.default);
  return imageLibrary;
}

export async function resizeImage(original: Buffer, type: string, width: number): Promise<Buffer> {
  const sharp = await loadImageLibrary();
  const image = sharp(original, { limitInputPixels: 40_000_000 }).rotate().resize({ width, withoutEnlargement: true });
  if (type === "image/webp") return image.webp({ quality: 80 }).toBuffer();
  if (type === "image/jpeg") return image.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  // A palette PNG (logos, flat drawings) stays a palette PNG; a full-colour one keeps its colours.
  const { isPalette } = await sharp(original).metadata();
  return image.png({ compressionLevel: 9, palette: isPalette === true }).toBuffer();
}

export function createResizeCache(fetchOriginal: OriginalFetcher, maxBytes = RESIZE_CACHE_MAX_BYTES) {
  const cache = new LRUCache<string, ResizedImage, { path: string; width: number }>({
    maxSize: maxBytes,
    sizeCalculation: (value) => Math.max(1, value.body.byteLength),
    ttl: RESIZE_CACHE_TTL_MS,
    fetchMethod: async (_key, _stale, { context }) => {
      const original = await fetchOriginal(context.path);
      if (!original) throw new MediaNotFound(context.path);
      return { body: await resizeImage(original.body, original.type, context.width), type: original.type };
    },
  });
  return {
    /** The resized image and whether it came from the cache. Rejects with MediaNotFound for a 404. */
    async get(path: string, width: number): Promise<{ image: ResizedImage; hit: boolean }> {
      const status: LRUCache.Status<string, ResizedImage, { path: string; width: number }> = {};
      const image = await cache.fetch(`${width} ${path}`, { context: { path, width }, status });
      return { image: image!, hit: status.fetch === "hit" };
    },
    get size() {
      return cache.calculatedSize;
    },
  };
}
