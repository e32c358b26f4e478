import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { answerRefusedRequests, encodedTarget } from "./raw-targets";

const packet = (text: string) => Buffer.from(text, "utf8");

describe("encodedTarget", () => {
  it("percent-encodes the raw UTF-8 bytes of a GET or HEAD target, upper-case hex", () => {
    expect(encodedTarget(packet("GET /l-équipe/ HTTP/1.1\r\nHost: x\r\n\r\n"))).toBe("/l-%C3%A9quipe/");
    expect(encodedTarget(packet("HEAD /soins/détartrage.html?p=é HTTP/1.0\r\n"))).toBe("/soins/d%C3%A9tartrage.html?p=%C3%A9");
  });

  it("escapes the ASCII a URL may not hold as it is, keeps escapes already there", () => {
    expect(encodedTarget(packet('GET /é"<x>|%20 HTTP/1.1\r\n'))).toBe("/%C3%A9%22%3Cx%3E%7C%20");
  });

  it("leaves every other refused request to the plain answer", () => {
    expect(encodedTarget(undefined)).toBeNull();
    expect(encodedTarget(packet("GET /plain\x01 HTTP/1.1\r\n"))).toBeNull();
    expect(encodedTarget(packet("POST /é HTTP/1.1\r\n"))).toBeNull();
    expect(encodedTarget(packet("GET http://evil.example/é HTTP/1.1\r\n"))).toBeNull();
    // Never a Location that leaves the site, nor one with a fragment.
    expect(encodedTarget(packet("GET //evil.example/é HTTP/1.1\r\n"))).toBeNull();
    expect(encodedTarget(packet("GET /\\evil.example/é HTTP/1.1\r\n"))).toBeNull();
    expect(encodedTarget(packet("GET /é#x HTTP/1.1\r\n"))).toBeNull();
    expect(encodedTarget(packet(`GET /é${"a".repeat(3000)} HTTP/1.1\r\n`))).toBeNull();
  });
});

describe("answerRefusedRequests on a real server", () => {
  async function withServer(run: (port: number) => Promise<void>) {
    const server: Server = answerRefusedRequests(createServer((_req, res) => res.end("ok")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await run((server.address() as AddressInfo).port);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  function raw(port: number, bytes: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
      socket.on("close", () => resolve(answer));
      socket.on("error", reject);
    });
  }

  it("redirects a raw UTF-8 target to its percent-encoded spelling, and closes", async () => {
    await withServer(async (port) => {
      const answer = await raw(port, packet("GET /l-équipe/ HTTP/1.1\r\nHost: www.cabinet-dupont.fr\r\n\r\n"));
      expect(answer).toMatch(/^HTTP\/1\.1 301 Moved Permanently\r\n/);
      expect(answer).toContain("\r\nLocation: /l-%C3%A9quipe/\r\n");
      expect(answer).toContain("\r\nConnection: close\r\n");
    });
  });

  it("answers other refused requests as Node does: 400, 431 for oversized headers", async () => {
    await withServer(async (port) => {
      expect(await raw(port, packet("GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n"))).toBe("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      expect(await raw(port, packet("GET //evil.example/é HTTP/1.1\r\nHost: x\r\n\r\n"))).toMatch(/^HTTP\/1\.1 400 /);
      const huge = packet(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
      expect(await raw(port, huge)).toBe("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
  });

  it("answers a refused request that follows an answered one on a kept-alive connection (it got none: the fuzz run's resets)", async () => {
    await withServer(async (port) => {
      const answer = await raw(port, packet("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n"));
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok/);
      expect(answer.endsWith("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")).toBe(true);
    });
  });
});
