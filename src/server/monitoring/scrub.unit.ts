import { describe, expect, it } from "vitest";
import { scrubBreadcrumb, scrubEvent } from "./scrub";
import { createWarningThrottle, messageShape } from "./throttle";

const PII = ["Jeanne Martin", "jeanne@example.org", "06 12 34 56 78", "rendez-vous", "203.0.113.7", "session=abc"];

describe("scrubBreadcrumb", () => {
  it("drops a console breadcrumb's raw arguments (a logged line's values)", () => {
    const crumb = { category: "console", message: "contact from jeanne@example.org", data: { arguments: ["contact from", "jeanne@example.org"], logger: "console" } };
    expect(JSON.stringify(scrubBreadcrumb(crumb))).not.toContain("jeanne@example.org\"]");
    expect(scrubBreadcrumb(crumb).data).toEqual({ logger: "console" });
  });
});

describe("scrubEvent", () => {
  it("leaves nothing personal in an event shaped like the SDK's", () => {
    const event = {
      message: "contact relay failed",
      user: { ip_address: "203.0.113.7", email: "jeanne@example.org" },
      request: {
        method: "POST",
        url: "https://www.cabinet-dupont.fr/api/contact?email=jeanne@example.org",
        query_string: "email=jeanne@example.org",
        data: { name: "Jeanne Martin", phone: "06 12 34 56 78", message: "rendez-vous" },
        cookies: { session: "abc" },
        headers: { cookie: "session=abc", "x-forwarded-for": "203.0.113.7", "user-agent": "UA" },
        env: { REMOTE_ADDR: "203.0.113.7" },
      },
      extra: { code: "dupont", ip: "203.0.113.7", email: "jeanne@example.org", path: "/contact/?name=Jeanne Martin" },
      contexts: { user: { email: "jeanne@example.org" }, runtime: { version: "20" } },
      breadcrumbs: [{ category: "fetch", message: "POST /x?email=jeanne@example.org", data: { url: "http://b/?phone=06 12 34 56 78" } }],
    };
    const scrubbed = scrubEvent(event);
    const text = JSON.stringify(scrubbed);
    for (const value of PII) expect(text).not.toContain(value);
    expect(scrubbed.request).toEqual({ method: "POST", url: "https://www.cabinet-dupont.fr/api/contact", headers: { "user-agent": "UA" } });
    expect(scrubbed.extra).toEqual({ code: "dupont", path: "/contact/" });
  });

  it("drops the local variables of an exception's frames, and keeps their code", () => {
    const frame = { filename: "relay.js", lineno: 12, function: "send", context_line: "await post(input)", vars: { input: { name: "Jeanne Martin", message: "rendez-vous" } } };
    const event = { exception: { values: [{ type: "Error", value: "backend 502", stacktrace: { frames: [frame, { filename: "x.js", lineno: 1 }] } }] } };
    const scrubbed = scrubEvent(event);
    const text = JSON.stringify(scrubbed);
    for (const value of PII) expect(text).not.toContain(value);
    expect(scrubbed.exception.values[0].stacktrace.frames).toEqual([
      { filename: "relay.js", lineno: 12, function: "send", context_line: "await post(input)" },
      { filename: "x.js", lineno: 1 },
    ]);
    expect(scrubbed.exception.values[0].value).toBe("backend 502");
  });

  it("strips query strings from breadcrumbs", () => {
    expect(scrubBreadcrumb({ message: "GET /a?email=x@y.z done", data: { url: "/a?b=c", status: 200 } })).toEqual({
      message: "GET /a done",
      data: { url: "/a", status: 200 },
    });
  });
});

describe("createWarningThrottle", () => {
  it("sends one event per message and window, then says how many were left out", () => {
    let t = 0;
    const throttle = createWarningThrottle(60_000, () => t);
    expect(throttle.take("revalidate: auth rejected")).toEqual({ send: true, suppressed: 0 });
    for (let i = 0; i < 999; i++) expect(throttle.take("revalidate: auth rejected").send).toBe(false);
    expect(throttle.take("another warning").send).toBe(true);
    t = 60_000;
    expect(throttle.take("revalidate: auth rejected")).toEqual({ send: true, suppressed: 999 });
  });

  it("one event per kind of message, whatever a visitor put in it: paths, URLs, quoted values, numbers (issue 26)", () => {
    const throttle = createWarningThrottle(60_000, () => 0);
    const sent = [];
    for (let i = 0; i < 30; i++) {
      sent.push(throttle.take(`media: backend answered 50${i % 10} for /media/dupont/photo-${i}.jpg`).send);
      sent.push(throttle.take(`backend: timeout after 4000 ms for http://backend.invalid/api/v1/websites/sites/x${i}/pages/`).send);
      sent.push(throttle.take(`blocks: unknown block type "carousel-${i}" skipped`).send);
    }
    expect(sent.filter(Boolean)).toHaveLength(3);
    expect(messageShape("media: backend answered 502 for /media/dupont/a.jpg")).toBe("media: backend answered <n> for <path>");
  });
});
