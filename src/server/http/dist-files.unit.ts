/**
 * The build's files over a real node:http server on port 0, from a build written to a temporary folder:
 * only the files listed at start, compressed as the client accepts, revalidated by ETag, HEAD without a body.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DistFiles } from "./dist-files";
import { pathOf } from "./respond";
import { get as raw } from "../../../tests/support/cache";

const BUNDLE = `export const a = ${JSON.stringify("x".repeat(3000))};\n`;
const PNG = Buffer.alloc(2048, 1);

let root: string;
let server: Server;
let files: DistFiles;
let port: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "dist-files-"));
  mkdirSync(join(root, "build"));
  mkdirSync(join(root, "media", "dupont"), { recursive: true });
  writeFileSync(join(root, "build", "q-1.js"), BUNDLE);
  writeFileSync(join(root, "build", "small.js"), "export{};");
  writeFileSync(join(root, "build", ".secret"), "no");
  writeFileSync(join(root, "media", "dupont", "logo.png"), PNG);
  files = new DistFiles(root);
  // Written after the start: not listed.
  writeFileSync(join(root, "build", "later.js"), BUNDLE);
  server = createServer((req, res) => {
    void files.answer(req, res, decodeURIComponent(pathOf(req.url!)), "public, max-age=60").then((answered) => {
      if (!answered) {
        res.statusCode = 599;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A GET (or `method`) with the raw bytes as received (tests/support/cache.ts). */
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  raw(`http://127.0.0.1:${port}`, "127.0.0.1", path, { method, headers }).then((r) => ({ ...r, body: r.raw }));

describe("DistFiles", () => {
  it("lists the build's files at start, dotfiles left out", () => {
    expect(files.count).toBe(3);
    expect(files.has("/build/q-1.js")).toBe(true);
    expect(files.has("/build/.secret")).toBe(false);
    expect(files.has("/build/later.js")).toBe(false);
  });

  it("answers nothing for a path it did not list: traversal, a dotfile, another case, a file written later", async () => {
    const req = { headers: {}, method: "GET" } as IncomingMessage;
    const written: string[] = [];
    const res = { setHeader: (name: string) => written.push(name) } as unknown as ServerResponse;
    for (const path of ["/build/../build/q-1.js", "/build/./q-1.js", "/build//q-1.js", "/build/.secret", "/BUILD/q-1.js", "/build/later.js", "/build/", "/etc/passwd"]) {
      expect(await files.answer(req, res, path, "public, max-age=60"), path).toBe(false);
    }
    expect(written).toEqual([]);
  });

  it("sends a bundle in br, gzip or as it is, as the client accepts, with the same validator", async () => {
    const br = await get("/build/q-1.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(BUNDLE);
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    const gz = await get("/build/q-1.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(BUNDLE);
    const plain = await get("/build/q-1.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(BUNDLE);
    for (const res of [br, gz, plain]) {
      expect(res.headers).toMatchObject({
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=60",
        vary: "Accept-Encoding",
        etag: br.headers.etag,
      });
      expect(res.headers["last-modified"]).toBeTruthy();
    }
  });

  it("does not compress a small file or an image", async () => {
    const small = await get("/build/small.js", { "accept-encoding": "br" });
    expect([small.headers["content-encoding"], small.body.toString()]).toEqual([undefined, "export{};"]);
    const png = await get("/media/dupont/logo.png", { "accept-encoding": "br" });
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.equals(PNG)).toBe(true);
  });

  it("answers a matching If-None-Match with 304, and HEAD with the headers alone", async () => {
    const first = await get("/build/q-1.js", { "accept-encoding": "br" });
    const again = await get("/build/q-1.js", { "accept-encoding": "br", "if-none-match": String(first.headers.etag) });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    const head = await get("/build/q-1.js", { "accept-encoding": "br" }, "HEAD");
    expect([head.status, head.body.length, head.headers["content-length"]]).toEqual([200, 0, first.headers["content-length"]]);
  });

  it("answers a file gone from the disk since the start as one it does not have, and lists it no more", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dist-files-gone-"));
    writeFileSync(join(dir, "gone.js"), BUNDLE);
    const gone = new DistFiles(dir);
    rmSync(join(dir, "gone.js"));
    const headers = new Map<string, unknown>();
    const res = {
      destroyed: false,
      setHeader: (n: string, v: unknown) => headers.set(n.toLowerCase(), v),
      removeHeader: (n: string) => headers.delete(n.toLowerCase()),
    } as unknown as ServerResponse;
    const req = { headers: {}, method: "GET" } as IncomingMessage;
    expect(await gone.answer(req, res, "/gone.js", "public, max-age=60")).toBe(false);
    expect([...headers.keys()]).toEqual([]);
    expect(gone.has("/gone.js")).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
