/**
 * Whether a page carries the analytics script, and with which website id: only on an indexable
 * deployment (the shared indexing decision: a staging visit must not count), only when the script URL
 * was given at build (PUBLIC_ANALYTICS_URL), with the practice's id from its site configuration, else
 * the build's PUBLIC_ANALYTICS_WEBSITE_ID; no id, no script.
 */
export interface AnalyticsScript {
  src: string;
  websiteId: string;
}

export function analyticsScript(opts: {
  indexable: boolean;
  url: string | undefined;
  practiceWebsiteId: string | null | undefined;
  defaultWebsiteId: string | undefined;
}): AnalyticsScript | null {
  const src = opts.url?.trim();
  const websiteId = opts.practiceWebsiteId?.trim() || opts.defaultWebsiteId?.trim();
  if (!opts.indexable || !src || !websiteId) return null;
  return { src, websiteId };
}
