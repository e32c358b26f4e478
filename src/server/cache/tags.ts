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

/** How the revalidation endpoints describe the accepted shapes in their 400 answers. */
export const TAG_SHAPES_TEXT = "page:<slug>, site:<code> or site:<code>:page:<slug>";

/*
 * Data-cache-only tags. A page's publication, path and title also live in its practice's page list,
 * which the data cache holds under the practice's tag only. So that publishing or unpublishing a page
 * (webhook tag `page:<slug>` or `site:<code>:page:<slug>`) is visible to the very next render, a page tag
 * also drops the page lists it may appear in. Rendered pages do not carry these tags: every page reads
 * the list to route, and one page's edit must not re-render every page of every practice.
 * (They cannot arrive from outside: TAG_SHAPE refuses them.)
 */
const pageListTag = (code: string) => `site:${code}:pages`;
const ANY_PAGE_LIST = "pages";

/** The data-cache tags of a practice's page list. */
export const pageListDataTags = (code: string) => [siteTag(code), pageListTag(code), ANY_PAGE_LIST];

/** The data-cache tags a set of webhook tags reaches (the tags themselves plus the page lists above). */
export function dataTagsFor(tags: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const tag of tags) {
    out.add(tag);
    const sitePage = /^site:([a-z0-9-]+):page:/.exec(tag);
    if (sitePage) out.add(pageListTag(sitePage[1]));
    else if (tag.startsWith("page:")) out.add(ANY_PAGE_LIST);
  }
  return [...out];
}
