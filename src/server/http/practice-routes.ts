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
import type { NextFunction, Request, Response } from "express";
import { requestTenant, type RequestTenant } from "../tenancy";
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
import { schemeOf } from "../util/request-scheme";
import { stateOf } from "./pipeline";
import { withRequestId } from "../monitoring/log";
import { sendFetchResponse, toFetchRequest } from "./express-bridge";
import { sendCacheAnswer } from "./cache-front";

export interface PracticeRouteServices {
  services: Pick<RequestServices, "contact" | "media" | "backend" | "hostRules">;
  pageCache: PageCache;
  renderer: Pick<CacheRenderer, "renderOnce">;
}

export function practiceRoutesMiddleware({ services, pageCache, renderer }: PracticeRouteServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const tenant = requestTenant(res)!;
    try {
      switch (routeOf(req.method, req.path)) {
        case "media": {
          const url = new URL(req.originalUrl, "http://media.invalid");
          const ctx = { code: tenant.code, tags: new Set<string>(), services };
          await sendFetchResponse(res, await withRequestId(stateOf(req)?.id, () => serveMedia({ url, method: req.method }, ctx)));
          return;
        }
        case "contact":
          if (req.method === "POST") await answerContact(req, res, tenant);
          else await sendFetchResponse(res, contactMethodRefusal());
          return;
        default: {
          // Every other path of a practice's host: its 404 page, never a render of the path itself.
          const target = notFoundPageTarget(tenant.code, tenant.host, req.protocol);
          if (!target) {
            res.status(404).type("text/plain").send("Not Found");
            return;
          }
          await sendCacheAnswer(pageCache, req, res, target);
        }
      }
    } catch (error) {
      next(error);
    }
  };

  async function answerContact(req: Request, res: Response, tenant: RequestTenant): Promise<void> {
    const answer = contactAnswer(
      await withRequestId(stateOf(req)?.id, () =>
        relay(services, { request: toFetchRequest(req, tenant.host), host: tenant.host, ip: req.ip, code: tenant.code }),
      ),
    );
    if (answer.kind === "response") return sendFetchResponse(res, answer.response);
    const { result, headers } = answer;
    const pages = services.contact!.formPages.take(clientKey(req.ip));
    if (!pages.allowed) {
      // A page of plain text: no render for an address that was shown its form this often.
      res.status(429).setHeader("Retry-After", String(pages.retryAfterS));
      res.setHeader("Cache-Control", "no-store");
      res.type("text/plain").send(`Trop de tentatives : réessayez dans ${Math.ceil(pages.retryAfterS / 60)} minute(s).`);
      return;
    }
    const page = await renderer.renderOnce(formPageTarget(tenant, req.protocol), contactResultShared(result), stateOf(req)?.id);
    res.status(result.status);
    page.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding") res.setHeader(name, value);
    });
    headers.forEach((value, name) => res.setHeader(name, value));
    res.end(page.body);
  }
}

/** The form page's render target: the result route on the visitor's origin, never stored (renderOnce). */
function formPageTarget(tenant: RequestTenant, proto: string): CacheTarget {
  const origin = `${schemeOf(proto)}://${hostKeyPart(tenant.host) ?? tenant.host}`;
  return { key: `${tenant.code}\u0000${origin}\u0000form`, code: tenant.code, origin, url: CONTACT_RESULT_ROUTE };
}
