import { component$ } from "@builder.io/qwik";
import type { RawBlock } from "~/server/backend/schemas";

interface Props {
  blocks: RawBlock[];
  title: string;
}

/** Renders a page's blocks; the first heading is the page title when no hero provides one. */
export const BlockList = component$<Props>(({ blocks, title }) => {
  const hasHero = blocks.some((b) => b.type === "hero");
  return (
    <>
      {!hasHero && (
        <header class="container page-header">
          <h1>{title}</h1>
        </header>
      )}
      {blocks.map((block, i) => {
        const value = block.value as Record<string, unknown>;
        if (block.type === "hero") {
          return (
            <section key={block.id ?? i} class="hero">
              <div class="container">
                <h1>{String(value.heading ?? title)}</h1>
                {typeof value.subheading === "string" && <p>{value.subheading}</p>}
              </div>
            </section>
          );
        }
        if (block.type === "rich_text") {
          return <section key={block.id ?? i} class="container prose" dangerouslySetInnerHTML={String(value.html ?? "")} />;
        }
        return null;
      })}
    </>
  );
});
