/**
 * Issue 26: the shared Redis has a password, carried by CACHE_URL (redis://:<password>@host:port/db, the form
 * ops/deploy/environments.ts checks in the env file). The real server joins a Redis that requires it, is refused by
 * one with another password (and says so), and never prints the password, whatever happens.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type TestRedis } from "./support/redis";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { joinedCluster, logMessages, startFrontend, type Frontend } from "./support/frontend";
import { until } from "./support/until";

const PASSWORD = "7f3a9c1e2b4d6f8a0c2e4a6b8d0f1a3c";
const WRONG = "0000111122223333444455556666777788889999";

let redis: TestRedis;
let backend: DemoBackend;
const started: Frontend[] = [];

beforeAll(async () => {
  [redis, backend] = await Promise.all([startRedis(), startBackend()]);
  // The server's Redis requires the password from now on (as the generated compose's Redis does).
  expect(await redis.command("CONFIG", "SET", "requirepass", PASSWORD)).toContain("OK");
});

afterAll(async () => {
  await Promise.all(started.map((f) => f.stop()));
  await Promise.all([redis?.stop(), backend?.close()]);
});

async function frontendWith(password: string): Promise<Frontend> {
  const frontend = await startFrontend({ backendUrl: backend.url, env: { CACHE_URL: `redis://:${password}@127.0.0.1:${redis.port}/8`, LOG_FORMAT: "json" } });
  started.push(frontend);
  return frontend;
}

describe("the shared Redis's password (issue 26)", () => {
  it("joins with the password from CACHE_URL; with another, is refused and says so; prints neither", async () => {
    const right = await frontendWith(PASSWORD);
    await joinedCluster(right);
    const wrong = await frontendWith(WRONG);
    await until(() => logMessages(wrong.output()).includes("shared cache: Redis unreachable ("), "the refused instance's line");
    expect(logMessages(wrong.output())).toMatch(/Redis unreachable \((WRONGPASS|NOAUTH)[^)]*\)/);
    // Neither password, nor the URL that holds it, in anything either server printed (start, joins, failures).
    for (const output of [right.output(), wrong.output()]) {
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(WRONG);
      expect(output).not.toMatch(/redis:\/\/:[^@\s]+@/);
    }
  });
});
