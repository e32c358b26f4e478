/**
 * Rendering one request, and what a render knows about itself.
 *
 * - createRenderer(): the one render function. A fetch-style Request in, a Response out, through the real
 *   Qwik City router. Cache misses, background refreshes, posts and the build pre-pass all use it, so a
 *   prerendered page and a live render are the same bytes.
 * - The per-request context: the practice, the cache tags of everything read while rendering, and the
 *   process's services. The Express layer hands it to Qwik City as `platform`; src/routes/plugin@tenant.ts
 *   puts it on the request (sharedMap), never in module state, so two concurrent renders of two practices
 *   cannot see each other's tenant or tags. Loaders and endpoints read it with requestContext().
 * - The <html> attributes of one render (the theme), set by the layout's loader and read by the SSR entry.
 */
import {
  mergeHeadersCookies,
  requestHandler,
  type ServerRenderOptions,
  type ServerRequestEvent,
} from "@builder.io/qwik-city/middleware/request-handler";
import type { RequestEventBase } from "@builder.io/qwik-city";
import { _deserializeData, _serializeData, _verifySerializable } from "@builder.io/qwik";
import type { ReadContext } from "../backend";
import type { RequestServices } from "../services";
import { cmsOrigin } from "../build-constants";
import { withPagePolicy, type PageOrigins, type PolicyOptions } from "./content-security-policy";

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const qwikSerializer = { _deserializeData, _serializeData, _verifySerializable };

/** The render's own part of the context: which practice, and the tags of what it read. */
export interface RenderContext extends ReadContext {
  code: string;
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

/** Renders one request for the practice and tag set of `render`. */
export type RenderRequest = (request: Request, render: RenderContext, clientIp?: string) => Promise<Response>;

export function createRenderer(opts: ServerRenderOptions, services: RequestServices): RenderRequest {
  // An HTML render carries its own Content-Security-Policy, with its inline scripts' hashes (content-security-policy.ts).
  const policy = pagePolicyOptions(services);
  return async (request, render, clientIp) => {
    const platform: RenderPlatform = { ssr: true, services, render };
    const serverRequestEv: ServerRequestEvent<Response> = {
      mode: "server",
      locale: undefined,
      url: new URL(request.url),
      // Our code reads its settings from src/server/env.ts, not from Qwik City's env getter.
      env: { get: () => undefined },
      request,
      platform,
      getClientConn: () => ({ ip: clientIp }),
      getWritableStream: (status, headers, cookies, resolve) => {
        const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
        // Statuses that may not carry a body get none; Qwik City writes nothing for them.
        const body = NULL_BODY_STATUS.has(status) ? null : readable;
        resolve(new Response(body, { status, headers: mergeHeadersCookies(headers, cookies) }));
        return writable;
      },
    };
    const handled = await requestHandler(serverRequestEv, opts, qwikSerializer);
    if (!handled) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    handled.completion.then((error) => {
      if (error) console.error("[render]", error);
    });
    const response = await handled.response;
    if (!response) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    return withPagePolicy(response, policy);
  };
}

/** The page policy's origins: the CMS (frame-ancestors) and the client's build-time analytics and reporter. */
function pagePolicyOptions(services: RequestServices): PolicyOptions & PageOrigins {
  return {
    cmsOrigin: cmsOrigin(services.env.BUILD_CMS_ORIGIN),
    analyticsUrl: import.meta.env.PUBLIC_ANALYTICS_URL as string | undefined,
    errorTrackingDsn: import.meta.env.PUBLIC_ERROR_TRACKING_DSN as string | undefined,
  };
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
