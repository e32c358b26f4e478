/**
 * Error reporting. Logs always; forwards to Sentry once it is initialised (initMonitoring, called by the
 * Express entry when SENTRY_DSN is set). Warnings the specification names go through reportWarning.
 *
 * Nothing personal leaves (scrub.ts): Sentry collects no PII and no request bodies, and every
 * event and breadcrumb is scrubbed before sending. Repeated warnings and errors are throttled per
 * message (throttle.ts); the log line stays.
 */
import type * as SentryModule from "@sentry/node";
import { KEPT_REQUEST_HEADERS, scrubBreadcrumb, scrubEvent } from "./scrub";
import { createWarningThrottle } from "./throttle";
import { currentRequestId, getLogger } from "./log";

let sentry: typeof SentryModule | undefined;

/**
 * The SDK's default integrations left out. Those that act on every request: Http (an isolation scope and request data
 * per incoming request), Express (its middleware traced through diagnostics channels), NodeFetch (a breadcrumb and
 * trace headers on every call to the backend), Console (a breadcrumb per line). And the process's handlers of the
 * last resort, OnUncaughtException and OnUnhandledRejection: the process guard reports both itself, with the request's
 * context, and decides how the process ends (process-guard.ts).
 */
const LEFT_OUT_INTEGRATIONS: ReadonlySet<string> = new Set(["Http", "Express", "NodeFetch", "Console", "OnUncaughtException", "OnUnhandledRejection"]);
const warnings = createWarningThrottle();
const errors = createWarningThrottle();

export async function initMonitoring(dsn: string | undefined, environment: string): Promise<void> {
  if (!dsn) return;
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn,
    environment,
    // This SDK's form of `sendDefaultPii: false`, category by category: no user, cookies, bodies or
    // query strings; request headers only those that say nothing about the visitor.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpBodies: [],
      urlQueryParams: false,
      httpHeaders: { request: { allow: [...KEPT_REQUEST_HEADERS] }, response: false },
    },
    // No tracing (no tracesSampleRate: even 0 turns it on, and a span was made for every request), and no per-request
    // integration: Http's request isolation cost a cache HIT 4.5 times its CPU with tracing on, and twice without
    // (issue 28; `npm run bench -- l` judges it). An error's request is in its own context instead (reportError's
    // path, practice and request id), so no request body, header, session or span is collected either.
    integrations: (defaults) => defaults.filter((i) => !LEFT_OUT_INTEGRATIONS.has(i.name)),
    // No breadcrumbs: without a scope per request they would be the process's trail, whichever request or practice
    // left them (one practice's contact post riding on another's error event: the outside review, 2026-11-27).
    maxBreadcrumbs: 0,
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  });
  sentry = Sentry;
}

export function reportError(error: unknown, context: Record<string, unknown> = {}): void {
  const message = error instanceof Error ? error.message : String(error);
  // One JSON line with the context as a field (log.ts), or the plain line before the log is started.
  const log = getLogger();
  if (log) log.error({ context }, `[error] ${message}`);
  else console.error(`[error] ${message}`, context);
  if (!sentry) return;
  // Throttled like warnings, by kind and message: a backend fault under load sent one event per request.
  const { send, suppressed } = errors.take(`${error instanceof Error ? error.name : "error"}: ${message}`);
  const requestId = currentRequestId();
  if (send) sentry.captureException(error, { extra: { ...context, ...(requestId ? { requestId } : {}), ...(suppressed ? { suppressed } : {}) } });
}

export function reportWarning(message: string, context: Record<string, unknown> = {}): void {
  const log = getLogger();
  if (log) log.warn({ context }, `[warn] ${message}`);
  else console.warn(`[warn] ${message}`, context);
  if (!sentry) return;
  const { send, suppressed } = warnings.take(message);
  const requestId = currentRequestId();
  if (send) sentry.captureMessage(message, { level: "warning", extra: { ...context, ...(requestId ? { requestId } : {}), ...(suppressed ? { suppressed } : {}) } });
}

/** Waits (bounded) until queued events are sent: before the process exits on a fatal error. */
export async function flushMonitoring(timeoutMs = 2000): Promise<void> {
  await sentry?.flush(timeoutMs);
}
