import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNotFoundWatch, fileSink, readNotFoundFiles, TopCounter, watchedUrl, type NotFoundSink } from "./not-found-watch";

describe("watchedUrl", () => {
  it("keeps the path and the parameters that name a page, never tracking or a visitor's values", () => {
    expect(watchedUrl("/implants.html")).toBe("/implants.html");
    expect(watchedUrl("/?page_id=12&utm_source=x&fbclid=abc")).toBe("/?page_id=12");
    expect(watchedUrl("/?p=34&replytocom=7")).toBe("/?p=34");
    expect(watchedUrl("/contact/?email=jeanne.dupont@example.fr&nom=Jeanne%20Dupont")).toBe("/contact/");
    // Issue 26: a form's query kept verbatim (only values with "@" were dropped). Names, phones and dates never are.
    expect(watchedUrl("/ancien-formulaire/?nom=Durand_Jeanne&telephone=0612345678&ddn=1985-05-07")).toBe("/ancien-formulaire/");
    expect(watchedUrl("/?id=0612345678&page=1985-05-07&q=Jeanne%20Durand")).toBe("/");
    // What names a page on an old CMS stays: Joomla's id:alias, Drupal's node, WordPress's ids.
    expect(watchedUrl("/index.php?option=com_content&view=article&id=12:implants&Itemid=101")).toBe(
      "/index.php?option=com_content&view=article&id=12:implants&Itemid=101",
    );
    expect(watchedUrl("/?q=node/12&utm_source=x")).toBe("/?q=node/12");
    expect(watchedUrl(`/${"a".repeat(400)}`)).toBeNull();
  });
});

describe("TopCounter", () => {
  it("counts per practice, and stays bounded: a scanner's one-off paths replace each other, a URL asked often stays", () => {
    const counter = new TopCounter(50, 2);
    // Space saving: a URL asked more than (all requests / capacity) times is sure to stay, with its count or more.
    for (let i = 0; i < 1000; i++) {
      counter.record("martin", `/scan-${i}`);
      if (i % 10 === 0) counter.record("martin", "/?page_id=12");
    }
    counter.record("dupont", "/old.html");
    counter.record("third", "/x"); // over the practices bound: not counted
    const taken = counter.take();
    const martin = taken.get("martin")!;
    expect(martin.size).toBe(50);
    expect(martin.get("/?page_id=12")).toBeGreaterThanOrEqual(100);
    expect(Math.max(...martin.values())).toBe(martin.get("/?page_id=12"));
    expect(taken.get("dupont")).toEqual(new Map([["/old.html", 1]]));
    expect(taken.has("third")).toBe(false);
    expect(counter.take().size).toBe(0);
  });
});

describe("the watch's flush", () => {
  it("hands each practice's counts to the sink, and a file sink per instance sums with the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "not-found-"));
    try {
      const a = createNotFoundWatch(fileSink(dir, "a"), { flushMs: 60_000 });
      const b = createNotFoundWatch(fileSink(dir, "b"), { flushMs: 60_000 });
      a.record("martin", "/?page_id=12");
      a.record("martin", "/?page_id=12&utm_medium=mail");
      b.record("martin", "/?page_id=12");
      b.record("martin", "/le-centre/");
      await Promise.all([a.stop(), b.stop()]);
      expect(readNotFoundFiles(dir, "martin")).toEqual(new Map([["/?page_id=12", 3], ["/le-centre/", 1]]));
      // A later flush adds to the instance's file.
      const again = createNotFoundWatch(fileSink(dir, "a"));
      again.record("martin", "/le-centre/");
      await again.stop();
      expect(readNotFoundFiles(dir, "martin").get("/le-centre/")).toBe(2);
      expect(readNotFoundFiles(dir, "nobody").size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts listed practices only: an invented preview code writes nothing (issue 26: 203 folders in 11 s)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "not-found-"));
    try {
      const watch = createNotFoundWatch(fileSink(dir, "a"), { flushMs: 60_000, listed: (code) => code === "martin" });
      watch.record("martin", "/old/");
      for (let i = 0; i < 50; i++) watch.record(`rtq${i}`, `/probe-${i}/`);
      await watch.stop();
      expect(readdirSync(dir)).toEqual(["martin"]);
      expect(readNotFoundFiles(dir, "martin")).toEqual(new Map([["/old/", 1]]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failing sink costs the counts, one log line without any URL", async () => {
    const lines: string[] = [];
    const sink: NotFoundSink = { add: () => Promise.reject(new Error("ECONNREFUSED /secret-path")) };
    const watch = createNotFoundWatch(sink, { log: (l) => void lines.push(l) });
    watch.record("martin", "/secret-path");
    await watch.flush();
    watch.record("martin", "/secret-path");
    await watch.stop();
    expect(lines).toEqual(["not-found watch: counts of 1 practice(s) not saved (Error)"]);
  });
});
