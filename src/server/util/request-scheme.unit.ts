import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { requestScheme, schemeOf, type TrustFn } from "./request-scheme";

/** A raw request on a socket from `address`, with an optional X-Forwarded-Proto. */
function request(socket: object, proto?: string): IncomingMessage {
  return { socket, headers: proto ? { "x-forwarded-proto": proto } : {} } as unknown as IncomingMessage;
}

describe("requestScheme", () => {
  const loopbackOnly: TrustFn = (address) => address === "::ffff:127.0.0.1";

  it("believes X-Forwarded-Proto from a trusted proxy only", () => {
    expect(requestScheme(request({ remoteAddress: "::ffff:127.0.0.1" }, "https"), loopbackOnly)).toBe("https");
    expect(requestScheme(request({ remoteAddress: "203.0.113.9" }, "https"), loopbackOnly)).toBe("http");
    expect(requestScheme(request({ remoteAddress: "::ffff:127.0.0.1" }, "gopher"), loopbackOnly)).toBe("http");
    expect(requestScheme(request({ remoteAddress: "::ffff:127.0.0.1", encrypted: true }), loopbackOnly)).toBe("https");
  });

  it("reads the first hop of a list, whatever its spacing and case", () => {
    const trusted = (proto: string) => requestScheme(request({ remoteAddress: "::ffff:127.0.0.1" }, proto), loopbackOnly);
    expect(["https, http", " HTTPS ,http", "https,https", "http, https", ",https", "https "].map(trusted)).toEqual(["https", "https", "https", "http", "http", "https"]);
  });

  it("asks the trust function once per connection, however many requests it carries", () => {
    let calls = 0;
    const trust: TrustFn = (address) => {
      calls++;
      return loopbackOnly(address, 0);
    };
    const socket = { remoteAddress: "::ffff:127.0.0.1" };
    const schemes = [request(socket, "https"), request(socket, "http"), request(socket, "https")].map((r) =>
      requestScheme(r, trust),
    );
    expect(schemes).toEqual(["https", "http", "https"]);
    expect(calls).toBe(1);
    requestScheme(request({ remoteAddress: "203.0.113.9" }, "https"), trust);
    expect(calls).toBe(2);
  });
});

describe("schemeOf", () => {
  it("is https only for https, in any case and spacing", () => {
    expect([schemeOf(" HTTPS "), schemeOf("http"), schemeOf(undefined), schemeOf("ftp")]).toEqual(["https", "http", "http", "http"]);
  });
});
