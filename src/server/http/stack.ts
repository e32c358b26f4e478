/**
 * The app stage's handlers (app.ts), run in order on the request's own IncomingMessage and ServerResponse:
 * what Express's router did for this server, and only that. A handler answers, or calls `next()` to pass
 * the request on, or `next(error)` (a throw and a rejected promise count the same) for the error handler.
 *
 * Why not Express: it gives every request and response it handles another prototype and properties of its
 * own, and Node's HTTP code, which every response of the process runs, then ran polymorphic for the cache
 * hits too (docs/decisions/0064-hit-path-shapes.md). Here nothing is added to either object: what a
 * handler needs to know of a request is in its state (pipeline.ts, stateOf).
 *
 * Paths are matched as Express matched them, so that no URL changed its answer: a route's path in any
 * case, with or without a trailing slash; a mount's prefix at a segment boundary, in any case.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { pathOf } from "./respond";

export type Next = (error?: unknown) => void;
export type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => unknown;
export type ErrorHandler = (error: unknown, req: IncomingMessage, res: ServerResponse) => void;

/** The handlers as one request listener; `last` answers a request every handler passed on. */
export function stack(handlers: readonly Handler[], onError: ErrorHandler, last: Handler): RequestListener {
  const all = [...handlers, last];
  return (req, res) => {
    let at = 0;
    let failed = false;
    const fail = (error: unknown) => {
      // One error answer per request: a handler that both threw and called next(error) is reported once.
      if (failed) return;
      failed = true;
      onError(error, req, res);
    };
    const next: Next = (error) => {
      if (error !== undefined) return fail(error);
      const handler = all[at++];
      if (!handler) return;
      try {
        const result = handler(req, res, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (error) {
        fail(error);
      }
    };
    next();
  };
}

/** `path` as Express matched a route's path: any case, one trailing slash or none. */
function routeMatches(path: string, route: string): boolean {
  const bare = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return bare.length === route.length && bare.toLowerCase() === route;
}

/** A handler for `methods` (GET includes HEAD, as in Express) on these paths; other requests pass. */
export function route(methods: readonly string[] | "any", paths: readonly string[], handler: Handler): Handler {
  const accepted = methods === "any" ? null : new Set(methods.includes("GET") ? [...methods, "HEAD"] : methods);
  const lowered = paths.map((p) => (p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p).toLowerCase());
  return (req, res, next) => {
    if (accepted && !accepted.has(req.method!)) return next();
    const path = pathOf(req.url!);
    if (!lowered.some((route) => routeMatches(path, route))) return next();
    return handler(req, res, next);
  };
}

/** The prefix (lower case, no trailing slash) a path is under, at a segment boundary, in any case; else null. */
export function mountOf(path: string, prefixes: readonly string[]): string | null {
  const lower = path.toLowerCase();
  for (const prefix of prefixes) {
    if (lower.startsWith(prefix) && (lower.length === prefix.length || lower.charCodeAt(prefix.length) === 47 /* "/" */)) return prefix;
  }
  return null;
}
