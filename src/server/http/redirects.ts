/**
 * The redirects of migrated practices as the app's handler: after tenancy, a GET or HEAD whose path or
 * query the practice's map names (redirects/map.ts) answers 301 to its target on the same host; an old URL
 * the map drops (or an old CMS query URL it does not know) answers the practice's 404 page at once.
 */
import type { Handler } from "./stack";
import { pathOf, redirect } from "./respond";
import { stateOf } from "./pipeline";
import { answerRequest, type RedirectTable } from "../redirects/map";
import { routeOf } from "../tenancy/routes";

/**
 * The handler: 301 on the same host (a path-only Location) for GET and HEAD; `notFound` answers the
 * old URLs the map says are gone (the practice's 404 page), never the page at their path. A gone URL only on a
 * page route: the new site's own files and endpoints (`/media/<code>/logo.svg`, `/robots.txt`, `/api/og`) are
 * never an old site's, whatever its platform's folders (Joomla's `/media/`) or its dropped URLs say.
 */
export function redirectsMiddleware(table: RedirectTable, notFound: Handler): Handler {
  return (req, res, next) => {
    if (table.size === 0 || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const code = stateOf(req)?.tenant?.code;
    const answer = code ? answerRequest(table, code, req.url!) : null;
    if (!answer) return next();
    if (answer.status === 404) return routeOf(req.method, pathOf(req.url!)) === "page" ? notFound(req, res, next) : next();
    res.setHeader("Cache-Control", "public, max-age=86400");
    redirect(res, 301, answer.location);
  };
}
