/**
 * The one error a render that could not run answers with: the queue was full, the render timed out or
 * its worker died. The page cache turns it into the last good copy (STALE) or a 503 with Retry-After,
 * never a 500 and never a wait without end (docs/decisions/0019-admission.md).
 */
export class RenderUnavailable extends Error {
  readonly status = 503;
  constructor(
    message: string,
    /** What Retry-After says, in seconds. */
    readonly retryAfterSeconds = 5,
    /** False for plain overload (a full queue): expected under a storm, not worth an error event each. */
    readonly reportable = true,
    /**
     * The render was lost with two workers (its own, then the one it ran on alone): it kills what renders it,
     * and the page cache does not try it again for a while (cache/page-cache.ts).
     */
    readonly killsWorkers = false,
  ) {
    super(message);
    this.name = "RenderUnavailable";
  }
}

export function isRenderUnavailable(error: unknown): error is RenderUnavailable {
  return error instanceof RenderUnavailable;
}
