/**
 * Requests that Node's HTTP parser refuses before any middleware sees them (the server's `clientError`).
 *
 * One kind is worth an answer other than Node's bare 400: a request target with raw UTF-8 bytes
 * (`GET /l-équipe/`, as some crawlers and scripts send old URLs with accents; browsers send them
 * percent-encoded). Node's parser refuses any byte over 0x7f in a target, so such an old URL would be lost
 * whatever the redirect map says. It gets a 301 to the same target percent-encoded, which the map and the
 * canonical spelling then handle as any other request (two hops for this rare spelling, one for every other).
 *
 * Every other client error gets what Node itself sends when nobody listens (a listener replaces Node's
 * default answer, so it is repeated here): 431, 413, 408 or 400, with a length of 0 (the end of the answer is
 * not the close: a body still arriving would turn the close into a reset before the answer is read), then the
 * connection is closed.
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/** Node's own answers to the client errors it names (lib/_http_server.js), 400 for the rest. */
const NODE_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

/** A request line a redirect may be built from: GET or HEAD, an origin-form target of visible bytes, HTTP/1.x. */
const REQUEST_LINE = /^(?:GET|HEAD) (\/[\x21-\x7e\x80-\xff]{0,2047}) HTTP\/1\.[01]\r\n/;
/** Bytes escaped in the Location: non-ASCII, and the ASCII a URL may not hold as it is (RFC 3986). */
const TO_ESCAPE = /[\x80-\xff"<>\\^`{|}]/g;

/**
 * The percent-encoded form of a refused target with raw non-ASCII bytes, or null when it is not one (another
 * parse error, another method, a target that would leave the site: `//host` or `/\host`).
 */
export function encodedTarget(rawPacket: Buffer | undefined): string | null {
  if (!rawPacket) return null;
  const line = REQUEST_LINE.exec(rawPacket.subarray(0, 2100).toString("latin1"));
  if (!line) return null;
  const target = line[1];
  if (!/[\x80-\xff]/.test(target) || /^\/[/\\]/.test(target) || target.includes("#")) return null;
  return target.replace(TO_ESCAPE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

export function answerRefusedRequests(server: Server): Server {
  server.on("clientError", (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    // Answer unless a response of this connection has begun and is not yet all written (its bytes and ours
    // would mix). Not "nothing written on the socket yet": on a kept-alive connection the earlier answers
    // were, and a refused request after them got no answer at all (the fuzz run's resets). Node's own test
    // (an in-flight response whose headers went out) refuses the same case: the earlier response, ended, is
    // still the socket's message until its "finish" is handled.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean; writableEnded?: boolean } | null })._httpMessage;
    if (socket.writable && (!inFlight?.headersSent || inFlight.writableEnded)) {
      const target = error.code === "HPE_INVALID_URL" ? encodedTarget(error.rawPacket) : null;
      socket.write(
        target
          ? `HTTP/1.1 301 Moved Permanently\r\nLocation: ${target}\r\nContent-Length: 0\r\nCache-Control: public, max-age=3600\r\nConnection: close\r\n\r\n`
          : `HTTP/1.1 ${NODE_ANSWERS[error.code ?? ""] ?? "400 Bad Request"}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    }
    socket.destroy(error);
  });
  return server;
}
