import { headingId, type BlockOf } from "./types";

export const CtaBlock = ({ block }: { block: BlockOf<"cta"> }) => (
  <section class="block block-cta" aria-labelledby={headingId(block.id)}>
    <div class="container">
      <div class="cta-panel">
        <div>
          <h2 id={headingId(block.id)}>{block.heading}</h2>
          {block.text && <p>{block.text}</p>}
        </div>
        {block.link && (
          <a class="button button-inverse button-large" href={block.link.href}>
            {block.link.label}
          </a>
        )}
      </div>
    </div>
  </section>
);
