/** Fetch Headers onto a Node response: used by the Express bridge and by the cache's uncached answers. */
import type { ServerResponse } from "node:http";

const NONE: ReadonlySet<string> = new Set();

/**
 * Copies fetch Headers onto a Node response. Set-Cookie is copied as its list: Headers.forEach would
 * join several cookies into one comma-separated value, which browsers misread.
 */
export function copyHeaders(res: ServerResponse, headers: Headers, except: ReadonlySet<string> = NONE): void {
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && !except.has(name)) res.setHeader(name, value);
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
}
