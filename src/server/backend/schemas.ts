/**
 * Schemas of the content backend's payloads (../shared/spec/content-backend-api.md). Unknown extra
 * fields are dropped (forward compatibility); a missing or mistyped field fails the one request that
 * read it, with the field named in the log.
 */
import { z } from "zod";

const nullish = <T extends z.ZodType>(schema: T) => schema.nullable().optional().transform((v) => v ?? null);

export const mediaSchema = z.object({
  url: z.string().url(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string().default(""),
  mime_type: z.enum(["image/webp", "image/png", "image/jpeg", "image/svg+xml"]),
  srcset: z.array(z.object({ url: z.string().url(), width: z.number().int().positive() })).default([]),
});
export type Media = z.infer<typeof mediaSchema>;

export const themeSchema = z.object({
  primary_hue: z.number(),
  primary_chroma: z.number(),
  accent_hue: z.number(),
  accent_chroma: z.number(),
});
export type Theme = z.infer<typeof themeSchema>;

export const siteConfigSchema = z.object({
  code: z.string(),
  name: z.string(),
  is_active: z.boolean(),
  // Checked for range by the theme module, which falls back to a default with a warning rather than failing the page.
  theme: z.unknown().optional(),
  seo: z
    .object({
      site_title: nullish(z.string()),
      default_description: nullish(z.string()),
      default_og_image: nullish(mediaSchema),
    })
    .default({ site_title: null, default_description: null, default_og_image: null }),
  domain: z
    .object({ primary_domain: nullish(z.string()), aliases: z.array(z.string()).default([]) })
    .default({ primary_domain: null, aliases: [] }),
  logo: nullish(mediaSchema),
  favicon: nullish(mediaSchema),
  analytics_website_id: nullish(z.string()),
  enabled_services: z.array(z.string()).default([]),
  updated_at: z.string(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

export const practiceSchema = z.object({
  name: z.string(),
  address: z.object({
    street: z.string(),
    postal_code: z.string(),
    city: z.string(),
    country: z.string(),
  }),
  geo: nullish(z.object({ lat: z.number(), lng: z.number() })),
  phone: z.string(),
  email: nullish(z.string()),
  hours: z.array(
    z.object({
      day: z.enum(DAYS),
      opens: z.string().regex(/^\d{2}:\d{2}$/),
      closes: z.string().regex(/^\d{2}:\d{2}$/),
    }),
  ),
  access_info: nullish(z.string()),
  parking: nullish(z.string()),
  transit: nullish(z.string()),
  booking_url: nullish(z.string().url()),
});
export type PracticeInfo = z.infer<typeof practiceSchema>;

export const teamMemberSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: z.string(),
  photo: nullish(mediaSchema),
  bio: z.string().default(""),
  skills: z.array(z.string()).default([]),
  booking_url: nullish(z.string().url()),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamSchema = z.object({ members: z.array(teamMemberSchema) });

export interface NavItem {
  label: string;
  href: string | null;
  children: NavItem[];
}
// Nesting is at most two levels in the contract; the schema accepts any depth and the menu renders two.
const navItemSchema: z.ZodType<NavItem> = z.object({
  label: z.string(),
  href: nullish(z.string()),
  get children() {
    return z.array(navItemSchema).default([]);
  },
});
export const navSchema = z.object({ items: z.array(navItemSchema) });

export const PAGE_KINDS = [
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
] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

const pagePath = z.string().regex(/^\/(?:[^/?#\s]+\/)*$/, "must start and end with /");

export const pageSummarySchema = z.object({
  slug: z.string().min(1),
  path: pagePath,
  title: z.string(),
  kind: z.enum(PAGE_KINDS),
  level: z.number().int().min(0).max(2),
  parent: nullish(z.string()),
  updated_at: z.string(),
});
export type PageSummary = z.infer<typeof pageSummarySchema>;
export const pageListSchema = z.object({ pages: z.array(pageSummarySchema) });

/** Blocks are validated per type by the block renderer, so an odd block never fails the whole page. */
export const blockSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  value: z.unknown(),
});
export type RawBlock = z.infer<typeof blockSchema>;

/** The most blocks a page may have (its payload is refused past it, as one past MAX_PAYLOAD_BYTES). */
export const MAX_BLOCKS = 300;

export const pageSchema = pageSummarySchema.extend({
  service: nullish(z.string()),
  seo: z
    .object({ title: nullish(z.string()), description: nullish(z.string()), og_image: nullish(mediaSchema) })
    .default({ title: null, description: null, og_image: null }),
  // Each block is a component to render: 8,000 small blocks (500 KB) took 6.6 s in a worker. A real page has tens.
  blocks: z.array(blockSchema).max(MAX_BLOCKS).default([]),
  related_services: z.array(z.string()).default([]),
});
export type Page = z.infer<typeof pageSchema>;

export const jobSchema = z.object({
  slug: z.string(),
  title: z.string(),
  contract: z.string(),
  location: z.string(),
  description_html: z.string(),
  published_at: z.string(),
});
export type Job = z.infer<typeof jobSchema>;
export const jobsSchema = z.object({ jobs: z.array(jobSchema) });

/*
 * What the backend may send: the schemas' input types (fields with a default may be left out, nullish
 * ones may be null or absent). The demo backend (ops/demo/backend) types its fixtures and payloads with
 * these, so it serves what this client parses instead of keeping a second copy of the contract.
 */
export type MediaInput = z.input<typeof mediaSchema>;
export type ThemeInput = z.input<typeof themeSchema>;
export type SiteConfigInput = z.input<typeof siteConfigSchema>;
export type PracticeInput = z.input<typeof practiceSchema>;
export type TeamMemberInput = z.input<typeof teamMemberSchema>;
export type TeamInput = z.input<typeof teamSchema>;
export type PageSummaryInput = z.input<typeof pageSummarySchema>;
export type PageListInput = z.input<typeof pageListSchema>;
export type BlockInput = z.input<typeof blockSchema>;
export type PageInput = z.input<typeof pageSchema>;
export type JobInput = z.input<typeof jobSchema>;
export type JobsInput = z.input<typeof jobsSchema>;
