import { describe, expect, it } from "vitest";
import { backendKind, Metrics, timedBackendCall, type BackendFigure, MAX_PRACTICE_LABELS } from "./metrics";
import { pathOnly, requestId } from "./access";

const metrics = new Metrics(true, ["dupont", "martin"]);
metrics.scrape({ store: () => ({ keys: 7, bytes: 4096 }), pool: () => ({ workers: 2, replaced: 3 }), shared: () => null });

async function value(name: string, labels: Record<string, string> = {}, registry = metrics.registry): Promise<number> {
  // A histogram's _count and _sum are samples of the histogram, named by metricName.
  const base = name.replace(/_(count|sum)$/, "");
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name || m.name === base);
  const sample = metric?.values.find(
    (v) => ((v as { metricName?: string }).metricName ?? metric.name) === name && Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  );
  return sample?.value ?? 0;
}

describe("practice labels", () => {
  it("are codes of the practice list, anything else is \"other\"", () => {
    expect(metrics.practiceLabel("dupont")).toBe("dupont");
    expect(metrics.practiceLabel("/tarifs/")).toBe("other");
    expect(metrics.practiceLabel(null)).toBe("other");
  });

  it("are capped however long the practice list", () => {
    const codes = Array.from({ length: MAX_PRACTICE_LABELS + 10 }, (_, i) => `p${i}`);
    const many = new Metrics(true, codes);
    expect(many.practiceLabel("p0")).toBe("p0");
    expect(many.practiceLabel(`p${MAX_PRACTICE_LABELS + 5}`)).toBe("other");
  });
});

describe("backend resource kinds", () => {
  it.each([
    ["/sites/", "sites"],
    ["/sites/dupont/config/", "config"],
    ["/sites/dupont/pages/", "pages"],
    ["/sites/dupont/pages/soins-dentaires/", "page"],
    ["/sites/dupont/contact/", "contact"],
    ["/sites/dupont/whatever/", "other"],
    ["/elsewhere", "other"],
  ])("%s is %s (never the slug)", (endpoint, kind) => expect(backendKind(endpoint)).toBe(kind));
});

describe("renders through admission", () => {
  it("count queue depth while waiting, the wait, the render time, and the outcome", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const okBefore = await value("frontend_renders_total", { outcome: "ok" });
    const waitsBefore = await value("frontend_render_queue_wait_seconds_count");
    const run = metrics.measuredRender("dupont", async (start) => {
      await gate;
      return start();
    }, async () => "page");
    expect(await value("frontend_render_queue_depth")).toBe(1);
    release();
    expect(await run).toBe("page");
    expect(await value("frontend_render_queue_depth")).toBe(0);
    expect(await value("frontend_renders_total", { outcome: "ok" })).toBe(okBefore + 1);
    expect(await value("frontend_render_queue_wait_seconds_count")).toBe(waitsBefore + 1);
    expect(await value("frontend_render_duration_seconds_count", { practice: "dupont" })).toBeGreaterThanOrEqual(1);
  });

  it("a render refused before it started leaves the queue and counts as refused; one that failed as failed", async () => {
    await expect(metrics.measuredRender("x", () => Promise.reject(new Error("queue full")), async () => 1)).rejects.toThrow("queue full");
    expect(await value("frontend_render_queue_depth")).toBe(0);
    expect(await value("frontend_renders_total", { outcome: "refused" })).toBeGreaterThanOrEqual(1);
    await expect(metrics.measuredRender("x", (start) => start(), () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await value("frontend_renders_total", { outcome: "failed" })).toBeGreaterThanOrEqual(1);
    expect(await value("frontend_render_queue_depth")).toBe(0);
  });
});

describe("figures read on scrape", () => {
  it("page store, workers alive and restarts come from their sources", async () => {
    expect(await value("frontend_page_store_keys")).toBe(7);
    expect(await value("frontend_page_store_bytes")).toBe(4096);
    expect(await value("frontend_render_workers_alive")).toBe(2);
    expect(await value("frontend_render_worker_restarts_total")).toBe(3);
    expect(await value("frontend_shared_store_up")).toBe(-1);
  });
});

