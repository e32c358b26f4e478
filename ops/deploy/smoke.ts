/**
 * Post-deploy smoke checks: 20 end-to-end checks against a running frontend (the container's port or
 * the proxy), covering tenant isolation, crawler status codes, images through the optimizer,
 * robots/sitemap/og and webhook authentication. Prints every failure; exits non-zero if any fails.
 *
 *   SMOKE_HOST=http://127.0.0.1:3000  where to connect (default; `make smoke ENV=dev` checks a deployed environment)
 *   SMOKE_SITES=host1,host2           two practice hosts to check (default: the first domain of the
 *                                     first two practices in tenants/practices.json)
 *
 *   SMOKE_COMPARE=http://127.0.0.1:3002  with SMOKE_HOST: the instance in service; every practice whose homepage
 *                                     answers 200 there must answer 200 here (a deploy's new instance,
 *                                     ops/deploy/deploy.sh); skipped when nothing answers there (a first deploy)
 *
 *   SMOKE_ENV=prod                    instead of SMOKE_HOST: every instance of that environment (its ports
 *                                     in ops/deploy/environments.json), then the proxy:
 *   SMOKE_PROXY=https://127.0.0.1:443 the proxy over HTTPS: a site's page with HSTS (prod: a practice domain;
 *                                     dev, staging: its preview host under SMOKE_PREVIEW_DOMAIN)
 *
 *   SMOKE_CARDS=dir                   compares the first site's social card with dir/<code>.png (see cardDifference);
 *   SMOKE_WRITE_CARDS=1               with SMOKE_CARDS: writes it there instead
 *
 * It needs no secret: webhook checks only prove that a wrong or missing secret is refused.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import sharp from "sharp";
import { call, type Answer } from "../operator/request";
import { loadRegistry } from "../../src/server/tenancy/registry";
import { ENVS, loadEnvironments, type DeployEnv } from "./environments";
import { CARD_HEIGHT, CARD_WIDTH } from "../../src/server/og/card";

/**
 * Reference social cards: SMOKE_CARDS names a directory of `<code>.png`, each practice's homepage card as drawn
 * where the fonts are (SMOKE_WRITE_CARDS=1 writes them from a running instance). A card is drawn from
 * build-time media (the logo the pre-pass downloaded) and the backend's content, so references belong to one
 * known deployment (the demo backend's): they are never guessed. Without SMOKE_CARDS the card is checked as a
 * PNG of the card's size; the drills check the image's fonts directly (tests/containers/drills.ts).
 */
/** Share of the card's pixels allowed to differ (by more than CHANNEL_TOLERANCE in a channel). */
export const CARD_TOLERANCE = 0.001;
const CHANNEL_TOLERANCE = 48;

function cardReference(host: string): string {
  const { practices } = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json");
  // A practice domain, else a preview host `<code>.<env>.<preview domain>`.
  const code = practices.find((p) => p.domains.includes(host))?.code ?? host.split(".")[0];
  return join(process.env.SMOKE_CARDS || "", `${code.replace(/[^a-z0-9-]/g, "")}.png`);
}

/** The share (0..1) of pixels of two PNGs that differ noticeably; 1 when their sizes differ. */
export async function cardDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (x.info.width !== y.info.width || x.info.height !== y.info.height) return 1;
  let differ = 0;
  for (let i = 0; i < x.data.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      if (Math.abs(x.data[i + c] - y.data[i + c]) > CHANNEL_TOLERANCE) {
        differ++;
        break;
      }
    }
  }
  return differ / (x.info.width * x.info.height);
}

class CheckFailed extends Error {}
function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** The practice's name as the page announces it (Open Graph site name, else the title's last part). */
function siteName(html: string): string {
  const og = /<meta[^>]+property="og:site_name"[^>]+content="([^"]+)"/.exec(html)?.[1];
  if (og) return og;
  const title = /<title[^>]*>([^<]+)<\/title>/.exec(html)?.[1] ?? "";
  return title.split(" | ").pop()!.trim();
}

