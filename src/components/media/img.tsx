import type { Picture } from "~/server/site/blocks";

interface Props {
  picture: Picture;
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string;
  /** Above the fold (the hero): loaded at once, with high priority. Everything else is lazy. */
  eager?: boolean;
  class?: string;
  /** Decorative next to a text that says the same (a card's title): empty alt. */
  decorative?: boolean;
}

/** A backend WebP image with its srcset, width and height (no layout shift), lazy unless above the fold. */
export const Img = ({ picture, sizes, eager = false, class: className, decorative = false }: Props) => (
  <img
    class={className}
    src={picture.src}
    srcset={picture.srcset ?? undefined}
    sizes={picture.srcset ? sizes : undefined}
    width={picture.width}
    height={picture.height}
    alt={decorative ? "" : picture.alt}
    loading={eager ? "eager" : "lazy"}
    decoding={eager ? "sync" : "async"}
    fetchPriority={eager ? "high" : undefined}
  />
);
