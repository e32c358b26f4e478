import { describe, expect, it } from "vitest";
import { brotliDecompressSync } from "node:zlib";
import { buildEntry } from "../entry";
import { cacheTarget } from "../key";
import { decodeEntry, encodeEntry } from "./codec";

const html = "<html><body>Bonjour, " + "cabinet dentaire ".repeat(200) + "</body></html>";

async function entry(contentType = "text/html; charset=utf-8", body = html) {
  const target = cacheTarget("GET", "dupont", "dupont.dev.localhost", "http", "/tarifs/")!;
  const built = await buildEntry(
    target,
    { status: 200, headers: new Headers({ "content-type": contentType, "x-robots-tag": "noindex" }), body: Buffer.from(body), tags: ["site:dupont", "page:tarifs"] },
    { renderedAt: 1_000, ttlMs: 60_000, servedByStack: true },
  );
  built.versions = ["v1", "v2"];
  return built as typeof built & { versions: string[] };
}

describe("shared store codec", () => {
  it("stores one brotli body and rebuilds the entry: same bytes, ETag, headers, tags, versions", async () => {
    const original = await entry();
    const blob = encodeEntry(original);
    expect(blob.length).toBeLessThan(original.br!.length + 600);
    const decoded = (await decodeEntry(blob, original.target.key, 5_000))!;
    expect(brotliDecompressSync(decoded.br!).toString()).toBe(html);
    expect(decoded.gzip).not.toBeNull();
    expect([decoded.etag, decoded.headers, decoded.target]).toEqual([original.etag, original.headers, original.target]);
    expect([decoded.tags, decoded.versions]).toEqual([original.tags, ["v1", "v2"]]);
    // Served through this instance's stack before the fast path may answer it; expiry from this instance's TTL.
    expect([decoded.servedByStack, decoded.renderedAt, decoded.expiresAt, decoded.invalidated]).toEqual([false, 1_000, 6_000, false]);
  });

  it("keeps a body that is not compressible as it is", async () => {
    const original = await entry("image/png", "\x89PNG not really");
    const decoded = (await decodeEntry(encodeEntry(original), original.target.key, 5_000))!;
    expect(decoded.identity!.equals(original.identity!)).toBe(true);
    expect(decoded.br).toBeNull();
  });

  it("keeps the meta first, readable by the load script without the body", async () => {
    const blob = encodeEntry(await entry());
    const newline = blob.indexOf(10);
    const meta = JSON.parse(blob.subarray(newline + 1, newline + 1 + Number(blob.subarray(0, newline).toString())).toString());
    expect([meta.tags, meta.versions]).toEqual([["page:tarifs", "site:dupont"], ["v1", "v2"]]);
  });

  it("refuses another key's page, a damaged body and garbage", async () => {
    const original = await entry();
    const blob = encodeEntry(original);
    expect(await decodeEntry(blob, "martin\u0000x\u0000/", 5_000)).toBeNull();
    expect(await decodeEntry(blob.subarray(0, blob.length - 3), original.target.key, 5_000)).toBeNull();
    expect(await decodeEntry(Buffer.from("garbage"), original.target.key, 5_000)).toBeNull();
    expect(await decodeEntry(Buffer.from("5\n{}{}{}"), original.target.key, 5_000)).toBeNull();
  });
});
