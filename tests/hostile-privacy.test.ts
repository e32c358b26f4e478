/**
 * Issue 8, defects 2 and 8, against the built server with SENTRY_DSN pointing at a fake ingest server on
 * loopback (the real SDK, the real envelopes):
 * - a contact relay failure reports an event, and nothing of the patient (name, e-mail, phone, message),
 *   of the client (address, cookies) or of the query string is in it;
 * - a scan of wrong revalidation secrets sends one warning event, not one per request; the log keeps
 *   every line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";

let ingest: Server;
const envelopes: string[] = [];
let frontend: Frontend;
let host: string;

const PATIENT = {
  name: "Héloïse Patientdupont",
  email: "heloise.secret@example.org",
  phone: "06 98 76 54 32",
  message: "Douleur persistante après extraction, traitement anticoagulant en cours.",
};
const CLIENT_IP = "203.0.113.99";
const COOKIE = "session=cookie-value-that-must-not-leave";

beforeAll(async () => {
  ingest = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      envelopes.push((req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => ingest.listen(0, "127.0.0.1", resolve));
  const dsn = `http://public@127.0.0.1:${(ingest.address() as AddressInfo).port}/1`;
  // No backend at all: every contact submission fails to reach it (a relay failure, reported).
  frontend = await startFrontend({ backendUrl: "http://127.0.0.1:9", env: { SENTRY_DSN: dsn } });
  host = `dupont.dev.localhost:${frontend.port}`;
});

afterAll(async () => {
  await frontend?.stop();
  await new Promise((resolve) => ingest?.close(resolve));
});

async function waitFor(predicate: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!predicate() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

/** Resolves once `count()` has not moved for three polls in a row (the SDK's queue has drained). */
async function untilQuiet(count: () => number, ms = 15_000) {
  const end = Date.now() + ms;
  let last = count();
  for (let still = 0; still < 3 && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 200));
    still = count() === last ? still + 1 : 0;
    last = count();
  }
}

describe("error tracking receives no personal data", () => {
  it("a contact relay failure sends an event without the patient's data, address, cookies or query", async () => {
    const res = await http(frontend.url, host, `/api/contact?email=${encodeURIComponent(PATIENT.email)}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: `http://${host}`,
        "x-forwarded-for": CLIENT_IP,
        cookie: COOKIE,
      },
      body: JSON.stringify({ ...PATIENT, consent: true, website: "", elapsed_ms: 5000, page: "/contact/" }),
    });
    expect(res.status).toBe(502);
    await waitFor(() => envelopes.some((e) => e.includes('"type":"event"')));
    const events = envelopes.filter((e) => e.includes('"type":"event"'));
    expect(events.length).toBeGreaterThan(0);
    const all = envelopes.join("\n");
    for (const value of [...Object.values(PATIENT), CLIENT_IP, "cookie-value-that-must-not-leave", "heloise.secret"]) {
      expect(all).not.toContain(value);
    }
    expect(all).not.toContain(encodeURIComponent(PATIENT.email));
  });

  it("a scan of wrong revalidation secrets sends one warning event, and logs every attempt", async () => {
    const before = envelopes.length;
    for (let i = 0; i < 25; i++) {
      // Another event in between each time, so that the SDK's own deduplication of identical consecutive
      // events cannot be what keeps the count down.
      await http(frontend.url, host, "/api/contact", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i + 1}` },
        body: JSON.stringify({ name: "A", email: "a@example.org", message: "m", consent: true, website: "", elapsed_ms: 5000 }),
      });
      const res = await http(frontend.url, "anything.example", "/webhooks/revalidate/", {
        method: "POST",
        headers: { "content-type": "application/json", "x-revalidate-secret": `guess-${i}` },
        body: '{"tags":["site:dupont"]}',
      });
      expect(res.status).toBe(401);
    }
    // Every rejection has been logged (so every capture has been decided), the warning has arrived, and
    // nothing else is arriving: only then is "one event" a count and not a snapshot.
    await expect.poll(() => frontend.output().match(/\[warn\] revalidate: auth rejected/g)?.length ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(25);
    await waitFor(() => envelopes.slice(before).some((e) => e.includes("auth rejected")));
    await untilQuiet(() => envelopes.length);
    const warnings = envelopes.slice(before).filter((e) => e.includes("revalidate: auth rejected"));
    expect(warnings).toHaveLength(1);
    expect(frontend.output().match(/\[warn\] revalidate: auth rejected/g)?.length).toBeGreaterThanOrEqual(25);
  });

  it("a flood of one error sends one error event per kind of message, and logs every occurrence", async () => {
    const events = (code: string) =>
      envelopes.filter((e) => e.includes('"type":"event"') && e.includes(`backend unreachable on /sites/${code}/contact/`)).length;
    const logged = () => frontend.output().match(/\[error\] backend unreachable on \/sites\/(dupont|martin)\/contact\//g)?.length ?? 0;
    const before = logged();
    // Two practices in turn, so that the SDK's own deduplication of identical consecutive events is not
    // what keeps the count down.
    const martin = `martin.dev.localhost:${frontend.port}`;
    for (let i = 0; i < 30; i++) {
      const site = i % 2 ? martin : host;
      const res = await http(frontend.url, site, "/api/contact", {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://${site}`, "x-forwarded-for": `198.51.100.${100 + i}` },
        body: JSON.stringify({ name: "A", email: "a@example.org", message: "m", consent: true, website: "", elapsed_ms: 5000 }),
      });
      expect(res.status).toBe(502);
    }
    await expect.poll(logged, { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 30);
    await untilQuiet(() => envelopes.length);
    // One within the minute for the kind, whatever path or practice the message names (the throttle keys on
    // its shape: docs/decisions/0049-not-found-watch-bounds.md); dupont's was sent by the first test of this file.
    expect(events("dupont") + events("martin")).toBe(1);
  });

  it("no event carries a breadcrumb (another request's trail), and a relay failure says which practice it was", async () => {
    // Every event this file made: relay failures of dupont and martin, the revalidation scan's warning.
    // An envelope: its header line, then each item's header line (its type) and its payload's line.
    const events = envelopes.flatMap((e) => {
      const lines = e.split("\n");
      return lines.flatMap((line, i) => (i > 0 && line.startsWith('{"type":"event"') ? [JSON.parse(lines[i + 1]) as Record<string, unknown>] : []));
    });
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const event of events) expect(event.breadcrumbs ?? []).toEqual([]);
    const relay = events.filter((e) => JSON.stringify(e.exception ?? "").includes("backend unreachable"));
    expect(relay.length).toBeGreaterThan(0);
    for (const event of relay) expect((event.extra as { code?: string }).code).toMatch(/^(dupont|martin)$/);
  });
});
