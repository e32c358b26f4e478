/**
 * Page blocks from the backend -> the typed, safe view the block components render. Each block is
 * validated on its own (an odd block never fails the page): an unknown type or a value that breaks the
 * contract is skipped with a logged warning. Everything a component would otherwise have to look up is
 * resolved here, on the server: backend HTML sanitised, link targets checked, team members and service
 * hubs found, so the components stay presentational and the client receives nothing to compute.
 */
import { z } from "zod";
import { mediaSchema, type Media, type PageSummary, type RawBlock, type TeamMember } from "../backend/schemas";
import { mediaProxyUrl } from "../media/url";
import { reportWarning } from "../monitoring";
import { safeHref, safeMediaUrl, sanitizeRichText } from "./sanitize";

/** A picture ready for <img>: the URL checked, the srcset as one string. */
export interface Picture {
  src: string;
  srcset: string | null;
  width: number;
  height: number;
  alt: string;
}

export interface LinkView {
  label: string;
  href: string;
}

export interface MemberCard {
  slug: string;
  name: string;
  role: string;
  photo: Picture | null;
  /** The member's own page, when the site has a team page. */
  href: string | null;
}

export interface ServiceLink {
  slug: string;
  title: string;
  href: string;
}

export type Block =
  | { type: "hero"; id: string; heading: string; subheading: string | null; image: Picture | null; cta: LinkView | null }
  | { type: "rich_text"; id: string; html: string }
  | { type: "image"; id: string; image: Picture; caption: string | null }
  | {
      type: "cards";
      id: string;
      heading: string | null;
      items: { title: string; text: string; href: string | null; image: Picture | null }[];
    }
  | { type: "faq"; id: string; heading: string | null; items: { question: string; answerHtml: string }[] }
  | { type: "price_list"; id: string; heading: string | null; items: { label: string; price: string; note: string | null }[] }
  | { type: "cta"; id: string; heading: string; text: string | null; link: LinkView | null }
  | { type: "team"; id: string; heading: string | null; members: MemberCard[] }
  | { type: "hours"; id: string; heading: string | null }
  | { type: "map"; id: string; heading: string | null }
  | { type: "services"; id: string; heading: string | null; items: ServiceLink[] };

export type BlockType = Block["type"];

const text = z.string();
const optionalText = z
  .string()
  .nullable()
  .optional()
  .transform((v) => (v && v.trim() ? v : null));
const media = mediaSchema;
const link = z.object({ label: text, href: text });

const valueSchemas = {
  hero: z.object({ heading: text, subheading: optionalText, image: media.nullable().optional(), cta: link.nullable().optional() }),
  rich_text: z.object({ html: text }),
  image: z.object({ image: media, caption: optionalText }),
  cards: z.object({
    heading: optionalText,
    items: z.array(
      z.object({ title: text, text: text.default(""), href: text.nullable().optional(), image: media.nullable().optional() }),
    ),
  }),
  faq: z.object({ heading: optionalText, items: z.array(z.object({ question: text, answer_html: text })) }),
  price_list: z.object({
    heading: optionalText,
    items: z.array(z.object({ label: text, price: text, note: optionalText })),
  }),
  cta: z.object({ heading: text, text: optionalText, label: text, href: text }),
  team: z.object({ heading: optionalText, members: z.union([z.literal("all"), z.array(text)]) }),
  hours: z.object({ heading: optionalText }),
  map: z.object({ heading: optionalText }),
  services: z.object({ heading: optionalText, items: z.array(text) }),
} satisfies Record<BlockType, z.ZodType>;

type Values = { [K in BlockType]: z.output<(typeof valueSchemas)[K]> };
/** What the backend may send as each type's value (the demo backend types its fixture blocks with it). */
export type BlockValueInputs = { [K in BlockType]: z.input<(typeof valueSchemas)[K]> };
export type ParsedBlock = { [K in BlockType]: { type: K; id: string; value: Values[K] } }[BlockType];

function isKnownType(type: string): type is BlockType {
  return Object.hasOwn(valueSchemas, type);
}

/** Validates each block against its type's schema; skips (with a warning) what cannot be rendered. */
export function parseBlocks(raw: RawBlock[], where: { code: string; page: string }): ParsedBlock[] {
  const out: ParsedBlock[] = [];
  raw.forEach((block, index) => {
    const id = block.id ?? `${where.page}-${index}`;
    if (!isKnownType(block.type)) {
      reportWarning(`blocks: unknown block type "${block.type}" skipped`, { ...where, id });
      return;
    }
    const parsed = valueSchemas[block.type].safeParse(block.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      reportWarning(`blocks: invalid "${block.type}" block skipped (field ${issue.path.join(".") || "(value)"}: ${issue.message})`, {
        ...where,
        id,
      });
      return;
    }
    out.push({ type: block.type, id, value: parsed.data } as ParsedBlock);
  });
  return out;
}

/** Does this page need the team list to render its blocks? (Read it only then.) */
export function needsTeam(blocks: ParsedBlock[]): boolean {
  return blocks.some((b) => b.type === "team");
}

