import { Img } from "~/components/media/img";
import { headingId, type BlockOf } from "./types";

/** A grid of cards; a card with a link is clickable as a whole (the title's link covers it). */
export const CardsBlock = ({ block }: { block: BlockOf<"cards"> }) => (
  <section class="block block-cards" aria-labelledby={block.heading ? headingId(block.id) : undefined}>
    <div class="container">
      {block.heading && <h2 id={headingId(block.id)}>{block.heading}</h2>}
      <ul class="card-grid">
        {block.items.map((item, i) => (
          <li key={i} class={["card", item.href && "card-link"]}>
            {item.image && (
              <Img picture={item.image} sizes="(min-width: 64em) 17rem, (min-width: 40em) 45vw, calc(100vw - 2rem)" class="card-image" />
            )}
            <div class="card-body">
              <h3>{item.href ? <a href={item.href}>{item.title}</a> : item.title}</h3>
              {item.text && <p>{item.text}</p>}
            </div>
          </li>
        ))}
      </ul>
    </div>
  </section>
);
