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
/** Tags one revalidation request may name (the webhook and /api/revalidate); the demo backend splits above it. */
export const MAX_TAGS = 200;

export const TAG_SHAPES_TEXT = "page:<slug>, site:<code> or site:<code>:page:<slug>";

/*
 * Page-list tags. A page's publication, path and title also live in its practice's page list, which the
 * backend tags only with the practice (`site:<code>`), while a publication may come with page tags only
 * (`page:<slug>`, the specification's shape). So a page tag also reaches the page lists it may appear in:
 * the data cache's copy of the list, and any render whose output lists the practice's pages (the sitemap
 * records pageListTags() for that). Ordinary pages do not carry them: every page reads the list to route,
 * and one page's edit must not re-render every page of every practice. (They cannot arrive from outside:
 * TAG_SHAPE refuses them.)
 */
const pageListTag = (code: string) => `site:${code}:pages`;
const ANY_PAGE_LIST = "pages";

/** The tags of a practice's page list: carried by the data cache's copy and by renders that list pages. */
export const pageListTags = (code: string) => [siteTag(code), pageListTag(code), ANY_PAGE_LIST];

/** What a set of webhook tags reaches: the tags themselves plus the page lists a page tag reaches. */
export function expandTags(tags: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const tag of tags) {
    out.add(tag);
    const sitePage = /^site:([a-z0-9-]+):page:/.exec(tag);
    if (sitePage) out.add(pageListTag(sitePage[1]));
    else if (tag.startsWith("page:")) out.add(ANY_PAGE_LIST);
  }
  return [...out];
}
