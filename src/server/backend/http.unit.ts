import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { getJson, MAX_PAYLOAD_BYTES, request } from "./http";
import { BackendError } from "./errors";

/** A stand-in backend whose page payloads are as large as the test asks, declared or chunked. */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const size = Number(url.searchParams.get("size"));
    const body = JSON.stringify({ html: "x".repeat(size) });
    if (url.pathname.endsWith("/declared/")) {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
      return;
    }
    // Chunked: no length announced, the bytes just keep coming.
    res.writeHead(200, { "content-type": "application/json" });
    for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.slice(i, i + 64 * 1024));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const schema = z.object({ html: z.string() });
const read = (path: string) => getJson({ baseUrl: base, timeoutMs: 5000 }, path, schema);

describe("getJson reads a bounded payload", () => {
  it("parses a payload under the bound", async () => {
    expect((await read("/sites/dupont/pages/home/declared/?size=1000")).html).toHaveLength(1000);
    expect((await read("/sites/dupont/pages/home/chunked/?size=300000")).html).toHaveLength(300_000);
  });

  it.each(["declared", "chunked"])("refuses a %s payload over the bound before parsing it, naming the practice and resource", async (how) => {
    const error = await read(`/sites/dupont/pages/soins/${how}/?size=${MAX_PAYLOAD_BYTES + 10}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).failure).toBe("invalid_payload");
    expect((error as BackendError).message).toContain(`/sites/dupont/pages/soins/${how}/`);
    expect((error as BackendError).message).toContain(`over ${MAX_PAYLOAD_BYTES} bytes`);
  });
});

describe("a read whose connection was reset before any answer is asked again, once; a write never", () => {
  /** A fetch that fails with `code` the first `failures` times, then answers 200, counting its calls. */
  const flaky = (code: string, failures: number) => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      if (calls <= failures) throw new TypeError("fetch failed", { cause: { code } });
      return new Response('{"html":"ok"}', { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof globalThis.fetch;
    return { fetch, calls: () => calls };
  };

  it("asks a GET again after a reset and reads its answer", async () => {
    for (const code of ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]) {
      const f = flaky(code, 1);
      expect((await getJson({ baseUrl: "http://backend", timeoutMs: 5000, fetch: f.fetch }, "/sites/dupont/pages/", schema)).html, code).toBe("ok");
      expect(f.calls(), code).toBe(2);
    }
  });

  it("asks once more only: a second reset is the backend unreachable", async () => {
    const f = flaky("ECONNRESET", 2);
    await expect(getJson({ baseUrl: "http://backend", timeoutMs: 5000, fetch: f.fetch }, "/sites/dupont/pages/", schema)).rejects.toMatchObject({ failure: "unreachable" });
    expect(f.calls()).toBe(2);
  });

  it("never sends a POST twice, and does not ask again a backend that refused the connection", async () => {
    const post = flaky("ECONNRESET", 1);
    await expect(request({ baseUrl: "http://backend", timeoutMs: 5000, fetch: post.fetch }, "/contact/", { method: "POST", body: "{}" })).rejects.toBeInstanceOf(BackendError);
    expect(post.calls()).toBe(1);
    const refused = flaky("ECONNREFUSED", 1);
    await expect(request({ baseUrl: "http://backend", timeoutMs: 5000, fetch: refused.fetch }, "/sites/", { method: "GET" })).rejects.toMatchObject({ failure: "unreachable" });
    expect(refused.calls()).toBe(1);
  });
});
