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
    // Each of these cost every request (a cache HIT 4.5 times its CPU with tracing, twice without: issue 28).
    for (const name of ["Http", "Express", "OnUncaughtException"]) expect(client!.getIntegrationByName(name)).toBeUndefined();
    expect(client!.getOptions().tracesSampleRate).toBeUndefined();
    // Errors are still captured with their own context: the integrations that shape an error stay.
    for (const name of ["LinkedErrors", "Dedupe", "OnUnhandledRejection"]) expect(client!.getIntegrationByName(name)).toBeDefined();
  });
});
