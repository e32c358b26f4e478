/**
 * GET /api/og?title=...: the practice's social card. Reads the site configuration (recording its cache
 * tags, so the page cache stores the card with the practice's tags), the logo from the build-time media
 * cache, and draws the card.
 */
import type { RequestEvent } from "@builder.io/qwik-city";
import { reportWarning } from "../monitoring";
import { mediaCachePath } from "../media/build-cache";
import { requestContext } from "../render/context";
import { withBackend } from "../site/site";
import { validTheme } from "../site/theme";
import { cardTitle } from "../tenancy/routes";
import { themeColors } from "./colors";
import { loadCardLogo } from "./logo";
import { renderCardPng } from "./render";
import { allowedCardTitles } from "./titles";

/** Browsers and social networks may keep a card this long; the server's cache is invalidated by tag. */
const CARD_MAX_AGE_S = 3600;

export async function handleOgCard(ev: RequestEvent): Promise<void> {
  const [config, allowed] = await withBackend(ev, (backend, ctx) =>
    Promise.all([backend.config(ctx, ctx.code), allowedCardTitles(backend, ctx)]),
  );
  const asked = cardTitle(ev.url.searchParams.get("title"));
  if (asked && !allowed.has(asked)) {
    // Not a title of this practice's pages: no card, and nothing stored (only a 200 is cached).
    ev.headers.set("Cache-Control", "no-store");
    ev.text(404, "Not Found");
    return;
  }
  const title = asked || config.seo.site_title || "";
  let logo = null;
  if (config.logo) {
    const { code, services } = requestContext(ev);
    const found = await loadCardLogo(code, mediaCachePath(code, "logo", services.mediaCacheRoots));
    if (found.warning) reportWarning(found.warning, found.context);
    logo = found.logo;
  }
  const png = await renderCardPng({
    name: config.name,
    title: title === config.name ? "" : title,
    colors: themeColors(validTheme(config.theme, config.code)),
    logo,
  });
  ev.headers.set("Content-Type", "image/png");
  ev.headers.set("Content-Length", String(png.byteLength));
  ev.headers.set("Cache-Control", `public, max-age=${CARD_MAX_AGE_S}`);
  ev.send(200, png);
}
