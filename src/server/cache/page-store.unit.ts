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
  it("holds the byte budget, evicting the least recently used entries (among those asked for less) and their tags", () => {
    const one = entry("/0/", ["site:dupont", "page:p0"], 10_000).size;
    const store = new PageStore(one * 5);
    // As the page cache does: a page is looked up (a miss) before its render is stored.
    const add = (i: number) => {
      store.get(`dupont\u0000\u0000/${i}/`);
      store.set(entry(`/${i}/`, ["site:dupont", `page:p${i}`], 10_000));
    };
    for (let i = 0; i < 5; i++) add(i);
    expect(store.count).toBe(5);
    store.get("dupont\u0000\u0000/0/"); // recently used: survives the next insertions
    // Newcomers asked for twice (more often than the held pages but /0/): each takes the least recently used place.
    for (let i = 5; i < 8; i++) {
      store.get(`dupont\u0000\u0000/${i}/`);
      add(i);
    }
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes);
    expect(store.count).toBe(5);
    expect(store.peek("dupont\u0000\u0000/0/")).toBeDefined();
    expect(store.peek("dupont\u0000\u0000/1/")).toBeUndefined();
    expect(store.keysFor(["page:p1"]).size).toBe(0);
    expect(store.keysFor(["site:dupont"]).size).toBe(5);
  });

  it("orders by the last hit whether the page hit was the most recent one or not", () => {
    const one = entry("/0/", ["site:dupont"], 10_000).size;
    const key = (i: number) => `dupont\u0000\u0000/${i}/`;
    const fill = () => {
      const store = new PageStore(one * 3);
      for (let i = 0; i < 3; i++) {
        store.get(key(i));
        store.set(entry(`/${i}/`, ["site:dupont"], 10_000));
      }
      return store;
    };
    // A newcomer asked for often enough takes the least recently used place.
    const push = (store: PageStore) => {
      for (let n = 0; n < 6; n++) store.get(key(9));
      store.set(entry("/9/", ["site:dupont"], 10_000));
    };
    // The most recent page hit again and again, then another: the one left behind goes.
    const a = fill();
    for (const i of [2, 2, 0, 0, 1]) a.get(key(i));
    push(a);
    expect([0, 1, 2, 9].map((i) => a.peek(key(i)) !== undefined)).toEqual([true, true, false, true]);
    // The page added last, then hit after another was: it moved behind it, and the other goes.
    const b = fill();
    for (const i of [0, 1, 2, 1]) b.get(key(i));
    push(b);
    expect([0, 1, 2, 9].map((i) => b.peek(key(i)) !== undefined)).toEqual([false, true, true, true]);
  });

  it("moves a page hit again behind a page stored after its last hit (an outside review's case)", () => {
    const one = entry("/0/", ["site:dupont"], 10_000).size;
    const key = (i: number) => `dupont\u0000\u0000/${i}/`;
    const store = new PageStore(one * 4);
    for (const i of [0, 1, 2]) {
      store.get(key(i));
      store.set(entry(`/${i}/`, ["site:dupont"], 10_000));
    }
    store.get(key(0)); // 0 is the most recently used
    store.get(key(3));
    store.set(entry("/3/", ["site:dupont"], 10_000)); // a newer page stored after it
    store.get(key(0)); // hit again: it must move behind 3
    for (const n of [7, 8, 9]) {
      for (let k = 0; k < 6; k++) store.get(key(n));
      store.set(entry(`/${n}/`, ["site:dupont"], 10_000));
    }
    // 1 and 2 were the least recently used, then 3; never 0.
    expect([0, 1, 2, 3].map((i) => store.peek(key(i)) !== undefined)).toEqual([true, false, false, false]);
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

  it("keeps the hot pages through a crawler's scan of the long tail (admission by frequency)", () => {
    const size = entry("/x/", ["site:dupont"], 10_000).size;
    const store = new PageStore(size * 100);
    const evicted: string[] = [];
    const withHook = new PageStore(size * 100, (e) => evicted.push(e.target.url));
    for (const s of [store, withHook]) {
      // 50 hot pages, each asked for a few times (the first time a miss, then its render stored).
      for (let round = 0; round < 4; round++)
        for (let i = 0; i < 50; i++) {
          const key = `dupont\u0000\u0000/hot/${i}/`;
          if (!s.get(key)) s.set(entry(`/hot/${i}/`, ["site:dupont"], 10_000));
        }
      // A crawler: 5,000 pages of the long tail, each asked for once (a miss, then stored), while visitors go on
      // asking for the hot pages (one request in five).
      for (let i = 0; i < 5_000; i++) {
        const key = `dupont\u0000\u0000/tail/${i}/`;
        s.get(key);
        s.set(entry(`/tail/${i}/`, ["site:dupont"], 10_000));
        if (i % 4 === 0) {
          const hot = `dupont\u0000\u0000/hot/${(i / 4) % 50}/`;
          if (!s.get(hot)) s.set(entry(`/hot/${(i / 4) % 50}/`, ["site:dupont"], 10_000));
        }
      }
      expect(s.bytes).toBeLessThanOrEqual(s.maxBytes);
      for (let i = 0; i < 50; i++) expect(s.peek(`dupont\u0000\u0000/hot/${i}/`), `hot page ${i}`).toBeDefined();
    }
    // Every page that left for room went through the hook (to the warm tier), the hot pages never.
    expect(evicted.length).toBeGreaterThan(4_900);
    expect(evicted.some((url) => url.startsWith("/hot/"))).toBe(false);
  });

  it("still takes a new page in once it is asked for more often than the coldest held one", () => {
    const size = entry("/x/", ["site:dupont"], 10_000).size;
    const store = new PageStore(size * 20);
    for (let i = 0; i < 40; i++) {
      store.get(`dupont\u0000\u0000/old/${i}/`);
      store.set(entry(`/old/${i}/`, ["site:dupont"], 10_000));
    }
    // A page that became popular: refused while it is as cold as the rest, held once it is asked for more.
    const key = "dupont\u0000\u0000/new/";
    for (let ask = 0; ask < 3 && !store.get(key); ask++) store.set(entry("/new/", ["site:dupont"], 10_000));
    expect(store.peek(key)).toBeDefined();
  });

  it("forgets a deleted entry's tags", () => {
    const store = new PageStore(1_000_000);
    store.set(entry("/a/", ["site:martin"], 100, "martin"));
    store.delete("martin\u0000\u0000/a/");
    expect(store.keysFor(["site:martin"]).size).toBe(0);
  });
});
