/**
 * Issue 8, defect 1: an oversized body used to answer 413 and then kill the process (a web stream made
 * from the Node request was cancelled while Node still pushed data into it). Every route that takes a
 * body, with bodies declared too large, streamed too large, aborted mid-way and trickling in: each is
 * answered (413, 408) or dropped, and the same process keeps serving every practice afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontend, type Frontend } from "./support/frontend";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { chunk, rawRequest } from "./support/raw-http";
import { http } from "./support/http";

let backend: DemoBackend;
let frontend: Frontend;
let host: string;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  host = `dupont.dev.localhost:${frontend.port}`;
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

/** Every route that takes a body: the contact relay (both spellings), both revalidation routes, page posts. */
const ROUTES = ["/api/contact", "/api/contact/", "/webhooks/revalidate/", "/api/revalidate", "/contact/", "/"];
const BIG = 17 * 1024;

const head = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nOrigin: http://${host}\r\n${headers}\r\n`;

async function stillServing() {
  const health = await fetch(`${frontend.url}/healthz`);
  expect(health.status).toBe(200);
  const page = await http(frontend.url, host, "/");
  expect(page.status).toBe(200);
  expect(frontend.output()).not.toMatch(/ERR_INVALID_STATE|Controller is already closed|uncaught exception/i);
}

describe("oversized and broken bodies on every route that takes one", () => {
  it("a urlencoded post over 16 KB (the form without JavaScript) is refused and the process lives", async () => {
    const pieces = Array.from({ length: BIG / 1024 }, () => ({ data: "message=".padEnd(1024, "x"), waitMs: 10 }));
    const res = await rawRequest(frontend.port, [
      { data: head("/api/contact/", `Content-Length: ${BIG}\r\n`).replace("application/json", "application/x-www-form-urlencoded") },
      ...pieces,
    ]);
    expect(res.status).toBe(413);
    await stillServing();
  });

  it.each(ROUTES)("%s: a declared body over 16 KB is answered 413 (JSON) and the process lives", async (path) => {
    // Sent in pieces: the crash needed data arriving after the refusal.
    const pieces = Array.from({ length: BIG / 1024 }, () => ({ data: "x".repeat(1024), waitMs: 10 }));
    const res = await rawRequest(frontend.port, [{ data: head(path, `Content-Length: ${BIG}\r\n`) }, ...pieces]);
    expect(res.status).toBe(413);
    expect(res.text).toMatch(/16 Ko/);
    await stillServing();
  });

  it.each(ROUTES)("%s: a chunked body that grows past 16 KB is answered 413 and the process lives", async (path) => {
    const pieces = Array.from({ length: 40 }, () => ({ data: chunk("y".repeat(1024)), waitMs: 10 }));
    const res = await rawRequest(frontend.port, [{ data: head(path, "Transfer-Encoding: chunked\r\n") }, ...pieces, { data: "0\r\n\r\n" }]);
    expect(res.status).toBe(413);
    await stillServing();
  });

  it.each(ROUTES)("%s: a body aborted mid-way leaves the process serving", async (path) => {
    await rawRequest(frontend.port, [
      { data: head(path, "Content-Length: 12000\r\n") },
      { data: "z".repeat(6000), waitMs: 50 },
      { destroy: true },
    ]);
    await rawRequest(frontend.port, [
      { data: head(path, "Transfer-Encoding: chunked\r\n") },
      { data: chunk("z".repeat(20_000)), waitMs: 20 },
      { destroy: true },
    ]);
    await stillServing();
  });

  it("bodies that trickle in are cut off (408) within the body time limit, all routes at once", async () => {
    const answers = await Promise.all(
      ROUTES.map((path) =>
        rawRequest(frontend.port, [
          { data: head(path, "Content-Length: 1000\r\n") },
          ...Array.from({ length: 30 }, () => ({ data: "a", waitMs: 500 })),
        ]),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(408);
      expect(answer.closedAfterMs).toBeLessThan(14_000);
    }
    await stillServing();
  }, 30_000);

  it("a normal contact post still reaches the relay after all of it", async () => {
    const res = await http(frontend.url, host, "/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://${host}` },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    await stillServing();
  });
});
