import { component$ } from "@builder.io/qwik";
import { routeLoader$ } from "@builder.io/qwik-city";
import { analyticsScript } from "~/lib/analytics";
import { requestContext } from "~/server/render/context";
import { isIndexable } from "~/server/site/indexing";

/**
 * The shared indexing decision for this deployment, read on the server. Re-exported by the practice
 * layout (a routeLoader$ runs only when a route module exports it).
 */
// eslint-disable-next-line qwik/loader-location -- re-exported by src/routes/_sites/[code]/layout.tsx
export const useAnalyticsAllowed = routeLoader$((ev) => isIndexable(requestContext(ev).services.env));

interface Props {
  /** The practice's analytics_website_id from its site configuration. */
  websiteId: string | null;
}

/** The analytics script (PUBLIC_ANALYTICS_URL, deferred), only where src/lib/analytics.ts allows it. */
export const Analytics = component$<Props>(({ websiteId }) => {
  const allowed = useAnalyticsAllowed();
  const script = analyticsScript({
    indexable: allowed.value,
    url: import.meta.env.PUBLIC_ANALYTICS_URL,
    practiceWebsiteId: websiteId,
    defaultWebsiteId: import.meta.env.PUBLIC_ANALYTICS_WEBSITE_ID,
  });
  if (!script) return null;
  return <script defer src={script.src} data-website-id={script.websiteId} />;
});
