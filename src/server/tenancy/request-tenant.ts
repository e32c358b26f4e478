/**
 * The practice a request was resolved to, carried from the tenancy middleware (http/app.ts) to the later
 * Express middleware on `res.locals` (request-scoped, never module state). Declared and read here only, so
 * every reader gets the one shape.
 */
export interface RequestTenant {
  code: string;
  /** The Host header as sent (one, checked by http/request-rules.ts). */
  host: string;
}

/** Anything with Express's `res.locals`. */
interface WithLocals {
  locals: Record<string, unknown>;
}

export function setRequestTenant(res: WithLocals, tenant: RequestTenant): void {
  res.locals.tenant = tenant;
}

/** The resolved practice, or undefined before tenancy ran (or when it answered 404). */
export function requestTenant(res: WithLocals): RequestTenant | undefined {
  return res.locals.tenant as RequestTenant | undefined;
}
