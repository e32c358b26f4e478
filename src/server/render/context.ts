/**
 * What a render knows about itself, and what it may use (the types every route, loader and endpoint
 * reads; nothing here builds anything):
 *
 * - RequestServices: the long-lived objects a render may use, built once per thread by the composition
 *   root (src/server/services.ts). A render worker builds only what its renders use (no contact relay,
 *   no media proxy: those requests never reach a worker), so those two are optional.
 * - The per-request context: the practice, the cache tags of everything read while rendering, and the
 *   services. The Express layer hands it to Qwik City as `platform` (./render.ts); src/routes/plugin@tenant.ts
 *   puts it on the request (sharedMap), never in module state, so two concurrent renders of two practices
 *   cannot see each other's tenant or tags. Loaders and endpoints read it with requestContext().
 * - The <html> attributes of one render (the theme), set by the layout's loader and read by the SSR entry.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { Env } from "../env";
import type { BackendClient, ContactOutcome, ContactSubmission, ReadCache, ReadContext } from "../backend";
import type { HostRules } from "../tenancy";
import type { RateLimiter } from "../util/rate-limit";
import type { MediaProxy } from "../media/proxy";

export interface RequestServices {
  env: Env;
  hostRules: HostRules;
  backend: BackendClient;
  /** The backend read cache (null on the vite dev server, which has no revalidation route). */
  readCache: ReadCache | null;
  /** Where the build-time media cache (logos for the social card) is read. */
  mediaCacheRoots: string[];
  /** The contact relay: the only write to the backend (absent in a render worker). */
  contact?: {
    send: (code: string, submission: ContactSubmission) => Promise<ContactOutcome>;
    limiter: RateLimiter;
    /**
     * Refused no-JS submissions answered with the form page, per address: each is a render (in the pool),
     * and the relay's own limit counts only what reaches the backend (a visitor correcting a form is not
     * punished). More generous than `limiter`, but bounded: a flood of invalid posts costs no render.
     */
    formPages: RateLimiter;
  };
  /** The live media proxy (absent in a render worker). */
  media?: MediaProxy;
}

/**
 * Values a render finds on its request (Qwik City's sharedMap) before routing: the one way a render gets
 * input that is not in its URL (a refused contact submission's result, rendered in the pool: the visitor's
 * input crosses to the worker in memory, never in a URL or a store). Plain data: it crosses a thread.
 */
export type SharedValues = readonly (readonly [string, unknown])[];

/** The render's own part of the context: which practice, and the tags of what it read. */
export interface RenderContext extends ReadContext {
  code: string;
  /** Put on the request by src/routes/plugin@tenant.ts. */
  shared?: SharedValues;
}

/** What loaders and endpoints get for one request: the render's context and the process's services. */
export interface RequestContext extends RenderContext {
  services: RequestServices;
}

/**
 * What the Express layer hands to a render through Qwik City's `platform`: the services, the practice it
 * resolved and the tag set it will store with the cached bytes. On the vite dev server there is none.
 */
export interface RenderPlatform {
  ssr: true;
  services?: RequestServices;
  render?: RenderContext;
}

type SharedMapEvent = Pick<RequestEventBase, "sharedMap">;

const CONTEXT_KEY = "practice:request-context";

export function setRequestContext(ev: SharedMapEvent, ctx: RequestContext): void {
  ev.sharedMap.set(CONTEXT_KEY, ctx);
}

export function findRequestContext(ev: SharedMapEvent): RequestContext | undefined {
  return ev.sharedMap.get(CONTEXT_KEY) as RequestContext | undefined;
}

export function requestContext(ev: SharedMapEvent): RequestContext {
  const ctx = findRequestContext(ev);
  if (!ctx) throw new Error("request context missing: plugin@tenant did not run for this request");
  return ctx;
}

const HTML_ATTRIBUTES_KEY = "practice:html-attributes";

/** Attributes of the root <html> element for this render (the layout sets the theme). */
export function setHtmlAttributes(ev: SharedMapEvent, attributes: Record<string, string>): void {
  ev.sharedMap.set(HTML_ATTRIBUTES_KEY, attributes);
}

/** Read back by the SSR entry, which only sees serverData. */
export function htmlAttributesFor(serverData: Record<string, unknown> | undefined): Record<string, string> {
  const qwikcity = serverData?.qwikcity as { ev?: SharedMapEvent } | undefined;
  return (qwikcity?.ev?.sharedMap.get(HTML_ATTRIBUTES_KEY) as Record<string, string> | undefined) ?? {};
}
