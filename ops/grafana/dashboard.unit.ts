/**
 * The Grafana dashboard is valid JSON and every metric name its panels query exists in the server's
 * registry (a renamed metric would otherwise leave an empty panel nobody notices).
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { Metrics } from "../../src/server/monitoring/metrics";

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

const dashboard = JSON.parse(readFileSync(new URL("./practice-frontend.json", import.meta.url), "utf8")) as Dashboard;

/** Metric names in a PromQL expression: our prefixes, a histogram's series suffixes removed. */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(frontend|process|nodejs)_[a-z0-9_]+/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|sum|count)$/, ""));
}

describe("ops/grafana/practice-frontend.json", () => {
  it("queries only metrics the server defines, in every panel", async () => {
    const metrics = new Metrics(true, []);
    metrics.scrape({});
    const defined = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    expect(dashboard.panels.length).toBeGreaterThan(10);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        const names = metricNames(expr);
        expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of names) expect(defined.has(name), `${panel.title}: ${name} is not a metric of the registry`).toBe(true);
      }
    }
  });

  it("covers what the issue names: requests by practice and result, renders, queue, workers, backend, webhooks, shared store, page store, contact, memory", () => {
    const all = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)));
    for (const name of [
      "frontend_http_requests_total",
      "frontend_render_duration_seconds",
      "frontend_render_queue_wait_seconds",
      "frontend_render_queue_depth",
      "frontend_render_workers_alive",
      "frontend_render_worker_restarts_total",
      "frontend_backend_requests_total",
      "frontend_backend_request_duration_seconds",
      "frontend_webhook_invalidations_total",
      "frontend_webhook_ack_seconds",
      "frontend_shared_store_up",
      "frontend_shared_store_round_trip_seconds",
      "frontend_page_store_bytes",
      "frontend_page_store_keys",
      "frontend_contact_relays_total",
      "process_resident_memory_bytes",
    ]) {
      expect(all, name).toContain(name);
    }
  });
});
