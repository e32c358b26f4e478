import { describe, expect, it } from "vitest";
import { buildEntry } from "../entry";
import { cacheTarget } from "../key";
import { decodeEntry, encodeEntry } from "./codec";

async function entry(html = "<html><body>Bonjour</body></html>") {
  const target = cacheTarget("GET", "dupont", "dupont.dev.localhost", "http", "/tarifs/")!;
  const built = await buildEntry(
    target,
    { status: 200, headers: new Headers({ "content-type": "text/html; charset=utf-8", "x-robots-tag": "noindex" }), body: Buffer.from(html), tags: ["site:dupont", "page:tarifs"] },
    { renderedAt: 1_000, ttlMs: 60_000, servedByStack: true },
  );
  built.versions = ["v1", "v2"];
  return built as typeof built & { versions: string[] };
}

describe("shared store codec", () => {
  it("round-trips an entry: bodies, headers, tags and versions; expiry from this instance's TTL", async () => {
    const original = await entry();
    const decoded = decodeEntry(encodeEntry(original), original.target.key, 5_000)!;
    expect(decoded.br!.equals(original.br!)).toBe(true);
    expect(decoded.gzip!.equals(original.gzip!)).toBe(true);
    expect(decoded.identity).toBeNull();
    expect(decoded.target).toEqual(original.target);
    expect([decoded.headers, decoded.etag, decoded.servedByStack]).toEqual([original.headers, original.etag, false]);
    expect([decoded.tags, decoded.versions]).toEqual([original.tags, ["v1", "v2"]]);
    expect([decoded.renderedAt, decoded.expiresAt, decoded.invalidated]).toEqual([1_000, 6_000, false]);
  });

  it("keeps the meta first, readable by the load script without the bodies", async () => {
    const blob = encodeEntry(await entry());
    const newline = blob.indexOf(10);
    const meta = JSON.parse(blob.subarray(newline + 1, newline + 1 + Number(blob.subarray(0, newline).toString())).toString());
    expect([meta.tags, meta.versions]).toEqual([["page:tarifs", "site:dupont"], ["v1", "v2"]]);
  });

  it("refuses another key's entry, a truncated blob and garbage", async () => {
    const original = await entry();
    const blob = encodeEntry(original);
    expect(decodeEntry(blob, "martin\u0000x\u0000/", 5_000)).toBeNull();
    expect(decodeEntry(blob.subarray(0, blob.length - 3), original.target.key, 5_000)).toBeNull();
    expect(decodeEntry(Buffer.from("garbage"), original.target.key, 5_000)).toBeNull();
    expect(decodeEntry(Buffer.from("5\n{}{}{}"), original.target.key, 5_000)).toBeNull();
  });
});
