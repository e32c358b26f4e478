/**
 * What can go wrong when reading the content backend, as types the routes can map to HTTP:
 * not_found -> 404 (the backend's own verdict: unknown, inactive, unpublished), everything else -> 503.
 */
export type BackendFailure = "not_found" | "timeout" | "unreachable" | "bad_status" | "invalid_payload";

export class BackendError extends Error {
  constructor(
    readonly failure: BackendFailure,
    /** The endpoint path under the API base, e.g. /sites/dupont/config/ (never the secret-bearing URL). */
    readonly endpoint: string,
    detail: string,
    readonly status?: number,
  ) {
    super(`backend ${failure} on ${endpoint}: ${detail}`);
    this.name = "BackendError";
  }

  get isNotFound(): boolean {
    return this.failure === "not_found";
  }
}

export function isBackendError(error: unknown): error is BackendError {
  return error instanceof BackendError;
}
