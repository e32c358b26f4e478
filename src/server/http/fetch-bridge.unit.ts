/**
 * The bridge's two conversions with fake Node objects over Node streams; HEAD and compression on a real
 * node:http response on port 0, since dropping the body of a HEAD answer is Node's part of the behaviour.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { Readable, Writable } from "node:stream";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import { get } from "../../../tests/support/cache";

/** The parts of a Node request the bridge reads, over a readable body (like Node's IncomingMessage). */
function nodeRequest(opts: { method?: string; headers?: IncomingHttpHeaders; url?: string; body?: string }): IncomingMessage {
  const stream = Readable.from(opts.body === undefined ? [] : [Buffer.from(opts.body)]);
  return Object.assign(stream, {
    method: opts.method ?? "GET",
    headers: opts.headers ?? {},
    url: opts.url ?? "/",
  }) as unknown as IncomingMessage;
}

const HOST = "www.cabinet-dupont.fr";

describe("toFetchRequest", () => {
  it("builds the URL from the resolved host, the scheme given and the target as received", () => {
    const req = nodeRequest({ url: "/soins/implants/?utm_source=x", headers: { host: "ignored.example" } });
    expect(toFetchRequest(req, HOST, "http").url).toBe(
      "http://www.cabinet-dupont.fr/soins/implants/?utm_source=x",
    );
  });

  it("drops the headers a client could use to pass for another host", () => {
    const req = nodeRequest({
      headers: {
        host: "www.cabinet-dupont.fr",
        "x-forwarded-host": "evil.example",
        "x-forwarded-server": "evil.example",
        forwarded: "host=evil.example",
        "x-original-host": "evil.example",
        "accept-language": "fr-FR",
      },
    });
    const headers = toFetchRequest(req, HOST, "https").headers;
    for (const name of ["x-forwarded-host", "x-forwarded-server", "forwarded", "x-original-host"]) {
      expect(headers.has(name)).toBe(false);
    }
    expect(headers.get("accept-language")).toBe("fr-FR");
    expect(headers.get("host")).toBe("www.cabinet-dupont.fr");
  });

  it("keeps every value of a repeated header", () => {
    const req = nodeRequest({ headers: { "set-cookie": ["a=1", "b=2"], "x-note": ["one", "two"] } });
    const headers = toFetchRequest(req, HOST, "https").headers;
    expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(headers.get("x-note")).toBe("one, two");
  });

  it.each(["GET", "HEAD"])("gives a %s request no body", (method) => {
    const request = toFetchRequest(nodeRequest({ method, body: "ignored" }), HOST, "https");
    expect(request.method).toBe(method);
    expect(request.body).toBeNull();
  });

  // Only that a POST carries a body: how it is read from Node (and its limits) is the body reader's
  // concern, and the contact integration tests check what arrives.
  it("gives a POST a body", () => {
    const req = nodeRequest({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Jeanne&consent=on",
    });
    const request = toFetchRequest(req, HOST, "https");
    expect(request.method).toBe("POST");
    expect(request.body).not.toBeNull();
  });
});

/**
 * The parts of a Node response the bridge writes to, over a Node Writable (so write(), end(),
 * back-pressure and 'drain' behave as on a socket). A small high-water mark makes back-pressure happen.
 */
class FakeResponse extends Writable {
  statusCode = 200;
  readonly headers = new Map<string, string | string[]>();
  readonly chunks: Buffer[] = [];

  constructor(private readonly delayMs = 0) {
    super({ highWaterMark: 4 });
  }

  setHeader(name: string, value: string | string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers.get(name.toLowerCase());
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    setTimeout(callback, this.delayMs);
  }

  get body(): string {
    return Buffer.concat(this.chunks).toString();
  }

  asNode(): ServerResponse {
    return this as unknown as ServerResponse;
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
  /** A GET that accepts no encoding: the body goes out as it is. */
  const GET = nodeRequest({});

  it("copies the status and headers, every Set-Cookie as its own value", async () => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=2; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT");
    const res = new FakeResponse();
    await sendFetchResponse(GET, res.asNode(), new Response("<p>ok</p>", { status: 404, headers }));
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
    await sendFetchResponse(GET, res.asNode(), new Response(stream));
    expect(res.body).toBe(parts.join(""));
    expect(state.pulled).toBe(parts.length);
    expect(res.writableEnded).toBe(true);
  });

