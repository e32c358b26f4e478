import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { createResizeCache, MediaNotFound } from "./resize";

const photo = readFileSync("ops/demo/backend/media/shared/implant.webp");

describe("createResizeCache", () => {
  it("resizes to the width in the original's format, once for concurrent requests, then from the cache", async () => {
    let fetches = 0;
    const cache = createResizeCache(async () => {
      fetches += 1;
      await new Promise((r) => setTimeout(r, 20));
      return { body: photo, type: "image/webp" };
    });
    const [a, b] = await Promise.all([cache.get("/media/shared/implant.webp", 320), cache.get("/media/shared/implant.webp", 320)]);
    expect(fetches).toBe(1);
    const meta = await sharp(a.image.body).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 320 });
    expect(b.image.body.equals(a.image.body)).toBe(true);
    const again = await cache.get("/media/shared/implant.webp", 320);
    expect(again.hit).toBe(true);
    expect(fetches).toBe(1);
    await cache.get("/media/shared/implant.webp", 160);
    expect(fetches).toBe(2);
  });

  it("never enlarges", async () => {
    const small = await sharp(photo).resize({ width: 200 }).png().toBuffer();
    const cache = createResizeCache(async () => ({ body: small, type: "image/png" }));
    const { image } = await cache.get("/media/x.png", 960);
    expect(await sharp(image.body).metadata()).toMatchObject({ format: "png", width: 200 });
  });

  it("stays within its byte budget", async () => {
    const cache = createResizeCache(async () => ({ body: photo, type: "image/webp" }), 30_000);
    for (const w of [160, 320, 480, 640]) await cache.get(`/media/${w}.webp`, w);
    expect(cache.size).toBeLessThanOrEqual(30_000);
  });

  it("rejects with MediaNotFound when the original is missing, and does not cache it", async () => {
    let calls = 0;
    const cache = createResizeCache(async () => {
      calls += 1;
      return null;
    });
    await expect(cache.get("/media/none.png", 160)).rejects.toBeInstanceOf(MediaNotFound);
    await expect(cache.get("/media/none.png", 160)).rejects.toBeInstanceOf(MediaNotFound);
    expect(calls).toBe(2);
  });
});
