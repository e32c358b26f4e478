import { afterAll, describe, expect, it } from "vitest";
import * as Sentry from "@sentry/node";
import { initMonitoring } from "./index";

afterAll(async () => {
  await Sentry.close(0);
});

describe("initMonitoring", () => {
  it("starts error tracking without tracing or any integration that works on every request", async () => {
    // A local port nothing listens on: nothing is sent by this test.
    await initMonitoring("http://test@127.0.0.1:9/1", "test");
    const client = Sentry.getClient();
    expect(client).toBeDefined();
    // Each of these works on every request (Http and tracing: a cache HIT 4.5 times its CPU, issue 28) or reports what
    // the process guard reports with its context.
    for (const name of ["Http", "Express", "NodeFetch", "Console", "OnUncaughtException", "OnUnhandledRejection"]) {
      expect(client!.getIntegrationByName(name), name).toBeUndefined();
    }
    expect(client!.getOptions().tracesSampleRate).toBeUndefined();
    // One process-wide trail is no request's: no breadcrumb is kept.
    expect(client!.getOptions().maxBreadcrumbs).toBe(0);
    // Errors are still captured: the integrations that shape an error stay.
    for (const name of ["LinkedErrors", "Dedupe"]) expect(client!.getIntegrationByName(name)).toBeDefined();
  });
});
