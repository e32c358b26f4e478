import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepassHost, prepassOrigins, prepassPaths, runPrepass } from "./prepass";
import { PrepassWriter, readPrepassSummary, seedFromPrepass } from "./store";
import { DiskPages } from "../cache/disk/disk-pages";
import { assembleEntry, buildEntry } from "../cache/entry";
import { cacheTarget } from "../cache/key";
import { initPrepassEnv, parseEnv } from "../env";
import type { BackendClient, Job, PageSummary, TeamMember } from "../backend";

const work = mkdtempSync(join(tmpdir(), "prepass-unit-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("prepassHost", () => {
  const env = { ENVIRONMENT: "prod" as const, PREVIEW_DOMAIN: "preview.example.org" };
  const practice = { code: "dupont", domains: ["www.cabinet-dupont.fr", "cabinet-dupont.fr"] };

  it("renders for the primary domain when it is registered, else the first registered domain", () => {
    expect(prepassHost(practice, { domain: { primary_domain: "cabinet-dupont.fr", aliases: [] } }, env)).toBe(
      "cabinet-dupont.fr",
    );
    expect(prepassHost(practice, { domain: { primary_domain: "www.other.fr", aliases: [] } }, env)).toBe(
      "www.cabinet-dupont.fr",
    );
    expect(prepassHost(practice, { domain: { primary_domain: null, aliases: [] } }, env)).toBe("www.cabinet-dupont.fr");
  });

  it("falls back to the preview host, or to nothing without a preview domain", () => {
    const preview = { code: "petit", domains: [] };
    const config = { domain: { primary_domain: null, aliases: [] } };
    expect(prepassHost(preview, config, env)).toBe("petit.prod.preview.example.org");
    expect(prepassHost(preview, config, { ENVIRONMENT: "dev", PREVIEW_DOMAIN: undefined })).toBeNull();
  });
});

describe("prepassOrigins (BUILD_PREPASS_ORIGINS)", () => {
  const base = { BACKEND_API_URL: "http://127.0.0.1:4000/api/v1/websites", REVALIDATION_SECRET: "x".repeat(16), ENVIRONMENT: "dev" };

  it("renders for the main host over https by default, and for the named origins when set", () => {
    const byDefault = parseEnv(base).BUILD_PREPASS_ORIGINS;
    expect(prepassOrigins(byDefault, "dupont", "www.cabinet-dupont.fr")).toEqual(["https://www.cabinet-dupont.fr"]);
    const demo = parseEnv({ ...base, BUILD_PREPASS_ORIGINS: " http://{code}.dev.localhost:3000, https://{host} " }).BUILD_PREPASS_ORIGINS;
    expect(prepassOrigins(demo, "dupont", "www.cabinet-dupont.fr")).toEqual([
      "http://dupont.dev.localhost:3000",
      "https://www.cabinet-dupont.fr",
    ]);
    // Without a main host, only templates that do not need one can render.
    expect(prepassOrigins(["http://{code}.dev.localhost:3000"], "petit", null)).toEqual(["http://petit.dev.localhost:3000"]);
    expect(prepassOrigins(demo, "petit", null)).toBeNull();
  });

  it("refuses a value that is not a list of origins naming a practice", () => {
    for (const bad of ["http://dev.localhost:3000", "ftp://{code}.example", "http://{code}.example/path", ","])
      expect(() => parseEnv({ ...base, BUILD_PREPASS_ORIGINS: bad }), bad).toThrow(/BUILD_PREPASS_ORIGINS must list origins/);
  });
});

describe("prepassPaths", () => {
  const page = (slug: string, path: string, kind: PageSummary["kind"]): PageSummary => ({
    slug,
    path,
    kind,
    title: slug,
    level: 1,
    parent: null,
    updated_at: "2026-01-01T00:00:00Z",
  });
  const member = (slug: string) => ({ slug }) as TeamMember;
  const job = (slug: string) => ({ slug }) as Job;

  it("lists pages, members under the team page, jobs under the jobs page, robots and sitemap", () => {
    const pages = [
      page("home", "/", "home"),
      page("equipe", "/notre-equipe/", "team"),
      page("jobs", "/emplois/", "jobs"),
    ];
    expect(prepassPaths(pages, [member("dr-a"), member("dr-b")], [job("assistante")])).toEqual([
      "/",
      "/notre-equipe/",
      "/emplois/",
      "/notre-equipe/dr-a/",
      "/notre-equipe/dr-b/",
      "/emplois/assistante/",
      "/robots.txt",
      "/sitemap.xml",
    ]);
  });

  it("lists no member or job page when the practice has no team or jobs page", () => {
    expect(prepassPaths([page("home", "/", "home")], [member("dr-a")], [job("x")])).toEqual([
      "/",
      "/robots.txt",
      "/sitemap.xml",
    ]);
  });
});

