/**
 * Readiness and graceful shutdown of the built server (src/server/http/lifecycle.ts): /readyz is 503 from
 * the port's first answer until the backend probe has succeeded, and says why without naming the backend
 * or a practice; on SIGTERM the listener closes at once, a request already in flight still gets its whole
 * answer, and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { freePort, launchFrontend, startFrontend, type Frontend } from "./support/frontend";
import { ACTIVE_DEMO_PRACTICES, INACTIVE_DEMO_PRACTICE, backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { backendRequests, startPair } from "./support/cache";
import { http } from "./support/http";
import { until } from "./support/until";

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
  it("is ready once the backend has answered the probe (without Redis: nothing else to wait for)", async () => {
    await until(async () => (await http(frontend.url, "127.0.0.1", "/readyz")).status === 200, "ready");
    expect((await http(frontend.url, "127.0.0.1", "/readyz")).body).toBe("ready");
    expect(frontend.output()).toMatch(/backend probe: .* answers 200/);
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
    // The drain is in the log: where it began and when the process left (issue 27: nothing was logged).
    expect(frontend.output()).toMatch(/"msg":"SIGTERM: draining: \/readyz answers 503[^"]*"[^]*"msg":"SIGTERM: exiting/);
    await backendJson(backend, "/admin/faults", { method: "POST", body: JSON.stringify({ mode: "none" }) });
  }, 20_000);
});

describe("a backend that is not the right one keeps the instance out of service, saying why", () => {
  it("BACKEND_API_URL without its /api/v1/websites path: /readyz 503 saying why (the URL in the log only), logged once", async () => {
    // The same backend, its base URL missing the API path: every practice's configuration is a 404.
    const wrong = await startFrontend({ backendUrl: backend.url, env: { BACKEND_API_URL: backend.url } });
    try {
      const answer = async () => {
        const res = await http(wrong.url, "127.0.0.1", "/readyz");
        return `${res.status} ${res.body}`;
      };
      await expect.poll(answer, { timeout: 10_000 }).toMatch(/^503 starting: backend not answering for the practice list: 404 for every practice asked/);
      // What was tried is in the log, not in /readyz, which answers any Host (issue 26).
      expect(await answer()).not.toContain(backend.url);
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
      await expect.poll(async () => (await readyz()).body, { timeout: 10_000 }).toBe(
        "starting: backend not answering for the practice list: unreachable (ECONNREFUSED)",
      );
      expect(frontend2.output()).toContain(`[warn] backend probe: backend ${url}/api/v1/websites is unreachable (ECONNREFUSED)`);
      again = await startBackend({ port: Number(new URL(url).port) });
      await expect.poll(async () => (await readyz()).status, { timeout: 15_000 }).toBe(200);
      expect(frontend2.output()).toContain("backend probe: ");
    } finally {
      await frontend2.stop();
      await again?.close();
    }
  });
});

/**
 * A stand-in backend that holds every request until `release()`, so that the probe's first round cannot
 * answer before the test has watched /readyz; then it answers as the API does: 200 for a practice's
 * configuration under /api/v1/websites, 404 for any other path (the base URL without its path included).
 */
