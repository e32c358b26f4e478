/**
 * The payloads the demo backend serves, typed from the frontend's own schemas: their zod input types, i.e.
 * what the frontend's parse accepts (src/server/backend/schemas.ts; block values: src/server/site/blocks.ts).
 * No shape of the contract is written here a second time: only names for parts of those types, so the
 * fixtures read as before. Type imports only: the demo backend loads none of the frontend's code.
 *
 * The types say what the frontend would accept, not everything the specification requires (a field with a
 * default may be left out); the demo's contract test (demo-backend.test.ts) checks the served bytes strictly.
 */
import type { MediaInput, PracticeInput, SiteConfigInput } from "../../../src/server/backend/schemas.js";
import type { BlockType, BlockValueInputs } from "../../../src/server/site/blocks.js";

export type {
  JobInput as Job,
  JobsInput as JobsResponse,
  MediaInput as Media,
  NavItem,
  PageInput as Page,
  PageKind,
  PageListInput as PagesResponse,
  PageSummaryInput as PageSummary,
  PracticeInput as Practice,
  SiteConfigInput as SiteConfig,
  TeamInput as TeamResponse,
  TeamMemberInput as TeamMember,
  ThemeInput as Theme,
} from "../../../src/server/backend/schemas.js";

export type MediaMimeType = MediaInput["mime_type"];
export type SiteSeo = NonNullable<SiteConfigInput["seo"]>;
export type SiteDomain = NonNullable<SiteConfigInput["domain"]>;
export type OpeningSlot = PracticeInput["hours"][number];
export type Weekday = OpeningSlot["day"];

export type HeroValue = BlockValueInputs["hero"];
export type CardItem = BlockValueInputs["cards"]["items"][number];
export type FaqItem = BlockValueInputs["faq"]["items"][number];
export type PriceItem = BlockValueInputs["price_list"]["items"][number];
export type TeamBlockValue = BlockValueInputs["team"];

/** A block of a type the frontend renders, its value typed by that type. */
export type KnownBlock = { [K in BlockType]: { type: K; id: string; value: BlockValueInputs[K] } }[BlockType];

/** A block as the demo stores and serves it: a known type, or any other (the frontend skips it with a warning). */
export type Block = KnownBlock | { type: string; id: string; value: unknown };
