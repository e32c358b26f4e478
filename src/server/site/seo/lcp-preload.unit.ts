import { describe, expect, it } from "vitest";
import type { Block, Picture } from "../blocks";
import { HERO_IMAGE_SIZES, lcpImage, lcpPreloadLink } from "./lcp-preload";

const picture: Picture = { src: "https://cms.example/hero.webp", srcset: "https://cms.example/hero-480w.webp 480w, https://cms.example/hero.webp 1600w", width: 1600, height: 900, alt: "Salle" };
const hero = (image: Picture | null, id = "h1") => ({ type: "hero", id, heading: "Titre", subheading: null, image, cta: null }) as Block;

describe("the LCP image's preload", () => {
  it("preloads the first hero's image with the <img>'s srcset and sizes, at high priority", () => {
    const image = lcpImage([hero(picture), hero({ ...picture, src: "https://cms.example/other.webp" }, "h2")]);
    expect(image).toEqual({ href: picture.src, srcset: picture.srcset, sizes: HERO_IMAGE_SIZES });
    expect(lcpPreloadLink(image!)).toEqual({
      rel: "preload",
      as: "image",
      href: picture.src,
      imagesrcset: picture.srcset,
      imagesizes: HERO_IMAGE_SIZES,
      fetchpriority: "high",
      key: "lcp-image",
    });
  });

  it("without a srcset, the plain URL; no hero image, no preload", () => {
    expect(lcpPreloadLink(lcpImage([hero({ ...picture, srcset: null })])!)).not.toHaveProperty("imagesrcset");
    expect(lcpImage([hero(null)])).toBeNull();
    expect(lcpImage([])).toBeNull();
  });
});
