/**
 * The scheme and the address a request came from. The scheme is decided once for the cache key and for the
 * URL the render sees, so the two always agree: a page rendered for https (canonical and og:url print it)
 * is never served to a request that came over http, nor the reverse. X-Forwarded-Proto counts only from a trusted proxy (the
 * TRUSTED_PROXY rule), and only "https" or "http" are believed: any other text is http.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import proxyaddr from "proxy-addr";

export type Scheme = "http" | "https";

/** Is the peer at this address, `hop` proxies from us, a trusted proxy? (The rule Express named "trust proxy".) */
export type TrustFn = (address: string | undefined, hop: number) => boolean;

/** TRUSTED_PROXY (env.ts) as a TrustFn: its list of names and ranges, or nobody (false). */
export function compileTrust(trusted: string | false): TrustFn {
  const compiled = proxyaddr.compile(trusted === false ? [] : trusted.split(",").map((entry) => entry.trim()));
  return (address, hop) => address !== undefined && compiled(address, hop);
}

/** The client's address: the peer's, or the nearest untrusted one X-Forwarded-For names through trusted proxies. */
export function clientAddress(req: IncomingMessage, trust: TrustFn): string {
  return proxyaddr(req, trust as (address: string, hop: number) => boolean);
}

export function schemeOf(protocol: string | undefined): Scheme {
  // The proxy's own spelling first (every request behind it): no trimmed or lower-cased copy to make.
  if (protocol === "https") return "https";
  return protocol?.trim().toLowerCase() === "https" ? "https" : "http";
}

const TRUSTED_PEER = Symbol("trusted peer");
type MarkedSocket = Socket & { [TRUSTED_PEER]?: boolean };

/**
 * Whether the connection's peer is a trusted proxy, decided once per connection: a socket's peer never
 * changes, and the trust function parses the address each time (~4 µs for an IPv4-mapped address, on every
 * cache hit of a keep-alive connection otherwise).
 */
function trustedPeer(socket: MarkedSocket, trust: TrustFn): boolean {
  return (socket[TRUSTED_PEER] ??= trust(socket.remoteAddress, 0));
}

/** The scheme of a request. */
export function requestScheme(req: IncomingMessage, trust: TrustFn): Scheme {
  const own: Scheme = (req.socket as TLSSocket).encrypted ? "https" : "http";
  if (!trustedPeer(req.socket, trust)) return own;
  const header = req.headers["x-forwarded-proto"];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return own;
  // The first hop's value (a list when several proxies appended theirs); indexOf, not split: split allocates an
  // array and calls into the runtime (about 900 instructions, on every cache hit behind the proxy).
  const comma = value.indexOf(",");
  return schemeOf(comma === -1 ? value : value.slice(0, comma));
}
