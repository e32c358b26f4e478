/**
 * The migration watch with several instances (CACHE_URL): an instance counts its practices' 404s into the
 * shared Redis over the shared cache's own connection (no third connection of its own), and what it counted
 * since its last flush is written when it shuts down, before that connection closes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, joinedCluster, startFrontend, type Frontend } from "./support/frontend";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { get } from "./support/cache";
import { startRedis, type TestRedis } from "./support/redis";

const HOST = "dupont.dev.localhost";
const DB = "9";
let redis: TestRedis;
let backend: DemoBackend;
let frontend: Frontend | undefined;

beforeAll(async () => {
  redis = await startRedis();
  backend = await startBackend();
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
  await redis?.stop();
});

/** The clients connected to Redis, but the redis-cli asking. */
async function clients(): Promise<string[]> {
  return (await redis.command("CLIENT", "LIST")).split("\n").filter((line) => line.trim() && !line.includes("cmd=client|list"));
}

describe("the migration watch on the shared Redis", () => {
  it("counts over the shared cache's connection, and writes what it counted when the instance stops", async () => {
    // A flush period longer than the test: only the shutdown can write the counts.
    const metricsPort = await freePort();
    frontend = await startFrontend({
      backendUrl: backend.url,
      env: { CACHE_URL: redis.url(Number(DB)), NOT_FOUND_FLUSH_MS: "600000", METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1" },
    });
    await joinedCluster(frontend);
    for (let i = 0; i < 3; i++) expect((await get(frontend.url, HOST, "/ancien-lien/")).status).toBe(404);
    expect((await get(frontend.url, HOST, "/autre-ancien-lien/?utm_source=x")).status).toBe(404);
    // The instance's two connections (commands and subscriber), and no other.
    expect(await clients()).toHaveLength(2);
    // The shared store's commands are timed by the server's metrics (services.ts hands them to the link).
    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(Number(/^frontend_shared_store_round_trip_seconds_count\{outcome="ok"\} (\d+)$/m.exec(scraped)?.[1] ?? 0)).toBeGreaterThan(0);
    await frontend.stop();
    frontend = undefined;
    const keys = (await redis.command("-n", DB, "--scan", "--pattern", "*not-found:dupont")).split("\n").filter(Boolean);
    expect(keys).toHaveLength(1);
    expect((await redis.command("-n", DB, "ZSCORE", keys[0], "/ancien-lien/")).trim()).toBe("3");
    expect((await redis.command("-n", DB, "ZSCORE", keys[0], "/autre-ancien-lien/")).trim()).toBe("1");
  }, 60_000);
});
