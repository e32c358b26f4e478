/**
 * The data every page of a practice needs for its layout: read once per render (the layout's and the
 * page's loaders share the same promise through the request's sharedMap), then turned into the small,
 * display-ready view the header and footer render. The full backend payloads stay on the server.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { BackendClient, NavItem, PageSummary, PracticeInfo } from "./backend";
import type { RenderContext } from "./render-context";
import { mediaProxyUrl } from "./media-url";
import { safeHref } from "./sanitize";

export async function readSiteShell(backend: BackendClient, ctx: RenderContext) {
  const [config, practice, nav, pages] = await Promise.all([
    backend.config(ctx, ctx.code),
    backend.practice(ctx, ctx.code),
    backend.nav(ctx, ctx.code),
    backend.pages(ctx, ctx.code),
  ]);
  return { config, practice, nav: nav.items, pages: pages.pages };
}

export type SiteShell = Awaited<ReturnType<typeof readSiteShell>>;

const SHELL_KEY = "practice:site-shell";

/** The shell of this request, read at most once however many loaders ask. */
export function sharedSiteShell(
  ev: Pick<RequestEventBase, "sharedMap">,
  read: () => Promise<SiteShell>,
): Promise<SiteShell> {
  let pending = ev.sharedMap.get(SHELL_KEY) as Promise<SiteShell> | undefined;
  if (!pending) {
    pending = read();
    ev.sharedMap.set(SHELL_KEY, pending);
  }
  return pending;
}

export interface NavLink {
  label: string;
  href: string;
}

export interface NavEntry {
  label: string;
  /** A plain link, or a dropdown group (href null) with its links. */
  href: string | null;
  children: NavLink[];
}

export interface DayHours {
  day: string;
  /** e.g. ["8h30 – 12h30", "14h00 – 19h00"]; empty when closed. */
  ranges: string[];
}

export interface PracticeView {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  phone: string;
  phoneHref: string;
  email: string | null;
  hours: DayHours[];
  accessInfo: string | null;
  parking: string | null;
  transit: string | null;
  /** A route-planner link to the address. */
  mapsHref: string;
}

export interface SiteChrome {
  name: string;
  /** The practice's analytics id (the analytics component decides whether to load anything). */
  analyticsWebsiteId: string | null;
  logo: { src: string; width: number; height: number } | null;
  favicon: { href: string; type: string };
  nav: NavEntry[];
  booking: { href: string; external: boolean };
  contactHref: string | null;
  legalLinks: NavLink[];
  practice: PracticeView;
}

const FRENCH_DAYS: [PracticeInfo["hours"][number]["day"], string][] = [
  ["monday", "Lundi"],
  ["tuesday", "Mardi"],
  ["wednesday", "Mercredi"],
  ["thursday", "Jeudi"],
  ["friday", "Vendredi"],
  ["saturday", "Samedi"],
  ["sunday", "Dimanche"],
];

const frenchTime = (hhmm: string) => {
  const [h, m] = hhmm.split(":");
  return `${Number(h)}h${m}`;
};

/** Every day of the week in order, with its opening ranges (a day absent from the list is closed). */
export function weekHours(hours: PracticeInfo["hours"]): DayHours[] {
  return FRENCH_DAYS.map(([day, label]) => ({
    day: label,
    ranges: hours
      .filter((slot) => slot.day === day)
      .sort((a, b) => a.opens.localeCompare(b.opens))
      .map((slot) => `${frenchTime(slot.opens)} – ${frenchTime(slot.closes)}`),
  }));
}

/** tel: URI of a displayed phone number: digits and a leading +, nothing else. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith("+") ? "+" : ""}${trimmed.replace(/\D/g, "")}`;
}

function navEntries(items: NavItem[]): NavEntry[] {
  return items.flatMap((item): NavEntry[] => {
    if (item.href !== null) {
      const href = safeHref(item.href);
      return href ? [{ label: item.label, href, children: [] }] : [];
    }
    // A group renders its direct links; the contract nests at most two levels.
    const children = item.children.flatMap((child) => {
      const href = safeHref(child.href);
      return href ? [{ label: child.label, href }] : [];
    });
    return children.length ? [{ label: item.label, href: null, children }] : [];
  });
}

const pathOfKind = (pages: PageSummary[], kind: PageSummary["kind"]) => pages.find((p) => p.kind === kind);

const DEFAULT_FAVICON = { href: "/favicon.svg", type: "image/svg+xml" };

export function siteChrome(shell: SiteShell): SiteChrome {
  const { config, practice, pages } = shell;
  const logoSrc = mediaProxyUrl(config.logo?.url);
  const faviconSrc = mediaProxyUrl(config.favicon?.url);
  const contact = pathOfKind(pages, "contact");
  const booking = safeHref(practice.booking_url);
  const address = `${practice.address.street}, ${practice.address.postal_code} ${practice.address.city}`;
  return {
    name: config.name,
    analyticsWebsiteId: config.analytics_website_id,
    logo: config.logo && logoSrc ? { src: logoSrc, width: config.logo.width, height: config.logo.height } : null,
    favicon: config.favicon && faviconSrc ? { href: faviconSrc, type: config.favicon.mime_type } : DEFAULT_FAVICON,
    nav: navEntries(shell.nav),
    booking: booking
      ? { href: booking, external: /^https?:/i.test(booking) }
      : { href: contact?.path ?? telHref(practice.phone), external: false },
    contactHref: contact?.path ?? null,
    legalLinks: (["legal", "privacy"] as const).flatMap((kind) => {
      const page = pathOfKind(pages, kind);
      return page ? [{ label: page.title, href: page.path }] : [];
    }),
    practice: {
      name: practice.name,
      street: practice.address.street,
      postalCode: practice.address.postal_code,
      city: practice.address.city,
      phone: practice.phone,
      phoneHref: telHref(practice.phone),
      email: practice.email,
      hours: weekHours(practice.hours),
      accessInfo: practice.access_info,
      parking: practice.parking,
      transit: practice.transit,
      mapsHref: practice.geo
        ? `https://www.google.com/maps/search/?api=1&query=${practice.geo.lat}%2C${practice.geo.lng}`
        : `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`,
    },
  };
}

