/**
 * The social card's layout (1200x630) as the element tree satori draws: the practice's theme colour as
 * background, its logo on a white panel (logos are drawn for light backgrounds), its name, and the
 * page title (cut and cleaned before it gets here: tenancy/routes.ts's cardTitle, which the page cache's key uses too).
 */
import type { CardLogo } from "./logo";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface CardInput {
  name: string;
  title: string;
  colors: { primary: string; accent: string };
  logo: CardLogo | null;
}

/** satori's element shape (what JSX would compile to), without a JSX runtime on the server. */
interface Node {
  type: string;
  props: { style?: Record<string, unknown>; children?: Node | string | (Node | string)[]; [k: string]: unknown };
}

const h = (type: string, props: Node["props"], ...children: (Node | string | null)[]): Node => ({
  type,
  props: { ...props, children: children.filter((c): c is Node | string => c !== null) },
});

export function cardElement({ name, title, colors, logo }: CardInput): Node {
  const inner = CARD_WIDTH - 2 * 72;
  return h(
    "div",
    {
      style: {
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        display: "flex",
        flexDirection: "column",
        backgroundColor: colors.primary,
        color: "#ffffff",
        fontFamily: "Inter",
      },
    },
    h(
      "div",
      {
        style: {
          display: "flex",
          flexDirection: "column",
          justifyContent: "space-between",
          flexGrow: 1,
          padding: "56px 72px 48px",
        },
      },
      h(
        "div",
        { style: { display: "flex", flexDirection: "column", gap: 24 } },
        logo
          ? h(
              "div",
              { style: { display: "flex", alignSelf: "flex-start", backgroundColor: "#ffffff", borderRadius: 20, padding: "20px 28px" } },
              h("img", { src: logo.src, width: logo.width, height: logo.height, style: { width: logo.width, height: logo.height } }),
            )
          : null,
        h("div", { style: { display: "flex", fontSize: 40, fontWeight: 400, opacity: 0.92, width: inner } }, name),
      ),
      title ? h("div", { style: { display: "flex", fontSize: 56, fontWeight: 700, lineHeight: 1.15, width: inner } }, title) : null,
    ),
    h("div", { style: { display: "flex", height: 18, width: CARD_WIDTH, backgroundColor: colors.accent } }),
  );
}
