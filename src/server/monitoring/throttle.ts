/**
 * Repeated warnings (and errors, with their own table) are logged every time but sent to error tracking at
 * most once per window per message: a scan with a wrong revalidation secret would otherwise send thousands of events. The event
 * that opens a new window says how many were left out of the previous one.
 */

export const WARNING_WINDOW_MS = 60_000;
/** Distinct messages remembered; a flood of distinct texts cannot grow the table without bound. */
const MAX_MESSAGES = 1000;

export interface WarningThrottle {
  /** Whether this occurrence goes to error tracking, and how many earlier ones were not sent. */
  take(message: string): { send: boolean; suppressed: number };
}

/**
 * The throttle's key: the message with every path, URL, quoted value and number folded, so that one kind of
 * event is one key whatever a visitor put in it (a media path, a page slug, a status): 30 paths sent 31
 * events when the key was the message as it was (issue 26).
 */
export function messageShape(message: string): string {
  return message
    .replace(/"[^"]*"|'[^']*'/g, "<v>")
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, "<url>")
    .replace(/\/\S*/g, "<path>")
    .replace(/\d+/g, "<n>");
}

export function createWarningThrottle(windowMs = WARNING_WINDOW_MS, now: () => number = Date.now): WarningThrottle {
  const seen = new Map<string, { since: number; suppressed: number }>();
  return {
    take(text) {
      const message = messageShape(text);
      const t = now();
      const entry = seen.get(message);
      if (entry && t - entry.since < windowMs) {
        entry.suppressed += 1;
        return { send: false, suppressed: entry.suppressed };
      }
      const suppressed = entry?.suppressed ?? 0;
      seen.delete(message);
      if (seen.size >= MAX_MESSAGES) seen.delete(seen.keys().next().value!);
      seen.set(message, { since: t, suppressed: 0 });
      return { send: true, suppressed };
    },
  };
}
