import { component$, Slot } from "@builder.io/qwik";
import { routeLoader$, useLocation, type DocumentHead } from "@builder.io/qwik-city";
import { loadSite } from "~/server/site/site";
import { SiteHeader } from "~/components/layout/site-header";
import { SiteFooter } from "~/components/layout/site-footer";
import { Analytics } from "~/components/analytics/analytics";
import { ErrorTracking } from "~/components/error-tracking/error-tracking";

// The analytics component's loader (the shared indexing decision) runs only when exported here.
export { useAnalyticsAllowed } from "~/components/analytics/analytics";

/** The practice's layout data (header, footer, theme); read once per render. */
export const useSite = routeLoader$((ev) => loadSite(ev));

export default component$(() => {
  const site = useSite().value;
  const path = useLocation().url.pathname;
  return (
    <>
      <a class="skip-link" href="#main">
        Aller au contenu
      </a>
      <SiteHeader site={site} path={path} />
      <main id="main" tabIndex={-1}>
        <Slot />
      </main>
      <SiteFooter site={site} />
      <Analytics websiteId={site.analyticsWebsiteId} />
      <ErrorTracking />
    </>
  );
});

export const head: DocumentHead = ({ resolveValue }) => {
  const site = resolveValue(useSite);
  return {
    links: [{ rel: "icon", href: site.favicon.href, type: site.favicon.type, key: "icon" }],
  };
};
