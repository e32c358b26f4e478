import { component$, Slot } from "@builder.io/qwik";
import { routeLoader$ } from "@builder.io/qwik-city";
import { withBackend } from "~/server/load";
import { readSiteShell } from "~/server/site";
import { setHtmlAttributes } from "~/server/html-attributes";
import { themeStyle, validTheme } from "~/server/theme";
import { SiteHeader } from "~/components/layout/site-header";
import { SiteFooter } from "~/components/layout/site-footer";
import { Analytics } from "~/components/analytics/analytics";
import { ErrorTracking } from "~/components/error-tracking/error-tracking";

// Issue 5: the analytics component's loader (the shared indexing decision) runs only when exported here.
export { useAnalyticsAllowed } from "~/components/analytics/analytics";

/** The practice's layout data; a backend 404 (unknown or inactive practice) is this request's 404. */
export const useSite = routeLoader$(async (ev) => {
  const site = await withBackend(ev, readSiteShell);
  setHtmlAttributes(ev, { style: themeStyle(validTheme(site.config.theme, site.config.code)) });
  return site;
});

export default component$(() => {
  const site = useSite();
  return (
    <>
      <a class="skip-link" href="#main">
        Aller au contenu
      </a>
      <SiteHeader config={site.value.config} nav={site.value.nav} practice={site.value.practice} />
      <main id="main">
        <Slot />
      </main>
      <SiteFooter config={site.value.config} practice={site.value.practice} />
      <Analytics websiteId={site.value.config.analytics_website_id} />
      <ErrorTracking />
    </>
  );
});
