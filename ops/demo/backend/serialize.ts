/**
 * From records (model.ts) to the payloads the frontend parses (payload-types.ts): absolute media URLs, editorial fields
 * removed, navigation derived from the published pages.
 */
import type { NavItem, Page, PageSummary, SiteConfig } from "./payload-types.js";
import type { PageRecord, SiteRecord } from "./model.js";

/**
 * Makes every origin-relative media URL absolute. Records store `/media/...` paths under the key `url`
 * (Media.url and srcset entries); nothing else in the contract uses that key, and links use `href`, so a
 * generic walk is exact and also covers blocks of unknown types and blocks posted through the admin API.
 */
export function withAbsoluteMedia<T>(value: T, origin: string): T {
  return walk(value, origin) as T;
}

function walk(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, origin));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] =
        key === "url" && typeof child === "string" && child.startsWith("/media/")
          ? origin + child
          : walk(child, origin);
    }
    return out;
  }
  return value;
}

export function toConfig(site: SiteRecord, origin: string): SiteConfig {
  return withAbsoluteMedia(site.config, origin);
}

export function toSummary(page: PageRecord): PageSummary {
  return {
    slug: page.slug,
    path: page.path,
    title: page.title,
    kind: page.kind,
    level: page.level,
    parent: page.parent,
    updated_at: page.updated_at,
  };
}

export function toPage(page: PageRecord, origin: string): Page {
  return withAbsoluteMedia(
    {
      ...toSummary(page),
      service: page.service,
      seo: page.seo,
      blocks: page.blocks,
      related_services: page.related_services,
    },
    origin,
  );
}

export function publishedPages(site: SiteRecord): PageRecord[] {
  return site.pages.filter((p) => p.status === "published");
}

/**
 * The navigation, derived from the published pages so that publishing or unpublishing a page changes it
 * (hence the `site:<code>` tag on those webhooks). Groups: Le Cabinet (cabinet pages then team), Nos Soins
 * (hubs, each with its details: the two-level maximum), Votre Besoin (need pages); then Recrutement and
 * Contact as top items. Empty groups are left out.
 */
export function buildNav(site: SiteRecord): NavItem[] {
  const pages = publishedPages(site);
  const link = (p: PageRecord, children: NavItem[] = []): NavItem => ({
    label: p.nav_label ?? p.title,
    href: p.path,
    children,
  });
  const ofKind = (...kinds: PageRecord["kind"][]): PageRecord[] => pages.filter((p) => kinds.includes(p.kind));

  const groups: NavItem[] = [
    { label: "Le Cabinet", href: null, children: [...ofKind("cabinet"), ...ofKind("team")].map((p) => link(p)) },
    {
      label: "Nos Soins",
      href: null,
      children: ofKind("service_hub").map((hub) =>
        link(
          hub,
          pages.filter((d) => d.kind === "service_detail" && d.parent === hub.slug).map((d) => link(d)),
        ),
      ),
    },
    { label: "Votre Besoin", href: null, children: ofKind("need").map((p) => link(p)) },
  ];
  return [...groups.filter((g) => g.children.length > 0), ...ofKind("jobs", "contact").map((p) => link(p))];
}