/**
 * The page's largest paint is its first hero image (seo/lcp-preload.ts): it is served from the page's own
 * origin, through the media proxy, so that a phone fetches it on the connection it already has instead of
 * first resolving and connecting to the backend's media origin (DNS, TCP and TLS: three or four round trips
 * on a mobile network; Lighthouse's mobile LCP of the home page 1.2-1.3 s with it there). The other images
 * stay on the media origin: they are lazy, and the proxy's work is kept to the one image that needs it.
 */
function throughOwnOrigin(url: string): string {
  return mediaProxyUrl(url) ?? url;
}

export function picture(m: Media | null | undefined, altFallback = "", href: (url: string) => string = (url) => url): Picture | null {
  if (!m) return null;
  const checked = safeMediaUrl(m.url);
  if (!checked) return null;
  const src = href(checked);
  const candidates = new Map<number, string>();
  for (const variant of m.srcset) {
    const url = safeMediaUrl(variant.url);
    if (url) candidates.set(variant.width, href(url));
  }
  // The original is the widest candidate unless the srcset already names that width.
  if (candidates.size > 0 && !candidates.has(m.width)) candidates.set(m.width, src);
  const srcset =
    candidates.size > 1
      ? [...candidates.entries()]
          .sort(([a], [b]) => a - b)
          .map(([w, url]) => `${url} ${w}w`)
          .join(", ")
      : null;
  return { src, srcset, width: m.width, height: m.height, alt: m.alt || altFallback };
}

export interface BlockContext {
  pages: PageSummary[];
  /** Null when the page has no team block (the team list was not read). */
  team: TeamMember[] | null;
}

/** The page-list entry of the team page, under whose path member pages live. */
export function teamPageOf(pages: PageSummary[]): PageSummary | undefined {
  return pages.find((p) => p.kind === "team");
}

export function memberCard(member: TeamMember, teamPage: PageSummary | undefined): MemberCard {
  return {
    slug: member.slug,
    name: member.name,
    role: member.role,
    photo: picture(member.photo, member.name),
    href: teamPage ? `${teamPage.path}${encodeURIComponent(member.slug)}/` : null,
  };
}

/** Links to the service hubs named by slug, in that order; a slug without a published hub is left out. */
export function serviceLinks(slugs: string[], pages: PageSummary[]): ServiceLink[] {
  const hubs = new Map(pages.filter((p) => p.kind === "service_hub").map((p) => [p.slug, p]));
  return slugs.flatMap((slug) => {
    const hub = hubs.get(slug);
    return hub ? [{ slug, title: hub.title, href: hub.path }] : [];
  });
}

function linkView(l: { label: string; href: string } | null | undefined): LinkView | null {
  const href = safeHref(l?.href);
  return l && href ? { label: l.label, href } : null;
}

export function resolveBlocks(blocks: ParsedBlock[], ctx: BlockContext): Block[] {
  const teamPage = teamPageOf(ctx.pages);
  const firstHero = blocks.find((b) => b.type === "hero");
  return blocks.flatMap((block): Block | [] => {
    const { id } = block;
    switch (block.type) {
      case "hero": {
        const v = block.value;
        const image = picture(v.image, "", block === firstHero ? throughOwnOrigin : undefined);
        return { type: "hero", id, heading: v.heading, subheading: v.subheading, image, cta: linkView(v.cta) };
      }
      case "rich_text":
        return { type: "rich_text", id, html: sanitizeRichText(block.value.html) };
      case "image": {
        const image = picture(block.value.image, block.value.caption ?? "");
        // An image whose URL is refused renders as nothing rather than as a broken picture.
        return image ? { type: "image", id, image, caption: block.value.caption } : [];
      }
      case "cards":
        return {
          type: "cards",
          id,
          heading: block.value.heading,
          items: block.value.items.map((item) => ({
            title: item.title,
            text: item.text,
            href: safeHref(item.href),
            image: picture(item.image),
          })),
        };
      case "faq":
        return {
          type: "faq",
          id,
          heading: block.value.heading,
          items: block.value.items.map((item) => ({ question: item.question, answerHtml: sanitizeRichText(item.answer_html) })),
        };
      case "price_list":
        return { type: "price_list", id, heading: block.value.heading, items: block.value.items };
      case "cta":
        return {
          type: "cta",
          id,
          heading: block.value.heading,
          text: block.value.text,
          link: linkView({ label: block.value.label, href: block.value.href }),
        };
      case "team": {
        const team = ctx.team ?? [];
        const wanted = block.value.members;
        const members =
          wanted === "all"
            ? team
            : wanted.flatMap((slug) => team.filter((m) => m.slug === slug));
        return { type: "team", id, heading: block.value.heading, members: members.map((m) => memberCard(m, teamPage)) };
      }
      case "hours":
        return { type: "hours", id, heading: block.value.heading };
      case "map":
        return { type: "map", id, heading: block.value.heading };
      case "services":
        return { type: "services", id, heading: block.value.heading, items: serviceLinks(block.value.items, ctx.pages) };
    }
  });
}
