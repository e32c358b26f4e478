import { describe, expect, it } from "vitest";
import { createMatcher } from "./match";
import type { NewPage } from "./new-site";

const pages: NewPage[] = [
  { path: "/", slug: "home", title: "Accueil", kind: "home", text: "Bienvenue au cabinet dentaire, soins implants orthodontie" },
  { path: "/implantologie/", slug: "implantologie", title: "Implantologie", kind: "service_hub", text: "Implant dentaire en titane dans l'os de la mâchoire, couronne, greffe" },
  { path: "/implantologie/implant-unitaire/", slug: "implant-unitaire", title: "L'implant unitaire", kind: "service_detail", text: "Remplacer une seule dent par un implant unitaire et une couronne céramique" },
  { path: "/tarifs/", slug: "tarifs", title: "Tarifs et remboursements", kind: "cabinet", text: "Honoraires conventionnés, devis, Assurance maladie, mutuelle" },
  { path: "/contact/", slug: "contact", title: "Contact", kind: "contact", text: "Téléphone, adresse, formulaire de contact, rendez-vous" },
];
const match = createMatcher(pages);
const old = (path: string, title: string, text: string) => match({ path, title, h1: title, text });

describe("createMatcher", () => {
  it("sends only the old home page (any spelling) to the home page", () => {
    expect(old("/index.html", "Accueil", "").match).toEqual({ target: "/", confidence: 1, by: "home page" });
    expect(old("/INDEX.php", "", "").match?.target).toBe("/");
    const vague = old("/divers.html", "Divers", "Bienvenue au cabinet dentaire");
    expect(vague.match?.target).not.toBe("/");
  });

  it("sends an old spelling of a new page's URL to that page", () => {
    expect(old("/Contact.html", "Nous écrire", "rien à voir").match).toEqual({ target: "/contact/", confidence: 1, by: "same path" });
  });

  it("tells the detail page from its hub by URL, title and text", () => {
    const detail = old("/soins/implant-unitaire.html", "L'implant unitaire", "Une seule dent remplacée par un implant unitaire et sa couronne");
    expect(detail.match?.target).toBe("/implantologie/implant-unitaire/");
    const hub = old("/soins/implants-dentaires.html", "Implants dentaires", "Un implant en titane placé dans l'os de la mâchoire porte une couronne");
    expect(hub.match?.target).toBe("/implantologie/");
    expect(hub.match!.confidence).toBeGreaterThan(0.2);
  });

  it("matches by text when URL and title share nothing", () => {
    const honoraires = old("/honoraires.html", "Nos prix", "Honoraires conventionnés, un devis avant tout traitement, remboursés par l'Assurance maladie et la mutuelle");
    expect(honoraires.match?.target).toBe("/tarifs/");
  });

  it("leaves an unrelated page unmatched, with its best guess", () => {
    const result = old("/blanchiment.html", "Blanchiment", "Gel éclaircissant appliqué dans des gouttières sur mesure chaque soir");
    expect(result.match).toBeNull();
    expect(result.best!.confidence).toBeLessThan(0.2);
  });
});
