/**
 * The page's largest paint is its first hero image: preloaded from the <head> with the same srcset and
 * sizes as the <img>, so the browser picks the same candidate, and at high priority, so the request starts
 * while the head is still being parsed instead of after the header and navigation markup. It comes from the
 * page's own origin (site/blocks.ts, docs/decisions/0046-lcp-image.md): no connection to open first.
 */
import type { DocumentLink } from "@builder.io/qwik-city";

/** How wide the hero image is drawn at each viewport width (the <img> and its preload must agree). */
export const HERO_IMAGE_SIZES = "(min-width: 64em) 34rem, calc(100vw - 2rem)";

export interface LcpImage {
  href: string;
  srcset: string | null;
  sizes: string;
}

/**
 * What lcpImage reads of a block: site/blocks.ts's Block has it. Declared here because seo/ sits above site/
 * in the folder order (README, "Layout").
 */
export interface BlockWithImage {
  type: string;
  image?: { src: string; srcset: string | null } | null;
}

/** The image of the page's first hero (the one block-list.tsx renders eager), or null. */
export function lcpImage(blocks: readonly BlockWithImage[]): LcpImage | null {
  const hero = blocks.find((b) => b.type === "hero");
  if (!hero?.image) return null;
  return { href: hero.image.src, srcset: hero.image.srcset, sizes: HERO_IMAGE_SIZES };
}

/** The <link rel="preload"> of that image. */
export function lcpPreloadLink(image: LcpImage): DocumentLink {
  const link: DocumentLink & { fetchpriority: string } = {
    rel: "preload",
    as: "image",
    href: image.href,
    fetchpriority: "high",
    key: "lcp-image",
  };
  if (image.srcset) Object.assign(link, { imagesrcset: image.srcset, imagesizes: image.sizes });
  return link;
}