async function heldBackend() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req, res) => {
    void released.then(() => {
      const ok = /^\/api\/v1\/websites\/sites\/[a-z0-9-]+\/config\/$/.test(req.url ?? "");
      res.writeHead(ok ? 200 : 404, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Two turns of the event loop: a log line written before an answer is read from the pipe by then. */
const turns = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * /readyz asked again and again from the first moment the port answers, until `done()` holds: each answer as
 * "status body", marked with whether `line` was already in the server's output when it arrived.
 */
async function watchReadyz(frontend: Frontend, line: RegExp, done: (answers: string[]) => boolean): Promise<string[]> {
  const answers: string[] = [];
  const deadline = Date.now() + 15_000;
  while (!done(answers)) {
    if (Date.now() > deadline) throw new Error(`/readyz watched for 15 s:\n${answers.join("\n")}\n${frontend.output()}`);
    if (!frontend.alive()) throw new Error(`the server exited:\n${frontend.output()}`);
    const res = await http(frontend.url, "127.0.0.1", "/readyz").catch(() => null);
    if (!res) {
      // Not listening yet: ask again shortly.
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    // The server prints the probe's line before /readyz can change; the pipe may be read a turn after the socket.
    await turns();
    answers.push(`${res.status} ${res.body}${line.test(frontend.output()) ? " (after the probe line)" : ""}`);
  }
  return answers;
}

const PENDING = "503 starting: backend not answering for the practice list yet (first probe running)";

describe("ready means probed: /readyz is 503 from the port's first answer until the backend probe succeeds", () => {
  it("a BACKEND_API_URL without its /api/v1/websites: never 200, before the probe's failure is logged or after", async () => {
    const held = await heldBackend();
    const frontend = launchFrontend({ backendUrl: held.url, env: { BACKEND_API_URL: held.url }, port: await freePort() });
    const failure = /\[warn\] backend probe: backend .* answers 404 for every practice asked/;
    try {
      // The probe's first round is held at the backend: what /readyz says before any answer.
      const before = await watchReadyz(frontend, failure, (answers) => answers.length >= 3);
      held.release();
      const after = await watchReadyz(frontend, failure, (answers) => answers.filter((a) => a.endsWith("(after the probe line)")).length >= 3);
      expect(before).toEqual([PENDING, PENDING, PENDING]);
      expect(after.filter((a) => !a.startsWith("503 "))).toEqual([]);
      expect(after.at(-1)).toBe(
        "503 starting: backend not answering for the practice list: 404 for every practice asked " +
          "(is BACKEND_API_URL the API base, ending in /api/v1/websites?) (after the probe line)",
      );
      // Neither the backend's URL nor a practice code, on any Host (issue 26): they are in the log line.
      const codes = [...ACTIVE_DEMO_PRACTICES, INACTIVE_DEMO_PRACTICE];
      expect([...before, ...after].filter((a) => a.includes(held.url) || codes.some((code) => a.includes(code)))).toEqual([]);
      expect(frontend.output()).toContain(`backend probe: backend ${held.url} answers 404 for every practice asked (dupont`);
    } finally {
      await frontend.stop();
      await held.close();
    }
  });

  it("the right BACKEND_API_URL: 200 only once the probe's success is logged", async () => {
    const held = await heldBackend();
    const frontend = launchFrontend({ backendUrl: held.url, port: await freePort() });
    const success = /backend probe: .*\/config\/ answers 200/;
    try {
      const before = await watchReadyz(frontend, success, (answers) => answers.length >= 3);
      held.release();
      const after = await watchReadyz(frontend, success, (answers) => answers.at(-1)?.startsWith("200 ") ?? false);
      expect(before).toEqual([PENDING, PENDING, PENDING]);
      // Every answer before the line is 503; the first 200 comes with the line already printed.
      expect(after.filter((a) => !a.startsWith("503 ") && !a.endsWith("(after the probe line)"))).toEqual([]);
      expect(after.at(-1)).toBe("200 ready (after the probe line)");
    } finally {
      await frontend.stop();
      await held.close();
    }
  });

  it("no practice registered: never ready (an instance that answers 404 to every Host is not one to switch to)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "no-practice-"));
    writeFileSync(join(dir, "practices.json"), "[]");
    const frontend = await startFrontend({ backendUrl: backend.url, env: { TENANTS_FILE: join(dir, "practices.json") } });
    try {
      await until(() => frontend.output().includes("[warn] backend probe: no practice registered"), "the probe's warning");
      // Polled: the image library, loaded just after listening, may still be a reason of its own for a moment.
      const readyz = async () => {
        const res = await http(frontend.url, "127.0.0.1", "/readyz");
        return `${res.status} ${res.body}`;
      };
      await expect.poll(readyz, { timeout: 10_000 }).toBe("503 starting: no practice registered: nothing to serve");
    } finally {
      await frontend.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
