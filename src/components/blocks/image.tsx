import { Img } from "~/components/media/img";
import type { BlockOf } from "./types";

export const ImageBlock = ({ block }: { block: BlockOf<"image"> }) => (
  <section class="block block-image">
    <div class="container">
      <figure class="figure">
        <Img picture={block.image} sizes="(min-width: 56em) 52rem, calc(100vw - 2rem)" />
        {block.caption && <figcaption>{block.caption}</figcaption>}
      </figure>
    </div>
  </section>
);