  it("ends a response without a body", async () => {
    const res = new FakeResponse();
    await sendFetchResponse(GET, res.asNode(), new Response(null, { status: 304, headers: { etag: 'W/"x"' } }));
    expect(res.statusCode).toBe(304);
    expect(res.headers.get("etag")).toBe('W/"x"');
    expect(res.body).toBe("");
    expect(res.writableEnded).toBe(true);
  });

  it("sets nothing of a whole body's answer when the body fails midway: the error is ours to answer", async () => {
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(new Uint8Array(1000));
        else controller.error(new Error("backend went away"));
      },
    });
    const res = new FakeResponse();
    const answer = new Response(failing, {
      status: 200,
      headers: { "content-type": "image/svg+xml", "content-length": "700000", "cache-control": "public, max-age=604800", etag: '"abc"' },
    });
    await expect(sendFetchResponse(GET, res.asNode(), answer)).rejects.toThrow();
    expect([...res.headers.keys()]).toEqual([]);
    expect(res.chunks).toEqual([]);
  });

  it("reads the render to its end, without cancelling it, when the visitor has gone", async () => {
    const { stream, state } = trackedBody(["a", "b", "c", "d"]);
    const res = new FakeResponse();
    res.destroy();
    await sendFetchResponse(GET, res.asNode(), new Response(stream));
    expect(state.pulled).toBe(4);
    expect(state.cancelled).toBe(false);
    expect(res.chunks).toEqual([]);
  });

  describe("on a node:http response", () => {
    let server: Server | undefined;
    /** The bridge's promise per request: resolved once the render was read to its end. */
    const sent: Promise<void>[] = [];
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    /** Serves `make()` through the bridge on port 0. */
    async function serve(make: () => Response): Promise<string> {
      server = createServer((req, res) => {
        sent.push(sendFetchResponse(req, res, make()));
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

    /** A GET of the raw bytes as received (tests/support/cache.ts). */
    const rawGet = (url: string, headers: Record<string, string>) =>
      get(url, new URL(url).host, "/", { headers }).then((r) => ({ ...r, body: r.raw }));

    it("compresses a body of a compressible type the client accepts, and only that", async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(600)}</svg>`;
      const url = await serve(() => new Response(svg, { headers: { "content-type": "image/svg+xml" } }));
      const br = await rawGet(url, { "accept-encoding": "gzip, br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(brotliDecompressSync(br.body).toString()).toBe(svg);
      const plain = await rawGet(url, {});
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toBe("Accept-Encoding");
      expect(plain.body.toString()).toBe(svg);
    });

    it("sends a body of a known, small length whole: one length, compressed in one call when accepted", async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(600)}</svg>`;
      const url = await serve(() => new Response(svg, { headers: { "content-type": "image/svg+xml", "content-length": String(svg.length) } }));
      const br = await rawGet(url, { "accept-encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-length"]).toBe(String(br.body.length));
      expect(br.headers["transfer-encoding"]).toBeUndefined();
      expect(brotliDecompressSync(br.body).toString()).toBe(svg);
      const plain = await rawGet(url, {});
      expect([plain.headers["content-length"], plain.body.toString()]).toEqual([String(svg.length), svg]);
    });

    it("leaves alone a body encoded already, one of a type not worth it, and a short one", async () => {
      const image = Buffer.alloc(4096, 7);
      const answers = [
        new Response(image, { headers: { "content-type": "image/webp" } }),
        new Response("already", { headers: { "content-type": "text/html", "content-encoding": "identity-ish" } }),
        new Response("short", { headers: { "content-type": "text/html", "content-length": "5" } }),
      ];
      const url = await serve(() => answers.shift()!);
      const webp = await rawGet(url, { "accept-encoding": "br" });
      expect([webp.headers["content-encoding"], webp.body.equals(image)]).toEqual([undefined, true]);
      const encoded = await rawGet(url, { "accept-encoding": "br" });
      expect([encoded.headers["content-encoding"], encoded.body.toString()]).toEqual(["identity-ish", "already"]);
      const short = await rawGet(url, { "accept-encoding": "br" });
      expect([short.headers["content-encoding"], short.body.toString()]).toEqual([undefined, "short"]);
    });
  });
});
