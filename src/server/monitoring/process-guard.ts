/**
 * What the process does when something escapes every handler.
 *
 * - An uncaught exception leaves the process in an unknown state: it is reported (and the report flushed,
 *   bounded), the server stops accepting, and the process exits with status 1 so the supervisor (compose's
 *   `restart: unless-stopped`) starts a fresh one. Never half-alive. The page cache is in memory: the new
 *   process starts from the build's pre-pass pages and renders the rest on demand.
 * - An unhandled rejection is one request's stray promise: reported, and the process keeps serving.
 * - SIGUSR2 prints one `[stats]` line (page-store keys and bytes, renders started and still running, heap): how the hostile-traffic tests and
 *   the fuzz run read the store's size without any network route (docs/decisions/0034-process-guard.md).
 */

export interface GuardDeps {
  report: (error: unknown, context?: Record<string, unknown>) => void;
  flush: () => Promise<void>;
  /** Stops accepting connections (server.close); not awaited past the flush. */
  close: () => void;
  exit: (code: number) => void;
  stats: () => Record<string, number>;
  log?: (line: string) => void;
  proc?: Pick<NodeJS.Process, "on">;
}

/** How long a fatal error may wait for its report before the process exits anyway. */
export const FATAL_FLUSH_MS = 2000;

export function installProcessGuard(deps: GuardDeps): void {
  const proc = deps.proc ?? process;
  const log = deps.log ?? ((line: string) => console.log(line));
  let exiting = false;
  proc.on("uncaughtException", (error: unknown) => {
    if (exiting) return;
    exiting = true;
    try {
      deps.report(error, { fatal: true });
      deps.close();
    } catch {
      /* exiting regardless */
    }
    log("[fatal] uncaught exception: exiting for the supervisor to restart");
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, FATAL_FLUSH_MS).unref());
    void Promise.race([deps.flush().catch(() => {}), timeout]).then(() => deps.exit(1));
  });
  proc.on("unhandledRejection", (reason: unknown) => deps.report(reason ?? new Error("unhandled rejection (no reason)")));
  proc.on("SIGUSR2", () => {
    const fields = Object.entries(deps.stats()).map(([k, v]) => `${k}=${v}`);
    log(`[stats] ${fields.join(" ")}`);
  });
}
