/**
 * `npm run dev` without a content backend (no `make dev`): the vite dev server says what to run, in the
 * terminal at start and in the 503 of a page, instead of a bare 503 after the backend's timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./support/frontend";
import { reapOnExit } from "./support/reaper";
import { get } from "./support/cache";
import { until } from "./support/until";

let vite: ChildProcess;
let port: number;
let output = "";

beforeAll(async () => {
  port = await freePort();
  // A port nothing listens on: the backend is not running.
  const backendPort = await freePort();
  vite = reapOnExit(
    spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--mode", "ssr", "--port", String(port), "--host", "127.0.0.1", "--strictPort"], {
      // As `npm run dev` runs it: the committed .env.development fills in the rest (vite.config.ts).
      env: { PATH: process.env.PATH, BACKEND_API_URL: `http://127.0.0.1:${backendPort}/api/v1/websites` },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    }),
    { group: true },
  );
  vite.stdout!.on("data", (c) => (output += c));
  vite.stderr!.on("data", (c) => (output += c));
  await until(() => /make dev/.test(output) && /Local:/.test(output), "the dev server's start and its hint", 30_000);
}, 45_000);

afterAll(async () => {
  if (vite?.exitCode === null) {
    const exited = new Promise((r) => vite.once("exit", r));
    process.kill(-vite.pid!, "SIGTERM");
    await exited;
  }
});

describe("the addresses the dev server prints", () => {
  it("Local and Network (an IP address) both answer the list of the practices, not a 404", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `192.168.1.20:${port}`, `[::1]:${port}`]) {
      const index = await get(`http://127.0.0.1:${port}`, host, "/");
      expect(index.status, host).toBe(200);
      expect(index.text, host).toContain("Practices on this dev server");
    }
  });
});

describe("npm run dev without a backend", () => {
  it("says at start that the backend is not running and to use make dev", () => {
    expect(output).toMatch(/The content backend is not running: nothing answers at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/websites/);
    expect(output).toContain("Run `make dev`");
  });

  it("answers a page with a 503 that says so, without waiting for the backend's timeout", async () => {
    const started = performance.now();
    const page = await get(`http://127.0.0.1:${port}`, `dupont.dev.localhost:${port}`, "/");
    expect(page.status).toBe(503);
    expect(page.text).toContain("The content backend is not running");
    expect(page.text).toContain("Run `make dev`");
    // The check is a local TCP connect (at most 1 s), not the backend client's 4 s timeout the bare 503 waited for.
    expect(performance.now() - started).toBeLessThan(3500);
  });
});
