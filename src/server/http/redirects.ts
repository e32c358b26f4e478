/**
 * The redirects of migrated practices as Express middleware: after tenancy, a GET or HEAD whose path or
 * query the practice's map names (redirects/map.ts) answers 301 to its target on the same host.
 */
import type { NextFunction, Request, Response } from "express";
import { requestTenant } from "../tenancy";
import { findRedirect, type RedirectTable } from "../redirects/map";

/** Express middleware: 301 on the same host (a path-only Location) for GET and HEAD. */
export function redirectsMiddleware(table: RedirectTable) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (table.size === 0 || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const code = requestTenant(res)?.code;
    const target = code ? findRedirect(table, code, req.originalUrl) : null;
    if (!target) return next();
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.redirect(301, target);
  };
}
