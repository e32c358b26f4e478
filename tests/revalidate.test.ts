/**
 * The two revalidation routes, on the real built server: any Host, the secret compared in
 * constant time, every malformed body refused with a message, and the cache untouched by a refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Frontend } from "./support/frontend";
import type { DemoBackend } from "./support/demo-backend";
import { get, revalidate, startPair } from "./support/cache";

let backend: DemoBackend;
let frontend: Frontend;
const PAGE = ["dupont.dev.localhost", "/tarifs/"] as const;

beforeAll(async () => {
  ({ backend, frontend } = await startPair());
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

/** POST a raw body to a route. */
function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return get(frontend.url, "127.0.0.1", path, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The watched page's ETag, asserting it is served from the cache (a refusal must not touch it). */
async function cachedEtag(): Promise<string> {
  const res = await get(frontend.url, ...PAGE);
  expect(res.xcache).toBe("HIT");
  return res.etag!;
}

describe("accepted requests", () => {
  it.each(["webhook", "api"] as const)(
    "%s: 200 with the tags and the number of entries invalidated, on any Host",
    async (route) => {
      await get(frontend.url, ...PAGE);
      for (const host of ["127.0.0.1", "frontend.internal", "www.cabinet-dupont.fr"]) {
        await get(frontend.url, ...PAGE); // cached again (re-rendered by the previous round)
        const answer = await revalidate(frontend, route, ["site:dupont:page:tarifs", "page:tarifs", "page:tarifs"], {
          host,
        });
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({
          revalidated: true,
          tags: ["site:dupont:page:tarifs", "page:tarifs"],
          invalidated: 1,
        });
      }
    },
  );

  it("accepts 200 tags and an uncached tag", async () => {
    const tags = Array.from({ length: 200 }, (_, i) => `page:p${i}`);
    const answer = await revalidate(frontend, "webhook", tags);
    expect(answer.status).toBe(200);
    expect(answer.json.invalidated).toBe(0);
  });
});

describe("refused requests leave the cache untouched", () => {
  it.each(["webhook", "api"] as const)("%s: wrong or missing secret -> 401 and the auth warning", async (route) => {
    await get(frontend.url, ...PAGE);
    const before = await cachedEtag();
    const warnings = () => frontend.output().split("revalidate: auth rejected").length - 1;
    const reported = warnings();
    for (const secret of ["wrong-secret-of-enough-length", "", null, "integration-test-revalidation-secreT"]) {
      const answer = await revalidate(frontend, route, ["site:dupont"], { secret });
      expect(answer.status, String(secret)).toBe(401);
      expect(answer.json.error).toMatch(/secret/);
    }
    expect(await cachedEtag()).toBe(before);
    // Each rejection is reported (the specification's warning: the two secrets drifted).
    await expect.poll(() => warnings() - reported).toBe(4);
  });

  it("api: a secret that is not a string is a rejected secret", async () => {
    const res = await post("/api/revalidate", JSON.stringify({ secret: 42, tags: ["site:dupont"] }));
    expect(res.status).toBe(401);
  });

  const tooMany = Array.from({ length: 201 }, (_, i) => `page:p${i}`);
  const MALFORMED: [string, string, RegExp][] = [
    ["not JSON", "{tags: [page:x]", /not valid JSON/],
    ["an empty body", "", /body is empty/],
    ["a JSON array", '["page:x"]', /JSON object/],
    ["no tags", "{}", /no tags/],
    ["an empty tag list", '{"tags": []}', /no tags/],
    ["tags not an array", '{"tags": "page:x"}', /must be an array/],
    ["a tag that is not a string", '{"tags": ["page:x", 3]}', /tags\[1\] must be a non-empty string/],
    ["an empty tag", '{"tags": [""]}', /tags\[0\] must be a non-empty string/],
    ["an unknown tag shape", '{"tags": ["everything"]}', /not a known tag/],
    ["more than 200 tags", JSON.stringify({ tags: tooMany }), /too many tags: 201/],
  ];

  it.each(MALFORMED)("webhook: %s -> 400 saying what is wrong", async (_name, body, message) => {
    const before = await cachedEtag();
    const res = await post("/webhooks/revalidate/", body, {
      "x-revalidate-secret": "integration-test-revalidation-secret",
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatch(message);
    expect(await cachedEtag()).toBe(before);
  });

  it.each(MALFORMED.filter(([name]) => name !== "a JSON array" && name !== "not JSON" && name !== "an empty body"))(
    "api: %s -> 400 saying what is wrong",
    async (_name, body, message) => {
      const before = await cachedEtag();
      const withSecret = { ...JSON.parse(body), secret: "integration-test-revalidation-secret" };
      const res = await post("/api/revalidate", JSON.stringify(withSecret));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toMatch(message);
      expect(await cachedEtag()).toBe(before);
    },
  );

  it("api: a body that is not JSON -> 400 (the secret cannot even be read)", async () => {
    const res = await post("/api/revalidate", "secret=x&tags=page:x");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatch(/not valid JSON/);
  });

  it.each(["/webhooks/revalidate/", "/api/revalidate"])("%s: a body over 16 KB -> 413, read on the Node side", async (path) => {
    const before = await cachedEtag();
    const big = JSON.stringify({
      secret: "integration-test-revalidation-secret",
      tags: ["site:dupont"],
      pad: "x".repeat(17 * 1024),
    });
    const res = await post(path, big, { "x-revalidate-secret": "integration-test-revalidation-secret" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error).toMatch(/dépasse 16 Ko/);
    expect(await cachedEtag()).toBe(before);
  });

  it("webhook: a wrong secret is refused before the body is judged", async () => {
    const res = await post("/webhooks/revalidate/", "not json", { "x-revalidate-secret": "nope" });
    expect(res.status).toBe(401);
  });

  it("api: tags are judged only once the secret is right (no validation hints without it)", async () => {
    const res = await post("/api/revalidate", JSON.stringify({ secret: "nope", tags: ["bogus"] }));
    expect(res.status).toBe(401);
  });
});
