/**
 * One HTTP request from an operator script to a site, sent to a chosen address with the site's Host
 * header (the way curl's --connect-to does), so a deployment can be checked before DNS points at it.
 * No redirect is followed: the scripts check redirects themselves. The body is bounded, a slow server
 * is cut at the timeout. Used by the smoke checks (ops/deploy/smoke.ts) and the migration toolkit (ops/migrate).
 */
import { request } from "node:http";
import { request as httpsRequest } from "node:https";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** A longer body fails the request (default 5 MB). */
  maxBytes?: number;
  /**
   * The whole exchange must be over in this long (default 30 s): `timeoutMs` is per idle socket, so a server
   * trickling a few bytes every few seconds held a request for minutes.
   */
  deadlineMs?: number;
}

const TIMEOUT_MS = 10_000;
const DEADLINE_MS = 30_000;
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * `base` is where to connect (scheme, address, port); `host` the Host header and TLS server name.
 *
 * A GET or HEAD sent on a kept-alive connection that the server closed before any answer (nginx reloading: its
 * old workers close their idle connections, and a request can cross the close) is sent once more on a new
 * connection, as browsers do and as HTTP allows for idempotent requests (RFC 9112, 9.3.1). A visitor never
 * sees that close; an operator's check must not fail on it either (a drill saw 1 in 261 during a switch).
 */
export async function call(base: string, host: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  try {
    return await callOnce(base, host, path, opts, false);
  } catch (error) {
    const idempotent = (opts.method ?? "GET") === "GET" || opts.method === "HEAD";
    if (!(error instanceof ReusedConnectionClosed) || !idempotent) throw error;
    return callOnce(base, host, path, opts, true);
  }
}

/** The server closed a kept-alive connection as this request was sent on it: no answer was begun. */
class ReusedConnectionClosed extends Error {}

function callOnce(base: string, host: string, path: string, opts: CallOptions, freshConnection: boolean): Promise<Answer> {
  const url = new URL(base);
  const send = url.protocol === "https:" ? httpsRequest : request;
  const timeout = opts.timeoutMs ?? TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_BYTES;
  const deadlineMs = opts.deadlineMs ?? DEADLINE_MS;
  return new Promise((resolve, reject) => {
    // (Declared before the request is made: the deadline's timer and the answer's callback read them. A request the
    // client refuses at once leaves no timer behind to fire on a request never made.)
    let req: ReturnType<typeof send>;
    let answered = false;
    const deadline = setTimeout(() => req.destroy(new Error(`not complete within ${deadlineMs} ms`)), deadlineMs);
    const settle = <T>(done: (value: T) => void) => (value: T) => {
      clearTimeout(deadline);
      done(value);
    };
    resolve = settle(resolve);
    reject = settle(reject);
    try {
      req = send(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: opts.method ?? "GET",
          headers: { host, "user-agent": "practice-frontend-ops", ...opts.headers },
          servername: host.replace(/:\d+$/, ""),
          timeout,
          ...(freshConnection ? { agent: false } : {}),
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          let tooLarge = false;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > maxBytes && !tooLarge) {
              // Destroying the Node response (never a web stream) stops the download; the answer is refused.
              tooLarge = true;
              res.destroy();
              reject(new Error(`body larger than ${maxBytes} bytes`));
            }
            if (!tooLarge) chunks.push(c);
          });
          res.on("error", reject);
          res.on("end", () => {
            if (tooLarge) return;
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
          });
        },
      );
    } catch (error) {
      // Node's client throws synchronously on what it will not send (a path with unescaped characters, `/sœurs/21`; a
      // header with a line break): a failed request like any other.
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeout} ms`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      const closed = error.code === "ECONNRESET" || error.message === "socket hang up";
      reject(closed && req.reusedSocket && !answered ? new ReusedConnectionClosed(error.message) : error);
    });
    if (opts.body) req.end(opts.body);
    else req.end();
  });
}

/**
 * Where to send requests for `siteUrl`: its own origin, or `connect` ("HOST:PORT") with the site's
 * scheme, as curl's --connect-to. The Host header stays the site's.
 */
export function target(siteUrl: URL, connect?: string): { base: string; host: string } {
  return { base: connect ? `${siteUrl.protocol}//${connect}` : siteUrl.origin, host: siteUrl.host };
}

/** A header's value as one string (a repeated header joined by ", "). */
export function header(answer: Answer, name: string): string {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}
