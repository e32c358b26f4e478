/**
 * Issue 17: the shared store under the specification's eviction policy (allkeys-lru with a maxmemory). Pages
 * written until Redis was full made it evict whatever it sampled, the cluster's bookkeeping included (the
 * join mark: the next webhook waited 3 s). Pages are now written only while Redis has room for them
 * (PAGE_WRITE_LIMIT of its maxmemory, judged inside Redis at each write: a check once a second let two
 * instances' writes pass it and evict 10 keys): filling the store evicts nothing, and the webhook stays fast.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECRET, joinedCluster, startFrontend, type Frontend } from "./support/frontend";
import { ACTIVE_DEMO_PRACTICES, backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { startRedis, type TestRedis } from "./support/redis";
import { get } from "./support/cache";
import { PAGE_WRITE_LIMIT } from "../src/server/cache/shared/pages";

let redis: TestRedis;
let backend: DemoBackend;
const instances: Frontend[] = [];

const info = async (section: string, field: string) =>
  Number(new RegExp(`${field}:(\\d+)`).exec(await redis.command("INFO", section))?.[1] ?? NaN);

beforeAll(async () => {
  // A small store, so that the demo's pages (about 1.6 MB in Redis) would fill it more than once.
  redis = await startRedis({ maxmemory: "2mb" });
  backend = await startBackend();
  for (let i = 0; i < 2; i++) {
    const frontend = await startFrontend({ backendUrl: backend.url, env: { CACHE_URL: redis.url(8) } });
    instances.push(frontend);
    await joinedCluster(frontend);
  }
  await backendJson(backend, "/admin/settings", {
    method: "PUT",
    body: JSON.stringify({ frontendUrl: instances[0].url, revalidationSecret: DEFAULT_SECRET }),
  });
}, 60_000);

afterAll(async () => {
  for (const frontend of instances) await frontend.stop();
  await backend?.close();
  await redis?.stop();
});

describe("the shared store under memory pressure", () => {
  it("stops writing pages before Redis must evict: no key evicted, the bookkeeping kept, the webhook fast", async () => {
    const max = await info("memory", "maxmemory");
    expect(max).toBe(2 * 1024 * 1024);
    const [a] = instances;
    let pages = 0;
    for (const code of ACTIVE_DEMO_PRACTICES) {
      const { pages: list } = await backendJson<{ pages: { path: string }[] }>(backend, `/api/v1/websites/sites/${code}/pages/`);
      for (const { path } of list) {
        // Two hosts a page is keyed by: the preview host with and without the port.
        for (const host of [`${code}.dev.localhost:${a.port}`, `${code}.dev.localhost`]) {
          expect([host, path, (await get(a.url, host, path)).status]).toEqual([host, path, 200]);
          pages++;
        }
      }
    }
    expect(pages).toBeGreaterThan(150);
    expect(await info("stats", "evicted_keys")).toBe(0);
    expect(await info("memory", "used_memory")).toBeLessThan(max);
    // Pages were written up to the limit, not none at all.
    const stored = (await redis.command("-n", "8", "--scan", "--pattern", "*:page:*")).trim().split("\n").filter(Boolean);
    expect(stored.length).toBeGreaterThan(20);
    expect(await info("memory", "used_memory")).toBeGreaterThan(max * PAGE_WRITE_LIMIT * 0.9);
    for (const mark of ["joined", "members"]) {
      expect((await redis.command("-n", "8", "--scan", "--pattern", `*:${mark}`)).trim(), mark).not.toBe("");
    }
    // The bookkeeping is all there, and an edit's webhook is confirmed by both instances at once.
    const started = Date.now();
    const result = await backendJson<{ webhook: { status: number | null } }>(backend, "/admin/sites/dupont/pages/tarifs", {
      method: "PATCH",
      body: JSON.stringify({ title: `Tarifs ${Date.now()}` }),
    });
    expect(result.webhook.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1500);
  }, 60_000);
});
