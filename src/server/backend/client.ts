/**
 * The typed content-backend client. Every read records the cache tags of what it read into the
 * render's context (never module state), so the page cache can invalidate exactly what a change touches.
 */
import type { z } from "zod";
import { siteTag, pageTag, sitePageTag, pageListTags } from "./tags";
import { getJson, type HttpOptions } from "./http";
import { timedBackendCall, type FigureSink } from "../monitoring/metrics";
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
 * (read-cache.ts) to share reads across renders and coalesce concurrent ones, and
 * drops what `tags` name when a webhook names them. `shared` is false for a payload only one page
 * renders from (a page's own content): the data cache keeps those briefly, not for the whole TTL.
 */
export type Reader = <T extends z.ZodType>(
  endpoint: string,
  schema: T,
  tags: string[],
  shared?: boolean,
) => Promise<z.output<T>>;

/** `figures`: where each real call's figure goes (the main thread's metrics, or a render worker's port). */
export function directReader(http: HttpOptions, figures: FigureSink): Reader {
  // Timed here, below the read cache: only real calls to the backend are counted (monitoring/metrics.ts).
  return (endpoint, schema) => timedBackendCall(endpoint, () => getJson(http, endpoint, schema), figures);
}

const enc = encodeURIComponent;

export function createBackendClient(read: Reader) {
  /** Records the render's tags; the data cache may know the payload under more tags (cache/tags.ts). */
  async function tagged<T extends z.ZodType>(
    ctx: ReadContext,
    endpoint: string,
    schema: T,
    tags: string[],
    dataTags: string[] = tags,
    shared = true,
  ) {
    for (const tag of tags) ctx.tags.add(tag);
    return read(endpoint, schema, dataTags, shared);
  }
  return {
    config: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/config/`, siteConfigSchema, [siteTag(code)]),
    practice: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/practice/`, practiceSchema, [siteTag(code)]),
    team: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/team/`, teamSchema, [siteTag(code)]),
    nav: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/nav/`, navSchema, [siteTag(code)]),
    pages: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/pages/`, pageListSchema, [siteTag(code)], pageListTags(code)),
    /**
     * The same page list, for a response that lists the practice's pages (the sitemap): it records the
     * list's tags, so that any page tag of the practice (a page published or unpublished) reaches it.
     */
    pageListing: (ctx: ReadContext, code: string) =>
      tagged(ctx, `/sites/${enc(code)}/pages/`, pageListSchema, pageListTags(code)),
    page: (ctx: ReadContext, code: string, slug: string) => {
      const tags = [siteTag(code), pageTag(slug), sitePageTag(code, slug)];
      return tagged(ctx, `/sites/${enc(code)}/pages/${enc(slug)}/`, pageSchema, tags, tags, false);
    },
    jobs: (ctx: ReadContext, code: string) => tagged(ctx, `/sites/${enc(code)}/jobs/`, jobsSchema, [siteTag(code)]),
  };
}

export type BackendClient = ReturnType<typeof createBackendClient>;
