/**
 * The two cache renderers behave alike under load: renders in this thread (RENDER_WORKERS=0) go through the
 * same admission as renders in the pool (they had none: a flood of one practice's misses all rendered at
 * once on the thread that answers every practice's hits).
 */
import { describe, expect, it } from "vitest";
import { cacheTarget } from "../cache/key";
import { isRenderUnavailable } from "../render/unavailable";
import type { RenderRequest } from "../render/render";
import type { PathLookups } from "../site/path-index";
import { inProcessRenderer } from "./renderer";
import { MAX_WEIGHT } from "./admission";
import { listedOrUnlisted, type Practice } from "../tenancy";
import { Metrics } from "../monitoring/metrics";

/** Renders measured by nothing: the metrics off, as with METRICS_PORT=0. */
const UNCOUNTED = new Metrics(false, []);

const noLookups: PathLookups = { unknownPage: async () => null, pathIndex: async () => null };

/** A render function that holds every render until released, and records the order renders started in. */
function heldRenders() {
  const started: string[] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  let peak = 0;
  const render: RenderRequest = async (request, ctx) => {
    started.push(`${ctx.code} ${new URL(request.url).pathname}`);
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => waiting.push(resolve));
    running--;
    return new Response("<p>ok</p>", { headers: { "content-type": "text/html" } });
  };
  const releaseOne = () => waiting.shift()?.();
  return { render, started, releaseOne, peak: () => peak, held: () => waiting.length };
}

const target = (code: string, path: string) => cacheTarget("GET", code, `${code}.example`, "https", path)!;

/** Releases held renders one by one until every one of `renders` has settled; their answers. */
async function releasedAll<P extends Promise<unknown>>(held: { releaseOne: () => void }, renders: P[]): Promise<Awaited<P>[]> {
  let settled = false;
  const all = Promise.all(renders).then((answers) => ((settled = true), answers));
  while (!settled) {
    held.releaseOne();
    await new Promise((r) => setImmediate(r));
  }
  return all;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

/** Releases held renders one at a time until `name` started; how many of the others started before it. */
async function startedAfter(held: ReturnType<typeof heldRenders>, name: string, capacity: number): Promise<number> {
  while (!held.started.includes(name)) {
    held.releaseOne();
    await new Promise((r) => setImmediate(r));
  }
  return held.started.indexOf(name) - capacity;
}

describe("inProcessRenderer", () => {
  it("runs a bounded number of renders at once, serves practices in turn, and refuses past a practice's queue", async () => {
    const held = heldRenders();
    const renderer = inProcessRenderer(held.render, noLookups, null, (code) => code, UNCOUNTED);
    const flood = Array.from({ length: 40 }, (_, i) =>
      renderer.render(target("alpha", `/p${i}/`)).then(
        () => "rendered",
        (error: unknown) => (isRenderUnavailable(error) ? "refused" : "failed"),
      ),
    );
    const quiet = renderer.render(target("bravo", "/contact/"));
    await until(() => held.held() === renderer.capacity);
    expect(held.peak()).toBe(renderer.capacity);
    // Practices take turns weighted by demand: the quiet practice's render waits for MAX_WEIGHT of the flood's at most.
    expect(await startedAfter(held, "bravo /contact/", renderer.capacity)).toBeLessThanOrEqual(MAX_WEIGHT);
    const all = releasedAll(held, [...flood, quiet]);
    const outcomes = (await all).slice(0, flood.length);
    // 4 running + 32 queued for one practice; the rest refused at once (the cache answers 503 or stale).
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(40 - renderer.capacity - 32);
    expect(outcomes.filter((o) => o === "failed")).toHaveLength(0);
    expect(held.peak()).toBe(renderer.capacity);
  });
});

describe("admission by the practice list (issue 26: invented preview codes each had a queue of their own)", () => {
  it("every unlisted code shares one queue; a listed practice keeps its own and its turn", async () => {
    const held = heldRenders();
    const renderer = inProcessRenderer(held.render, noLookups, null, listedOrUnlisted({ practices: [{ code: "dupont" }] as Practice[] }), UNCOUNTED);
    // 80 renders of 80 invented codes: one bucket, so capacity + 32 are taken and the rest refused at once.
    const flood = Array.from({ length: 80 }, (_, i) =>
      renderer.render(target(`rtq${i}`, `/p${i}/`)).then(
        () => "rendered",
        (error: unknown) => (isRenderUnavailable(error) ? "refused" : "failed"),
      ),
    );
    const listed = renderer.render(target("dupont", "/contact/"));
    await until(() => held.held() === renderer.capacity);
    // The listed practice's turn came after MAX_WEIGHT of the flood's renders at most, not after 32 of them.
    expect(await startedAfter(held, "dupont /contact/", renderer.capacity)).toBeLessThanOrEqual(MAX_WEIGHT);
    const all = releasedAll(held, [...flood, listed]);
    const outcomes = (await all).slice(0, flood.length);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(80 - renderer.capacity - 32);
    expect(outcomes.filter((o) => o === "failed")).toHaveLength(0);
  });

  it("renderOnce (a contact form page) waits its turn in the same queues", async () => {
    const held = heldRenders();
    const renderer = inProcessRenderer(held.render, noLookups, null, (code) => code, UNCOUNTED);
    const flood = Array.from({ length: 40 }, (_, i) => renderer.renderOnce(target("alpha", `/p${i}/`), []).catch(() => null));
    await until(() => held.held() === renderer.capacity);
    expect(held.peak()).toBe(renderer.capacity);
    const all = releasedAll(held, flood);
    expect((await all).filter((a) => a === null)).toHaveLength(40 - renderer.capacity - 32);
    expect(held.peak()).toBe(renderer.capacity);
  });
});
