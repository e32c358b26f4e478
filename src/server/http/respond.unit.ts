/**
 * Reading a target and writing short answers, on a real node:http server on port 0 where Node's part counts
 * (HEAD, lengths), and the compressed whole body.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { endWithBody, pathOf, redirect, sendJson, sendText } from "./respond";
import { get as raw } from "../../../tests/support/cache";

describe("pathOf", () => {
  it.each([
    ["/a/b?c=1", "/a/b"],
    ["/", "/"],
    ["/a?", "/a"],
    ["*", "*"],
  ])("%s -> %s", (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<number> {
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A GET (or `method`) of `/` with the raw bytes as received (tests/support/cache.ts). */
const get = (port: number, headers: Record<string, string> = {}, method = "GET") =>
  raw(`http://127.0.0.1:${port}`, "127.0.0.1", "/", { method, headers }).then((r) => ({ ...r, body: r.raw }));

describe("answers", () => {
  it("sendText and sendJson: status, type, length; HEAD without the body", async () => {
    let json = false;
    const port = await serve((_req, res) => (json ? sendJson(res, 400, { error: "é" }) : sendText(res, 404, "Not Found", undefined, { "Cache-Control": "no-store" })));
    expect(await get(port)).toMatchObject({
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "content-length": "9", "cache-control": "no-store" },
    });
    const head = await get(port, {}, "HEAD");
    expect([head.status, head.body.length, head.headers["content-length"]]).toEqual([404, 0, "9"]);
    json = true;
    const res = await get(port);
    expect([res.status, res.headers["content-type"], JSON.parse(res.body.toString())]).toEqual([400, "application/json; charset=utf-8", { error: "é" }]);
  });

  it("redirect: the Location escaped as Express escaped it, an escape kept", async () => {
    const port = await serve((_req, res) => redirect(res, 301, '/a b/"c"/%41/100%/é'));
    const res = await get(port);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/a%20b/%22c%22/%41/100%25/%C3%A9");
  });

  it("endWithBody: compresses a compressible body from 1 KiB as accepted, else sends it as it is", async () => {
    const html = `<p>${"bonjour ".repeat(300)}</p>`;
    let body = html;
    let type = "text/html; charset=utf-8";
    const port = await serve(async (req, res) => {
      res.setHeader("Content-Type", type);
      await endWithBody(req, res, Buffer.from(body));
    });
    const br = await get(port, { "accept-encoding": "br" });
    expect([br.headers["content-encoding"], br.headers.vary, brotliDecompressSync(br.body).toString()]).toEqual(["br", "Accept-Encoding", html]);
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    const gz = await get(port, { "accept-encoding": "gzip" });
    expect(gunzipSync(gz.body).toString()).toBe(html);
    const plain = await get(port);
    expect([plain.headers["content-encoding"], plain.body.toString()]).toEqual([undefined, html]);
    body = "court";
    expect((await get(port, { "accept-encoding": "br" })).headers["content-encoding"]).toBeUndefined();
    body = html;
    type = "image/png";
    expect((await get(port, { "accept-encoding": "br" })).headers["content-encoding"]).toBeUndefined();
  });
});
