/**
 * The origin of canonical URLs (and of the absolute URLs in Open Graph and JSON-LD): the practice's
 * primary domain in production, the host the request came to everywhere else (a preview or staging
 * site must not point search engines at the live domain's pages, nor the live site at a preview host).
 * Built per request from the Host: one process serves many practices, so there is no global ORIGIN.
 */

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * `https://<primary_domain>` when the backend's value is a bare host name (the one check, shared by the
 * canonical URL, robots.txt and the sitemap); null when unset. A value with a path, a port, a scheme or a
 * newline would be written into robots.txt and sitemap URLs as is: it is refused, logged, and the caller
 * falls back to the request's origin.
 */
export function primaryDomainOrigin(primaryDomain: string | null | undefined): string | null {
  if (primaryDomain === null || primaryDomain === undefined || primaryDomain === "") return null;
  const domain = primaryDomain.trim().toLowerCase();
  if (HOSTNAME.test(domain)) return `https://${domain}`;
  // A log line, not an error-tracking event: this module is also in the client graph (the head export),
  // which must not pull the Sentry SDK in.
  console.warn(`[warn] site: primary_domain ${JSON.stringify(primaryDomain).slice(0, 200)} is not a bare host name; using the request's origin`);
  return null;
}

/** `indexable`: site/indexing.ts's decision, asked by the caller (seo/ sits above site/ in the folder order). */
export function siteOrigin(indexable: boolean, primaryDomain: string | null, requestOrigin: string): string {
  return (indexable && primaryDomainOrigin(primaryDomain)) || new URL(requestOrigin).origin;
}

/** An absolute URL on that origin for a site path ("/implantologie/"). */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${origin}/`).href;
}
