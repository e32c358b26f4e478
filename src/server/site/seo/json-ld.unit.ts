import { describe, expect, it } from "vitest";
import type { PracticeInfo } from "../../backend";
import { breadcrumbJsonLd, dentistJsonLd, faqPageJsonLd, openingHoursSpecification, serializeJsonLd } from "./json-ld";

const PRACTICE: PracticeInfo = {
  name: "Cabinet dentaire Dupont",
  address: { street: "12 rue Vauban", postal_code: "69006", city: "Lyon", country: "FR" },
  geo: { lat: 45.7679, lng: 4.8441 },
  phone: "+33 4 78 00 00 00",
  email: "contact@cabinet-dupont.fr",
  hours: [
    { day: "monday", opens: "08:30", closes: "12:30" },
    { day: "monday", opens: "14:00", closes: "19:00" },
    { day: "tuesday", opens: "08:30", closes: "12:30" },
    { day: "tuesday", opens: "14:00", closes: "19:00" },
    { day: "wednesday", opens: "08:30", closes: "12:30" },
  ],
  access_info: null,
  parking: null,
  transit: null,
  booking_url: "https://booking.example.org/dupont",
};

const ORIGIN = "https://www.cabinet-dupont.fr";

describe("dentistJsonLd", () => {
  const ld = dentistJsonLd({
    name: "Cabinet dentaire Dupont",
    practice: PRACTICE,
    origin: ORIGIN,
    logoPath: "/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg",
    description: "Chirurgiens-dentistes à Lyon",
  });

  it("is a schema.org Dentist with the practice's name, url and phone", () => {
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Dentist",
      name: "Cabinet dentaire Dupont",
      url: "https://www.cabinet-dupont.fr/",
      telephone: "+33 4 78 00 00 00",
      email: "contact@cabinet-dupont.fr",
      description: "Chirurgiens-dentistes à Lyon",
    });
  });

  it("has the postal address and the geo coordinates", () => {
    expect(ld.address).toEqual({
      "@type": "PostalAddress",
      streetAddress: "12 rue Vauban",
      postalCode: "69006",
      addressLocality: "Lyon",
      addressCountry: "FR",
    });
    expect(ld.geo).toEqual({ "@type": "GeoCoordinates", latitude: 45.7679, longitude: 4.8441 });
  });

  it("has the logo as an absolute URL through the media proxy on the same origin", () => {
    expect(ld.logo).toBe("https://www.cabinet-dupont.fr/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg");
  });

  it("has the opening hours as openingHoursSpecification, days grouped by time range", () => {
    expect(ld.openingHoursSpecification).toEqual([
      { "@type": "OpeningHoursSpecification", dayOfWeek: ["Monday", "Tuesday", "Wednesday"], opens: "08:30", closes: "12:30" },
      { "@type": "OpeningHoursSpecification", dayOfWeek: ["Monday", "Tuesday"], opens: "14:00", closes: "19:00" },
    ]);
  });

  it("has the booking link as a ReserveAction", () => {
    expect(ld.potentialAction).toMatchObject({
      "@type": "ReserveAction",
      target: { "@type": "EntryPoint", urlTemplate: "https://booking.example.org/dupont" },
    });
  });

  it.each(["javascript:alert(42)", "JavaScript:alert(1)", "data:text/html,x", "//evil.example/x", "/rdv/", "not a url"])(
    "has no ReserveAction for a booking_url that is no absolute http(s) URL (%s)",
    (booking_url) => {
      const ld2 = dentistJsonLd({ name: "X", practice: { ...PRACTICE, booking_url }, origin: ORIGIN, logoPath: null, description: null });
      expect(ld2).not.toHaveProperty("potentialAction");
      expect(JSON.stringify(ld2)).not.toContain(booking_url);
    },
  );

  it("leaves out what the practice does not have", () => {
    const bare = dentistJsonLd({
      name: "X",
      practice: { ...PRACTICE, geo: null, email: null, booking_url: null, hours: [] },
      origin: ORIGIN,
      logoPath: null,
      description: null,
    });
    for (const key of ["geo", "email", "potentialAction", "logo", "description"]) expect(bare).not.toHaveProperty(key);
    expect(bare.openingHoursSpecification).toEqual([]);
  });
});

describe("openingHoursSpecification", () => {
  it("does not repeat a day listed twice for the same range", () => {
    const spec = openingHoursSpecification([
      { day: "friday", opens: "09:00", closes: "12:00" },
      { day: "friday", opens: "09:00", closes: "12:00" },
    ]);
    expect(spec).toEqual([{ "@type": "OpeningHoursSpecification", dayOfWeek: ["Friday"], opens: "09:00", closes: "12:00" }]);
  });
});

describe("faqPageJsonLd", () => {
  it("lists each question with its answer", () => {
    expect(faqPageJsonLd([{ question: "Est-ce douloureux ?", answerHtml: "<p>Non.</p>" }])).toEqual({
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: [{ "@type": "Question", name: "Est-ce douloureux ?", acceptedAnswer: { "@type": "Answer", text: "<p>Non.</p>" } }],
    });
  });
});

describe("breadcrumbJsonLd", () => {
  it("numbers the trail from 1 with absolute URLs", () => {
    const ld = breadcrumbJsonLd(
      [
        { name: "Accueil", path: "/" },
        { name: "Implantologie", path: "/implantologie/" },
        { name: "L'implant unitaire", path: "/implantologie/implant-unitaire/" },
      ],
      ORIGIN,
    );
    expect(ld["@type"]).toBe("BreadcrumbList");
    expect(ld.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Accueil", item: "https://www.cabinet-dupont.fr/" },
      { "@type": "ListItem", position: 2, name: "Implantologie", item: "https://www.cabinet-dupont.fr/implantologie/" },
      { "@type": "ListItem", position: 3, name: "L'implant unitaire", item: "https://www.cabinet-dupont.fr/implantologie/implant-unitaire/" },
    ]);
  });
});

describe("serializeJsonLd", () => {
  it("cannot close its <script> element, and parses back to the same data", () => {
    const data = { name: "</script><script>alert(1)</script> & co\u2028" };
    const text = serializeJsonLd(data);
    expect(text).not.toMatch(/<|>/);
    expect(JSON.parse(text)).toEqual(data);
  });
});
