/**
 * What the code answering a request tells the on-response consumers (http/observe.ts) without headers: the
 * cache result of a response written from the page cache (its headers go out as one raw list, which
 * getHeader cannot read back). A plain property on the response object: a symbol lookup costs nothing on
 * the hit path. No imports, so any layer may mark.
 */
import type { ServerResponse } from "node:http";

const CACHE_RESULT = Symbol("cacheResult");

type Marked = { [CACHE_RESULT]?: string };

export function markCacheResult(res: ServerResponse, result: string): void {
  (res as Marked)[CACHE_RESULT] = result;
}

export function cacheResultOf(res: ServerResponse): string | undefined {
  return (res as Marked)[CACHE_RESULT];
}
