/**
 * GET /api/og, the social card, on the real server with the demo backend. The build-time media
 * cache is a temporary directory (MEDIA_CACHE_DIR) holding the demo practices' logos, one per format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFrontend, type Frontend } from "./support/frontend";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { httpBytes } from "./support/http-bytes";
import { pngSize } from "./support/png";

const LOGOS = { dupont: "svg", martin: "png", bernard: "jpg", petit: "webp" } as const;

let backend: DemoBackend;
let frontend: Frontend;
let cacheDir: string;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "media-cache-"));
  for (const [code, ext] of Object.entries(LOGOS)) {
    mkdirSync(join(cacheDir, code));
    copyFileSync(join("ops/demo/backend/media", code, `logo.${ext}`), join(cacheDir, code, `logo.${ext}`));
  }
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url, env: { MEDIA_CACHE_DIR: cacheDir } });
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

const card = (code: string, query = "") => httpBytes(frontend.url, `${code}.dev.localhost:${frontend.port}`, `/api/og${query}`);

/** Titles of the practice's own pages: the only ones its card draws (docs/decisions/0031-og-titles.md). */
async function pageTitles(code: string): Promise<string[]> {
  const { pages } = await backendJson<{ pages: { title: string; kind: string }[] }>(backend, `/api/v1/websites/sites/${code}/pages/`);
  return pages.filter((p) => p.kind !== "home").map((p) => p.title);
}
const titleQuery = (title: string) => `?title=${encodeURIComponent(title)}`;

describe("social card", () => {
  it.each(Object.entries(LOGOS))("%s: a 1200x630 PNG with its %s logo, no warning", async (code) => {
    const res = await card(code, titleQuery((await pageTitles(code))[0]));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(Number(res.headers["content-length"])).toBe(res.body.byteLength);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(pngSize(res.body)).toEqual({ width: 1200, height: 630 });
    expect(frontend.output()).not.toContain(`og card: logo not in media cache: ${code}`);
    expect(frontend.output()).not.toMatch(new RegExp(`og card: (unsupported|unreadable) logo[^\\n]*${code}`));
  });

  it("draws the page title it is given; a title none of the practice's pages has is a 404", async () => {
    const [first, second] = await pageTitles("dupont");
    const one = await card("dupont", titleQuery(first));
    const other = await card("dupont", titleQuery(second));
    expect([one.status, other.status]).toEqual([200, 200]);
    expect(one.body.equals(other.body)).toBe(false);
    expect((await card("dupont", `?title=${"Implant%20".repeat(400)}`)).status).toBe(404);
    expect((await card("dupont", "?title=Offre%20sp%C3%A9ciale")).status).toBe(404);
  });

  it("differs between practices (name, colours, logo)", async () => {
    const a = await card("dupont", "?title=Contact");
    const b = await card("martin", "?title=Contact");
    expect(a.body.equals(b.body)).toBe(false);
  });

  it("is a 404 for the inactive practice", async () => {
    expect((await card("leroy")).status).toBe(404);
  });

  it("draws the card without logo and warns when the logo is not in the media cache", async () => {
    rmSync(join(cacheDir, "petit"), { recursive: true });
    // A title not drawn before (a stored card would not be drawn again): the page titles' second one.
    const res = await card("petit", titleQuery((await pageTitles("petit"))[1]));
    expect(res.status).toBe(200);
    expect(pngSize(res.body)).toEqual({ width: 1200, height: 630 });
    // Logged by the render worker: its console reaches the process output a little after the answer.
    await expect.poll(() => frontend.output()).toContain("[warn] og card: logo not in media cache: petit");
  });

  it("warns about a logo type outside svg, png, jpg, webp", async () => {
    rmSync(join(cacheDir, "bernard", "logo.jpg"));
    writeFileSync(join(cacheDir, "bernard", "logo.gif"), Buffer.from("GIF89a\x01\x00\x01\x00"));
    const res = await card("bernard");
    expect(res.status).toBe(200);
    expect(pngSize(res.body)).toEqual({ width: 1200, height: 630 });
    await expect.poll(() => frontend.output()).toMatch(/\[warn\] og card: unsupported logo type \.gif for bernard: \S+logo\.gif/);
  });
});
