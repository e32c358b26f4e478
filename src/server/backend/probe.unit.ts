import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { probeBackend, watchBackendUntilUp, type ProbeOutcome } from "./probe";
import { BACKEND_TIMEOUT_DEFAULT_MS } from "../env";

/** A stand-in backend: answers each practice's config with the status `statuses` names (404 otherwise). */
let server: Server;
let base: string;
const statuses: Record<string, number> = {};
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const code = /^\/api\/v1\/websites\/sites\/([^/]+)\/config\/$/.exec(req.url ?? "")?.[1];
    if (code) asked.push(code);
    res.writeHead(code ? (statuses[code] ?? 404) : 404, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const opts = (path = "/api/v1/websites") => ({ baseUrl: `${base}${path}`, timeoutMs: BACKEND_TIMEOUT_DEFAULT_MS });

describe("probeBackend", () => {
  it("succeeds on the first practice whose configuration answers 200, past inactive ones", async () => {
    Object.assign(statuses, { leroy: 404, dupont: 200 });
    asked.length = 0;
    const outcome = await probeBackend(opts(), ["leroy", "dupont", "martin"]);
    expect(outcome).toEqual({ ok: true, detail: `${base}/api/v1/websites/sites/dupont/config/ answers 200` });
    expect(asked).toEqual(["leroy", "dupont"]);
  });

  it("names the URL and the likely mistake when the backend knows none of the practices (a base without its path)", async () => {
    const outcome = await probeBackend(opts(""), ["dupont", "martin"]);
    expect(outcome.ok).toBe(false);
    const { reason } = outcome as Extract<ProbeOutcome, { ok: false }>;
    expect(reason).toContain(`backend ${base} answers 404 for every practice asked (dupont, martin)`);
    expect(reason).toContain("/api/v1/websites");
  });

  it("says why in /readyz's text without the backend URL or a practice code (issue 26)", async () => {
    const outcome = (await probeBackend(opts(""), ["dupont", "martin"])) as Extract<ProbeOutcome, { ok: false }>;
    expect(outcome.status).toBe(
      "backend not answering for the practice list: 404 for every practice asked (is BACKEND_API_URL the API base, ending in /api/v1/websites?)",
    );
    expect(outcome.status).not.toMatch(/127\.0\.0\.1|dupont|martin/);
  });

  it("fails when no practice is registered: an instance with nothing to serve is not ready", async () => {
    asked.length = 0;
    expect(await probeBackend(opts(), [])).toEqual({
      ok: false,
      reason: "no practice registered (the practice list, TENANTS_FILE, is empty): nothing to serve",
      status: "no practice registered: nothing to serve",
    });
    expect(asked).toEqual([]);
  });

  it("asks five practices at most in a round", async () => {
    asked.length = 0;
    await probeBackend(opts(), ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]);
    expect(asked).toEqual(["a1", "a2", "a3", "a4", "a5"]);
  });

  it("says so when the backend answers an error, or is not there", async () => {
    statuses.bernard = 502;
    expect(await probeBackend(opts(), ["bernard"])).toEqual({
      ok: false,
      reason: `backend ${base}/api/v1/websites answered HTTP 502 for /sites/bernard/config/`,
      status: "backend not answering for the practice list: HTTP 502",
    });
    // A port nothing listens on (fetch refuses port 9 itself, as a "bad port", before connecting).
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, "127.0.0.1", resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const closed = await probeBackend({ baseUrl: `http://127.0.0.1:${port}/api/v1/websites`, timeoutMs: BACKEND_TIMEOUT_DEFAULT_MS }, ["dupont"]);
    expect(closed).toEqual({
      ok: false,
      reason: `backend http://127.0.0.1:${port}/api/v1/websites is unreachable (ECONNREFUSED)`,
      status: "backend not answering for the practice list: unreachable (ECONNREFUSED)",
    });
  });

  it("says so when the backend does not answer in time", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v1/websites`;
    try {
      // About the timeout firing: a short one against a server that never answers.
      expect(await probeBackend({ baseUrl: url, timeoutMs: 200 }, ["dupont"])).toEqual({
        ok: false,
        reason: `backend ${url} did not answer in time`,
        status: "backend not answering for the practice list: no answer in time",
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("watchBackendUntilUp", () => {
  it("reports each new outcome once, retries until the backend answers, then stops", async () => {
    statuses.petit = 503;
    const heard: ProbeOutcome[] = [];
    const watch = watchBackendUntilUp(opts(), ["petit"], (o) => heard.push(o), 20);
    // Several failing rounds, one report.
    await expect.poll(() => asked.filter((c) => c === "petit").length).toBeGreaterThanOrEqual(3);
    expect(heard).toHaveLength(1);
    statuses.petit = 200;
    await watch.done;
    expect(heard.map((o) => o.ok)).toEqual([false, true]);
  });
});
