/**
 * How route loaders read the backend: the practice and the tag set come from the request's render
 * context, and a backend failure becomes the right HTTP answer. A backend 404 is our 404; anything
 * else (timeout, refused, 5xx, a malformed payload) is a 503 naming nothing internal, logged with the
 * endpoint and field. A failure is never rendered as an empty page (and so never cached as one).
 */
import type { RequestEventLoader } from "@builder.io/qwik-city";
import { getBackend, isBackendError, type BackendClient } from "./backend";
import { getRenderContext, type RenderContext } from "./render-context";
import { reportError } from "./monitoring";

/** Loaders and request handlers both have `error()`; only that and the URL are needed here. */
type ErrorEvent = Pick<RequestEventLoader, "error" | "url" | "sharedMap">;

export async function withBackend<T>(
  ev: ErrorEvent,
  read: (backend: BackendClient, ctx: RenderContext) => Promise<T>,
): Promise<T> {
  const ctx = getRenderContext(ev);
  try {
    return await read(getBackend(), ctx);
  } catch (error) {
    throw toHttpError(ev, error);
  }
}

export function toHttpError(ev: ErrorEvent, error: unknown): Error {
  if (isBackendError(error) && error.isNotFound) return ev.error(404, "Not Found");
  reportError(error, { path: ev.url.pathname });
  return ev.error(503, "Service temporairement indisponible. Merci de réessayer dans quelques instants.");
}
