/**
 * Data of the page that answers a refused no-JS contact submission: the relay's result, and the site's
 * frame (header, footer, theme) when the backend can give it; when it cannot (the very case of a 502),
 * the page still shows the form with the visitor's input.
 */
import type { RequestEventLoader } from "@builder.io/qwik-city";
import { reportWarning } from "../monitoring";
import { requestContext, setHtmlAttributes } from "../render/context";
import { readSiteShell, siteChrome, type SiteShell } from "../site/site";
import { themeStyle, validTheme } from "../site/theme";
import { getContactResult } from "./result";

export async function loadContactResultPage(ev: RequestEventLoader) {
  const result = getContactResult(ev);
  if (!result) {
    ev.status(404);
    return null;
  }
  ev.headers.set("Cache-Control", "no-store");
  let shell: SiteShell | null = null;
  try {
    const ctx = requestContext(ev);
    shell = await readSiteShell(ctx.services.backend, ctx);
    setHtmlAttributes(ev, { style: themeStyle(validTheme(shell.config.theme, shell.config.code)) });
  } catch (error) {
    reportWarning("contact: site frame unavailable for the refused-submission page", { error: String(error) });
  }
  const contactPage = shell?.pages.find((p) => p.kind === "contact");
  return {
    result: {
      status: result.status,
      kind: result.kind,
      message: result.message,
      errors: result.errors,
      values: result.values,
      page: result.page,
    },
    // The header and footer take the display-ready site chrome (src/server/site/site.ts).
    shell: shell ? siteChrome(shell) : null,
    title: contactPage?.title ?? "Contact",
  };
}
