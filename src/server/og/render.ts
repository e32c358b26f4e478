/** The social card as PNG bytes: satori (layout to SVG) then resvg (SVG to PNG). */
import satori from "satori";
import { Resvg } from "@resvg/resvg-js";
import { cardElement, CARD_HEIGHT, CARD_WIDTH, type CardInput } from "./card";
import { cardFonts } from "./fonts";

export async function renderCardPng(input: CardInput): Promise<Buffer> {
  const svg = await satori(cardElement(input) as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: cardFonts(),
  });
  return new Resvg(svg, { fitTo: { mode: "width", value: CARD_WIDTH }, font: { loadSystemFonts: false } }).render().asPng();
}
