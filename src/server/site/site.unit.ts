import { describe, expect, it } from "vitest";
import { sharedSiteShell, siteChrome, telHref, weekHours, type SiteShell } from "./site";

const shell = (over: Partial<{ booking: string | null; favicon: boolean; logo: boolean; nav: SiteShell["nav"]; pages: SiteShell["pages"] }> = {}) =>
  ({
    config: {
      code: "dupont",
      name: "Cabinet dentaire Dupont",
      logo: over.logo === false ? null : { url: "https://cms.example.org/media/dupont/logo.svg", width: 320, height: 96, alt: "", mime_type: "image/svg+xml", srcset: [] },
      favicon: over.favicon ? { url: "https://cms.example.org/media/dupont/favicon.png", width: 64, height: 64, alt: "", mime_type: "image/png", srcset: [] } : null,
    },
    practice: {
      name: "Cabinet dentaire Dupont",
      address: { street: "12 rue Vauban", postal_code: "69006", city: "Lyon", country: "FR" },
      geo: null,
      phone: "+33 4 78 00 00 00",
      email: null,
      hours: [],
      access_info: null,
      parking: null,
      transit: null,
      booking_url: over.booking === undefined ? "https://booking.example.org/dupont" : over.booking,
    },
    nav: over.nav ?? [],
    pages: over.pages ?? [
      { slug: "contact", path: "/contact/", title: "Contact", kind: "contact", level: 1, parent: null, updated_at: "" },
      { slug: "mentions-legales", path: "/mentions-legales/", title: "Mentions légales", kind: "legal", level: 1, parent: null, updated_at: "" },
      { slug: "politique-confidentialite", path: "/politique-confidentialite/", title: "Politique de confidentialité", kind: "privacy", level: 1, parent: null, updated_at: "" },
    ],
  }) as unknown as SiteShell;

describe("weekHours", () => {
  it("lists the seven days in order, ranges sorted, absent days closed", () => {
    const week = weekHours([
      { day: "monday", opens: "14:00", closes: "19:00" },
      { day: "monday", opens: "08:30", closes: "12:30" },
      { day: "saturday", opens: "09:00", closes: "12:00" },
    ]);
    expect(week.map((d) => d.day)).toEqual(["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi", "Dimanche"]);
    expect(week[0].ranges).toEqual(["8h30 – 12h30", "14h00 – 19h00"]);
    expect(week[1].ranges).toEqual([]);
    expect(week[5].ranges).toEqual(["9h00 – 12h00"]);
  });
});

describe("telHref", () => {
  it("keeps digits and a leading +", () => {
    expect(telHref("+33 4 78 00 00 00")).toBe("tel:+33478000000");
    expect(telHref("04.78.00.00.00")).toBe("tel:0478000000");
  });
});

describe("siteChrome", () => {
  it("serves the logo and favicon through the media proxy, or the default favicon", () => {
    const chrome = siteChrome(shell({ favicon: true }));
    expect(chrome.logo).toEqual({ src: "/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg", width: 320, height: 96 });
    expect(chrome.favicon).toEqual({ href: "/api/media?path=%2Fmedia%2Fdupont%2Ffavicon.png", type: "image/png" });
    expect(siteChrome(shell()).favicon).toEqual({ href: "/favicon.svg", type: "image/svg+xml" });
    expect(siteChrome(shell({ logo: false })).logo).toBeNull();
  });

  it("takes legal links and the contact page from the page list", () => {
    const chrome = siteChrome(shell());
    expect(chrome.legalLinks).toEqual([
      { label: "Mentions légales", href: "/mentions-legales/" },
      { label: "Politique de confidentialité", href: "/politique-confidentialite/" },
    ]);
    expect(chrome.contactHref).toBe("/contact/");
  });

  it("uses the booking URL as the call to action, else the contact page, else a call", () => {
    expect(siteChrome(shell()).booking).toEqual({ href: "https://booking.example.org/dupont", external: true });
    expect(siteChrome(shell({ booking: null })).booking).toEqual({ href: "/contact/", external: false });
    expect(siteChrome(shell({ booking: null, pages: [] })).booking).toEqual({ href: "tel:+33478000000", external: false });
  });

  it("keeps dropdown groups with links and drops unsafe or empty entries", () => {
    const chrome = siteChrome(
      shell({
        nav: [
          { label: "Le Cabinet", href: null, children: [{ label: "Philosophie", href: "/philosophie/", children: [] }, { label: "Piège", href: "javascript:alert(1)", children: [] }] },
          { label: "Vide", href: null, children: [] },
          { label: "Contact", href: "/contact/", children: [] },
          { label: "Mal", href: "javascript:alert(1)", children: [] },
        ],
      }),
    );
    expect(chrome.nav).toEqual([
      { label: "Le Cabinet", href: null, children: [{ label: "Philosophie", href: "/philosophie/" }] },
      { label: "Contact", href: "/contact/", children: [] },
    ]);
  });
});

describe("sharedSiteShell", () => {
  it("reads the shell once per request however many loaders ask", async () => {
    const ev = { sharedMap: new Map<string, unknown>() };
    let reads = 0;
    const read = async () => {
      reads++;
      return shell();
    };
    const [a, b] = await Promise.all([sharedSiteShell(ev, read), sharedSiteShell(ev, read)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    await sharedSiteShell({ sharedMap: new Map() }, read);
    expect(reads).toBe(2);
  });
});
