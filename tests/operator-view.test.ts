/**
 * Issue 19, the operator's view, on the real built server: the metrics on the internal port (METRICS_PORT)
 * move with hits, a miss, a 404, a webhook and a contact message; the public port does not answer them; the
 * access log is one JSON object per request with the fields an operator needs and none of a patient's
 * data; the operator's commands list the practices, show the cache and purge a practice or a tag.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startFrontend, type Frontend } from "./support/frontend";
import type { DemoBackend } from "./support/demo-backend";
import { get, renderId, revalidate, startPair } from "./support/cache";
import { http } from "./support/http";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** `npm run ops -- <args>` against this test's server (its internal port). */
async function ops(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", "ops/operator/operator.ts", ...args], {
      env: { PATH: process.env.PATH, METRICS_PORT: String(metricsPort) },
      timeout: 20_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

let backend: DemoBackend;
let frontend: Frontend;
let metricsPort: number;
const DUPONT = "dupont.dev.localhost";

const PATIENT = {
  name: "Anatole Patientmetrique",
  email: "anatole.private@example.org",
  phone: "06 11 22 33 44",
  message: "Abcès dentaire depuis hier soir, sous antibiotiques.",
};

beforeAll(async () => {
  metricsPort = await freePort();
  ({ backend, frontend } = await startPair({ METRICS_PORT: String(metricsPort), LOG_FORMAT: "json" }));
  // The internal port listens shortly after the public one.
  const deadline = Date.now() + 10_000;
  while ((await fetch(internal("/metrics")).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`no /metrics on the internal port within 10 s:\n${frontend.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

function internal(path: string) {
  return `http://127.0.0.1:${metricsPort}${path}`;
}

async function scrape(): Promise<string> {
  const res = await fetch(internal("/metrics"));
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series (name and exact label set as printed), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The access lines printed so far, parsed. */
function accessLines(): Record<string, unknown>[] {
  return frontend
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{") && l.includes('"msg":"access"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("metrics on the internal port", () => {
  it("count hits, a miss, a 404, a webhook, backend reads and renders by practice; the public port has no /metrics", async () => {
    const before = await scrape();
    const miss = await get(frontend.url, DUPONT, "/tarifs/");
    expect(miss.xcache).toBe("MISS");
    for (let i = 0; i < 3; i++) expect((await get(frontend.url, DUPONT, "/tarifs/")).xcache).toBe("HIT");
    expect((await get(frontend.url, DUPONT, "/no-such-page/")).status).toBe(404);
    expect((await revalidate(frontend, "webhook", ["site:dupont:page:tarifs"])).status).toBe(200);

    // The public port knows no /metrics, on any Host.
    for (const host of [DUPONT, "127.0.0.1"]) {
      // One 404 at once (it was a 301 to /metrics/, then the practice's 404 page).
      const res = await get(frontend.url, host, "/metrics");
      expect(res.status, host).toBe(404);
      expect(res.text).not.toContain("frontend_");
      expect((await get(frontend.url, host, "/metrics/")).status).toBe(404);
    }

    let after = "";
    await expect
      .poll(async () => {
        after = await scrape();
        return value(after, 'frontend_http_requests_total{practice="dupont",result="HIT",status="2xx"}');
      }, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(value(before, 'frontend_http_requests_total{practice="dupont",result="HIT",status="2xx"}') + 3);
    const moved = (series: string) => value(after, series) - value(before, series);
    expect(moved('frontend_http_requests_total{practice="dupont",result="MISS",status="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(moved('frontend_http_requests_total{practice="dupont",result="404",status="4xx"}')).toBeGreaterThanOrEqual(1);
    expect(moved('frontend_webhook_invalidations_total{outcome="ok"}')).toBe(1);
    expect(moved("frontend_webhook_ack_seconds_count")).toBe(1);
    expect(moved('frontend_render_duration_seconds_count{practice="dupont"}')).toBeGreaterThanOrEqual(1);
    expect(moved("frontend_render_queue_wait_seconds_count")).toBeGreaterThanOrEqual(1);
    // Read in the render workers, recorded in the main thread's registry.
    expect(moved('frontend_backend_requests_total{kind="page",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, "frontend_page_store_keys")).toBeGreaterThanOrEqual(1);
    expect(value(after, "frontend_page_store_bytes")).toBeGreaterThan(0);
    expect(value(after, "frontend_render_workers_alive")).toBeGreaterThanOrEqual(1);
    expect(value(after, "frontend_shared_store_up")).toBe(-1);
    expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
    // Bounded labels: no path, no host, no unknown practice as a label value.
    expect(after).not.toMatch(/tarifs|no-such-page|localhost/);
  });

  it("an unlisted Host counts as practice \"other\"", async () => {
    expect((await get(frontend.url, "unknown.example.org", "/x/")).status).toBe(404);
    await expect.poll(async () => value(await scrape(), 'frontend_http_requests_total{practice="other",result="404",status="4xx"}'), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  });
});

describe("the access log", () => {
  it("is one JSON object per request with practice, host, status, cache result, duration, bytes and a request id", async () => {
    // Cached here, not by whichever test asked for the page before (the line below must be a HIT).
    expect((await get(frontend.url, DUPONT, "/tarifs/")).status).toBe(200);
    await get(frontend.url, DUPONT, "/tarifs/?utm_source=secret-campaign&email=someone%40example.org", { headers: { "x-request-id": "req-abc.123" } });
    await expect.poll(() => accessLines().find((l) => l.id === "req-abc.123"), { timeout: 10_000 }).toBeTruthy();
    const line = accessLines().find((l) => l.id === "req-abc.123")!;
    expect(line).toMatchObject({ method: "GET", practice: "dupont", host: DUPONT, path: "/tarifs/", status: 200, cache: "HIT" });
    expect(typeof line.ms).toBe("number");
    expect(line.bytes as number).toBeGreaterThan(100);
    // No query string, no client address.
    const raw = frontend.output();
    expect(raw).not.toContain("secret-campaign");
    expect(raw).not.toContain("someone%40example.org");
    // Exactly these fields: nothing about the client (address, agent, cookies), no query.
    expect(Object.keys(line).sort()).toEqual(["bytes", "cache", "host", "id", "level", "method", "ms", "msg", "path", "practice", "status", "time"]);
    // An X-Request-Id that is not a short token is replaced by a generated one.
    await get(frontend.url, DUPONT, "/tarifs/", { headers: { "x-request-id": "x".repeat(65) } });
    await expect.poll(() => accessLines().filter((l) => l.path === "/tarifs/").length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(raw).not.toContain("x".repeat(65));
  });

  it("carries the request id into the render worker's lines for the render that request caused", async () => {
    // /technologies/ holds a block of unknown type: its render (in a worker) logs a warning.
    await get(frontend.url, DUPONT, "/technologies/", { headers: { "x-request-id": "render-req-42" } });
    const warning = () =>
      frontend
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{") && l.includes('unknown block type \\"carousel\\"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await expect.poll(() => warning().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(warning()[0].requestId).toBe("render-req-42");
  });

  it("ACCESS_LOG=off drops the access lines alone: the other lines stay JSON", async () => {
    const quiet = await startFrontend({ backendUrl: backend.url, env: { ACCESS_LOG: "off" } });
    try {
      expect((await get(quiet.url, DUPONT, "/tarifs/")).status).toBe(200);
    } finally {
      await quiet.stop(); // the log is flushed on shutdown: the output is complete after this
    }
    expect(quiet.output()).toMatch(/^\{"level":30,.*"msg":"frontend listening on /m);
    expect(quiet.output()).not.toContain('"msg":"access"');
  });

  it("loses no line under load nor on shutdown (lines are written in batches: monitoring/access.ts)", async () => {
    const own = await startFrontend({ backendUrl: backend.url, env: { LOG_FORMAT: "json" } });
    const ids = Array.from({ length: 400 }, (_, i) => `batch-${i}`);
    try {
      expect((await get(own.url, DUPONT, "/tarifs/")).status).toBe(200);
      // 400 requests, 20 at a time: more than one batch's worth of bytes waits at some point.
      for (let i = 0; i < ids.length; i += 20) {
        await Promise.all(ids.slice(i, i + 20).map((id) => get(own.url, DUPONT, "/tarifs/", { headers: { "x-request-id": id } })));
      }
    } finally {
      await own.stop(); // SIGTERM: the batch still waiting is written before the process exits
    }
    const order = own
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{") && l.includes('"msg":"access"'))
      .map((l) => (JSON.parse(l) as { id: string }).id);
    const logged = new Set(order);
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    // In order: the 20 requests of a round run at once, but no round's line comes before an earlier round's (a
    // batch written at exit once overtook one still being written).
    const rounds = order.filter((id) => id.startsWith("batch-")).map((id) => Math.floor(Number(id.slice(6)) / 20));
    expect(rounds).toEqual([...rounds].sort((a, b) => a - b));
  });

  it("writes a quiet server's line without waiting for more (within the batch's second)", async () => {
    await get(frontend.url, DUPONT, "/tarifs/", { headers: { "x-request-id": "quiet-1" } });
    const asked = Date.now();
    await expect.poll(() => accessLines().some((l) => l.id === "quiet-1"), { timeout: 10_000 }).toBe(true);
    // Polled, so the bound is loose on a busy machine; without the batch's timer the line would never come.
    expect(Date.now() - asked).toBeLessThan(5_000);
  });

  it("holds none of a contact message's personal data, and the relay is counted", async () => {
    const origin = `http://${DUPONT}:${frontend.port}`;
    const res = await http(frontend.url, `${DUPONT}:${frontend.port}`, "/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", origin, "x-forwarded-for": "203.0.113.77" },
      body: JSON.stringify({ ...PATIENT, consent: true, website: "", elapsed_ms: 5000, page: "/contact/" }),
    });
    // A valid message, relayed and accepted by the demo backend: the counter below has its one outcome.
    expect(res.status, res.body).toBe(201);
    await expect.poll(() => accessLines().some((l) => l.path === "/api/contact" && l.method === "POST"), { timeout: 10_000 }).toBe(true);
    const output = frontend.output();
    for (const value of [...Object.values(PATIENT), "anatole.private", "203.0.113.77"]) expect(output).not.toContain(value);
    const text = await scrape();
    expect(text).toMatch(/frontend_contact_relays_total\{practice="dupont",outcome="accepted"\} 1\b/);
  });
});

describe("the operator's commands", () => {
  it("list the practices with their state, cached pages and last render", async () => {
    await get(frontend.url, DUPONT, "/");
    const practices = (await (await fetch(internal("/ops/practices"))).json()) as Array<Record<string, unknown>>;
    const dupont = practices.find((p) => p.code === "dupont")!;
    expect(dupont).toMatchObject({ state: "active", preview: "dupont.dev.localhost", lastBackendError: null });
    expect(dupont.cachedPages as number).toBeGreaterThanOrEqual(1);
    expect(Date.parse(dupont.lastRender as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(practices.find((p) => p.code === "leroy")).toMatchObject({ state: "inactive", cachedPages: 0, lastRender: null });
  });

  it("show the cache's state", async () => {
    const cache = (await (await fetch(internal("/ops/cache"))).json()) as { store: { keys: number; bytes: number }; pool: { workers: number } };
    expect(cache.store.keys).toBeGreaterThanOrEqual(1);
    expect(cache.store.bytes).toBeGreaterThan(0);
    expect(cache.pool.workers).toBeGreaterThanOrEqual(1);
  });

  it("purge a practice (its site tag) or a tag; refuse an unknown practice or a malformed tag with a 400", async () => {
    await get(frontend.url, DUPONT, "/");
    const before = await get(frontend.url, DUPONT, "/");
    expect(before.xcache).toBe("HIT");
    const purged = await fetch(internal("/ops/purge?practice=dupont"), { method: "POST" });
    expect(purged.status).toBe(200);
    expect(await purged.json()).toMatchObject({ purged: true, tags: ["site:dupont"], invalidated: expect.any(Number) });
    // Rendered again (at once in the background, or for this request): another render's container id.
    expect(renderId((await get(frontend.url, DUPONT, "/")).text)).not.toBe(renderId(before.text));

    const byTag = await fetch(internal("/ops/purge?tag=site:dupont:page:tarifs"), { method: "POST" });
    expect(await byTag.json()).toMatchObject({ purged: true, tags: ["site:dupont:page:tarifs"] });

    expect((await fetch(internal("/ops/purge?practice=nobody"), { method: "POST" })).status).toBe(400);
    expect((await fetch(internal("/ops/purge?tag=a%20b"), { method: "POST" })).status).toBe(400);
    expect((await fetch(internal("/ops/purge?practice=dupont"))).status).toBe(405);
  });

  it("answer only this machine's or the container network's names, and no web page (DNS rebinding, CSRF: 403)", async () => {
    const base = internal("");
    const port = String(metricsPort);
    // Prometheus, curl and npm run ops name the port by loopback, IP address or compose service name.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "127.0.0.1", `10.89.0.5:${port}`, `frontend:${port}`, `practice-frontend-prod-frontend-2:${port}`]) {
      expect((await http(base, host, "/metrics")).status, host).toBe(200);
    }
    // A rebound name, or this machine under another port's name, is refused: reads and commands alike.
    for (const host of [`evil.example:${port}`, "evil.example", `localhost.evil.example:${port}`, `127.0.0.1:${metricsPort + 1}`, ""]) {
      const read = await http(base, host, "/ops/practices");
      expect(read.status, host).toBe(403);
      expect(JSON.parse(read.body)).toMatchObject({ error: expect.stringMatching(/Host/) });
      expect((await http(base, host, "/ops/purge?practice=dupont", { method: "POST" })).status, host).toBe(403);
    }
    // A page's request (a form or fetch from any site, this machine's own included) is refused, and purges nothing.
    await get(frontend.url, DUPONT, "/");
    const before = await get(frontend.url, DUPONT, "/");
    expect(before.xcache).toBe("HIT");
    const fromPages: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: `http://127.0.0.1:${frontend.port}` },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of fromPages) {
      const res = await http(base, `127.0.0.1:${port}`, "/ops/purge?practice=dupont", { method: "POST", headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: expect.stringMatching(/web page/) });
    }
    const after = await get(frontend.url, DUPONT, "/");
    expect([after.xcache, renderId(after.text)]).toEqual(["HIT", renderId(before.text)]);
  });

  it("npm run ops: practices as a table, cache, purge a practice; a wrong command says how to use it", async () => {
    await get(frontend.url, DUPONT, "/");
    const before = await get(frontend.url, DUPONT, "/");
    const practices = await ops(["practices"]);
    expect(practices.code, practices.out).toBe(0);
    expect(practices.out).toMatch(/^PRACTICE\s+STATE\s+PREVIEW HOST\s+CACHED PAGES\s+LAST RENDER\s+LAST BACKEND ERROR$/m);
    expect(practices.out).toMatch(/^dupont\s+active\s+dupont\.dev\.localhost\s+[1-9]\d*\s+20\d\d-/m);
    expect(practices.out).toMatch(/^leroy\s+inactive\s/m);
    const cache = await ops(["cache"]);
    expect(JSON.parse(cache.out)).toMatchObject({ store: { keys: expect.any(Number) } });
    const purge = await ops(["purge", "dupont"]);
    expect(purge.code, purge.out).toBe(0);
    expect(JSON.parse(purge.out)).toMatchObject({ purged: true, tags: ["site:dupont"] });
    expect(renderId((await get(frontend.url, DUPONT, "/")).text)).not.toBe(renderId(before.text));
    const unknown = await ops(["purge", "nobody"]);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('no practice \\"nobody\\" in the practice list');
    const wrong = await ops(["flush"]);
    expect(wrong.code).toBe(2);
    expect(wrong.out).toContain("usage: npm run ops --");
  });
});
