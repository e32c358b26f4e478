/**
 * Host -> practice code. Called by the Express layer (which refuses unknown hosts and owns the cache
 * key) and by the Qwik City plugin (src/routes/plugin@tenant.ts, which also serves the vite dev
 * server), so both agree by construction.
 *
 * Only the Host header counts: X-Forwarded-Host and similar are never read, because the reverse
 * proxy passes Host through unchanged and a forwarded header is under the client's control.
 */
import { normaliseHost } from "./host";
import { PRACTICE_CODE, type Registry } from "./registry";

export interface HostRules {
  registry: Registry;
  /** The running environment: preview hosts of another environment are not ours. */
  environment: string;
  /** Preview hosts are {code}.{environment}.{previewDomain}; undefined disables them. */
  previewDomain: string | undefined;
}

/** The practice code the host belongs to, or null: there is no default practice. */
export function resolveHost(rawHost: string | null | undefined, rules: HostRules): string | null {
  const host = normaliseHost(rawHost);
  if (!host) return null;
  const registered = rules.registry.byHost.get(host);
  if (registered) return registered;
  if (!rules.previewDomain) return null;
  const suffix = `.${rules.environment}.${rules.previewDomain}`;
  if (!host.endsWith(suffix)) return null;
  const code = host.slice(0, -suffix.length);
  // A single label only: "x.dupont.dev.example" must not become practice "x.dupont".
  return PRACTICE_CODE.test(code) ? code : null;
}

/** Paths under the internal prefix are never reachable from outside, whatever the host. */
export const INTERNAL_PREFIX = "/_sites";

export function isInternalPath(pathname: string): boolean {
  // Decode first so that /%5Fsites/ is caught too; a malformed escape is refused as internal-ish.
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  const collapsed = decoded.replace(/\/{2,}/g, "/").toLowerCase();
  return collapsed === INTERNAL_PREFIX || collapsed.startsWith(`${INTERNAL_PREFIX}/`);
}

/** The internal path Qwik City routes a practice's public path to. */
export function internalPath(code: string, publicPathname: string): string {
  return `${INTERNAL_PREFIX}/${code}${publicPathname.startsWith("/") ? "" : "/"}${publicPathname}`;
}

/** The public path of a request Qwik City routed to the internal one (`/_sites/<code>/x` -> `/x`). */
export function publicPath(internalPathname: string, code: string): string {
  const prefix = `${INTERNAL_PREFIX}/${code}`;
  const rest = internalPathname.startsWith(prefix) ? internalPathname.slice(prefix.length) : internalPathname;
  return rest.startsWith("/") ? rest : `/${rest}`;
}
