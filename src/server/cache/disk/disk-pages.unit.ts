import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiskPages, type AttachedRecord } from "./disk-pages";
import { encodeRecord } from "./record";
import { assembleEntry, type PageEntry } from "../entry";

const work = mkdtempSync(join(tmpdir(), "disk-pages-"));
const opened: DiskPages[] = [];
afterEach(() => {
  for (const pages of opened.splice(0)) pages.close();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function entry(path: string, tags: string[], bodyBytes = 2_000, renderedAt = 1_000): PageEntry {
  const key = `dupont\u0000https://x\u0000${path}`;
  return assembleEntry({
    target: { key, code: "dupont", origin: "https://x", url: path },
    headers: ["content-type", "text/html; charset=utf-8", "content-security-policy", "script-src 'sha256-x'"],
    servedByStack: true,
    br: Buffer.alloc(bodyBytes / 2, path),
    gzip: Buffer.alloc(bodyBytes / 2, `${path}gz`),
    identity: null,
    identityLength: bodyBytes * 3,
    etag: `W/"${path}"`,
    tags,
    renderedAt,
    expiresAt: renderedAt + 1,
  });
}

function disk(opts: Partial<ConstructorParameters<typeof DiskPages>[0]> = {}) {
  const pages = new DiskPages({ dir: mkdtempSync(join(work, "d-")), maxBytes: 10_000_000, maxKeys: 10_000, ttlMs: 60_000, ...opts });
  opened.push(pages);
  return pages;
}

describe("DiskPages (the warm tier on local disk)", () => {
  it("reads a page back as it was written: bodies, headers, tags, validator; expiring a TTL after its render", async () => {
    const pages = disk();
    const page = entry("/a/", ["site:dupont", "page:a"]);
    pages.save(page);
    await pages.idle();
    const loaded = (await pages.load(page.target.key))!;
    expect(loaded.target).toEqual(page.target);
    expect(loaded.br!.equals(page.br!) && loaded.gzip!.equals(page.gzip!)).toBe(true);
    expect([loaded.headers, loaded.tags, loaded.etag, loaded.identityLength]).toEqual([page.headers, page.tags, page.etag, page.identityLength]);
    expect([loaded.renderedAt, loaded.expiresAt, loaded.invalidated, loaded.servedByStack]).toEqual([1_000, 61_000, false, false]);
    // Honestly sized like any entry: the loaded copy costs memory what the rendered one did.
    expect(loaded.size).toBe(page.size);
    expect(await pages.load("dupont\u0000https://x\u0000/missing/")).toBeNull();
  });

  it("never serves a page an invalidation named, not even from a read that was already running", async () => {
    const pages = disk();
    pages.save(entry("/a/", ["site:dupont", "page:a"]));
    pages.save(entry("/b/", ["site:dupont", "page:b"]));
    await pages.idle();
    expect([...pages.invalidate(["page:a"])]).toEqual([entry("/a/", []).target.key]);
    expect(await pages.load(entry("/a/", []).target.key)).toBeNull();
    // A read started before the invalidation, finishing after it.
    const racing = pages.load(entry("/b/", []).target.key);
    pages.invalidate(["site:dupont"]);
    expect(await racing).toBeNull();
    expect(pages.count).toBe(0);
  });

  it("replaces a page by its newer render, and forgets a deleted one", async () => {
    const pages = disk();
    pages.save(entry("/a/", ["page:a"], 2_000, 1_000));
    pages.save(entry("/a/", ["page:a2"], 2_000, 5_000));
    await pages.idle();
    expect((await pages.load(entry("/a/", []).target.key))!.renderedAt).toBe(5_000);
    expect(pages.invalidate(["page:a"]).size).toBe(0); // the old render's tags name nothing any more
    pages.delete(entry("/a/", []).target.key);
    expect(await pages.load(entry("/a/", []).target.key)).toBeNull();
  });

  it("stays within its bytes and keys, dropping the oldest pages first", async () => {
    const one = encodeRecord(entry("/0/", ["page:0"])).length;
    const bytes = disk({ maxBytes: one * 40, segmentBytes: one * 10 });
    for (let i = 0; i < 200; i++) bytes.save(entry(`/${i}/`, [`page:${i}`]));
    await bytes.idle();
    expect(bytes.bytes).toBeLessThanOrEqual(one * 40);
    expect(await bytes.load(entry("/0/", []).target.key)).toBeNull();
    expect(await bytes.load(entry("/199/", []).target.key)).not.toBeNull();
    expect(bytes.invalidate(["page:0"]).size).toBe(0); // the dropped pages left the tag index too

    const keys = disk({ maxKeys: 30, segmentBytes: one * 10 });
    for (let i = 0; i < 200; i++) keys.save(entry(`/${i}/`, [`page:${i}`]));
    await keys.idle();
    expect(keys.count).toBeLessThanOrEqual(30);
    expect(await keys.load(entry("/199/", []).target.key)).not.toBeNull();
  });

  it("leaves no file behind: its segments are unlinked once open", async () => {
    const dir = mkdtempSync(join(work, "files-"));
    const pages = disk({ dir });
    pages.save(entry("/a/", ["page:a"]));
    await pages.idle();
    expect(await pages.load(entry("/a/", []).target.key)).not.toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("without a writable directory, says so once and writes nothing", async () => {
    const lines: string[] = [];
    const file = join(work, "a-file");
    writeFileSync(file, "");
    const pages = disk({ dir: join(file, "below"), log: (line) => lines.push(line) });
    pages.save(entry("/a/", ["page:a"]));
    pages.save(entry("/b/", ["page:b"]));
    await pages.idle();
    expect(pages.count).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/warm tier on disk off/);
  });

  it("serves an attached file's pages on demand, and forgets them on invalidation", async () => {
    const file = join(work, "attached.bin");
    const a = encodeRecord(entry("/a/", ["site:dupont", "page:a"]));
    const b = encodeRecord(entry("/b/", ["site:dupont", "page:b"]));
    writeFileSync(file, Buffer.concat([...a.parts, ...b.parts]));
    async function* records(): AsyncGenerator<AttachedRecord> {
      yield { key: entry("/a/", []).target.key, offset: 0, length: a.length, tags: ["site:dupont", "page:a"] };
      yield { key: entry("/b/", []).target.key, offset: a.length, length: b.length, tags: ["site:dupont", "page:b"] };
    }
    const pages = disk({ dir: null });
    expect(pages.readSince).toBeNull();
    expect(await pages.attach(file, records(), 0)).toBe(2);
    expect(pages.bytes).toBe(0); // the build's file is not counted against the budget of what this tier writes
    expect((await pages.load(entry("/b/", []).target.key))!.etag).toBe('W/"/b/"');
    // A record read at the wrong offset is refused, never served for another page.
    const wrong = disk({ dir: null });
    async function* misplaced(): AsyncGenerator<AttachedRecord> {
      yield { key: entry("/a/", []).target.key, offset: a.length, length: b.length, tags: ["page:a"] };
    }
    await wrong.attach(file, misplaced(), 0);
    expect(await wrong.load(entry("/a/", []).target.key)).toBeNull();
    pages.invalidate(["page:a"]);
    expect(await pages.load(entry("/a/", []).target.key)).toBeNull();
    // An index that breaks off half-way is not used at all, and says when it would have been read from.
    const broken = disk({ dir: null });
    async function* halfway(): AsyncGenerator<AttachedRecord> {
      yield { key: entry("/a/", []).target.key, offset: 0, length: a.length, tags: ["page:a"] };
      throw new Error("index.jsonl: unexpected end");
    }
    await expect(broken.attach(file, halfway(), 5)).rejects.toThrow("unexpected end");
    expect([broken.count, broken.readSince, await broken.load(entry("/a/", []).target.key)]).toEqual([0, null, null]);
    expect(pages.readSince).toBe(0);
  });
});
