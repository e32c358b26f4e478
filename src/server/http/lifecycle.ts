/**
 * Readiness and graceful shutdown, for nginx and compose in front of several instances:
 *
 * - GET /readyz answers 200 once the instance is ready (its cache seeded, and with CACHE_URL joined to
 *   the others or given up waiting), 503 before that and while draining.
 * - SIGTERM: /readyz turns 503, the instance leaves the cluster (webhooks stop waiting for it), the
 *   listener closes (nginx moves to the next upstream on the refused connection), in-flight requests
 *   finish, then the process exits; a hard deadline ends it if a request never finishes.
 */
import type { Server } from "node:http";
import type { Request, Response } from "express";

/** In-flight requests get this long after SIGTERM (compose's default stop grace period is 10 s). */
const SHUTDOWN_DEADLINE_MS = 8000;

export class Lifecycle {
  private ready = false;
  private draining = false;

  markReady(): void {
    this.ready = true;
  }

  get state(): "starting" | "ready" | "draining" {
    return this.draining ? "draining" : this.ready ? "ready" : "starting";
  }

  /** GET /readyz */
  readyz = (_req: Request, res: Response): void => {
    const state = this.state;
    res.status(state === "ready" ? 200 : 503).type("text/plain").send(state);
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
