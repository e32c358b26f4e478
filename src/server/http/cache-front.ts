/**
 * The page cache on the wire: the pipeline's cache hit stage (pipeline.ts, stage 5) in front of the app's
 * handlers for fresh hits (and for paths a practice's cached 404 page proves are no page), and the app's
 * handler for everything else the cache answers (stale, invalidated, misses).
 *
 * Why a stage in front of the app: the hit path must not pay for the handlers' list (when it was Express,
 * Express 5 with a single middleware answering a fixed buffer did ~27% of bare node:http's requests per
 * second). The fast path only serves entries that were served through the full stack once (so tenancy,
 * redirects and every handler already decided for that key), replaying the one list of headers that
 * stack sets on every response (robots, security headers).
 *
 * The same holds for unknown paths: a storm of dead links (a crawler, a probe) would otherwise cost the
 * app's handlers and a render worker's round trip each. The practice's 404 entry was served through the
 * stack for this host; its path index proves the path is no page (cache/not-found.ts: page-shaped paths
 * only, none the stack answers before the cache); the redirect maps are asked first, as the stack does.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { cacheKey, cacheTarget, OwnUrlKeys, type CacheTarget } from "../cache/key";
import type { PageCache } from "../cache/page-cache";
import { writeEntry } from "./serve";
import { copyHeaders } from "../util/headers";
import { requestScheme, type TrustFn } from "../util/request-scheme";
import type { RenderResult } from "../cache/entry";
import { whileVisitorWaits } from "../render-pool/visitor";
import { stateOf, type RequestState, type Site, type Stage } from "./pipeline";
import { endWithBody } from "./respond";
import type { Handler } from "./stack";

export interface CacheFrontOptions {
  /** What the app's handlers set on every response (http/security-headers.ts), replayed on every hit. */
  stackHeaders: readonly string[];
  /** Who may tell the request's scheme (TRUSTED_PROXY). */
  trust: TrustFn;
  /**
   * Whether a practice's redirect map names this request's path or query (redirects/map.ts). The rule
   * "the map before the cache": a cached page is never served for a URL the map names, so `/?page_id=12`
   * answers 301 even when `/` (its cache key: the query counts for nothing) is cached, and a mapped path
   * never gets the cached 404. It costs a practice without a map one Map lookup; with a map, the old URL's
   * grammar and a lookup (about 0.4 µs), no render and no handler. The entry's own URL is asked once: the
   * maps do not change while the process runs (PageEntry.ownUrlNotRedirected).
   */
  redirected: (code: string, url: string) => boolean;
}

/** Stage 5 of the pipeline: answers a fresh hit of the request's site (resolved by stage 4), else passes. */
export function cacheHitStage(cache: PageCache, opts: CacheFrontOptions): Stage {
  const { stackHeaders, trust, redirected } = opts;
  const ownUrlKeys = new OwnUrlKeys<Site>();
  return (req: IncomingMessage, res: ServerResponse, state: RequestState) => {
    const site = state.site;
    const method = req.method!;
    // Two Host headers never get here: the request rules in front refuse them (http/request-rules.ts).
    if (!site || site.authority === null || (method !== "GET" && method !== "HEAD")) return false;
    const scheme = requestScheme(req, trust);
    const url = req.url!;
    const remembered = ownUrlKeys.get(site, scheme, url);
    const key = remembered ?? cacheKey(method, site.code, scheme, site.authority, url);
    const entry = key && (cache.fresh(key) ?? cache.unknownPath(site.code, scheme, site.authority, url));
    if (!entry || !entry.servedByStack) return false;
    const ownUrl = url === entry.target.url;
    // Remembered only when the entry was found under this very key (not the 404 page that answers for it).
    if (remembered === undefined && ownUrl && entry.target.key === key) ownUrlKeys.remember(site, scheme, url, entry.target.key);
    // The entry's own URL, once asked, is not asked again; any other spelling (a query, a capital) every time.
    if (!(ownUrl && entry.ownUrlNotRedirected)) {
      if (redirected(site.code, url)) return false;
      if (ownUrl) entry.ownUrlNotRedirected = true;
    }
    state.cache = "HIT";
    writeEntry(res, req.headers, method, entry, "HIT", stackHeaders);
    return true;
  };
}

/** The app's handler: answers cacheable GET/HEAD requests of a resolved tenant. `trust`: who may tell the scheme. */
export function cacheMiddleware(cache: PageCache, trust: TrustFn): Handler {
  return async (req, res, next) => {
    const tenant = stateOf(req)?.tenant;
    const target = tenant && cacheTarget(req.method!, tenant.code, tenant.host, requestScheme(req, trust), req.url!);
    if (!target) return next();
    await sendCacheAnswer(cache, req, res, target);
  };
}

/** The page cache's answer for a target (stored, or rendered in the pool), written; resolves with its status. */
export async function sendCacheAnswer(cache: PageCache, req: IncomingMessage, res: ServerResponse, target: CacheTarget): Promise<number> {
  // A render queued for this visitor is dropped if they leave before it starts (render-pool/visitor.ts).
  const state = stateOf(req);
  const answer = await whileVisitorWaits(res, () => cache.answer(target, state?.id));
  // The page cache wrote this answer: the on-response consumers read it here (http/observe.ts).
  if (state) state.cache = answer.kind === "entry" ? answer.status : "MISS";
  if (answer.kind === "entry") writeEntry(res, req.headers, req.method!, answer.entry, answer.status, null);
  else await sendResult(req, res, answer.result);
  return answer.kind === "entry" ? (answer.entry.status ?? 200) : answer.result.status;
}

/** The body was buffered: its length is set when it is sent, compressed or not. */
const FRAMING = new Set(["content-length", "transfer-encoding"]);

/** A render the cache did not store (404, 503, a cookie…), sent as it is, compressed as the client accepts. */
function sendResult(req: IncomingMessage, res: ServerResponse, result: RenderResult): Promise<void> {
  res.statusCode = result.status;
  copyHeaders(res, result.headers, FRAMING);
  res.setHeader("x-cache", "MISS");
  return endWithBody(req, res, result.body);
}
