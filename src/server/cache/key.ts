/**
 * What the page cache may store, and under which key: the one place that decides it, used by the
 * fast hit path in front of Express, by the Express cache middleware and by the pre-pass seed, so the
 * three cannot disagree.
 *
 * Key = practice code + scheme + host + path + the query parameters that count for the route.
 *
 * - The scheme is in the key because the page prints it (canonical, og:url outside production): the first
 *   request's X-Forwarded-Proto must not decide the scheme everyone else is shown (http/request-scheme.ts).
 *
 * - Every other query parameter (utm_…, fbclid, gclid…) is ignored: it can neither fragment nor poison
 *   the cache.
 * - The path is taken as sent, not decoded: our router does not treat `/%63ontact/` as `/contact/`, and a
 *   path that does not render a 200 is never stored, so odd spellings cannot fill the store.
 * - The host (lower-cased, port kept unless 80/443) is part of the key because a page's bytes may name
 *   it: outside production the canonical link and og:url follow the request host, and so do they in
 *   production for a practice without a primary domain (the demo's `petit`). Sharing one entry between
 *   a practice's hosts would print one host's URLs on another. The cost is one entry per host a page is
 *   actually visited on; the pre-pass renders for the practice's main host (prepass/prepass.ts).
 */
import { normaliseHost } from "../tenancy/host";
import { schemeOf, type Scheme } from "../util/request-scheme";
import { CACHED_ROUTES, isQwikCall, routeOf, routeParams, type RouteParams } from "../tenancy/routes";

/** A request the cache can answer: what to look up, and what to render on a miss or a refresh. */
export interface CacheTarget {
  key: string;
  code: string;
  /** The origin the page is rendered for (scheme + host), also used by background re-renders. */
  origin: string;
  /** Path plus the counted query parameters: what the render sees. */
  url: string;
}

/**
 * The cache target of a GET/HEAD request, or null when the response must not come from the cache.
 * `rawUrl` is the request target as sent (`/path?query`), `host` the Host header, `proto` http/https
 * (the origin a miss renders for, and part of the key).
 */
export function cacheTarget(
  method: string,
  code: string,
  host: string,
  proto: string,
  rawUrl: string,
): CacheTarget | null {
  const authority = hostKeyPart(host);
  const url = authority && cacheableUrl(method, rawUrl);
  if (!authority || url === null || url === "") return null;
  const scheme = schemeOf(proto);
  return { key: keyOf(code, scheme, authority, url), code, origin: `${scheme}://${authority}`, url };
}

/**
 * Just the key, from a host already reduced by hostKeyPart() (the fast path memoises that per Host
 * header and builds nothing else).
 */
export function cacheKey(method: string, code: string, scheme: Scheme, authority: string, rawUrl: string): string | null {
  const url = cacheableUrl(method, rawUrl);
  return url ? keyOf(code, scheme, authority, url) : null;
}

function keyOf(code: string, scheme: Scheme, authority: string, url: string): string {
  return `${code}\u0000${scheme}://${authority}\u0000${url}`;
}

/** The path plus counted query the render sees, or null when the request is not cacheable. */
function cacheableUrl(method: string, rawUrl: string): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  if (rawUrl.charCodeAt(0) !== 47 /* "/" */) return null;
  const q = rawUrl.indexOf("?");
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  // Only the page cache's routes of the allow-list (tenancy/routes.ts): pages, robots, sitemap, the card.
  if (!CACHED_ROUTES.has(routeOf(method, path))) return null;
  // The query parameters the route reads (tenancy/routes.ts) are the ones the key holds, canonical.
  const rule = routeParams(path);
  if (q === -1) return rule ? `${rule.path}/` : path;
  const query = rawUrl.slice(q + 1);
  if (isQwikCall(query)) return null; // refused before (http/request-rules.ts); never cached whatever calls this
  if (!rule) return path;
  const counted = countedQuery(rule, query);
  return counted ? `${rule.path}/?${counted}` : `${rule.path}/`;
}

/**
 * The host as the key holds it: lower-case, port kept unless 80/443 (a page printing its own URL needs
 * the port it was reached on); null for a host that is not a DNS name.
 */
export function hostKeyPart(host: string): string | null {
  const name = normaliseHost(host);
  if (!name) return null;
  const port = /:(\d{1,5})$/.exec(host)?.[1];
  return port && port !== "80" && port !== "443" ? `${name}:${port}` : name;
}

/** The query parameters of `query` that count for the route, canonical, in a fixed order; "" when none. */
function countedQuery(rule: RouteParams, query: string): string {
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const { name, canonical } of rule.vary) {
    const value = params.get(name);
    const form = value === null ? "" : canonical(value);
    if (form) kept.set(name, form);
  }
  return kept.toString();
}

/** The most URLs OwnUrlKeys remembers, every site and scheme together: then it forgets them all and relearns. */
export const OWN_URL_KEYS_MAX = 4096;
/** A longer URL is not remembered: a page's own URL is short, and the memo's bytes stay bounded. */
export const OWN_URL_MAX_LENGTH = 256;

/**
 * The cache key of a page's own URL, remembered per site and scheme (the fast path's, cache-front.ts): a hit
 * otherwise builds the key anew (cacheableUrl's route lookups and four concatenations), and the page store's Map
 * then flattens the new string, hashes it and compares it with the stored key character by character (about
 * 2,500 instructions of a HIT under callgrind). The remembered key is the stored entry's own key string: the
 * store's lookup finds it by identity, its hash already computed.
 *
 * Bounded: only an entry's own URL (what its target says, never another spelling, so a visitor's query strings
 * cannot fill it), at most OWN_URL_MAX_LENGTH characters, at most OWN_URL_KEYS_MAX of them. Nothing to invalidate:
 * a key is a function of the site, the scheme and the URL alone (cacheKey), and whether its entry is still
 * stored is the page store's question, asked on every request.
 */
export class OwnUrlKeys<Site extends object> {
  /** Site (the pipeline's object for a Host header) -> scheme -> URL -> key. */
  private readonly bySite = new Map<Site, Record<Scheme, Map<string, string>>>();
  private size = 0;

  get(site: Site, scheme: Scheme, url: string): string | undefined {
    return this.bySite.get(site)?.[scheme].get(url);
  }

  /** `key` must be cacheKey's for this site, scheme and URL (the caller checks the entry found under it). */
  remember(site: Site, scheme: Scheme, url: string, key: string): void {
    if (url.length > OWN_URL_MAX_LENGTH) return;
    if (this.size >= OWN_URL_KEYS_MAX) {
      this.bySite.clear();
      this.size = 0;
    }
    let schemes = this.bySite.get(site);
    if (!schemes) this.bySite.set(site, (schemes = { http: new Map(), https: new Map() }));
    const urls = schemes[scheme];
    if (!urls.has(url)) this.size++;
    urls.set(url, key);
  }

  /** URLs remembered (tests). */
  get count(): number {
    return this.size;
  }
}
