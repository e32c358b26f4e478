import { headingId, type BlockOf } from "./types";

/** Questions as <details>: open and close without JavaScript; answers are sanitised backend HTML. */
export const FaqBlock = ({ block }: { block: BlockOf<"faq"> }) => (
  <section class="block block-faq" aria-labelledby={block.heading ? headingId(block.id) : undefined}>
    <div class="container narrow">
      {block.heading && <h2 id={headingId(block.id)}>{block.heading}</h2>}
      <div class="faq-list">
        {block.items.map((item, i) => (
          <details key={i} class="faq-item">
            <summary>{item.question}</summary>
            <div class="prose" dangerouslySetInnerHTML={item.answerHtml} />
          </details>
        ))}
      </div>
    </div>
  </section>
);
