import type { Block } from "~/server/site/blocks";

/** The block of one type, for that type's component. */
export type BlockOf<T extends Block["type"]> = Extract<Block, { type: T }>;

/** Ids of headings are derived from the block id, so aria-labelledby never collides on a page. */
export const headingId = (blockId: string) => `h-${blockId}`;
