/**
 * Issue 26: a 3.88 MB page payload (under the 4 MB bound of the time) killed two render workers per request,
 * answered 503 after 16.7 s, and held the other practices' misses for 10-13 s. The bound is now what a worker
 * can render (backend/http.ts MAX_PAYLOAD_BYTES, schemas.ts MAX_BLOCKS): against the built server, a page at
 * the bound renders; one past it is refused by the backend client at once, with no worker lost; another
 * practice's page renders meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECRET, startFrontend, type Frontend } from "./support/frontend";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { get } from "./support/cache";
import { MAX_PAYLOAD_BYTES } from "../src/server/backend/http";
import { MAX_BLOCKS } from "../src/server/backend/schemas";

let backend: DemoBackend;
let frontend: Frontend;
let dupont: string;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
  dupont = `dupont.dev.localhost:${frontend.port}`;
  await backendJson(backend, "/admin/settings", { method: "PUT", body: JSON.stringify({ frontendUrl: frontend.url, revalidationSecret: DEFAULT_SECRET }) });
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

/**
 * Replaces the blocks of one of dupont's pages (the backend's webhook invalidates it). Each case takes a page
 * never rendered before: a page with a good copy keeps serving it when a re-render fails (stale-if-error).
 */
async function setBlocks(slug: string, blocks: unknown[]): Promise<void> {
  const edit = await backendJson<{ webhook: { status: number | null } }>(backend, `/admin/sites/dupont/pages/${slug}`, {
    method: "PATCH",
    body: JSON.stringify({ blocks }),
  });
  expect(edit.webhook.status).toBe(200);
}

const workerDeaths = () => (frontend.output().match(/render worker (exited|error)/g) ?? []).length;
const textOf = (bytes: number) => [{ type: "rich_text", value: { html: `<p>${"a ".repeat(Math.floor(bytes / 2))}</p>` } }];

describe("backend payloads bounded by what a render worker can render", () => {
  it("a page just under the bound renders, in one worker, with no worker lost", async () => {
    await setBlocks("tarifs", textOf(MAX_PAYLOAD_BYTES - 16 * 1024));
    const page = await get(frontend.url, dupont, "/tarifs/");
    expect(page.status).toBe(200);
    expect(page.raw.length).toBeGreaterThan(MAX_PAYLOAD_BYTES / 2);
    expect(workerDeaths()).toBe(0);
  }, 60_000);

  it("a page past the bound is refused at once (no render of it, no worker lost); another practice renders meanwhile", async () => {
    // Three times the bound: rendered, this text shape killed a worker (1.5 MB did, measured).
    await setBlocks("philosophie", textOf(3 * MAX_PAYLOAD_BYTES));
    const started = Date.now();
    const [heavy, other] = await Promise.all([
      get(frontend.url, dupont, "/philosophie/"),
      get(frontend.url, `martin.dev.localhost:${frontend.port}`, "/"),
    ]);
    expect(heavy.status).toBeGreaterThanOrEqual(500);
    expect(other.status).toBe(200);
    // Refused when read, not after a worker's death and restart (16.7 s before).
    expect(Date.now() - started).toBeLessThan(8000);
    expect(workerDeaths()).toBe(0);
  }, 60_000);

  it("a page with more blocks than the bound is refused the same way", async () => {
    await setBlocks("technologies", Array.from({ length: MAX_BLOCKS + 1 }, (_, i) => ({ type: "rich_text", value: { html: `<p>${i}</p>` } })));
    expect((await get(frontend.url, dupont, "/technologies/")).status).toBeGreaterThanOrEqual(500);
    await setBlocks("technologies", Array.from({ length: MAX_BLOCKS }, (_, i) => ({ type: "rich_text", value: { html: `<p>${i}</p>` } })));
    expect((await get(frontend.url, dupont, "/technologies/")).status).toBe(200);
    expect(workerDeaths()).toBe(0);
  }, 60_000);
});
