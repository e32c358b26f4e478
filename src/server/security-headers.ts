/**
 * Security headers of every response (pages, endpoints, static files, the tenancy 404s).
 *
 * The Content-Security-Policy restricts what is safe to restrict without breaking Qwik: framing
 * (frame-ancestors: ourselves and the CMS preview iframe), <base>, plugins and form targets. It sets no
 * script-src: Qwik's resumability relies on inline scripts (qwikloader, state), and the analytics and
 * error-tracking hosts are build-time choices; a nonce-based script policy would also make every cached
 * page unique per response.
 */
import type { NextFunction, Request, Response } from "express";

export interface SecurityHeaderOptions {
  /** Origin of the content backend's admin (the CMS preview iframe); undefined: only 'self' may frame. */
  cmsOrigin: string | undefined;
}

export function contentSecurityPolicy({ cmsOrigin }: SecurityHeaderOptions): string {
  const ancestors = ["'self'", ...(cmsOrigin ? [new URL(cmsOrigin).origin] : [])];
  return [
    `frame-ancestors ${ancestors.join(" ")}`,
    "base-uri 'self'",
    "object-src 'none'",
    "form-action 'self'",
  ].join("; ");
}

export function securityHeaders(opts: SecurityHeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(opts),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
}

/** Express middleware; mounted first so that no response, not even a refusal, goes out without them. */
export function securityHeadersMiddleware(opts: SecurityHeaderOptions) {
  const headers = securityHeaders(opts);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
}
