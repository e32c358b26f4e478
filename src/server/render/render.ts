/**
 * Rendering one request, and what a render knows about itself.
 *
 * - createRenderer(): the one render function. A fetch-style Request in, a Response out, through the real
 *   Qwik City router. Cache misses, background refreshes, posts and the build pre-pass all use it, so a
 *   prerendered page and a live render are the same bytes.
 * - It hands the per-request context (./context.ts) to Qwik City as `platform`.
 */
import {
  mergeHeadersCookies,
  requestHandler,
  type ServerRenderOptions,
  type ServerRequestEvent,
} from "@builder.io/qwik-city/middleware/request-handler";
import { _deserializeData, _serializeData, _verifySerializable } from "@builder.io/qwik";
import type { RenderContext, RenderPlatform, RequestServices } from "./context";
import { cmsOrigin } from "../build-constants";
import { withPagePolicy, type PageOrigins, type PolicyOptions } from "./content-security-policy";
import { isMainThread } from "node:worker_threads";

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const qwikSerializer = { _deserializeData, _serializeData, _verifySerializable };

/** Renders one request for the practice and tag set of `render`. */
export type RenderRequest = (request: Request, render: RenderContext, clientIp?: string) => Promise<Response>;

/**
 * `onMainThread`: told of each render run on the main thread (the metrics' count, which must stay 0 with a
 * render pool: docs/decisions/0047-main-thread-renders-nothing.md). Required: a renderer that forgot it would
 * render on the main thread uncounted.
 */
export function createRenderer(opts: ServerRenderOptions, services: RequestServices, onMainThread: () => void): RenderRequest {
  // An HTML render carries its own Content-Security-Policy, with its inline scripts' hashes (content-security-policy.ts).
  const policy = pagePolicyOptions(services);
  return async (request, render, clientIp) => {
    if (isMainThread) onMainThread();
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
