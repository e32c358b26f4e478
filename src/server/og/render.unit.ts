import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cardTitle, TITLE_MAX_CHARS } from "../tenancy/routes";
import { loadCardLogo } from "./logo";
import { renderCardPng } from "./render";
import { pngSize } from "../../../tests/support/png";

const colors = { primary: "#005d8d", accent: "#00735a" };
const DEMO_MEDIA = "ops/demo/backend/media";

describe("the social card", () => {
  it.each([
    ["svg", "dupont/logo.svg"],
    ["png", "martin/logo.png"],
    ["jpg", "bernard/logo.jpg"],
    ["webp", "petit/logo.webp"],
  ])("draws a 1200x630 PNG with a %s logo", async (_type, file) => {
    const found = await loadCardLogo("x", join(DEMO_MEDIA, file));
    expect(found.warning).toBeUndefined();
    expect(found.logo!.src).toMatch(/^data:image\/png;base64,/);
    expect(found.logo!.width).toBeLessThanOrEqual(440);
    const png = await renderCardPng({ name: "Cabinet dentaire", title: "L'implant unitaire", colors, logo: found.logo });
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it("draws a card without logo", async () => {
    const withLogo = await renderCardPng({ name: "Cabinet", title: "Titre", colors, logo: (await loadCardLogo("x", join(DEMO_MEDIA, "dupont/logo.svg"))).logo });
    const without = await renderCardPng({ name: "Cabinet", title: "Titre", colors, logo: null });
    expect(pngSize(without)).toEqual({ width: 1200, height: 630 });
    expect(without.equals(withLogo)).toBe(false);
  });

  it("warns when the logo is not in the media cache", async () => {
    const found = await loadCardLogo("dupont", null);
    expect(found).toMatchObject({ logo: null, warning: "og card: logo not in media cache: dupont" });
  });

  it("warns about an unsupported logo type", async () => {
    const dir = mkdtempSync(join(tmpdir(), "og-"));
    const gif = join(dir, "logo.gif");
    writeFileSync(gif, Buffer.from("GIF89a"));
    const found = await loadCardLogo("dupont", gif);
    expect(found.logo).toBeNull();
    expect(found.warning).toBe(`og card: unsupported logo type .gif for dupont: ${gif}`);
  });

  it("warns about a logo it cannot decode", async () => {
    const dir = mkdtempSync(join(tmpdir(), "og-"));
    const broken = join(dir, "logo.png");
    writeFileSync(broken, "not a png");
    expect((await loadCardLogo("dupont", broken)).warning).toMatch(/^og card: unreadable logo for dupont/);
  });
});

describe("cardTitle", () => {
  it("collapses whitespace and drops control characters", () => {
    expect(cardTitle("  Soins\u0000 des\n\tgencives ")).toBe("Soins des gencives");
  });
  it("caps the length with an ellipsis", () => {
    const title = cardTitle("é".repeat(500));
    expect([...title]).toHaveLength(TITLE_MAX_CHARS);
    expect(title.endsWith("…")).toBe(true);
  });
  it("is empty for no title", () => {
    expect(cardTitle(null)).toBe("");
  });
});
