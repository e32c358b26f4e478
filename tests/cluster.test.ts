/**
 * Several instances sharing a real Redis (a dedicated redis-server on a free port): read-your-writes on
 * every instance after the webhook's 2xx, a new instance warm from the shared store, Redis stopped and
 * restarted under them, and an instance SIGKILLed while nginx in front keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECRET, joinedCluster, startFrontend, type Frontend } from "./support/frontend";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { get } from "./support/cache";
import { startRedis, type TestRedis } from "./support/redis";
import { startNginx, type TestNginx } from "./support/nginx";
import { until } from "./support/until";
import { cacheTarget } from "../src/server/cache/key";
import { cacheNamespace, sharedNames } from "../src/server/cache/shared/names";

const HOST = "dupont.dev.localhost";
let redis: TestRedis;
let backend: DemoBackend;
const instances: Frontend[] = [];
let nginx: TestNginx | undefined;

async function instance(): Promise<Frontend> {
  const frontend = await startFrontend({ backendUrl: backend.url, env: { CACHE_URL: redis.url(8) } });
  instances.push(frontend);
  await joinedCluster(frontend);
  return frontend;
}

/** Edits the tarifs page through the admin API, its webhook sent to `via`; resolves with the webhook's status. */
async function edit(via: Frontend, title: string): Promise<number | null> {
  await backendJson(backend, "/admin/settings", {
    method: "PUT",
    body: JSON.stringify({ frontendUrl: via.url, revalidationSecret: DEFAULT_SECRET }),
  });
  const result = await backendJson<{ webhook: { status: number | null } }>(backend, "/admin/sites/dupont/pages/tarifs", {
    method: "PATCH",
    body: JSON.stringify({ title }),
  });
  return result.webhook.status;
}

const titleOf = (res: { text: string }) => /<title[^>]*>([^<]*)<\/title>/.exec(res.text)?.[1] ?? "(no title)";

const page = (frontend: { url: string }, path = "/tarifs/") =>
  get(frontend.url, HOST, path, { headers: { "accept-encoding": "br" } });

beforeAll(async () => {
  redis = await startRedis();
  backend = await startBackend();
  await instance();
  await instance();
}, 60_000);

afterAll(async () => {
  nginx?.stop();
  for (const frontend of instances) await frontend.stop();
  await backend?.close();
  await redis?.stop();
});