describe("requests", () => {
  it("are counted by practice, result and status class", async () => {
    metrics.recordRequest("dupont", "HIT", 200, 0.4);
    metrics.recordRequest("nobody", "404", 404, 1);
    expect(await value("frontend_http_requests_total", { practice: "dupont", result: "HIT", status: "2xx" })).toBe(1);
    expect(await value("frontend_http_requests_total", { practice: "other", result: "404", status: "4xx" })).toBe(1);
  });
});

describe("backend reads", () => {
  it("are recorded on this thread, with the practice's last error, unless a render worker sends them on", async () => {
    const before = await value("frontend_backend_requests_total", { kind: "config", outcome: "timeout" });
    const timeout = Object.assign(new Error("slow"), { failure: "timeout" });
    await expect(timedBackendCall("/sites/dupont/config/", () => Promise.reject(timeout), metrics.recordBackendFigure)).rejects.toThrow("slow");
    expect(await value("frontend_backend_requests_total", { kind: "config", outcome: "timeout" })).toBe(before + 1);
    expect(metrics.lastBackendError.get("dupont")).toMatchObject({ outcome: "timeout", kind: "config" });
    // A render worker's sink (render-pool/worker.ts): the figure goes to the pool's port, not to a registry.
    const sent: BackendFigure[] = [];
    expect(await timedBackendCall("/sites/martin/pages/implants/", async () => "page", (figure) => sent.push(figure))).toBe("page");
    expect(sent).toEqual([{ kind: "page", outcome: "ok", ms: expect.any(Number) as number, code: "martin" }]);
    expect(await value("frontend_backend_requests_total", { kind: "page", outcome: "ok" })).toBe(0);
    // What the main thread does with it when the pool hands it over.
    metrics.recordBackendFigure(sent[0]);
    expect(await value("frontend_backend_requests_total", { kind: "page", outcome: "ok" })).toBe(1);
  });
});

describe("one Metrics per server", () => {
  it("counts into its own registry only, and nothing at all when off", async () => {
    const other = new Metrics(true, ["dupont"]);
    const off = new Metrics(false, ["dupont"]);
    const before = await value("frontend_http_requests_total", { practice: "dupont", result: "MISS", status: "2xx" });
    other.recordRequest("dupont", "MISS", 200, 3);
    off.recordRequest("dupont", "MISS", 200, 3);
    off.recordBackendFigure({ kind: "config", outcome: "timeout", ms: 1, code: "dupont" });
    off.countMainThreadRender();
    expect(await value("frontend_http_requests_total", { practice: "dupont", result: "MISS", status: "2xx" }, other.registry)).toBe(1);
    expect(await value("frontend_http_requests_total", { practice: "dupont", result: "MISS", status: "2xx" })).toBe(before);
    expect(await value("frontend_http_requests_total", { practice: "dupont", result: "MISS", status: "2xx" }, off.registry)).toBe(0);
    expect(off.lastBackendError.size).toBe(0);
    // The main thread's render count is the invariant the tests read: counted whether the metrics are served or not.
    expect(off.mainThreadRenders).toBe(1);
    expect(other.mainThreadRenders).toBe(0);
  });
});

describe("access line helpers", () => {
  it("drop the query string and bound the path", () => {
    expect(pathOnly("/contact/?email=a%40b.org")).toBe("/contact/");
    expect(pathOnly(`/${"a".repeat(500)}`).length).toBeLessThanOrEqual(201);
  });

  it("keep a short token X-Request-Id, generate one otherwise", () => {
    expect(requestId("abc-123_x.y")).toBe("abc-123_x.y");
    for (const bad of ["a b", "x".repeat(65), "<script>", undefined, ["a", "b"]]) {
      const id = requestId(bad as string | undefined);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    }
  });
});

