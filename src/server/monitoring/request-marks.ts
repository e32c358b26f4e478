/**
 * What the code answering a request tells the request observer (monitoring/access.ts) without headers:
 * the cache result of a response written from the page cache (its headers go out as one raw list, which
 * getHeader cannot read back) and the request id. Plain properties on the request and response objects:
 * a symbol lookup costs nothing on the hit path. No imports, so any layer may mark.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const CACHE_RESULT = Symbol("cacheResult");
const REQUEST_ID = Symbol("requestId");

type Marked = { [CACHE_RESULT]?: string; [REQUEST_ID]?: string };

export function markCacheResult(res: ServerResponse, result: string): void {
  (res as Marked)[CACHE_RESULT] = result;
}

export function cacheResultOf(res: ServerResponse): string | undefined {
  return (res as Marked)[CACHE_RESULT];
}

export function setRequestId(req: IncomingMessage, id: string): void {
  (req as Marked)[REQUEST_ID] = id;
}

/** The request's id (validated X-Request-Id or generated), when the observer is on. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as Marked)[REQUEST_ID];
}
