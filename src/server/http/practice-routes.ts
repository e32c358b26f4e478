/**
 * What is left of a practice's request once the page cache had its turn (cache-front.ts, cacheMiddleware):
 * the routes of the allow-list that are not the cache's (tenancy/routes.ts), answered on this thread
 * without rendering anything, and the practice's 404 page for everything else.
 *
 *   media     the media proxy (media/proxy.ts serveMedia): bytes from the backend's origin or its memory
 *   contact   POST: the relay (contact/handler.ts); a refused no-JS post's form page is rendered in the
 *             pool, behind admission and a per-address limit; GET/HEAD: 405
 *   anything  the practice's 404 page from the page cache: stored bytes, or its one render in the pool
 *
 * This thread has no render function when a pool runs (services.ts): nothing here could render a path a
 * visitor names, and `frontend_main_thread_renders_total` counts it if it ever did.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { routeOf } from "../tenancy/routes";
import { clientKey } from "../util/rate-limit";
import { hostKeyPart, type CacheTarget } from "../cache/key";
import type { PageCache } from "../cache/page-cache";
import { notFoundPageTarget } from "../cache/not-found";
import type { CacheRenderer } from "../render-pool/renderer";
import type { RequestServices } from "../render/context";
import { serveMedia } from "../media/proxy";
import { contactAnswer, contactMethodRefusal, relay, CONTACT_RESULT_ROUTE } from "../contact/handler";
import { contactResultShared } from "../contact/result";
import { clientAddress, requestScheme, type Scheme, type TrustFn } from "../util/request-scheme";
import { stateOf, type RequestTenant } from "./pipeline";
import { withRequestId } from "../monitoring/log";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import { sendCacheAnswer } from "./cache-front";
import { endWithBody, pathOf, sendText } from "./respond";
import type { Handler } from "./stack";

export interface PracticeRouteServices {
  services: Pick<RequestServices, "contact" | "media" | "backend" | "hostRules">;
  pageCache: PageCache;
  renderer: Pick<CacheRenderer, "renderOnce">;
  /** Who may tell the request's scheme and the client's address (TRUSTED_PROXY). */
  trust: TrustFn;
}

export function practiceRoutesMiddleware({ services, pageCache, renderer, trust }: PracticeRouteServices): Handler {
  return async (req, res) => {
    const tenant = stateOf(req)!.tenant!;
    const method = req.method!;
    switch (routeOf(method, pathOf(req.url!))) {
      case "media": {
        const url = new URL(req.url!, "http://media.invalid");
        const ctx = { code: tenant.code, tags: new Set<string>(), services };
        await sendFetchResponse(req, res, await withRequestId(stateOf(req)?.id, () => serveMedia({ url, method }, ctx)));
        return;
      }
      case "contact":
        if (method === "POST") await answerContact(req, res, tenant);
        else await sendFetchResponse(req, res, contactMethodRefusal());
        return;
      default: {
        // Every other path of a practice's host: its 404 page, never a render of the path itself.
        const target = notFoundPageTarget(tenant.code, tenant.host, requestScheme(req, trust));
        if (!target) return sendText(res, 404, "Not Found");
        await sendCacheAnswer(pageCache, req, res, target);
      }
    }
  };

  async function answerContact(req: IncomingMessage, res: ServerResponse, tenant: RequestTenant): Promise<void> {
    const scheme = requestScheme(req, trust);
    const ip = clientAddress(req, trust);
    const answer = contactAnswer(
      await withRequestId(stateOf(req)?.id, () =>
        relay(services, { request: toFetchRequest(req, tenant.host, scheme), host: tenant.host, ip, code: tenant.code }),
      ),
    );
    if (answer.kind === "response") return sendFetchResponse(req, res, answer.response);
    const { result, headers } = answer;
    const pages = services.contact!.formPages.take(clientKey(ip));
    if (!pages.allowed) {
      // A page of plain text: no render for an address that was shown its form this often.
      const minutes = Math.ceil(pages.retryAfterS / 60);
      return sendText(res, 429, `Trop de tentatives : réessayez dans ${minutes} minute(s).`, undefined, {
        "Retry-After": String(pages.retryAfterS),
        "Cache-Control": "no-store",
      });
    }
    const page = await renderer.renderOnce(formPageTarget(tenant, scheme), contactResultShared(result), stateOf(req)?.id);
    res.statusCode = result.status;
    page.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding") res.setHeader(name, value);
    });
    headers.forEach((value, name) => res.setHeader(name, value));
    await endWithBody(req, res, page.body);
  }
}

/** The form page's render target: the result route on the visitor's origin, never stored (renderOnce). */
function formPageTarget(tenant: RequestTenant, scheme: Scheme): CacheTarget {
  const origin = `${scheme}://${hostKeyPart(tenant.host) ?? tenant.host}`;
  return { key: `${tenant.code}\u0000${origin}\u0000form`, code: tenant.code, origin, url: CONTACT_RESULT_ROUTE };
}
