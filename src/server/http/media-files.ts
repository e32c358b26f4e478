/**
 * A practice's build-time media files (dist/media/<code>/: its logo and favicon) only on its own hosts, an
 * SVG sandboxed (media/static-files.ts says why): after tenancy, before the build's files are served.
 */
import { SVG_SANDBOX_POLICY } from "../media/static-files";
import { stateOf } from "./pipeline";
import { pathOf, sendText } from "./respond";
import type { Handler } from "./stack";

/** The app's handler: a path under /media/ of another practice (or of none) is a plain 404. */
export function mediaFilesMiddleware(): Handler {
  return (req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(pathOf(req.url!));
    } catch {
      return next();
    }
    // The segment `media` itself (any case, after any run of slashes), never a page whose name starts with it
    // (`/mediation/`): the same segment tenancy/routes.ts reads.
    const match = /^\/+media(?:\/+([^/]*)|\/*$)/i.exec(path);
    if (!match) return next();
    const tenant = stateOf(req)?.tenant;
    if (!tenant || match[1] !== tenant.code) return sendText(res, 404, "Not Found");
    if (/\.svgz?$/i.test(path)) res.setHeader("Content-Security-Policy", SVG_SANDBOX_POLICY);
    next();
  };
}
