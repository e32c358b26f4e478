/**
 * The social card as PNG bytes: satori (layout to SVG) then resvg (SVG to PNG).
 *
 * Both are loaded on the first card, not with the server's bundle: the main thread loads every module its
 * routes import, yet only a render worker draws a card (docs/decisions/0047-main-thread-renders-nothing.md),
 * and satori's tables and resvg's native library would otherwise sit in the main thread's heap and memory for
 * nothing, and start up with it.
 */
import { cardElement, CARD_HEIGHT, CARD_WIDTH, type CardInput } from "./card";
import { cardFonts } from "./fonts";

type Satori = typeof import("satori").default;
type ResvgClass = typeof import("@resvg/resvg-js").Resvg;

let renderers: Promise<{ satori: Satori; Resvg: ResvgClass }> | null = null;

/**
 * satori and resvg, imported once, on first use. A failed import (a broken install) fails every card with its
 * error: Node keeps a failed import's error, so there is nothing to retry.
 */
function loadRenderers(): Promise<{ satori: Satori; Resvg: ResvgClass }> {
  renderers ??= Promise.all([import("satori"), import("@resvg/resvg-js")]).then(([s, r]) => ({ satori: s.default, Resvg: r.Resvg }));
  return renderers;
}

export async function renderCardPng(input: CardInput): Promise<Buffer> {
  const { satori, Resvg } = await loadRenderers();
  const svg = await satori(cardElement(input) as Parameters<Satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: cardFonts(),
  });
  return new Resvg(svg, { fitTo: { mode: "width", value: CARD_WIDTH }, font: { loadSystemFonts: false } }).render().asPng();
}
