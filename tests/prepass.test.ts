/**
 * The build pre-pass (server/entry.prepass.js, run by `npm run build`) against the demo backend
 * up and down, and the server seeding its page store from it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, joinedCluster, startFrontend, type Frontend } from "./support/frontend";
import { startRedis } from "./support/redis";
import { until } from "./support/until";
import { ADMIT_CLOCK_MARGIN_MS } from "../src/server/cache/shared/pages";
import { reapOnExit } from "./support/reaper";
import { ACTIVE_DEMO_PRACTICES, backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { get, revalidate } from "./support/cache";
import { loadRegistry } from "../src/server/tenancy/registry";
import { inlineScriptHashes } from "../src/server/render/content-security-policy";

let backend: DemoBackend;
const work = mkdtempSync(join(tmpdir(), "prepass-"));

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the built pre-pass the way `npm run build` does; resolves with its exit code and output. */
function runPrepass(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = reapOnExit(spawn(process.execPath, ["server/entry.prepass.js"], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }));
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function dirs(name: string) {
  return { PREPASS_DIR: join(work, name, "prepass"), MEDIA_CACHE_DIR: join(work, name, "media") };
}

interface Manifest {
  environment: string;
  entries: { code: string; origin: string; url: string; tags: string[] }[];
  skipped: { code: string; reason: string }[];
}
/** The output's summary with its index's lines (src/server/prepass/store.ts). */
function manifestOf(dir: string): Manifest {
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Omit<Manifest, "entries">;
  const lines = readFileSync(join(dir, "index.jsonl"), "utf8").split("\n").filter(Boolean);
  return { ...summary, entries: lines.map((line) => JSON.parse(line) as Manifest["entries"][number]) };
}

