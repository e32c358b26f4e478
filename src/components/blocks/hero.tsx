import { Img } from "~/components/media/img";
import { HERO_IMAGE_SIZES } from "~/server/site/seo/lcp-preload";
import type { BlockOf } from "./types";

/** The page's opening: its h1, a short text, the main call to action and the one eager image. */
interface Props {
  block: BlockOf<"hero">;
  phone: { label: string; href: string };
  /** The page's first hero holds its h1 and the eager image; a later one is an ordinary section. */
  primary: boolean;
}

export const HeroBlock = ({ block, phone, primary }: Props) => (
  <section class={["hero", block.image ? "hero-with-image" : undefined]}>
    <div class="container hero-grid">
      <div class="hero-text">
        {primary ? <h1>{block.heading}</h1> : <h2>{block.heading}</h2>}
        {block.subheading && <p class="lead">{block.subheading}</p>}
        <p class="hero-actions">
          {block.cta && (
            <a class="button button-large" href={block.cta.href}>
              {block.cta.label}
            </a>
          )}
          <a class="button button-ghost button-large" href={phone.href}>
            <span class="visually-hidden">Appeler le </span>
            {phone.label}
          </a>
        </p>
      </div>
      {block.image && (
        <Img picture={block.image} sizes={HERO_IMAGE_SIZES} eager={primary} class="hero-image" />
      )}
    </div>
  </section>
);
