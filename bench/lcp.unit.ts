import { describe, expect, it } from "vitest";
import { preloadedImages } from "./lcp";

describe("preloadedImages", () => {
  it("lists the preload's href and every srcset candidate of same-origin images, entities decoded", () => {
    const html =
      '<head><link rel="preload" as="image" href="/api/media?path=a.jpg&amp;w=400" ' +
      'imagesrcset="/api/media?path=a.jpg&amp;w=400 400w, /api/media?path=a.jpg&amp;w=800 800w" imagesizes="100vw">' +
      '<link rel="preload" as="font" href="/f.woff2"><link rel="preload" as="image" href="https://media.example/x.jpg"></head>';
    expect(preloadedImages(html)).toEqual(["/api/media?path=a.jpg&w=400", "/api/media?path=a.jpg&w=800"]);
  });

  it("finds none on a page without a preloaded image", () => {
    expect(preloadedImages('<head><link rel="stylesheet" href="/s.css"></head>')).toEqual([]);
  });
});