export async function runSmoke(base: string, sites: [string, string], log = console.log): Promise<{ passed: number; failed: number }> {
  const [a, b] = sites;
  const memo = new Map<string, Promise<Answer>>();
  const home = (host: string) => {
    if (!memo.has(host)) memo.set(host, call(base, host, "/", { headers: { accept: "text/html" } }));
    return memo.get(host)!;
  };
  const noindexHeader = async () => /noindex/.test(String((await home(a)).headers["x-robots-tag"] ?? ""));

  const checks: [string, () => Promise<void>][] = [
    ["health endpoint answers", async () => {
      const r = await call(base, a, "/healthz");
      expect(r.status === 200, `status ${r.status}`);
    }],
    ["an unknown host gets 404 (no default practice)", async () => {
      const r = await call(base, "smoke-unknown.invalid", "/");
      expect(r.status === 404, `status ${r.status}`);
    }],
    ["the internal /_sites prefix is unreachable", async () => {
      const r = await call(base, a, "/_sites/");
      expect(r.status === 404, `status ${r.status}`);
    }],
    [`${a} serves its homepage`, async () => {
      const r = await home(a);
      expect(r.status === 200, `status ${r.status}`);
      expect(/text\/html/.test(String(r.headers["content-type"])), `content-type ${r.headers["content-type"]}`);
    }],
    [`${b} serves its homepage`, async () => {
      const r = await home(b);
      expect(r.status === 200, `status ${r.status}`);
    }],
    ["tenant isolation: neither homepage names the other practice", async () => {
      const [ra, rb] = [await home(a), await home(b)];
      const [na, nb] = [siteName(ra.text), siteName(rb.text)];
      expect(na && nb && na !== nb, `practice names "${na}" and "${nb}" should differ`);
      expect(!ra.text.includes(nb), `${a} mentions "${nb}"`);
      expect(!rb.text.includes(na), `${b} mentions "${na}"`);
    }],
    ["a crawler gets 200 on GET and HEAD", async () => {
      const ua = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
      const get = await call(base, a, "/", { headers: ua });
      const head = await call(base, a, "/", { method: "HEAD", headers: ua });
      expect(get.status === 200 && head.status === 200, `GET ${get.status}, HEAD ${head.status}`);
    }],
    ["an unknown page answers 404", async () => {
      const r = await call(base, a, "/smoke-check-page-qui-n-existe-pas/");
      expect(r.status === 404, `status ${r.status}`);
    }],
    ["a path without its trailing slash is redirected permanently", async () => {
      const r = await call(base, a, "/contact");
      expect([301, 308].includes(r.status), `status ${r.status}`);
      expect(String(r.headers.location).endsWith("/contact/"), `location ${r.headers.location}`);
    }],
    ["the second request is a page-cache hit", async () => {
      await call(base, a, "/contact/");
      const r = await call(base, a, "/contact/");
      expect(r.headers["x-cache"] === "HIT", `X-Cache ${r.headers["x-cache"]}`);
    }],
    ["robots.txt agrees with the indexing decision", async () => {
      const r = await call(base, a, "/robots.txt");
      expect(r.status === 200, `status ${r.status}`);
      const blocksAll = /^Disallow:\s*\/\s*$/m.test(r.text);
      expect(blocksAll === (await noindexHeader()), `Disallow all: ${blocksAll}, noindex header: ${await noindexHeader()}`);
      if (!blocksAll) expect(/^Sitemap:\s*https?:\/\//m.test(r.text), "no absolute Sitemap line");
    }],
    ["sitemap.xml lists absolute URLs", async () => {
      const r = await call(base, a, "/sitemap.xml");
      expect(r.status === 200, `status ${r.status}`);
      const locs = [...r.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
      expect(r.text.includes("<urlset") && locs.length > 0, "no <urlset> with <loc> entries");
      expect(locs.every((l) => /^https?:\/\//.test(l)), "a <loc> is not absolute");
    }],
    ["the robots meta tag agrees with the header", async () => {
      const r = await home(a);
      const meta = /<meta[^>]+name="robots"[^>]+content="[^"]*noindex/.test(r.text);
      expect(meta === (await noindexHeader()), `meta noindex ${meta}, header noindex ${await noindexHeader()}`);
    }],
    ["the social card of the homepage is a PNG of the card's size (and drawn as its reference: SMOKE_CARDS)", async () => {
      // The card draws only the practice's own titles: take the one the homepage names.
      const image = /<meta[^>]+property="og:image"[^>]+content="([^"]+)"/.exec((await home(a)).text)?.[1]?.replace(/&amp;/g, "&");
      expect(image, "no og:image on the homepage");
      const url = new URL(image!);
      const r = await call(base, a, `${url.pathname}${url.search}`);
      expect(r.status === 200, `status ${r.status}`);
      expect(r.body.subarray(1, 4).toString() === "PNG", `content-type ${r.headers["content-type"]}`);
      // The IHDR chunk's width and height: a card drawn at another size is a broken renderer.
      const [width, height] = [r.body.readUInt32BE(16), r.body.readUInt32BE(20)]
      expect(width === CARD_WIDTH && height === CARD_HEIGHT, `${width}x${height}, not ${CARD_WIDTH}x${CARD_HEIGHT}`);
      if (!process.env.SMOKE_CARDS) return;
      const reference = cardReference(a);
      if (process.env.SMOKE_WRITE_CARDS === "1") {
        writeFileSync(reference, r.body);
        return;
      }
      // Boxes instead of the logo's text (an image without fonts) differ from the reference drawn where the fonts are.
      expect(existsSync(reference), `no reference card ${reference}`);
      {
        const differ = await cardDifference(r.body, readFileSync(reference));
        expect(differ <= CARD_TOLERANCE, `${(differ * 100).toFixed(2)}% of its pixels differ from ${relative(process.cwd(), reference)} (at most ${CARD_TOLERANCE * 100}%): text drawn as boxes (no fonts in the image?) or another design (SMOKE_WRITE_CARDS=1 draws the references again)`);
      }
    }],
    ["an image of the page loads through the media proxy", async () => {
      const src = /src="(\/api\/media\?[^"]+)"/.exec((await home(a)).text)?.[1]?.replace(/&amp;/g, "&");
      expect(src, "no /api/media image on the homepage");
      const r = await call(base, a, src);
      expect(r.status === 200 && /^image\//.test(String(r.headers["content-type"])), `status ${r.status} ${r.headers["content-type"]}`);
    }],
    ["the image optimizer resizes", async () => {
      const src = /src="(\/api\/media\?[^"]+)"/.exec((await home(a)).text)?.[1]?.replace(/&amp;/g, "&");
      expect(src, "no /api/media image on the homepage");
      const path = new URLSearchParams(src.split("?")[1]).get("path");
      const r = await call(base, a, `/api/media?path=${encodeURIComponent(path ?? "")}&w=320`);
      expect(r.status === 200 && /^image\//.test(String(r.headers["content-type"])), `status ${r.status}`);
    }],
    ["the media proxy refuses traversal", async () => {
      const r = await call(base, a, "/api/media?path=/media/..%2f..%2fetc/passwd");
      expect(r.status === 400, `status ${r.status}`);
    }],
    ["the webhook refuses a missing secret", async () => {
      const r = await call(base, a, "/webhooks/revalidate/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tags: ["page:smoke"] }),
      });
      expect(r.status === 401, `status ${r.status}`);
    }],
    ["the webhook and /api/revalidate refuse a wrong secret", async () => {
      const hook = await call(base, a, "/webhooks/revalidate/", {
        method: "POST",
        headers: { "content-type": "application/json", "x-revalidate-secret": "smoke-wrong-secret" },
        body: JSON.stringify({ tags: ["page:smoke"] }),
      });
      const api = await call(base, a, "/api/revalidate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret: "smoke-wrong-secret", tags: ["page:smoke"] }),
      });
      expect(hook.status === 401 && api.status === 401, `webhook ${hook.status}, api ${api.status}`);
    }],
    ["security headers: frame-ancestors and nosniff", async () => {
      const r = await home(a);
      expect(/frame-ancestors 'self'/.test(String(r.headers["content-security-policy"])), `CSP ${r.headers["content-security-policy"]}`);
      expect(r.headers["x-content-type-options"] === "nosniff", "no X-Content-Type-Options: nosniff");
    }],
  ];

  let passed = 0;
  let failed = 0;
  for (const [index, [name, check]] of checks.entries()) {
    const label = `${String(index + 1).padStart(2)} ${name}`;
    try {
      await check();
      passed++;
      log(`ok   ${label}`);
    } catch (error) {
      failed++;
      log(`FAIL ${label}: ${(error as Error).message}`);
    }
  }
  // Many failures at once usually have one cause: the instance says what it waits for (a backend it cannot
  // reach, or that knows none of our practices) in /readyz.
  if (failed) {
    const ready = await call(base, a, "/readyz").catch(() => null);
    if (ready && ready.status !== 200) log(`cause: the instance is not ready: ${ready.text.trim()}`);
  }
  log(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}