describe("the pre-pass output", () => {
  const env = (dir: string) => parseEnv({ BACKEND_API_URL: "http://127.0.0.1:4000/api/v1/websites", REVALIDATION_SECRET: "x".repeat(16), ENVIRONMENT: "prod", PREPASS_DIR: dir });

  it("reads back what was written, page by page on demand: bodies, headers, tags, render time, key", async () => {
    const target = cacheTarget("GET", "dupont", "www.cabinet-dupont.fr", "https", "/contact/")!;
    const html = Buffer.from("<!DOCTYPE html><p>Contact</p>".repeat(50));
    const entry = await buildEntry(
      target,
      {
        status: 200,
        headers: new Headers({ "content-type": "text/html" }),
        body: html,
        tags: ["site:dupont", "page:contact"],
      },
      { renderedAt: 1_000, ttlMs: 0, servedByStack: false },
    );
    const png = assembleEntry({
      target: cacheTarget("GET", "dupont", "www.cabinet-dupont.fr", "https", "/api/og?title=A")!,
      headers: ["content-type", "image/png"],
      servedByStack: false,
      br: null,
      gzip: null,
      identity: Buffer.from([137, 80, 78, 71]),
      identityLength: 4,
      etag: 'W/"png"',
      tags: ["site:dupont"],
      renderedAt: 2_000,
      expiresAt: 2_000,
    });
    const dir = join(work, "out");
    const summary = { environment: "prod", renderedAt: "2026-01-01T00:00:00Z", practices: [{ code: "dupont", host: "x", pages: 2, failed: 0 }], skipped: [] };
    const writer = new PrepassWriter(dir);
    writer.append(entry);
    writer.append(png);
    writer.finish(summary);
    expect(readPrepassSummary(dir)).toEqual({ ...summary, pages: 2 });
    const warm = new DiskPages({ dir: null, maxBytes: 0, maxKeys: 100, ttlMs: 60_000 });
    const lines: string[] = [];
    try {
      expect(await seedFromPrepass(warm, env(dir), (line) => lines.push(line))).toBe(2);
      expect(lines).toEqual([expect.stringMatching(/^page cache: seeded 2 pages of 1 practices from the build pre-pass/)]);
      const page = (await warm.load(target.key))!;
      expect(page.target).toEqual(target);
      expect(page.br!.equals(entry.br!)).toBe(true);
      expect(page.gzip!.equals(entry.gzip!)).toBe(true);
      expect([page.headers, page.tags, page.etag, page.identityLength]).toEqual([
        entry.headers,
        entry.tags,
        entry.etag,
        html.length,
      ]);
      expect([page.renderedAt, page.expiresAt, page.servedByStack, page.invalidated]).toEqual([
        1_000,
        61_000,
        false,
        false,
      ]);
      const card = (await warm.load(png.target.key))!;
      expect(card.identity).toEqual(Buffer.from([137, 80, 78, 71]));
      expect(card.target.url).toBe("/api/og/?title=A");
    } finally {
      warm.close();
    }
    expect(readPrepassSummary(join(work, "missing"))).toBeNull();
  });

  it("is written as the pages come, never held until the end, and replaces the previous output only once complete", async () => {
    const dir = join(work, "streamed");
    const page = (i: number) =>
      assembleEntry({
        target: cacheTarget("GET", "dupont", "www.cabinet-dupont.fr", "https", `/p${i}/`)!,
        headers: ["content-type", "text/html"],
        servedByStack: false,
        br: Buffer.alloc(5_000, i),
        gzip: Buffer.alloc(5_000, i),
        identity: null,
        identityLength: 30_000,
        etag: `W/"${i}"`,
        tags: ["site:dupont"],
        renderedAt: 1,
        expiresAt: 1,
      });
    const summary = { environment: "prod", renderedAt: "2026-01-01T00:00:00Z", practices: [], skipped: [] };
    const first = new PrepassWriter(dir);
    first.append(page(0));
    first.finish(summary);
    const writer = new PrepassWriter(dir);
    const sizes: number[] = [];
    for (let i = 0; i < 5; i++) {
      writer.append(page(i));
      sizes.push(statSync(join(`${dir}.tmp-${process.pid}`, "pages.bin")).size);
    }
    // On disk as each page is appended: the writer keeps no page in memory.
    expect(sizes.every((size, i) => size > (i ? sizes[i - 1] : 0))).toBe(true);
    // The previous output is still whole until finish().
    expect(readPrepassSummary(dir)!.pages).toBe(1);
    writer.finish(summary);
    expect(readPrepassSummary(dir)!.pages).toBe(5);
    expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
  });

  it("is not seeded into a server of another ENVIRONMENT", async () => {
    const dir = join(work, "staging");
    const writer = new PrepassWriter(dir);
    writer.finish({ environment: "staging", renderedAt: "2026-01-01T00:00:00Z", practices: [], skipped: [] });
    const warm = new DiskPages({ dir: null, maxBytes: 0, maxKeys: 100, ttlMs: 60_000 });
    const lines: string[] = [];
    expect(await seedFromPrepass(warm, env(dir), (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toMatch(/pre-pass rendered for ENVIRONMENT=staging, this server runs prod: not seeding/);
  });
});

describe("initPrepassEnv", () => {
  it("reads the backend at BUILD_API_URL and needs no revalidation secret", () => {
    const init = initPrepassEnv({ BUILD_API_URL: "http://cms.example.org/api/v1/websites/", ENVIRONMENT: "staging" });
    if (!("env" in init)) throw new Error(init.problem);
    expect(init.env.BACKEND_API_URL).toBe("http://cms.example.org/api/v1/websites");
    expect(init.env.PREPASS_DIR).toBe("server/prepass");
    // The render workers parse the same environment for themselves: the backend is BUILD_API_URL there too.
    expect(init.workerEnv.BACKEND_API_URL).toBe("http://cms.example.org/api/v1/websites/");
  });

  it("says what is missing instead of throwing, with the output directory to clear", () => {
    expect(initPrepassEnv({ ENVIRONMENT: "dev", PREPASS_DIR: "/tmp/x" })).toEqual({
      problem: "BUILD_API_URL is not set",
      prepassDir: "/tmp/x",
    });
    const invalid = initPrepassEnv({ BUILD_API_URL: "http://cms.example.org/api" });
    expect("problem" in invalid && invalid.problem).toBe("ENVIRONMENT is required but not set");
  });
});

describe("runPrepass in bounded memory", () => {
  it("keeps a few practices in progress at once, appends each page as it is rendered and drops each practice's data once done", async () => {
    const env = parseEnv({ BACKEND_API_URL: "http://127.0.0.1:9/api/v1/websites", REVALIDATION_SECRET: "x".repeat(16), ENVIRONMENT: "dev", PREVIEW_DOMAIN: "localhost" });
    const practices = Array.from({ length: 40 }, (_, i) => ({ code: `p${i}`, domains: [] }));
    const pages = ["/", "/a/", "/b/"].map((path, i) => ({ slug: `s${i}`, path, kind: i ? "generic" : "home", title: "t", level: 1, parent: null, updated_at: "2026-01-01T00:00:00Z" }));
    let listed = 0;
    let done = 0;
    let mostInProgress = 0;
    const forgotten: string[][] = [];
    const backend = {
      config: async () => ({ domain: { primary_domain: null, aliases: [] }, logo: null, favicon: null }),
      pages: async () => {
        listed++;
        mostInProgress = Math.max(mostInProgress, listed - done);
        return { pages };
      },
      team: async () => ({ members: [] }),
      jobs: async () => ({ jobs: [] }),
    } as unknown as BackendClient;
    const outDir = join(work, "bounded");
    const written: number[] = [];
    const result = await runPrepass({
      env,
      practices,
      backend,
      outDir,
      mediaDirs: [join(work, "bounded-media")],
      log: () => {},
      concurrency: 2,
      render: async (target) => {
        await new Promise((r) => setTimeout(r, 1));
        if (existsSync(`${resolve(outDir)}.tmp-${process.pid}`)) written.push(statSync(join(`${resolve(outDir)}.tmp-${process.pid}`, "pages.bin")).size);
        return { status: 200, headers: new Headers({ "content-type": "text/html" }), body: Buffer.from(`<p>${target.key}</p>`.repeat(20)), tags: [`site:${target.code}`] };
      },
      invalidateData: (tags) => {
        forgotten.push(tags);
        done++;
      },
    });
    expect(result.pages).toBe(40 * 5); // 3 pages, robots.txt, sitemap.xml
    // Never more practices listed and not yet finished than the pre-pass works on at once (8).
    expect(mostInProgress).toBeLessThanOrEqual(8);
    // The output grew while rendering: pages are written as they come, not all at the end.
    expect(written.at(-1)).toBeGreaterThan(0);
    expect(forgotten.map(([tag]) => tag).sort()).toEqual(practices.map((p) => `site:${p.code}`).sort());
  });
});
