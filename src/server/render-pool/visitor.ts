/**
 * Whether the visitor a render is for is still there (admission.ts drops a queued render whose visitors all
 * left). The request that waits for the page cache's answer runs inside whileVisitorWaits (http/cache-front.ts);
 * the render it causes reads the signal back where it is admitted (renderer.ts), through the page cache's
 * calls without a parameter of their own, as the request id reaches a render worker's log lines
 * (monitoring/log.ts). Outside a visitor's request (a background refresh, the pre-pass) there is none.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerResponse } from "node:http";

const visitor = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `answer` with a signal that aborts when the connection closes before the response was written (the
 * visitor left: a timeout of theirs, a closed tab, a crawler giving up).
 */
export function whileVisitorWaits<T>(res: ServerResponse, answer: () => Promise<T>): Promise<T> {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableEnded) controller.abort();
  });
  return visitor.run(controller.signal, answer);
}

/** The signal of the visitor whose request this code runs for, if any. */
export function visitorSignal(): AbortSignal | undefined {
  return visitor.getStore();
}