function defaultSites(): [string, string] {
  const { practices } = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json");
  const hosts = practices.filter((p) => p.domains.length).map((p) => p.domains[0]);
  if (hosts.length < 2) throw new Error("SMOKE_SITES needs two practice hosts (the practice list has fewer)");
  return [hosts[0], hosts[1]];
}

/**
 * Every practice the instance in service (`live`) serves, the new one (`base`) serves too: a homepage answering
 * 200 there must answer 200 here. Returns the failures; none when `live` does not answer (a first deploy).
 */
export async function compareSites(base: string, live: string, log = console.log): Promise<number> {
  const { practices } = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json");
  let failed = 0;
  let compared = 0;
  for (const host of practices.filter((p) => p.domains.length).map((p) => p.domains[0])) {
    const before = await call(live, host, "/", { headers: { accept: "text/html" } }).catch(() => null);
    if (before?.status !== 200) continue;
    compared++;
    const after = await call(base, host, "/", { headers: { accept: "text/html" } }).catch((e: Error) => ({ status: e.message }));
    if (after.status !== 200) {
      failed++;
      log(`FAIL ${host} answers 200 on ${live} but ${after.status} here`);
    }
  }
  log(`${failed ? "FAIL" : "ok  "} every practice ${live} serves (${compared}) is served here${compared ? "" : " (it serves none: nothing to compare)"}`);
  return failed;
}

