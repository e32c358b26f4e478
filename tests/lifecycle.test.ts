/**
 * Readiness and graceful shutdown of the built server (src/server/http/lifecycle.ts): /readyz says ready once
 * started; on SIGTERM the listener closes at once, a request already in flight still gets its whole answer,
 * and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontend, type Frontend } from "./support/frontend";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
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

describe("a backend that is not the right one keeps the instance out of service, saying why", () => {
  it("BACKEND_API_URL without its /api/v1/websites path: /readyz 503 naming the URL, logged once", async () => {
    // The same backend, its base URL missing the API path: every practice's configuration is a 404.
    const wrong = await startFrontend({ backendUrl: backend.url, env: { BACKEND_API_URL: backend.url } });
    try {
      const answer = async () => {
        const res = await http(wrong.url, "127.0.0.1", "/readyz");
        return `${res.status} ${res.body}`;
      };
      await expect.poll(answer, { timeout: 10_000 }).toMatch(/^503 starting: backend .* answers 404 for every practice asked/);
      expect(await answer()).toContain(backend.url);
      await expect.poll(() => wrong.output(), { timeout: 10_000 }).toContain(`[warn] backend probe: backend ${backend.url} answers 404`);
      // Still not ready some rounds later, and the line is not repeated every round.
      expect((await answer()).startsWith("503")).toBe(true);
      expect(wrong.output().match(/backend probe: backend/g)).toHaveLength(1);
    } finally {
      await wrong.stop();
    }
  });

  it("a backend that starts after the frontend: 503 saying it is unreachable, 200 once it answers", async () => {
    const late = await startBackend();
    const url = late.url;
    await late.close();
    const frontend2 = await startFrontend({ backendUrl: url });
    let again: DemoBackend | undefined;
    try {
      const readyz = () => http(frontend2.url, "127.0.0.1", "/readyz");
      await expect.poll(async () => (await readyz()).body, { timeout: 10_000 }).toMatch(/^starting: backend .* is unreachable \(ECONNREFUSED\)/);
      again = await startBackend({ port: Number(new URL(url).port) });
      await expect.poll(async () => (await readyz()).status, { timeout: 15_000 }).toBe(200);
      expect(frontend2.output()).toContain("backend probe: ");
    } finally {
      await frontend2.stop();
      await again?.close();
    }
  });
});
