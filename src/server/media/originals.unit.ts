import { describe, expect, it } from "vitest";
import { bodyUpTo, createOriginalCache, ORIGINAL_CACHE_MAX_FILE_BYTES, ORIGINAL_CACHE_MAX_KEYS } from "./originals";

function streamOf(chunks: number[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(new Uint8Array(chunks[i]).fill(i++ + 1));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe("bodyUpTo", () => {
  it("reads a body that ends within the limit whole", async () => {
    const body = await bodyUpTo(streamOf([3, 4]).stream, 7);
    expect(Buffer.isBuffer(body)).toBe(true);
    expect([...(body as Buffer)]).toEqual([1, 1, 1, 2, 2, 2, 2]);
  });

  it("gives a longer body back as a stream of every byte, the ones read first included", async () => {
    const body = await bodyUpTo(streamOf([3, 4, 5]).stream, 6);
    expect(Buffer.isBuffer(body)).toBe(false);
    const all = await bytesOf(body as ReadableStream<Uint8Array>);
    expect([...all]).toEqual([1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]);
  });

  it("cancels the source when the stream it gave back is cancelled (a visitor who left)", async () => {
    const source = streamOf([4, 4, 4]);
    const body = (await bodyUpTo(source.stream, 5)) as ReadableStream<Uint8Array>;
    await body.cancel();
    expect(source.cancelled()).toBe(true);
  });
});

describe("createOriginalCache", () => {
  const file = (size: number) => ({ body: Buffer.alloc(size), type: "image/webp", etag: null, lastModified: null });

  it("keeps no file over the per-file limit", () => {
    const cache = createOriginalCache();
    cache.set("/media/big.webp", file(ORIGINAL_CACHE_MAX_FILE_BYTES + 1));
    cache.set("/media/small.webp", file(1000));
    expect(cache.has("/media/big.webp")).toBe(false);
    expect(cache.has("/media/small.webp")).toBe(true);
  });

  it("is bounded in bytes, the least recently used file leaving first", () => {
    const cache = createOriginalCache(3000);
    cache.set("/media/a.webp", file(1000));
    cache.set("/media/b.webp", file(1000));
    cache.get("/media/a.webp");
    cache.set("/media/c.webp", file(1500));
    expect([...cache.keys()].sort()).toEqual(["/media/a.webp", "/media/c.webp"]);
    expect(cache.calculatedSize).toBeLessThanOrEqual(3000);
  });

  it("is bounded in keys", () => {
    const cache = createOriginalCache();
    for (let i = 0; i <= ORIGINAL_CACHE_MAX_KEYS; i++) cache.set(`/media/${i}.webp`, file(1));
    expect(cache.size).toBe(ORIGINAL_CACHE_MAX_KEYS);
  });
});
