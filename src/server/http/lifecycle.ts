/**
 * Readiness and graceful shutdown, for nginx and compose in front of several instances:
 *
 * - GET /readyz answers 200 once the instance is ready (the backend has answered the probe for our
 *   practices, and with CACHE_URL joined to the others or given up waiting), 503 before that, saying what
 *   it waits for ("starting: backend not answering for the practice list: ..."), and while draining.
 *   Ready is never the default: every condition is named when the Lifecycle is made, waiting, and only
 *   its own result clears it. (It used to be "ready unless a condition had failed": /readyz said 200 for
 *   the 167 ms before the backend probe's first answer, and a deploy switched to an instance whose
 *   backend URL was wrong.) /readyz answers any Host: its reasons name no internal URL or practice.
 * - SIGTERM: /readyz turns 503, the instance leaves the cluster (webhooks stop waiting for it), the
 *   listener closes (nginx moves to the next upstream on the refused connection), in-flight requests
 *   finish, then the process exits; a hard deadline ends it if a request never finishes.
 */
import type { Server } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendText } from "./respond";

/** In-flight requests get this long after SIGTERM (compose's default stop grace period is 10 s). */
const SHUTDOWN_DEADLINE_MS = 8000;

export class Lifecycle {
  private draining = false;
  /** What readiness still waits for, by name, with the reason an operator reads in /readyz. */
  private readonly waiting: Map<string, string>;

  /** `waits`: each condition readiness needs, by name, with what /readyz says until `waitFor(name, null)`. */
  constructor(waits: Record<string, string>) {
    this.waiting = new Map(Object.entries(waits));
  }

  /** Keeps the instance from being ready while `reason` holds (null: no longer). */
  waitFor(what: string, reason: string | null): void {
    if (reason === null) this.waiting.delete(what);
    else this.waiting.set(what, reason);
  }

  get state(): "starting" | "ready" | "draining" {
    return this.draining ? "draining" : this.waiting.size === 0 ? "ready" : "starting";
  }

  /** GET /readyz: the state, and while starting what it waits for. */
  readyz = (_req: IncomingMessage, res: ServerResponse): void => {
    const state = this.state;
    const reasons = state === "starting" ? [...this.waiting.values()] : [];
    sendText(res, state === "ready" ? 200 : 503, reasons.length ? `${state}: ${reasons.join("; ")}` : state);
  };

  /** Stops taking work, lets in-flight requests finish, runs `leave` (the cluster), then exits. */
  async shutdown(server: Server, leave: () => Promise<void>, exit: (code: number) => void = process.exit): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    setTimeout(() => exit(0), SHUTDOWN_DEADLINE_MS).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections with no request in flight close now; busy ones once their answer is sent.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    await Promise.allSettled([leave(), closed]);
    exit(0);
  }
}
