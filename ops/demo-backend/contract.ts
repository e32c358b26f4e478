/**
 * TypeScript shapes of the content backend API, version 1 (shared/spec/content-backend-api.md).
 *
 * The demo backend serves exactly these shapes; the frontend's tests may import them to type their
 * fixtures and doubles. Besides the types it holds only two constant lists (page kinds, block types) and
 * one type guard, so importing it pulls in nothing else.
 */

/** ISO 8601 timestamp in UTC, e.g. "2026-11-02T10:00:00Z". */
export type IsoDateTime = string;

export type MediaMimeType = "image/webp" | "image/png" | "image/jpeg" | "image/svg+xml";

export interface MediaVariant {
  url: string;
  width: number;
}

/** Media URLs in payloads are absolute (`{public origin}/media/...`). */
export interface Media {
  url: string;
  width: number;
  height: number;
  alt: string;
  mime_type: MediaMimeType;
  /** May be empty. */
  srcset: MediaVariant[];
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/config/

export interface Theme {
  /** Degrees, 0–360 (OKLCH). */
  primary_hue: number;
  /** 0–0.37 (OKLCH). */
  primary_chroma: number;
  accent_hue: number;
  accent_chroma: number;
}

export interface SiteSeo {
  site_title: string;
  default_description: string;
  default_og_image: Media | null;
}

export interface SiteDomain {
  /** Null for a preview-only practice. */
  primary_domain: string | null;
  aliases: string[];
}

export interface SiteConfig {
  code: string;
  name: string;
  is_active: boolean;
  theme: Theme;
  seo: SiteSeo;
  domain: SiteDomain;
  logo: Media | null;
  favicon: Media | null;
  analytics_website_id: string | null;
  /** Slugs of the service hubs. */
  enabled_services: string[];
  updated_at: IsoDateTime;
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/practice/

export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

export interface OpeningSlot {
  day: Weekday;
  /** "HH:MM", local time of the practice. */
  opens: string;
  closes: string;
}

export interface Address {
  street: string;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface Practice {
  name: string;
  address: Address;
  geo: { lat: number; lng: number } | null;
  phone: string;
  email: string | null;
  /** A day absent from `hours` is closed. */
  hours: OpeningSlot[];
  access_info: string;
  parking: string;
  transit: string;
  booking_url: string | null;
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/team/

export interface TeamMember {
  slug: string;
  name: string;
  role: string;
  photo: Media | null;
  bio: string;
  skills: string[];
  booking_url: string | null;
}

export interface TeamResponse {
  members: TeamMember[];
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/nav/

export interface NavItem {
  label: string;
  /** Null for a dropdown group. */
  href: string | null;
  /** Nesting is at most two levels. */
  children: NavItem[];
}

export interface NavResponse {
  items: NavItem[];
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/pages/ and /pages/{slug}/

export type PageKind =
  | "home"
  | "contact"
  | "legal"
  | "privacy"
  | "cabinet"
  | "service_hub"
  | "service_detail"
  | "need"
  | "team"
  | "jobs"
  | "generic";

export const PAGE_KINDS: readonly PageKind[] = [
  "home",
  "contact",
  "legal",
  "privacy",
  "cabinet",
  "service_hub",
  "service_detail",
  "need",
  "team",
  "jobs",
  "generic",
];

export interface PageSummary {
  slug: string;
  /** Starts and ends with "/"; the homepage is "/". */
  path: string;
  title: string;
  kind: PageKind;
  /** 0 for the homepage, 1 for hubs and top pages, 2 for details. */
  level: 0 | 1 | 2;
  /** Slug of the parent page, or null. */
  parent: string | null;
  updated_at: IsoDateTime;
}

export interface PagesResponse {
  pages: PageSummary[];
}

export interface PageSeo {
  title: string | null;
  description: string;
  og_image: Media | null;
}

export interface Page extends PageSummary {
  /** Slug of the service hub a service page belongs to; null otherwise. */
  service: string | null;
  seo: PageSeo;
  blocks: Block[];
  /** Slugs of service hubs; what a `need` page links to. */
  related_services: string[];
}

// Blocks -------------------------------------------------------------------------------------

export interface Link {
  label: string;
  href: string;
}

export interface HeroValue {
  heading: string;
  subheading: string;
  image: Media | null;
  cta: Link | null;
}

export interface RichTextValue {
  /** p, h2, h3, ul, ol, li, a, strong, em, br only. */
  html: string;
}

export interface ImageValue {
  image: Media;
  caption: string;
}

export interface CardItem {
  title: string;
  text: string;
  href: string | null;
  image: Media | null;
}

export interface CardsValue {
  heading: string;
  items: CardItem[];
}

export interface FaqItem {
  question: string;
  answer_html: string;
}

export interface FaqValue {
  heading: string;
  items: FaqItem[];
}

export interface PriceItem {
  label: string;
  price: string;
  note: string | null;
}

export interface PriceListValue {
  heading: string;
  items: PriceItem[];
}

export interface CtaValue {
  heading: string;
  text: string;
  label: string;
  href: string;
}

export interface TeamBlockValue {
  heading: string;
  /** "all", or the slugs of the members to show. */
  members: "all" | string[];
}

/** Renders the practice's opening hours. */
export interface HoursValue {
  heading: string;
}

/** Renders the practice's address, access, parking and transit. */
export interface MapValue {
  heading: string;
}

export interface ServicesValue {
  heading: string;
  /** Slugs of service hubs. */
  items: string[];
}

interface BlockOf<T extends string, V> {
  type: T;
  id: string;
  value: V;
}

export type HeroBlock = BlockOf<"hero", HeroValue>;
export type RichTextBlock = BlockOf<"rich_text", RichTextValue>;
export type ImageBlock = BlockOf<"image", ImageValue>;
export type CardsBlock = BlockOf<"cards", CardsValue>;
export type FaqBlock = BlockOf<"faq", FaqValue>;
export type PriceListBlock = BlockOf<"price_list", PriceListValue>;
export type CtaBlock = BlockOf<"cta", CtaValue>;
export type TeamBlock = BlockOf<"team", TeamBlockValue>;
export type HoursBlock = BlockOf<"hours", HoursValue>;
export type MapBlock = BlockOf<"map", MapValue>;
export type ServicesBlock = BlockOf<"services", ServicesValue>;

export type KnownBlock =
  | HeroBlock
  | RichTextBlock
  | ImageBlock
  | CardsBlock
  | FaqBlock
  | PriceListBlock
  | CtaBlock
  | TeamBlock
  | HoursBlock
  | MapBlock
  | ServicesBlock;

export type KnownBlockType = KnownBlock["type"];

export const KNOWN_BLOCK_TYPES: readonly KnownBlockType[] = [
  "hero",
  "rich_text",
  "image",
  "cards",
  "faq",
  "price_list",
  "cta",
  "team",
  "hours",
  "map",
  "services",
];

/** A block type this version of the contract does not name; the frontend skips it with a warning. */
export interface UnknownBlock {
  type: string;
  id: string;
  value: unknown;
}

export type Block = KnownBlock | UnknownBlock;

/**
 * Narrows a block to the known union, after which `switch (block.type)` narrows each case's `value`.
 * (On `Block` itself it cannot: UnknownBlock's `type: string` also covers "hero".)
 */
export function isKnownBlock(block: Block): block is KnownBlock {
  return (KNOWN_BLOCK_TYPES as readonly string[]).includes(block.type);
}

// ---------------------------------------------------------------------------------------------
// GET /sites/{code}/jobs/

export interface Job {
  slug: string;
  title: string;
  contract: string;
  location: string;
  description_html: string;
  published_at: IsoDateTime;
}

export interface JobsResponse {
  jobs: Job[];
}

// ---------------------------------------------------------------------------------------------
// POST /sites/{code}/contact/

export interface ContactRequest {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  consent: true;
  /** Honeypot; must be empty. */
  website: string;
  elapsed_ms: number;
  page: string;
}

export interface ContactAccepted {
  status: "received";
}

export interface ContactErrors {
  errors: Record<string, string[]>;
}

// ---------------------------------------------------------------------------------------------
// Webhook: backend to frontend, POST {frontend}/webhooks/revalidate/

export interface RevalidateWebhookBody {
  tags: string[];
}
