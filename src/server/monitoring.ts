/**
 * Error reporting. Logs always; forwards to Sentry once it is initialised (initMonitoring, called by the
 * Express entry when SENTRY_DSN is set). Warnings the specification names go through reportWarning.
 */
import type * as SentryModule from "@sentry/node";

let sentry: typeof SentryModule | undefined;

export async function initMonitoring(dsn: string | undefined, environment: string): Promise<void> {
  if (!dsn) return;
  const Sentry = await import("@sentry/node");
  Sentry.init({ dsn, environment, tracesSampleRate: 0 });
  sentry = Sentry;
}

export function reportError(error: unknown, context: Record<string, unknown> = {}): void {
  console.error(`[error] ${error instanceof Error ? error.message : String(error)}`, context);
  sentry?.captureException(error, { extra: context });
}

export function reportWarning(message: string, context: Record<string, unknown> = {}): void {
  console.warn(`[warn] ${message}`, context);
  sentry?.captureMessage(message, { level: "warning", extra: context });
}
