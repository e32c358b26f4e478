/**
 * Readiness and graceful shutdown of the built server (src/server/lifecycle.ts): /readyz says ready once
 * started; on SIGTERM the listener closes at once, a request already in flight still gets its whole answer,
 * and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Frontend } from "./support/frontend";
import { backendJson, type DemoBackend } from "./support/demo-backend";
import { backendRequests, startPair } from "./support/cache";
import { http } from "./support/http";

let backend: DemoBackend;
let frontend: Frontend;

beforeAll(async () => {
  ({ backend, frontend } = await startPair());
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

describe("readiness and graceful shutdown", () => {
  it("is ready once started (without Redis: at once)", async () => {
    const res = await http(frontend.url, "127.0.0.1", "/readyz");
    expect([res.status, res.body]).toEqual([200, "ready"]);
  });

  it("finishes the request in flight on SIGTERM, refuses new connections, and exits 0", async () => {
    // The backend answers the page's reads slowly: the request is still rendering when SIGTERM arrives.
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "slow", delayMs: 1500, match: "/sites/martin/" }) });
    const inflight = http(frontend.url, "martin.dev.localhost", "/");
    // In flight once the render's first read has reached the backend (which holds it for 1.5 s).
    await expect
      .poll(async () => Object.keys(await backendRequests(backend)).some((key) => key.includes("/sites/martin/")), { timeout: 10_000 })
      .toBe(true);
    const exited = frontend.kill("SIGTERM");
    // The listener closes at once: new connections are refused while the request in flight finishes.
    const refused = () =>
      http(frontend.url, "martin.dev.localhost", "/readyz").then(
        () => false,
        (error: Error) => /ECONNREFUSED/.test(error.message),
      );
    await expect.poll(refused, { timeout: 5_000 }).toBe(true);
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(res.body).toContain("</html>");
    expect(await exited).toBe(0);
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
  }, 20_000);
});
