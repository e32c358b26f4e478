/**
 * The one indexing decision (the specification's derived state): search engines may index only a
 * production deployment. robots.txt, the robots meta tag and the X-Robots-Tag header all ask this
 * function, so they cannot disagree.
 */
import type { Environment } from "../env";

export function isIndexable(env: { ENVIRONMENT: Environment }): boolean {
  return env.ENVIRONMENT === "prod";
}

/** The robots meta/header value when indexing is not allowed. */
export const NOINDEX_META = "noindex, nofollow";
export const NOINDEX_HEADER = "noindex";
