/**
 * The specification names the endpoints without a trailing slash (`POST /api/contact`); Qwik City's routes
 * live at `/api/contact/`, and a refused no-JavaScript post is answered by a page route, which Qwik City
 * redirects (301, turning the POST into a GET) when the URL it was asked for lacks the slash. A client
 * posting to the specified path must be answered, not redirected: the request reaches the render under
 * the slashed spelling. GET /api/og and /api/media are endpoints without a page and already answer both.
 */
import type { NextFunction, Request, Response } from "express";

const SPECIFIED = new Set(["/api/contact", "/api/og", "/api/media"]);

export function endpointPathMiddleware() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const q = req.originalUrl.indexOf("?");
    const path = q === -1 ? req.originalUrl : req.originalUrl.slice(0, q);
    // originalUrl is what the bridge builds the render's URL from (express-bridge.ts).
    if (SPECIFIED.has(path)) req.originalUrl = `${path}/${q === -1 ? "" : req.originalUrl.slice(q)}`;
    next();
  };
}