describe("with the backend up", () => {
  const out = dirs("up");
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    run = await runPrepass({ BUILD_API_URL: backend.apiUrl, ENVIRONMENT: "dev", PREVIEW_DOMAIN: "localhost", ...out });
  }, 90_000);

  it("succeeds, and skips the inactive practice with the log line the specification names", () => {
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/^activePracticeCodes: skipping leroy: /m);
    expect(run.output).toContain(`activePracticeCodes: ${[...ACTIVE_DEMO_PRACTICES].sort().join(", ")}`);
  });

  it("writes every published page of every active practice, with its tags, for the practice's main host", async () => {
    const manifest = manifestOf(out.PREPASS_DIR);
    expect(manifest.environment).toBe("dev");
    for (const code of ACTIVE_DEMO_PRACTICES) {
      const { pages } = await backendJson<{ pages: { path: string; slug: string }[] }>(
        backend,
        `/api/v1/websites/sites/${code}/pages/`,
      );
      const written = manifest.entries.filter((e) => e.code === code);
      expect(written.map((e) => e.url).sort()).toEqual(expect.arrayContaining(pages.map((p) => p.path).sort()));
      for (const p of pages) {
        const entry = written.find((e) => e.url === p.path)!;
        expect(entry.tags).toEqual(
          expect.arrayContaining([`site:${code}`, `page:${p.slug}`, `site:${code}:page:${p.slug}`]),
        );
      }
      const domains = loadRegistry("tenants/practices.json").practices.find((p) => p.code === code)!.domains;
      expect(new Set(written.map((e) => e.origin))).toEqual(new Set([`https://${domains[0]}`]));
    }
    expect(manifest.entries.some((e) => e.code === "leroy")).toBe(false);
  });

  it("downloads each practice's logo into the media cache, in its own format", async () => {
    for (const code of ACTIVE_DEMO_PRACTICES) {
      const config = await backendJson<{ logo: { url: string; mime_type: string } | null }>(
        backend,
        `/api/v1/websites/sites/${code}/config/`,
      );
      const ext = { "image/svg+xml": "svg", "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" }[
        config.logo!.mime_type
      ];
      const file = join(out.MEDIA_CACHE_DIR, code, `logo.${ext}`);
      expect(existsSync(file), file).toBe(true);
      const original = Buffer.from(await (await fetch(config.logo!.url)).arrayBuffer());
      expect(readFileSync(file).equals(original)).toBe(true);
    }
    expect(existsSync(join(out.MEDIA_CACHE_DIR, "leroy"))).toBe(false);
  });

  it("seeds the server: the first visitor after the deploy gets a HIT, and webhooks still reach seeded pages", async () => {
    const frontend = await startFrontend({ backendUrl: backend.url, env: out });
    try {
      expect(frontend.output()).toMatch(/page cache: seeded \d+ pages of 4 practices/);
      for (const [host, path] of [
        ["www.cabinet-dupont.fr", "/"],
        ["www.cabinet-dupont.fr", "/implantologie/implant-unitaire/"],
        ["www.centre-dentaire-martin.fr", "/contact/"],
        ["www.dr-bernard-dentiste.fr", "/tarifs/"],
        ["www.cabinet-petit.fr", "/"],
      ]) {
        // The pre-pass renders for https (what nginx forwards on the practices' domains); the scheme is
        // part of the key, so the visitor arrives the way nginx passes them on.
        const viaTls = { "accept-encoding": "br", "x-forwarded-proto": "https" };
        const first = await get(frontend.url, host, path, { headers: viaTls });
        expect([first.status, first.xcache], `${host}${path}`).toEqual([200, "HIT"]);
        expect(first.headers["x-robots-tag"]).toBe("noindex");
        // The page's script policy came through the pre-pass output with it: the hashes of these very bytes.
        const scriptSrc = /script-src ([^;]*)/.exec(String(first.headers["content-security-policy"]))?.[1].split(" ");
        expect(scriptSrc?.filter((s) => s.startsWith("'sha256-"))).toEqual(inlineScriptHashes(first.text));
        const second = await get(frontend.url, host, path, { headers: viaTls });
        expect([second.xcache, second.etag]).toEqual(["HIT", first.etag]);
      }
      // The stored tags work: an edit of a seeded page is served on the next request.
      const title = `Tarifs ${Date.now()}`;
      await backendJson(backend, "/admin/sites/bernard/pages/tarifs", {
        method: "PATCH",
        body: JSON.stringify({ title }),
      });
      // The page and bernard's sitemap (which lists the page, and was prerendered too).
      expect((await revalidate(frontend, "api", ["site:bernard:page:tarifs"])).json.invalidated).toBe(2);
      expect((await get(frontend.url, "www.dr-bernard-dentiste.fr", "/tarifs/", { headers: { "x-forwarded-proto": "https" } })).text).toContain(title);
    } finally {
      await frontend.stop();
    }
  });

  it("deploys instances sharing Redis onto a running environment: a page is served once Redis admitted it, not after an edit acknowledged since the build", async () => {
    const redis = await startRedis();
    const started: Frontend[] = [];
    const instance = async (env: Record<string, string>) => {
      const frontend = await startFrontend({ backendUrl: backend.url, env });
      started.push(frontend);
      await joinedCluster(frontend);
      return frontend;
    };
    const viaTls = { "accept-encoding": "br", "x-forwarded-proto": "https" };
    const host = "www.cabinet-dupont.fr";
    let lateRedis: Awaited<ReturnType<typeof startRedis>> | undefined;
    try {
      // The environment runs when the build does: its Redis and an instance of the deployment before, since
      // longer than the clocks' margin (what admission asks of Redis's memory: cache/shared/pages.ts).
      await instance({ ...dirs("none"), CACHE_URL: redis.url(3) });
      const joined = Date.now();
      await until(() => Date.now() > joined + ADMIT_CLOCK_MARGIN_MS + 1000, "the environment running for longer than the clocks' margin", 30_000);
      const build = dirs("shared");
      expect((await runPrepass({ BUILD_API_URL: backend.apiUrl, ENVIRONMENT: "dev", PREVIEW_DOMAIN: "localhost", ...build })).code).toBe(0);
      const env = { ...build, CACHE_URL: redis.url(3) };
      const a = await instance(env);
      expect(a.output()).toMatch(/page cache: seeded \d+ pages of 4 practices from the build pre-pass .*served once Redis admitted it/);
      const first = await get(a.url, host, "/implantologie/implant-unitaire/", { headers: viaTls });
      expect([first.status, first.xcache]).toEqual([200, "HIT"]);
      // An edit the running instances acknowledged after the build.
      const title = `Tarifs ${Date.now()}`;
      await backendJson(backend, "/admin/sites/dupont/pages/tarifs", { method: "PATCH", body: JSON.stringify({ title }) });
      expect((await revalidate(a, "api", ["site:dupont:page:tarifs"])).status).toBe(200);
      // A new instance from the same build: the edited page is rendered, not taken from the pre-pass...
      const b = await instance(env);
      const edited = await get(b.url, host, "/tarifs/", { headers: viaTls });
      expect([edited.status, edited.xcache, edited.text.includes(title)]).toEqual([200, "MISS", true]);
      // ...while the practice's other pages still are, and the one `a` admitted comes from Redis.
      for (const path of ["/contact/", "/implantologie/implant-unitaire/"]) {
        const res = await get(b.url, host, path, { headers: viaTls });
        expect([res.status, res.xcache], path).toEqual([200, "HIT"]);
      }
      // A Redis that started after the build (restarted, or new) cannot know what changed since: nothing admitted.
      lateRedis = await startRedis();
      const c = await instance({ ...build, CACHE_URL: lateRedis.url(3) });
      const rendered = await get(c.url, host, "/contact/", { headers: viaTls });
      expect([rendered.status, rendered.xcache]).toEqual([200, "MISS"]);
    } finally {
      for (const frontend of started) await frontend.stop();
      await redis.stop();
      await lateRedis?.stop();
    }
  }, 150_000); // a pre-pass and four instances: 46 s in a whole make test on a quiet machine

  it("renders for the origins BUILD_PREPASS_ORIGINS names: make demo's first page is a HIT on the URL it prints", async () => {
    const demo = dirs("demo");
    const onePractice = join(work, "demo-practice.json");
    writeFileSync(onePractice, JSON.stringify(loadRegistry("tenants/practices.json").practices.filter((p) => p.code === "dupont")));
    // What ops/demo/demo.sh sets: http, the preview host {code}.{ENVIRONMENT}.{PREVIEW_DOMAIN}, the demo's PORT
    // (a free one here: the server answers only the port it listens on, http/ says why).
    const port = await freePort();
    const origin = `http://dupont.dev.localhost:${port}`;
    const run = await runPrepass({
      BUILD_API_URL: backend.apiUrl,
      ENVIRONMENT: "dev",
      PREVIEW_DOMAIN: "localhost",
      BUILD_PREPASS_ORIGINS: `http://{code}.dev.localhost:${port}`,
      TENANTS_FILE: onePractice,
      ...demo,
    });
    expect(run.code, run.output).toBe(0);
    expect(new Set(manifestOf(demo.PREPASS_DIR).entries.map((e) => e.origin))).toEqual(new Set([origin]));
    const frontend = await startFrontend({ backendUrl: backend.url, env: demo, port });
    try {
      // As the browser sends it from the printed URL: that Host, plain http (no proxy in front).
      for (const path of ["/", "/implantologie/implant-unitaire/"]) {
        const first = await get(frontend.url, new URL(origin).host, path);
        expect([first.status, first.xcache], path).toEqual([200, "HIT"]);
        expect(first.text).toContain(`${origin}/`);
      }
    } finally {
      await frontend.stop();
    }
  });

  it("is not seeded into a server of another ENVIRONMENT (robots and canonical rules differ)", async () => {
    const staging = dirs("staging");
    // One practice is enough to show the refusal (and spares rendering all of them a second time).
    const onePractice = join(work, "one-practice.json");
    writeFileSync(onePractice, JSON.stringify(loadRegistry("tenants/practices.json").practices.filter((p) => p.code === "dupont")));
    const other = await runPrepass({ BUILD_API_URL: backend.apiUrl, ENVIRONMENT: "staging", TENANTS_FILE: onePractice, ...staging });
    expect(other.code).toBe(0);
    const frontend = await startFrontend({ backendUrl: backend.url, env: staging });
    try {
      expect(frontend.output()).toContain(
        "pre-pass rendered for ENVIRONMENT=staging, this server runs dev: not seeding",
      );
      expect((await get(frontend.url, "www.cabinet-dupont.fr", "/")).xcache).toBe("MISS");
    } finally {
      await frontend.stop();
    }
  }, 60_000); // a pre-pass of one practice, then a server: about 9 s alone, 30 s seen with three test files at once
});

