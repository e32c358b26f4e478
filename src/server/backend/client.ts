/**
 * The typed content-backend client. Every read records the cache tags of what it read into the
 * render's context (never module state), so the page cache can invalidate exactly what a change touches.
 */
import type { z } from "zod";
import { siteTag, pageTag, sitePageTag } from "../cache/tags";
import { getJson, type HttpOptions } from "./http";
import {
  jobsSchema,
  navSchema,
  pageListSchema,
  pageSchema,
  practiceSchema,
  siteConfigSchema,
  teamSchema,
} from "./schemas";

/** Per-render context: the tags of everything read while rendering one response. */
export interface ReadContext {
  tags: Set<string>;
}

/**
 * The read path every backend GET goes through. The default fetches; the data cache wraps it
 * (src/server/cache/data-cache.ts) to share reads across renders and coalesce concurrent ones.
 */
export type Reader = <T extends z.ZodType>(endpoint: string, schema: T, tags: string[]) => Promise<z.output<T>>;

export function directReader(http: HttpOptions): Reader {
  return (endpoint, schema) => getJson(http, endpoint, schema);
}

const enc = encodeURIComponent;

export function createBackendClient(read: Reader) {
  async function tagged<T extends z.ZodType>(ctx: ReadContext, endpoint: string, schema: T, tags: string[]) {
    for (const tag of tags) ctx.tags.add(tag);
    return read(endpoint, schema, tags);
  }
  return {
    config: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/config/`, siteConfigSchema, [siteTag(code)]),
    practice: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/practice/`, practiceSchema, [siteTag(code)]),
    team: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/team/`, teamSchema, [siteTag(code)]),
    nav: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/nav/`, navSchema, [siteTag(code)]),
    pages: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/pages/`, pageListSchema, [siteTag(code)]),
    page: (ctx: ReadContext, code: string, slug: string) =>
      tagged(ctx, `/sites/${enc(code)}/pages/${enc(slug)}/`, pageSchema, [
        siteTag(code),
        pageTag(slug),
        sitePageTag(code, slug),
      ]),
    jobs: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/jobs/`, jobsSchema, [siteTag(code)]),
  };
}

export type BackendClient = ReturnType<typeof createBackendClient>;