/** Through the proxy over HTTPS: the site answers 200 with HSTS, and plain HTTP would redirect (checked by nginx.test.ts). */
export async function smokeProxy(proxy: string, host: string, log = console.log): Promise<boolean> {
  try {
    const r = await call(proxy, host, "/", { headers: { accept: "text/html" } });
    const hsts = String(r.headers["strict-transport-security"] ?? "");
    const ok = r.status === 200 && /max-age=\d+/.test(hsts);
    log(`${ok ? "ok  " : "FAIL"} proxy ${proxy} ${host}: status ${r.status}, HSTS ${hsts || "absent"}`);
    return ok;
  } catch (error) {
    log(`FAIL proxy ${proxy} ${host}: ${(error as Error).message}`);
    return false;
  }
}

/** Every instance of the environment, then the proxy: a prod deploy checked only its first instance before. */
async function smokeEnvironment(env: DeployEnv, sites: [string, string]): Promise<number> {
  const ports = loadEnvironments().environments[env].instancePorts;
  let failed = 0;
  for (const port of ports) {
    const base = `http://127.0.0.1:${port}`;
    console.log(`smoke: ${env} instance ${base} with ${sites.join(" and ")}`);
    failed += (await runSmoke(base, sites)).failed;
  }
  const proxy = process.env.SMOKE_PROXY;
  if (proxy) {
    const code = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json").practices.find((p) => p.domains[0] === sites[0])?.code;
    const host = env === "prod" ? sites[0] : `${code}.${env}.${process.env.SMOKE_PREVIEW_DOMAIN || "preview.example.org"}`;
    if (!(await smokeProxy(proxy, host))) failed++;
  }
  console.log(`smoke: ${env}: ${ports.length} instance(s)${proxy ? " and the proxy" : ""}, ${failed} failure(s)`);
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}` && process.env.SMOKE_ENV) {
  const env = process.env.SMOKE_ENV as DeployEnv;
  if (!ENVS.includes(env)) {
    console.error("smoke: SMOKE_ENV must be dev, staging or prod");
    process.exit(2);
  }
  smokeEnvironment(env, defaultSites()).then(
    (failed) => process.exit(failed ? 1 : 0),
    (error) => {
      console.error(`smoke: ${(error as Error).message}`);
      process.exit(1);
    },
  );
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.env.SMOKE_HOST || "http://127.0.0.1:3000";
  const sites = process.env.SMOKE_SITES ? (process.env.SMOKE_SITES.split(",").map((s) => s.trim()) as [string, string]) : defaultSites();
  if (sites.length !== 2 || sites.some((s) => !s)) {
    console.error("smoke: SMOKE_SITES takes two hosts separated by a comma");
    process.exit(2);
  }
  console.log(`smoke: ${base} with ${sites.join(" and ")}`);
  runSmoke(base, sites).then(
    async ({ failed }) => {
      const compare = process.env.SMOKE_COMPARE;
      process.exit(failed || (compare && (await compareSites(base, compare))) ? 1 : 0);
    },
    (error) => {
      console.error(`smoke: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
