/** Host header normalisation: the one place that decides what a Host header means. */

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/**
 * Lower-cases the host, drops a port and one trailing dot; returns null for anything that is not a
 * plain DNS name (empty, IP literals, user-info, paths, spaces, underscores...). An IP literal has no
 * practice: refusing it here makes direct-IP probing a plain 404.
 */
export function normaliseHost(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let host = raw.trim().toLowerCase();
  const colon = host.lastIndexOf(":");
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    // A port is 1-65535, spelt one way: anything else is no host of ours (a 404, never a URL that fails to
    // parse later, nor `:03400` beside `:3400` as a second cache key of every page).
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535) return null;
    host = host.slice(0, colon);
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (!HOSTNAME.test(host)) return null;
  return host;
}

/**
 * Whether a Host header's port is one this server is reached on: none, 80, 443, or the port it listens on
 * (direct access, tests). Any other port names no site of ours; answering it would render and store one
 * copy of every page per port a client cares to invent (the port is printed in the page, so it is in the
 * cache key).
 */
export function isServedPort(raw: string | undefined, listenPort: number): boolean {
  const port = /:(\d{1,5})$/.exec(raw?.trim() ?? "")?.[1];
  return port === undefined || port === "80" || port === "443" || Number(port) === listenPort;
}

/** Whether the request carries exactly one Host header (Node's `headers.host` shows the first of several). */
export function hasOneHost(rawHeaders: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === 4 && name.toLowerCase() === "host") hosts++;
  }
  return hosts === 1;
}