describe("several instances on one Redis", () => {
  it("keeps another deployment of the same environment on the same Redis apart (its own namespace)", async () => {
    const [a] = instances;
    const other = await startFrontend({ backendUrl: backend.url, env: { CACHE_URL: redis.url(8), CACHE_NAMESPACE: "other-deployment" } });
    try {
      await joinedCluster(other);
      const before = titleOf(await page(other));
      expect((await page(other)).xcache).toBe("HIT");
      // The edit reaches this deployment's instances (the webhook confirmed by them alone)...
      const title = `Tarifs de ce déploiement ${Date.now()}`;
      expect(await edit(a, title)).toBe(200);
      expect(titleOf(await page(a))).toContain(title);
      // ...and nothing of it reaches the other deployment: its page is still its own cached copy.
      const theirs = await page(other);
      expect([theirs.xcache, titleOf(theirs)]).toEqual(["HIT", before]);
      expect(other.output()).not.toMatch(/lease|distrust/i);
    } finally {
      await other.stop();
    }
  }, 30_000);

  it("shows an edit on every instance on the very next request after the webhook's 2xx", async () => {
    const [a, b] = instances;
    for (let round = 0; round < 4; round++) {
      for (const frontend of [a, b]) {
        await page(frontend);
        expect((await page(frontend)).xcache).toBe("HIT");
      }
      const title = `Tarifs, édition ${round} ${Date.now()}`;
      expect(await edit(round % 2 ? b : a, title)).toBe(200);
      for (const frontend of [a, b]) expect(titleOf(await page(frontend))).toContain(title);
    }
  });

  it("answers a new instance's first page request as a HIT from the shared store", async () => {
    const [a] = instances;
    const rendered = await page(a, "/");
    expect(rendered.status).toBe(200);
    // Saved in the background after the render: wait until Redis holds this very page.
    const namespace = cacheNamespace({ BACKEND_API_URL: `${backend.url}/api/v1/websites` });
    const key = sharedNames("dev", namespace).page(cacheTarget("GET", "dupont", HOST, "http", "/")!.key);
    await until(async () => (await redis.command("-n", "8", "EXISTS", key)).trim() === "1", "the shared page");
    const c = await instance();
    const first = await page(c, "/");
    expect(first.status).toBe(200);
    expect(first.xcache).toBe("HIT");
    expect(first.text).toBe(rendered.text);
    // A page no instance rendered yet is a miss, rendered here.
    expect((await page(c, "/contact/")).xcache).toBe("MISS");
  }, 30_000);

  it("keeps serving while Redis is down, answers the webhook 503, and comes back after a restart", async () => {
    const [a, b] = instances;
    for (const frontend of [a, b]) {
      await page(frontend);
      expect((await page(frontend)).xcache).toBe("HIT");
    }
    await redis.stop();
    // Both instances have seen the outage (their subscriber dropped) before the pages are asked for.
    await until(async () => [a, b].every((f) => f.output().includes("Redis unreachable")), "both instances to see the outage");
    const started = Date.now();
    for (const frontend of [a, b]) {
      // What was held before the outage may have missed an invalidation: rendered again, then served locally.
      const first = await page(frontend);
      expect([first.status, first.xcache]).toEqual([200, "MISS"]);
      expect((await page(frontend)).xcache).toBe("HIT");
    }
    expect(Date.now() - started).toBeLessThan(4000); // BACKEND_TIMEOUT_MS
    // The edit is applied where the webhook landed, and the backend is told to retry (503).
    const title = `Tarifs sans Redis ${Date.now()}`;
    expect(await edit(a, title)).toBe(503);
    expect(titleOf(await page(a))).toContain(title);

    await redis.start();
    // The backend's retry: confirmed once the instances are back in touch.
    await until(async () => (await edit(a, title)) === 200, "a confirmed webhook");
    for (const frontend of [a, b]) expect(titleOf(await page(frontend))).toContain(title);
    const again = `Tarifs, Redis revenu ${Date.now()}`;
    expect(await edit(b, again)).toBe(200);
    for (const frontend of instances) expect(titleOf(await page(frontend))).toContain(again);
    // One line per outage, not one per request or per reconnection attempt.
    for (const frontend of [a, b]) {
      expect(frontend.output().match(/Redis unreachable/g)?.length, frontend.output()).toBe(1);
      expect(frontend.output()).toMatch(/Redis reachable again after/);
    }
  }, 60_000);

  it("keeps answering through nginx when an instance is SIGKILLed, and the webhook stops waiting for it", async () => {
    nginx = await startNginx(instances.map((f) => `127.0.0.1:${f.port}`), { rate: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await get(nginx.url, HOST, "/")).status);
    const victim = instances[instances.length - 1];
    await victim.kill("SIGKILL");
    for (let i = 0; i < 30; i++) statuses.push((await get(nginx.url, HOST, `/?n=${i}`)).status);
    expect(statuses.every((s) => s === 200), JSON.stringify(statuses)).toBe(true);
    const started = Date.now();
    const title = `Tarifs après la panne ${Date.now()}`;
    expect(await edit(instances[0], title)).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    for (const frontend of instances.slice(0, 2)) expect(titleOf(await page(frontend))).toContain(title);
    // The instance that noticed says so in its log.
    expect(instances[0].output()).toMatch(/instance [0-9a-f]{8} left the dev cluster \(its lease lapsed\)/);
  }, 60_000);
});
