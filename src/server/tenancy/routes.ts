/**
 * What a practice's host answers, as an allow-list: the one place that says which public paths are which
 * route (docs/decisions/0047-main-thread-renders-nothing.md). Everything else a request can name is
 * `none`, answered with the practice's stored 404 page, never rendered for its own path.
 *
 * Why an allow-list: each time a shape of request was refused by a pattern of what not to do (a method,
 * a Qwik call parameter, `q-data.json` after an endpoint, a 404 under `/api/`), another shape reached a
 * render on the thread that answers every practice's cache hits. Here a path is a route only if it is
 * listed, and each route says where it is answered:
 *
 *   page        GET/HEAD  the catch-all page route: `/`, `/a/b/`, and `q-data.json` under such a path
 *   robots      GET/HEAD  /robots.txt
 *   sitemap     GET/HEAD  /sitemap.xml
 *   og          GET/HEAD  /api/og, /api/og/          (the social card)
 *       the four above are the page cache's: stored bytes, or a render in the pool under admission
 *   media       GET/HEAD  /api/media, /api/media/    the media proxy: moves bytes, renders nothing
 *   contact     POST      /api/contact, /api/contact/ the relay (a refused no-JS post: its page in the pool)
 *   file        GET/HEAD  ROOT_FILES, /media/<code>/... : files of the client build, on disk
 *   none        anything else under a reserved first segment, or another method
 *
 * The global endpoints (/healthz, /readyz, the two revalidation POSTs, /build/ and /assets/) are answered
 * before tenancy, on any host, and are not a practice's routes.
 *
 * What a request's query may ask is decided here too: the parameters a route reads (routeParams: the card's
 * title, as the card draws it), and Qwik City's call parameters, which no route takes (isQwikCall: refused by
 * the request rules, never cached).
 */

export type RouteKind = "page" | "robots" | "sitemap" | "og" | "media" | "contact" | "file" | "none";

/** First path segments that are not pages: each is a route of its own or nothing. */
const RESERVED = new Set(["api", "webhooks", "build", "assets", "media", "_sites", "robots.txt", "sitemap.xml", "q-manifest.json"]);

/** The client build's root files served per practice host (the files of public/; a unit test keeps them equal). */
export const ROOT_FILES: ReadonlySet<string> = new Set(["/favicon.svg"]);

const EXACT: ReadonlyMap<string, RouteKind> = new Map([
  ["/robots.txt", "robots"],
  ["/sitemap.xml", "sitemap"],
  ["/api/og", "og"],
  ["/api/og/", "og"],
  ["/api/media", "media"],
  ["/api/media/", "media"],
  ["/api/contact", "contact"],
  ["/api/contact/", "contact"],
]);

/** Routes that answer GET and HEAD; `contact` answers POST (and GET/HEAD with a 405 that says so). */
const READ_ROUTES: ReadonlySet<RouteKind> = new Set(["page", "robots", "sitemap", "og", "media", "file"]);

/** The page cache's routes: stored, or rendered in the pool. */
export const CACHED_ROUTES: ReadonlySet<RouteKind> = new Set(["page", "robots", "sitemap", "og"]);

/**
 * The route of a request to a practice's host. `path` is the request's path as sent, without the query
 * (it is not decoded: a spelling the canonical-path rule would redirect is still classified by its raw
 * first segment, and `/%61pi/` is a page path that renders the 404 page in the pool, never an endpoint).
 */
export function routeOf(method: string, path: string): RouteKind {
  const kind = routeOfPath(path);
  if (kind === "contact") return method === "POST" || method === "GET" || method === "HEAD" ? kind : "none";
  return (method === "GET" || method === "HEAD") && READ_ROUTES.has(kind) ? kind : "none";
}

function routeOfPath(path: string): RouteKind {
  if (path.charCodeAt(0) !== 47 /* "/" */) return "none";
  const exact = EXACT.get(path);
  if (exact) return exact;
  if (ROOT_FILES.has(path)) return "file";
  const end = path.indexOf("/", 1);
  const first = (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
  if (first === "media") return end === -1 ? "none" : "file";
  return RESERVED.has(first) ? "none" : "page";
}

/** The longest card title drawn, in characters (a longer one is cut, with an ellipsis). */
export const TITLE_MAX_CHARS = 120;

/** The visitor-supplied card title as drawn: whitespace collapsed, control characters dropped, length capped. */
export function cardTitle(raw: string | null | undefined): string {
  const clean = (raw ?? "").replace(/\p{Cc}/gu, " ").replace(/\s+/g, " ").trim();
  const chars = [...clean];
  return chars.length > TITLE_MAX_CHARS ? `${chars.slice(0, TITLE_MAX_CHARS - 1).join("").trimEnd()}…` : clean;
}

/** The query parameters a route reads. */
export interface RouteParams {
  /** Public path, without the trailing slash. */
  path: string;
  /**
   * Query parameters that change the response, in a fixed order, each with its canonical form: spellings of
   * one value answer the same (the page cache keys them on this form). A value whose canonical form is empty
   * is as if absent.
   */
  vary: readonly { name: string; canonical: (value: string) => string }[];
}

/**
 * Per-route query parameters that count. A route that reads a parameter must be listed here, or the page cache
 * would answer every value with the first one rendered.
 */
const ROUTE_PARAMS: readonly RouteParams[] = [{ path: "/api/og", vary: [{ name: "title", canonical: cardTitle }] }];

/** The parameters the route at `path` (with or without its trailing slash) reads, if any. */
export function routeParams(path: string): RouteParams | undefined {
  const bare = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return ROUTE_PARAMS.find((r) => r.path === bare);
}

/** Qwik City's own parameters mark server-function and action calls: no route takes one. */
const QWIK_CALL = /(?:^|&)q(?:action|func|data)=/;

export function isQwikCall(query: string): boolean {
  return QWIK_CALL.test(query);
}
