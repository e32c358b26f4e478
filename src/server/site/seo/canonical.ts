/**
 * The origin of canonical URLs (and of the absolute URLs in Open Graph and JSON-LD): the practice's
 * primary domain in production, the host the request came to everywhere else (a preview or staging
 * site must not point search engines at the live domain's pages, nor the live site at a preview host).
 * Built per request from the Host: one process serves many practices, so there is no global ORIGIN.
 */
import type { Environment } from "../../env";
import { isIndexable } from "../indexing";

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export function siteOrigin(env: { ENVIRONMENT: Environment }, primaryDomain: string | null, requestOrigin: string): string {
  const domain = primaryDomain?.trim().toLowerCase();
  if (isIndexable(env) && domain && HOSTNAME.test(domain)) return `https://${domain}`;
  return new URL(requestOrigin).origin;
}

/** An absolute URL on that origin for a site path ("/implantologie/"). */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${origin}/`).href;
}
