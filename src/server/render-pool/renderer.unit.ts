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

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

describe("inProcessRenderer", () => {
  it("runs a bounded number of renders at once, serves practices in turn, and refuses past a practice's queue", async () => {
    const held = heldRenders();
    const renderer = inProcessRenderer(held.render, noLookups, null);
    const flood = Array.from({ length: 40 }, (_, i) =>
      renderer.render(target("alpha", `/p${i}/`)).then(
        () => "rendered",
        (error: unknown) => (isRenderUnavailable(error) ? "refused" : "failed"),
      ),
    );
    const quiet = renderer.render(target("bravo", "/contact/"));
    await until(() => held.held() === renderer.capacity);
    expect(held.peak()).toBe(renderer.capacity);
    // Practices are served in turn: the quiet practice's render waits for at most one of the flood's.
    held.releaseOne();
    held.releaseOne();
    await until(() => held.started.length === renderer.capacity + 2);
    expect(held.started.slice(-2)).toContain("bravo /contact/");
    let settled = false;
    const all = Promise.all([...flood, quiet]).then((answers) => ((settled = true), answers));
    while (!settled) {
      held.releaseOne();
      await new Promise((r) => setImmediate(r));
    }
    const outcomes = (await all).slice(0, flood.length);
    // 4 running + 32 queued for one practice; the rest refused at once (the cache answers 503 or stale).
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(40 - renderer.capacity - 32);
    expect(outcomes.filter((o) => o === "failed")).toHaveLength(0);
    expect(held.peak()).toBe(renderer.capacity);
  });
});
