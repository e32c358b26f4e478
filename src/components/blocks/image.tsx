import { Img } from "~/components/media/img";
import type { BlockOf } from "./types";

export const ImageBlock = ({ block }: { block: BlockOf<"image"> }) => (
  <section class="block block-image">
    <figure class="container figure">
      <Img picture={block.image} sizes="(min-width: 60em) 56rem, calc(100vw - 2rem)" />
      {block.caption && <figcaption>{block.caption}</figcaption>}
    </figure>
  </section>
);
