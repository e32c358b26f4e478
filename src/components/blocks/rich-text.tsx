import type { BlockOf } from "./types";

/** Backend HTML, already sanitised with the allow-list on the server (src/server/site/sanitize.ts). */
export const RichTextBlock = ({ block }: { block: BlockOf<"rich_text"> }) =>
  block.html ? (
    <section class="block block-rich-text">
      <div class="container">
        <div class="prose" dangerouslySetInnerHTML={block.html} />
      </div>
    </section>
  ) : null;
