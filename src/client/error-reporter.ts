/**
 * Browser error tracking without an SDK: the first uncaught error of a page loads this module (through
 * the window:onError$ listener of src/components/error-tracking/, so nothing is loaded before), which
 * sends a Sentry envelope to the DSN baked in at build (PUBLIC_ERROR_TRACKING_DSN).
 */
import { stripQueries, stripQuery } from "~/lib/url-privacy";

export interface ParsedDsn {
  /** The envelope endpoint, with the public key in the query (no custom header, so no CORS preflight). */
  endpoint: string;
  dsn: string;
}

/** `https://<key>@<host>[/<path>]/<project>` -> the envelope endpoint; null for anything else. */
export function parseDsn(dsn: string | undefined): ParsedDsn | null {
  if (!dsn) return null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const parts = url.pathname.split("/").filter(Boolean);
  const project = parts.pop();
  if (!url.username || !project || !/^\d+$/.test(project) || (url.protocol !== "https:" && url.protocol !== "http:")) return null;
  const prefix = parts.length ? `/${parts.join("/")}` : "";
  return {
    endpoint: `${url.protocol}//${url.host}${prefix}/api/${project}/envelope/?sentry_key=${encodeURIComponent(url.username)}&sentry_version=7`,
    dsn,
  };
}

export interface BrowserErrorInput {
  type: string;
  message: string;
  stack?: string;
  filename?: string;
  lineno?: number;
  colno?: number;
}

/** The error of an `error` or `unhandledrejection` event; null for a resource that failed to load. */
export function errorFromEvent(event: Event): BrowserErrorInput | null {
  if (typeof PromiseRejectionEvent !== "undefined" && event instanceof PromiseRejectionEvent) {
    const reason = event.reason as unknown;
    if (reason instanceof Error) return { type: reason.name, message: reason.message, stack: reason.stack };
    return { type: "UnhandledRejection", message: String(reason) };
  }
  if (typeof ErrorEvent === "undefined" || !(event instanceof ErrorEvent)) return null;
  const error = event.error as unknown;
  return {
    type: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : event.message,
    stack: error instanceof Error ? error.stack : undefined,
    filename: event.filename,
    lineno: event.lineno,
    colno: event.colno,
  };
}

/** One Sentry envelope (header, item header, event) for one error. */
export function buildEnvelope(
  error: BrowserErrorInput,
  page: { url: string; userAgent: string },
  dsn: string,
  eventId: string,
  now: Date,
): string {
  const event = {
    event_id: eventId,
    timestamp: now.getTime() / 1000,
    platform: "javascript",
    level: "error",
    logger: "window.onerror",
    exception: {
      values: [
        {
          type: error.type,
          value: stripQueries(error.message).slice(0, 1000),
          ...(error.filename
            ? { stacktrace: { frames: [{ filename: stripQuery(error.filename), lineno: error.lineno, colno: error.colno, in_app: true }] } }
            : {}),
        },
      ],
    },
    // No query string or fragment anywhere (the URL, the frames, the stack, the message): they may carry a
    // visitor's personal data. No cookie, no address.
    request: { url: stripQuery(page.url), headers: { "User-Agent": page.userAgent } },
    tags: { host: new URL(page.url).host },
    extra: error.stack ? { stack: stripQueries(error.stack).slice(0, 4000) } : {},
  };
  return [JSON.stringify({ event_id: eventId, sent_at: now.toISOString(), dsn }), JSON.stringify({ type: "event" }), JSON.stringify(event)].join("\n");
}

/** At most this many reports per page view: an error in a loop must not flood the tracker. */
export const MAX_REPORTS_PER_PAGE = 5;
let sent = 0;

export function reportBrowserError(event: Event, dsn: string | undefined): boolean {
  const target = parseDsn(dsn);
  const error = errorFromEvent(event);
  if (!target || !error || sent >= MAX_REPORTS_PER_PAGE) return false;
  sent += 1;
  const id = crypto.randomUUID().replace(/-/g, "");
  const body = buildEnvelope(error, { url: location.href, userAgent: navigator.userAgent }, target.dsn, id, new Date());
  // A beacon survives the page being closed; text/plain keeps it a simple (preflight-free) request.
  if (!navigator.sendBeacon?.(target.endpoint, new Blob([body], { type: "text/plain;charset=UTF-8" }))) {
    void fetch(target.endpoint, { method: "POST", body, keepalive: true, mode: "no-cors" }).catch(() => {});
  }
  return true;
}
