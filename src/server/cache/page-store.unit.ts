import { describe, expect, it } from "vitest";
import { PageStore } from "./page-store";
import { assembleEntry, type PageEntry } from "./entry";

function entry(path: string, tags: string[], bodyBytes: number, code = "dupont"): PageEntry {
  return assembleEntry({
    target: { key: `${code}\u0000\u0000${path}`, code, origin: "https://x", url: path },
    headers: ["content-type", "text/html"],
    servedByStack: false,
    br: Buffer.alloc(bodyBytes / 2),
    gzip: Buffer.alloc(bodyBytes / 2),
    identity: null,
    identityLength: bodyBytes * 4,
    etag: 'W/"x"',
    tags,
    renderedAt: 0,
    expiresAt: 1,
  });
}

describe("PageStore", () => {
  it("holds the byte budget, evicting the least recently used entries and their tags", () => {
    const one = entry("/0/", ["site:dupont", "page:p0"], 10_000).size;
    const store = new PageStore(one * 5);
    for (let i = 0; i < 5; i++) store.set(entry(`/${i}/`, ["site:dupont", `page:p${i}`], 10_000));
    expect(store.count).toBe(5);
    store.get("dupont\u0000\u0000/0/"); // recently used: survives the next insertions
    for (let i = 5; i < 8; i++) store.set(entry(`/${i}/`, ["site:dupont", `page:p${i}`], 10_000));
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes);
    expect(store.count).toBe(5);
    expect(store.peek("dupont\u0000\u0000/0/")).toBeDefined();
    expect(store.peek("dupont\u0000\u0000/1/")).toBeUndefined();
    expect(store.keysFor(["page:p1"]).size).toBe(0);
    expect(store.keysFor(["site:dupont"]).size).toBe(5);
  });

  it("re-indexes a replaced entry under its new tags only", () => {
    const store = new PageStore(1_000_000);
    store.set(entry("/a/", ["site:dupont", "page:old"], 100));
    store.set(entry("/a/", ["site:dupont", "page:new"], 100));
    expect(store.count).toBe(1);
    expect(store.keysFor(["page:old"]).size).toBe(0);
    expect(store.keysFor(["page:new"]).size).toBe(1);
  });

  it("refuses an entry larger than the whole budget without indexing it", () => {
    const store = new PageStore(5_000);
    expect(store.set(entry("/big/", ["site:dupont"], 20_000))).toBe(false);
    expect(store.count).toBe(0);
    expect(store.keysFor(["site:dupont"]).size).toBe(0);
  });

  it("forgets a deleted entry's tags", () => {
    const store = new PageStore(1_000_000);
    store.set(entry("/a/", ["site:martin"], 100, "martin"));
    store.delete("martin\u0000\u0000/a/");
    expect(store.keysFor(["site:martin"]).size).toBe(0);
  });
});
