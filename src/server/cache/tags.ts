/**
 * The cache-tag vocabulary (../shared/spec/content-backend-api.md). Every tag string is built here, so
 * the backend client that records tags and the webhook that invalidates them cannot disagree.
 */

/** Everything of one practice: config, practice, team, nav, jobs, page list, is_active. */
export const siteTag = (code: string) => `site:${code}`;

/** The page with that slug on every practice (the specification's shape). */
export const pageTag = (slug: string) => `page:${slug}`;

/** One page of one practice. */
export const sitePageTag = (code: string, slug: string) => `site:${code}:page:${slug}`;

/** A tag as the webhook may send it: one of the three shapes above. */
const TAG_SHAPE = /^(?:page:[^\s:]+|site:[a-z0-9-]+(?::page:[^\s:]+)?)$/;

export function isKnownTagShape(tag: string): boolean {
  return TAG_SHAPE.test(tag);
}
