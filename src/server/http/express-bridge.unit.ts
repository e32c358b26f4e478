/**
 * The bridge's two conversions with fake Express objects over Node streams; HEAD only on a real node:http
 * response on port 0, since dropping the body of a HEAD answer is Node's part of the behaviour.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, Writable } from "node:stream";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { sendFetchResponse, toFetchRequest } from "./express-bridge";

/** The parts of an Express request the bridge reads, over a readable body (like Node's IncomingMessage). */
function expressRequest(opts: {
  method?: string;
  headers?: IncomingHttpHeaders;
  protocol?: string;
  originalUrl?: string;
  url?: string;
  body?: string;
}): ExpressRequest {
  const stream = Readable.from(opts.body === undefined ? [] : [Buffer.from(opts.body)]);
  return Object.assign(stream, {
    method: opts.method ?? "GET",
    headers: opts.headers ?? {},
    protocol: opts.protocol ?? "https",
    originalUrl: opts.originalUrl ?? "/",
    url: opts.url ?? opts.originalUrl ?? "/",
  }) as unknown as ExpressRequest;
}

describe("toFetchRequest", () => {
  it("builds the URL from the resolved host and the original URL, with the request's protocol", () => {
    const req = expressRequest({
      protocol: "http",
      originalUrl: "/soins/implants/?utm_source=x",
      // What a mounted router would have left in req.url: not what the visitor asked for.
      url: "/implants/?utm_source=x",
      headers: { host: "ignored.example" },
    });
    expect(toFetchRequest(req, "www.cabinet-dupont.fr").url).toBe(
      "http://www.cabinet-dupont.fr/soins/implants/?utm_source=x",
    );
  });

  it("drops the headers a client could use to pass for another host", () => {
    const req = expressRequest({
      headers: {
        host: "www.cabinet-dupont.fr",
        "x-forwarded-host": "evil.example",
        "x-forwarded-server": "evil.example",
        forwarded: "host=evil.example",
        "x-original-host": "evil.example",
        "accept-language": "fr-FR",
      },
    });
    const headers = toFetchRequest(req, "www.cabinet-dupont.fr").headers;
    for (const name of ["x-forwarded-host", "x-forwarded-server", "forwarded", "x-original-host"]) {
      expect(headers.has(name)).toBe(false);
    }
    expect(headers.get("accept-language")).toBe("fr-FR");
    expect(headers.get("host")).toBe("www.cabinet-dupont.fr");
  });

  it("keeps every value of a repeated header", () => {
    const req = expressRequest({ headers: { "set-cookie": ["a=1", "b=2"], "x-note": ["one", "two"] } });
    const headers = toFetchRequest(req, "www.cabinet-dupont.fr").headers;
    expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(headers.get("x-note")).toBe("one, two");
  });

  it.each(["GET", "HEAD"])("gives a %s request no body", (method) => {
    const request = toFetchRequest(expressRequest({ method, body: "ignored" }), "www.cabinet-dupont.fr");
    expect(request.method).toBe(method);
    expect(request.body).toBeNull();
  });

  // Only that a POST carries a body: how it is read from Node (and its limits) is the body reader's
  // concern, and the contact integration tests check what arrives.
  it("gives a POST a body", () => {
    const req = expressRequest({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Jeanne&consent=on",
    });
    const request = toFetchRequest(req, "www.cabinet-dupont.fr");
    expect(request.method).toBe("POST");
    expect(request.body).not.toBeNull();
  });
});

/**
 * The parts of an Express response the bridge writes to, over a Node Writable (so write(), end(),
 * back-pressure and 'drain' behave as on a socket). A small high-water mark makes back-pressure happen.
 */
class FakeResponse extends Writable {
  statusCode = 200;
  readonly headers = new Map<string, string | string[]>();
  readonly chunks: Buffer[] = [];

  constructor(private readonly delayMs = 0) {
    super({ highWaterMark: 4 });
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  setHeader(name: string, value: string | string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    setTimeout(callback, this.delayMs);
  }

  get body(): string {
    return Buffer.concat(this.chunks).toString();
  }

  asExpress(): ExpressResponse {
    return this as unknown as ExpressResponse;
  }
}

/** A body stream that records how far it was read and whether it was cancelled. */
function trackedBody(parts: string[]) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === parts.length) controller.close();
      else controller.enqueue(new TextEncoder().encode(parts[state.pulled++]));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("sendFetchResponse", () => {
  it("copies the status and headers, every Set-Cookie as its own value", async () => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=2; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT");
    const res = new FakeResponse();
    await sendFetchResponse(res.asExpress(), new Response("<p>ok</p>", { status: 404, headers }));
    expect(res.statusCode).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("set-cookie")).toEqual([
      "a=1; Path=/",
      "b=2; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT",
    ]);
    expect(res.body).toBe("<p>ok</p>");
    expect(res.writableEnded).toBe(true);
  });

  it("streams a body larger than the response's buffer, waiting for it to drain", async () => {
    const parts = Array.from({ length: 20 }, (_, i) => `chunk-${i};`);
    const { stream, state } = trackedBody(parts);
    const res = new FakeResponse(1);
    await sendFetchResponse(res.asExpress(), new Response(stream));
    expect(res.body).toBe(parts.join(""));
    expect(state.pulled).toBe(parts.length);
    expect(res.writableEnded).toBe(true);
  });

  it("ends a response without a body", async () => {
    const res = new FakeResponse();
    await sendFetchResponse(res.asExpress(), new Response(null, { status: 304, headers: { etag: 'W/"x"' } }));
    expect(res.statusCode).toBe(304);
    expect(res.headers.get("etag")).toBe('W/"x"');
    expect(res.body).toBe("");
    expect(res.writableEnded).toBe(true);
  });

  it("reads the render to its end, without cancelling it, when the visitor has gone", async () => {
    const { stream, state } = trackedBody(["a", "b", "c", "d"]);
    const res = new FakeResponse();
    res.destroy();
    await sendFetchResponse(res.asExpress(), new Response(stream));
    expect(state.pulled).toBe(4);
    expect(state.cancelled).toBe(false);
    expect(res.chunks).toEqual([]);
  });

  describe("on a node:http response", () => {
    let server: Server | undefined;
    /** The bridge's promise per request: resolved once the render was read to its end. */
    const sent: Promise<void>[] = [];
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    /** Serves `make()` through the bridge on port 0 (Express's res.status() added to Node's response). */
    async function serve(make: () => Response): Promise<string> {
      server = createServer((_req, res) => {
        const express = Object.assign(res, { status: (code: number) => ((res.statusCode = code), express) });
        sent.push(sendFetchResponse(express as unknown as ExpressResponse, make()));
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    }

    it("answers HEAD with the headers and no body, still reading the render to its end", async () => {
      const reads: ReturnType<typeof trackedBody>["state"][] = [];
      const url = await serve(() => {
        const { stream, state } = trackedBody(["<html>", "</html>"]);
        reads.push(state);
        const headers = new Headers({ "content-type": "text/html" });
        headers.append("set-cookie", "a=1");
        headers.append("set-cookie", "b=2");
        return new Response(stream, { status: 200, headers });
      });
      const head = await fetch(url, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("text/html");
      expect(head.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      expect(await head.text()).toBe("");
      await sent[0];
      expect(reads[0]).toEqual({ pulled: 2, cancelled: false });

      const get = await fetch(url);
      expect(await get.text()).toBe("<html></html>");
    });
  });
});
