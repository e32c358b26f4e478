import { describe, expect, it } from "vitest";
import { buildEnvelope, parseDsn } from "./error-reporter";

describe("parseDsn", () => {
  it.each([
    ["https://abc123@o1.ingest.sentry.io/4505", "https://o1.ingest.sentry.io/api/4505/envelope/?sentry_key=abc123&sentry_version=7"],
    ["https://k@errors.example.org:8443/relay/12", "https://errors.example.org:8443/relay/api/12/envelope/?sentry_key=k&sentry_version=7"],
  ])("%s -> %s", (dsn, endpoint) => {
    expect(parseDsn(dsn)).toEqual({ endpoint, dsn });
  });

  it.each([undefined, "", "not a dsn", "https://o1.ingest.sentry.io/4505", "https://k@host/", "https://k@host/project", "ftp://k@host/1"])(
    "%j is no DSN",
    (dsn) => {
      expect(parseDsn(dsn)).toBeNull();
    },
  );
});

describe("buildEnvelope", () => {
  it("strips the page's query and fragment everywhere in the event: frames, stack, message", () => {
    const page = "https://www.cabinet-dupont.fr/contact/?email=jeanne%40example.org&name=Jeanne#tel=0612345678";
    const text = buildEnvelope(
      {
        type: "TypeError",
        message: `failed at ${page}`,
        filename: page,
        lineno: 3,
        colno: 14,
        stack: `TypeError: x\n    at send (${page}:3:14)\n    at ${page}:9:2\n    at https://www.cabinet-dupont.fr/build/q-1.js:1:20`,
      },
      { url: page, userAgent: "UA" },
      "https://k@o1.ingest.sentry.io/1",
      "0123456789abcdef0123456789abcdef",
      new Date("2026-11-22T10:00:00Z"),
    );
    expect(text).not.toMatch(/jeanne|email=|tel=|0612345678/i);
    const event = JSON.parse(text.split("\n")[2]);
    const [exception] = event.exception.values;
    expect(exception.stacktrace.frames[0].filename).toBe("https://www.cabinet-dupont.fr/contact/");
    expect(exception.value).toBe("failed at https://www.cabinet-dupont.fr/contact/");
    expect(event.extra.stack).toBe(
      "TypeError: x\n    at send (https://www.cabinet-dupont.fr/contact/:3:14)\n    at https://www.cabinet-dupont.fr/contact/:9:2\n    at https://www.cabinet-dupont.fr/build/q-1.js:1:20",
    );
  });

  it("sends the page URL without query string or fragment, and no cookie", () => {
    const text = buildEnvelope(
      { type: "Error", message: "boom" },
      { url: "https://www.cabinet-dupont.fr/contact/?email=jeanne%40example.org&name=Jeanne#message", userAgent: "UA" },
      "https://k@o1.ingest.sentry.io/1",
      "0123456789abcdef0123456789abcdef",
      new Date("2026-11-22T10:00:00Z"),
    );
    expect(text).not.toMatch(/jeanne|email=|#message/i);
    const event = JSON.parse(text.split("\n")[2]);
    expect(event.request).toEqual({ url: "https://www.cabinet-dupont.fr/contact/", headers: { "User-Agent": "UA" } });
    expect(event.user).toBeUndefined();
  });

  it("writes the envelope header, the item header and the event", () => {
    const text = buildEnvelope(
      { type: "TypeError", message: "x is undefined", stack: "TypeError: x is undefined\n at f", filename: "https://a.fr/build/q-1.js", lineno: 3, colno: 9 },
      { url: "https://www.cabinet-dupont.fr/contact/", userAgent: "UA" },
      "https://k@o1.ingest.sentry.io/1",
      "0123456789abcdef0123456789abcdef",
      new Date("2026-11-22T10:00:00Z"),
    );
    const [header, item, event] = text.split("\n").map((line) => JSON.parse(line));
    expect(header).toEqual({ event_id: "0123456789abcdef0123456789abcdef", sent_at: "2026-11-22T10:00:00.000Z", dsn: "https://k@o1.ingest.sentry.io/1" });
    expect(item).toEqual({ type: "event" });
    expect(event).toMatchObject({
      event_id: "0123456789abcdef0123456789abcdef",
      timestamp: Date.UTC(2026, 10, 22, 10) / 1000,
      platform: "javascript",
      level: "error",
      exception: { values: [{ type: "TypeError", value: "x is undefined", stacktrace: { frames: [{ filename: "https://a.fr/build/q-1.js", lineno: 3, colno: 9 }] } }] },
      request: { url: "https://www.cabinet-dupont.fr/contact/" },
      tags: { host: "www.cabinet-dupont.fr" },
    });
  });
});
