/**
 * A practice's site as its routes read it, in one place:
 *
 * - withBackend(): how loaders and endpoints read the backend. The practice, the tag set and the backend
 *   client come from the request context; a backend failure becomes the right HTTP answer. A backend 404
 *   is our 404; anything else (timeout, refused, 5xx, a malformed payload) is a 503 naming nothing
 *   internal, logged with the endpoint and field. A failure is never rendered as an empty page (and so
 *   never cached as one).
 * - The site shell: the data every page needs for its layout, read once per render (the layout's and the
 *   page's loaders share one promise through the request's sharedMap), then turned into the small,
 *   display-ready view the header and footer render. The full backend payloads stay on the server.
 * - The route loaders: the layout's site chrome (and the theme on <html>), and the page's view, redirect
 *   or 404 with its head. The route files stay thin.
 */
import type { RequestEventBase, RequestEventLoader } from "@builder.io/qwik-city";
import { isBackendError, type BackendClient, type NavItem, type PageSummary, type PracticeInfo } from "../backend";
import { reportError } from "../monitoring";
import { requestContext, setHtmlAttributes, type RequestContext } from "../render/context";
import { publicPath } from "../tenancy";
import { mediaProxyUrl } from "../media/url";
import { resolvePage, type PageView } from "./page-view";
import { readSiteShell, type SiteShell } from "./shell";

export { readSiteShell, type SiteShell };
import { safeHref } from "./sanitize";
import { buildPageHead, type PageHead } from "./head";
import { themeStyle, validTheme } from "./theme";

/** Loaders and request handlers both have `error()`; only that, the URL and the request's map are needed. */
type ErrorEvent = Pick<RequestEventLoader, "error" | "url" | "sharedMap">;

export async function withBackend<T>(
  ev: ErrorEvent,
  read: (backend: BackendClient, ctx: RequestContext) => Promise<T>,
): Promise<T> {
  const ctx = requestContext(ev);
  try {
    return await read(ctx.services.backend, ctx);
  } catch (error) {
    throw toHttpError(ev, error);
  }
}

/**
 * Failures already reported. The layout's and the page's loaders share one read of the site shell (its promise),
 * so one backend failure reached toHttpError twice and was logged and reported twice per request. Weak: an
 * error object is forgotten with its request.
 */
const reported = new WeakSet<object>();

export function toHttpError(ev: ErrorEvent, error: unknown): Error {
  if (isBackendError(error) && error.isNotFound) return ev.error(404, "Not Found");
  if (typeof error !== "object" || error === null || !reported.has(error)) {
    if (typeof error === "object" && error !== null) reported.add(error);
    reportError(error, { path: ev.url.pathname });
  }
  return ev.error(503, "Service temporairement indisponible. Merci de réessayer dans quelques instants.");
}

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


function shell(ev: RequestEventLoader): Promise<SiteShell> {
  return withBackend(ev, (backend, ctx) => sharedSiteShell(ev, () => readSiteShell(backend, ctx)));
}

/** The layout's data; a backend 404 (unknown or inactive practice) is this request's 404. */
export async function loadSite(ev: RequestEventLoader): Promise<SiteChrome> {
  const site = await shell(ev);
  setHtmlAttributes(ev, { style: themeStyle(validTheme(site.config.theme, site.config.code)) });
  return siteChrome(site);
}

export interface PageData {
  /** Null: this practice's 404 page. */
  view: PageView | null;
  head: PageHead;
}

export async function loadPage(ev: RequestEventLoader): Promise<PageData> {
  const site = await shell(ev);
  const ctx = requestContext(ev);
  const path = publicPath(ev.url.pathname, ctx.code);
  const resolution = await withBackend(ev, (backend, ctx) => resolvePage(backend, ctx, site, path));
  if (resolution.type === "redirect") throw ev.redirect(301, resolution.to);
  if (resolution.type === "not_found") ev.status(404);
  const view = resolution.type === "view" ? resolution.view : null;
  const head = buildPageHead({
    env: ctx.services.env,
    config: site.config,
    practice: site.practice,
    view,
    requestOrigin: ev.url.origin,
  });
  return { view, head };
}
