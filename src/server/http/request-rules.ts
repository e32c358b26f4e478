/**
 * What a request must look like before anything is looked up, rendered or stored: a list of named rules,
 * each refusing with a 4xx that costs nothing. Each shape below used to reach the render (on the main
 * thread, outside the pool and its admission) or to make a cache key of its own:
 *
 * - oneHost:        two Host headers are ambiguous (Node keeps the first, a proxy may read the last); nginx
 *                   refuses them, and so does this server when reached directly: 400.
 * - noFragment:     a request target never carries a fragment (RFC 9112 origin-form); `/#x` rendered `/`
 *                   and stored it under a key of its own: 400.
 * - noQwikCall:     `?qdata=`, `?qfunc=`, `?qaction=` call server functions and actions the site does not
 *                   have (it ships no client JavaScript for them); each rendered a whole page: 400.
 * - allowedMethod:  GET and HEAD everywhere, POST on the contact relay only; OPTIONS, PROPFIND, TRACE... each
 *                   rendered a page (TRACE answered 500): 405 with Allow.
 *
 * oneHost, noFragment and noQwikCall run first (requestShapeMiddleware); allowedMethod runs right before the
 * render (methodMiddleware), after the global endpoints, tenancy, redirects and the files that answer their
 * own methods.
 */
import type { NextFunction, Request, Response } from "express";
import { isQwikCall } from "../cache/key";
import { hasOneHost } from "../tenancy/host";

type Rule = (req: Request) => { status: 400; reason: string } | null;

const oneHost: Rule = (req) => (hasOneHost(req.rawHeaders) ? null : { status: 400, reason: "one Host header expected" });

const noFragment: Rule = (req) => (req.url.includes("#") ? { status: 400, reason: "a request target has no fragment" } : null);

const noQwikCall: Rule = (req) => {
  const q = req.url.indexOf("?");
  return q !== -1 && isQwikCall(req.url.slice(q + 1)) ? { status: 400, reason: "no server function or action here" } : null;
};

const SHAPE_RULES: readonly Rule[] = [oneHost, noFragment, noQwikCall];

export function requestShapeMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    for (const rule of SHAPE_RULES) {
      const refusal = rule(req);
      if (refusal) {
        res.status(refusal.status).type("text/plain").send(`Bad Request: ${refusal.reason}`);
        return;
      }
    }
    next();
  };
}

/** The contact relay, the one POST target, in both spellings (endpoint-paths.ts answers the slashless one). */
const POST_TARGETS = new Set(["/api/contact", "/api/contact/"]);

export function methodMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const posts = POST_TARGETS.has(req.path);
    if (posts && req.method === "POST") return next();
    res.setHeader("Allow", posts ? "GET, HEAD, POST" : "GET, HEAD");
    res.status(405).type("text/plain").send("Method Not Allowed");
  };
}
