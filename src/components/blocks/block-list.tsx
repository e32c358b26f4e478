import type { Block } from "~/server/site/blocks";
import type { PracticeView } from "~/server/site/site";
import { CardsBlock } from "./cards";
import { CtaBlock } from "./cta";
import { FaqBlock } from "./faq";
import { HeroBlock } from "./hero";
import { HoursBlock } from "./hours";
import { ImageBlock } from "./image";
import { MapBlock } from "./map";
import { PriceListBlock } from "./price-list";
import { RichTextBlock } from "./rich-text";
import { ServicesBlock } from "./services";
import { TeamBlock } from "./team";

/**
 * One component per block type of the contract. Unknown and invalid blocks never get here: the
 * server skipped them with a warning (src/server/site/blocks.ts).
 */
export const BlockList = ({ blocks, practice }: { blocks: Block[]; practice: PracticeView }) => {
  const firstHero = blocks.find((b) => b.type === "hero");
  return (
  <>
    {blocks.map((block) => {
      switch (block.type) {
        case "hero":
          return (
            <HeroBlock
              key={block.id}
              block={block}
              phone={{ label: practice.phone, href: practice.phoneHref }}
              primary={block === firstHero}
            />
          );
        case "rich_text":
          return <RichTextBlock key={block.id} block={block} />;
        case "image":
          return <ImageBlock key={block.id} block={block} />;
        case "cards":
          return <CardsBlock key={block.id} block={block} />;
        case "faq":
          return <FaqBlock key={block.id} block={block} />;
        case "price_list":
          return <PriceListBlock key={block.id} block={block} />;
        case "cta":
          return <CtaBlock key={block.id} block={block} />;
        case "team":
          return <TeamBlock key={block.id} block={block} />;
        case "hours":
          return <HoursBlock key={block.id} block={block} practice={practice} />;
        case "map":
          return <MapBlock key={block.id} block={block} practice={practice} />;
        case "services":
          return <ServicesBlock key={block.id} id={block.id} heading={block.heading} items={block.items} />;
      }
    })}
  </>
);
};
