/**
 * Structured data (schema.org JSON-LD): the practice as a Dentist, FAQPage for FAQ blocks,
 * BreadcrumbList for level-2 pages. Builders return plain objects (tested field by field);
 * serializeJsonLd makes them safe inside a <script> element.
 */
import type { PracticeInfo } from "../../backend";
import { absoluteUrl } from "./canonical";

type JsonLd = Record<string, unknown>;

const CONTEXT = "https://schema.org";

const SCHEMA_DAYS: Record<PracticeInfo["hours"][number]["day"], string> = {
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
  sunday: "Sunday",
};

/** Opening hours grouped by identical time ranges: one specification per range, listing its days. */
export function openingHoursSpecification(hours: PracticeInfo["hours"]): JsonLd[] {
  const byRange = new Map<string, { opens: string; closes: string; days: string[] }>();
  for (const slot of hours) {
    const key = `${slot.opens}-${slot.closes}`;
    const entry = byRange.get(key) ?? { opens: slot.opens, closes: slot.closes, days: [] };
    if (!entry.days.includes(SCHEMA_DAYS[slot.day])) entry.days.push(SCHEMA_DAYS[slot.day]);
    byRange.set(key, entry);
  }
  return [...byRange.values()].map((r) => ({
    "@type": "OpeningHoursSpecification",
    dayOfWeek: r.days,
    opens: r.opens,
    closes: r.closes,
  }));
}

export interface DentistInput {
  name: string;
  practice: PracticeInfo;
  origin: string;
  /** Same-origin path of the logo through the media proxy, or null. */
  logoPath: string | null;
  description: string | null;
}

export function dentistJsonLd({ name, practice, origin, logoPath, description }: DentistInput): JsonLd {
  const url = absoluteUrl(origin, "/");
  const logo = logoPath ? absoluteUrl(origin, logoPath) : null;
  const booking = bookingUrl(practice.booking_url);
  return {
    "@context": CONTEXT,
    "@type": "Dentist",
    "@id": `${url}#cabinet`,
    name,
    url,
    ...(description ? { description } : {}),
    ...(logo ? { logo, image: logo } : {}),
    telephone: practice.phone,
    ...(practice.email ? { email: practice.email } : {}),
    address: {
      "@type": "PostalAddress",
      streetAddress: practice.address.street,
      postalCode: practice.address.postal_code,
      addressLocality: practice.address.city,
      addressCountry: practice.address.country,
    },
    ...(practice.geo ? { geo: { "@type": "GeoCoordinates", latitude: practice.geo.lat, longitude: practice.geo.lng } } : {}),
    openingHoursSpecification: openingHoursSpecification(practice.hours),
    ...(booking
      ? {
          potentialAction: {
            "@type": "ReserveAction",
            target: {
              "@type": "EntryPoint",
              urlTemplate: booking,
              inLanguage: "fr",
              actionPlatform: ["https://schema.org/DesktopWebPlatform", "https://schema.org/MobileWebPlatform"],
            },
            result: { "@type": "Reservation", name: "Rendez-vous" },
          },
        }
      : {}),
  };
}

/**
 * A booking target only as an absolute http(s) URL: the schema's urlTemplate is followed by search engines and
 * assistants, and a `javascript:` value (which the backend's `url()` check lets through) was copied into it.
 */
function bookingUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export function faqPageJsonLd(items: { question: string; answerHtml: string }[]): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      // Google accepts the answer's simple HTML (p, ul, li, a, strong...); it is already sanitised.
      acceptedAnswer: { "@type": "Answer", text: item.answerHtml },
    })),
  };
}

export function breadcrumbJsonLd(crumbs: { name: string; path: string }[], origin: string): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: crumb.name,
      item: absoluteUrl(origin, crumb.path),
    })),
  };
}

/**
 * JSON for a <script type="application/ld+json"> element: "<" is escaped so that no value (a title
 * containing "</script>") can close the element; the line separators JavaScript treats as newlines too.
 */
export function serializeJsonLd(data: JsonLd): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
