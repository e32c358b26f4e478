/**
 * The build-time media cache (dist/media/<code>/logo.svg, favicon.png...) is served from the client build
 * directory, which is shared by every host. Without this guard, practice B's domain served practice A's
 * SVG logo as a document of B's origin: a script inside it would run there (stored XSS across practices).
 *
 * So: a file under /media/<code>/ is served only on the hosts of practice <code> (404 elsewhere), and an
 * SVG carries the same sandboxing policy as the media proxy's SVGs (no script, no network, no forms).
 */
import type { NextFunction, Request, Response } from "express";
import { requestTenant } from "../tenancy";

/** An SVG opened on its own must not run script or reach anything (the proxy's SVGs too). */
export const SVG_SANDBOX_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Express middleware, after tenancy (res.locals.tenant) and before the static files. */
export function mediaFilesMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const match = /^\/+media(?:\/+([^/]*))?/i.exec(path);
    if (!match) return next();
    const tenant = requestTenant(res);
    if (!tenant || match[1] !== tenant.code) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    if (/\.svgz?$/i.test(path)) res.setHeader("Content-Security-Policy", SVG_SANDBOX_POLICY);
    next();
  };
}
