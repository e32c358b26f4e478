/**
 * What a request must look like before anything is looked up, rendered or stored: a list of named rules,
 * each refusing with a 4xx that costs nothing. Each shape below used to reach the render (on the main
 * thread, outside the pool and its admission) or to make a cache key of its own:
 *
 * - oneHost:        two Host headers are ambiguous (Node keeps the first, a proxy may read the last); nginx
 *                   refuses them, and so does this server when reached directly: 400.
 * - originForm:     every later stage reads the target as a path. An absolute-form target
 *                   (`GET http://host/x/../y HTTP/1.1`, which RFC 9112 asks a server to accept) was read as one
 *                   path, host included: `/host/y` came back in a redirect. It is taken as its path and query when
 *                   its authority is the Host header (any case), else refused: 400. nginx sends only paths.
 * - noFragment:     a request target never carries a fragment (RFC 9112 origin-form); `/#x` rendered `/`
 *                   and stored it under a key of its own: 400.
 * - noQwikCall:     `?qdata=`, `?qfunc=`, `?qaction=` call server functions and actions the site does not
 *                   have (it ships no client JavaScript for them); each rendered a whole page: 400.
 * - knownMethod:    no route takes a method other than GET, HEAD and POST; OPTIONS, PROPFIND, TRACE... each
 *                   rendered a page (TRACE answered 500): 405 with Allow.
 * - allowedMethod:  GET and HEAD everywhere, POST on the webhook and the contact relay only: 405 with Allow.
 *
 * The first five run in front of everything, the cache's fast path and the app's handlers included
 * (requestRulesStage, the pipeline's stage 3: pipeline.ts):
 * a flood of such requests costs a node:http answer each, not the app's handlers (a flood of OPTIONS refused
 * after tenancy and the cache kept a quiet practice's hits at 45-50%). allowedMethod runs right before the
 * render (methodMiddleware), after the global endpoints (the webhook's POST), tenancy, redirects and the files
 * that answer their own methods.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handler } from "./stack";
import { pathOf, sendText } from "./respond";
import { hasOneHost } from "../tenancy/host";
import { isQwikCall, routeOf } from "../tenancy/routes";
import type { Stage } from "./pipeline";

type Rule = (req: IncomingMessage) => { status: 400 | 405; reason: string } | null;

const oneHost: Rule = (req) => (hasOneHost(req.rawHeaders) ? null : { status: 400, reason: "one Host header expected" });

/**
 * An absolute-form target whose authority is the Host header becomes its path and query (req.url is rewritten,
 * once, before anything reads it); any other target that is not a path is refused. `*` is left to knownMethod
 * (only OPTIONS takes it, and OPTIONS is refused there).
 */
const originForm: Rule = (req) => {
  const url = req.url!;
  if (url.charCodeAt(0) === 47 /* "/" */ || url === "*") return null;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { status: 400, reason: "a request target is a path" };
  }
  if ((target.protocol !== "http:" && target.protocol !== "https:") || target.host !== (req.headers.host ?? "").toLowerCase()) {
    return { status: 400, reason: "a request target's host is the Host header" };
  }
  // The path and query as sent (URL's pathname would have resolved dot segments: the canonical redirect's job);
  // `http://host?x` has no path: `/?x`.
  const authorityEnd = url.indexOf("//") + 2;
  const slash = url.indexOf("/", authorityEnd);
  const query = url.indexOf("?", authorityEnd);
  req.url = slash !== -1 && (query === -1 || slash < query) ? url.slice(slash) : `/${query === -1 ? "" : url.slice(query)}`;
  return null;
};

const noFragment: Rule = (req) => (req.url!.includes("#") ? { status: 400, reason: "a request target has no fragment" } : null);

const noQwikCall: Rule = (req) => {
  const q = req.url!.indexOf("?");
  return q !== -1 && isQwikCall(req.url!.slice(q + 1)) ? { status: 400, reason: "no server function or action here" } : null;
};

const knownMethod: Rule = (req) =>
  req.method === "GET" || req.method === "HEAD" || req.method === "POST" ? null : { status: 405, reason: "Method Not Allowed" };

const SHAPE_RULES: readonly Rule[] = [oneHost, originForm, noFragment, noQwikCall, knownMethod];

/**
 * The pipeline's stage that answers what the shape rules refuse and passes the rest. `stackHeaders`: what the
 * app's handlers set on every response (security headers, noindex), sent with each refusal too.
 */
export function requestRulesStage(stackHeaders: readonly string[]): Stage {
  return (req: IncomingMessage, res: ServerResponse) => {
    for (const rule of SHAPE_RULES) {
      const refusal = rule(req);
      if (!refusal) continue;
      const body = refusal.status === 405 ? "Method Not Allowed" : `Bad Request: ${refusal.reason}`;
      const head = [...stackHeaders, "content-type", "text/plain; charset=utf-8", "content-length", String(Buffer.byteLength(body))];
      if (refusal.status === 405) head.push("allow", allowed(pathOf(req.url!)));
      res.writeHead(refusal.status, head);
      res.end(body);
      return true;
    }
    return false;
  };
}

/** What a path takes, for Allow: the contact relay (the one POST route of a practice's host, tenancy/routes.ts) also POST. */
function allowed(path: string): string {
  return routeOf("POST", path) === "contact" ? "GET, HEAD, POST" : "GET, HEAD";
}

export function methodMiddleware(): Handler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const path = pathOf(req.url!);
    if (req.method === "POST" && routeOf("POST", path) === "contact") return next();
    sendText(res, 405, "Method Not Allowed", undefined, { Allow: allowed(path) });
  };
}