describe("with the backend down", () => {
  it("succeeds, logs a skip for every registered practice, and the server renders on demand", async () => {
    const out = dirs("down");
    const run = await runPrepass({ BUILD_API_URL: "http://127.0.0.1:9/api/v1/websites", ENVIRONMENT: "dev", ...out });
    expect(run.code).toBe(0);
    for (const { code } of loadRegistry("tenants/practices.json").practices) {
      expect(run.output).toMatch(new RegExp(`^activePracticeCodes: skipping ${code}: `, "m"));
    }
    expect(manifestOf(out.PREPASS_DIR).entries).toEqual([]);
    const frontend = await startFrontend({ backendUrl: backend.url, env: out });
    try {
      expect((await get(frontend.url, "www.cabinet-dupont.fr", "/")).xcache).toBe("MISS");
      expect((await get(frontend.url, "www.cabinet-dupont.fr", "/")).xcache).toBe("HIT");
    } finally {
      await frontend.stop();
    }
  });

  it("succeeds without BUILD_API_URL (a developer's plain build), saying so", async () => {
    const out = dirs("unset");
    const run = await runPrepass({ ENVIRONMENT: "dev", ...out });
    expect(run.code).toBe(0);
    expect(run.output).toContain("activePracticeCodes: skipping every practice: BUILD_API_URL is not set");
    expect(existsSync(out.PREPASS_DIR)).toBe(false);
  });
});
