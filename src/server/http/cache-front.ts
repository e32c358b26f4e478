/**
 * The page cache on the wire: a fast path in front of Express for fresh hits (and for paths a practice's
 * cached 404 page proves are no page), and the Express middleware for everything else the cache answers
 * (stale, invalidated, misses).
 *
 * Why a path in front of Express: measured on this machine, Express 5 with a single middleware answering
 * a fixed buffer does ~27% of bare node:http's requests per second; the hit path must not pay for the
 * router. The fast path only serves entries that were served through the full stack once (so tenancy,
 * redirects and every middleware already decided for that key), replaying the one list of headers that
 * stack sets on every response (robots, security headers).
 *
 * The same holds for unknown paths: a storm of dead links (a crawler, a probe) would otherwise cost the
 * Express stack and a render worker's round trip each. The practice's 404 entry was served through the
 * stack for this host; its path index proves the path is no page (cache/not-found.ts: page-shaped paths
 * only, none the stack answers before the cache); the redirect maps are asked first, as the stack does.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { requestTenant, resolveHost, type HostRules } from "../tenancy";
import { cacheKey, cacheTarget, hostKeyPart, type CacheTarget } from "../cache/key";
import type { PageCache } from "../cache/page-cache";
import { writeEntry } from "../cache/serve";
import { copyHeaders } from "../util/headers";
import { requestScheme, type TrustFn } from "../util/request-scheme";
import type { RenderResult } from "../cache/entry";
import type { NotFoundWatch } from "../migration-watch/not-found-watch";
import { requestIdOf } from "../monitoring/request-marks";
import { whileVisitorWaits } from "../render-pool/visitor";

/** Bounded memo of Host header -> practice and key part for the fast path. */
const HOST_MEMO_MAX = 1024;

interface HostInfo {
  code: string;
  authority: string;
}

export interface CacheFrontOptions {
  rules: HostRules;
  /** What the Express stack sets on every response (http/security-headers.ts), replayed on every hit. */
  stackHeaders: readonly string[];
  /** Who may tell the request's scheme (Express's "trust proxy"). */
  trust: TrustFn;
  /**
   * Whether a practice's redirect map names this request's path or query (redirects/map.ts). The rule
   * "the map before the cache": a cached page is never served for a URL the map names, so `/?page_id=12`
   * answers 301 even when `/` (its cache key: the query counts for nothing) is cached, and a mapped path
   * never gets the cached 404. It costs a practice without a map one Map lookup per hit; with a map, the
   * normalised path looked up in it (a Set of the names it holds), no render and no Express.
   */
  redirected: (code: string, url: string) => boolean;
  /** Counts an old URL still asked for that answers 404 (the migration watch). */
  notFound: Pick<NotFoundWatch, "record">;
}

export function cacheFront(cache: PageCache, opts: CacheFrontOptions, next: RequestListener): RequestListener {
  const { rules, stackHeaders, trust, redirected, notFound } = opts;
  const hosts = new Map<string, HostInfo | null>();
  const lookup = (host: string): HostInfo | null => {
    let info = hosts.get(host);
    if (info === undefined) {
      const code = resolveHost(host, rules);
      const authority = code && hostKeyPart(host);
      info = code && authority ? { code, authority } : null;
      if (hosts.size >= HOST_MEMO_MAX) hosts.clear();
      hosts.set(host, info);
    }
    return info;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method!;
    const host = req.headers.host;
    // Two Host headers never get here: the request rules in front refuse them (http/request-rules.ts).
    if ((method === "GET" || method === "HEAD") && host) {
      const info = lookup(host);
      if (info) {
        const scheme = requestScheme(req, trust);
        const url = req.url!;
        const key = cacheKey(method, info.code, scheme, info.authority, url);
        const entry = key && (cache.fresh(key) ?? cache.unknownPath(info.code, scheme, info.authority, url));
        if (entry && entry.servedByStack && !redirected(info.code, url)) {
          writeEntry(res, req.headers, method, entry, "HIT", stackHeaders);
          if (entry.status === 404) notFound.record(info.code, url); // old URLs still asked after a migration
          return;
        }
      }
    }
    next(req, res);
  };
}

/** The Express middleware: answers cacheable GET/HEAD requests of a resolved tenant. */
export function cacheMiddleware(cache: PageCache, notFound: Pick<NotFoundWatch, "record">) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const tenant = requestTenant(res);
    const target = tenant && cacheTarget(req.method, tenant.code, tenant.host, req.protocol, req.originalUrl);
    if (!target) return next();
    try {
      if ((await sendCacheAnswer(cache, req, res, target)) === 404) notFound.record(target.code, req.originalUrl);
    } catch (error) {
      next(error);
    }
  };
}

/** The page cache's answer for a target (stored, or rendered in the pool), written; resolves with its status. */
export async function sendCacheAnswer(cache: PageCache, req: Request, res: Response, target: CacheTarget): Promise<number> {
  // A render queued for this visitor is dropped if they leave before it starts (render-pool/visitor.ts).
  const answer = await whileVisitorWaits(res, () => cache.answer(target, requestIdOf(req)));
  if (answer.kind === "entry") writeEntry(res, req.headers, req.method, answer.entry, answer.status, null);
  else sendResult(res, req.method, answer.result);
  return answer.kind === "entry" ? (answer.entry.status ?? 200) : answer.result.status;
}

/** The body was buffered: Node sets the length, and compression downstream may change it. */
const FRAMING = new Set(["content-length", "transfer-encoding"]);

/** A render the cache did not store (404, 503, a cookie…), sent as it is; compression applies downstream. */
function sendResult(res: Response, method: string, result: RenderResult): void {
  res.status(result.status);
  copyHeaders(res, result.headers, FRAMING);
  res.setHeader("x-cache", "MISS");
  if (method === "HEAD") res.end();
  else res.end(result.body);
}
