import { describe, expect, it, vi } from "vitest";
import { BackendError, type ContactOutcome, type ContactSubmission } from "../backend";
import { CONTACT_MAX_BODY_BYTES, CONTACT_MESSAGES } from "~/lib/contact-fields";
import type { RateLimiter, RateLimitResult } from "../util/rate-limit";
import { relayContact, type RelayDeps } from "./relay";
import { UNMEASURED_ELAPSED_MS } from "./validate";

const HOST = "www.cabinet-dupont.fr";

/** A patient's submission: every value here must stay out of error events. */
const PATIENT = {
  name: "Jeanne Patiente",
  email: "jeanne.patiente@example.org",
  phone: "06 12 34 56 78",
  message: "Bonjour, j'ai une douleur à la molaire depuis hier soir.",
};

const validJson = { ...PATIENT, consent: true, website: "", elapsed_ms: 4200, page: "/contact/" };

function jsonRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`https://${HOST}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `https://${HOST}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function formRequest(fields: Record<string, string>): Request {
  return new Request(`https://${HOST}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: `https://${HOST}` },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Fake backend, limiter and error tracking, recording what the relay did with them. */
function fakes(opts: { outcome?: ContactOutcome | Error; rate?: RateLimitResult } = {}) {
  const sent: { code: string; submission: ContactSubmission }[] = [];
  const taken: string[] = [];
  const limiter: RateLimiter = {
    take: (key) => {
      taken.push(key);
      return opts.rate ?? { allowed: true, remaining: 4, retryAfterS: 600 };
    },
  };
  const reportError = vi.fn<RelayDeps["reportError"]>();
  const log = vi.fn<RelayDeps["log"]>();
  const deps: RelayDeps = {
    send: async (code, submission) => {
      sent.push({ code, submission });
      const outcome = opts.outcome ?? { kind: "accepted" };
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    limiter,
    reportError,
    log,
  };
  return { deps, sent, taken, reportError, log };
}

const relay = (request: Request, deps: RelayDeps, ip = "203.0.113.7") =>
  relayContact({ request, host: HOST, ip, code: "dupont" }, deps);

describe("relayContact: accepted", () => {
  it("sends the validated submission for the practice and answers 201", async () => {
    const f = fakes();
    const result = await relay(jsonRequest(validJson), f.deps);
    expect(result).toMatchObject({ status: 201, kind: "sent", message: CONTACT_MESSAGES.sent, bodyKind: "json" });
    expect(result.values).toBeUndefined();
    expect(f.sent).toEqual([
      {
        code: "dupont",
        submission: { ...PATIENT, consent: true, website: "", elapsed_ms: 4200, page: "/contact/" },
      },
    ]);
  });

  it("counts the submission under the client's address", async () => {
    const f = fakes();
    await relay(jsonRequest(validJson), f.deps, "::ffff:198.51.100.9");
    expect(f.taken).toEqual(["198.51.100.9"]);
  });

  it("reads a form posted without JavaScript (no elapsed time measured, empty phone sent as null)", async () => {
    const f = fakes();
    const result = await relay(
      formRequest({ ...PATIENT, phone: "", consent: "on", website: "", page: "/nous-contacter/" }),
      f.deps,
    );
    expect(result).toMatchObject({ status: 201, kind: "sent", bodyKind: "form", page: "/nous-contacter/" });
    expect(f.sent[0].submission).toMatchObject({ phone: null, elapsed_ms: UNMEASURED_ELAPSED_MS });
  });
});

describe("relayContact: refused before the backend", () => {
  it("answers 400 with field errors and the visitor's input, sending and counting nothing", async () => {
    const f = fakes();
    const result = await relay(jsonRequest({ ...validJson, email: "pas-une-adresse", consent: false }), f.deps);
    expect(result).toMatchObject({ status: 400, kind: "invalid", message: CONTACT_MESSAGES.invalid });
    expect(Object.keys(result.errors!).sort()).toEqual(["consent", "email"]);
    expect(result.values).toMatchObject({ name: PATIENT.name, email: "pas-une-adresse", consent: false });
    expect(f.sent).toEqual([]);
    expect(f.taken).toEqual([]);
  });

  it("answers 400 to a JSON body that is not an object", async () => {
    const f = fakes();
    for (const body of ["[1, 2]", "null", "{not json"]) {
      const result = await relay(jsonRequest(body), f.deps);
      expect(result).toMatchObject({ status: 400, kind: "invalid" });
      expect(result.errors?.non_field_errors).toHaveLength(1);
    }
    expect(f.sent).toEqual([]);
  });

  it("answers 403 to a post from another site", async () => {
    const f = fakes();
    const result = await relay(jsonRequest(validJson, { origin: "https://evil.example" }), f.deps);
    expect(result).toMatchObject({ status: 403, kind: "refused", message: CONTACT_MESSAGES.crossOrigin });
    expect(f.sent).toEqual([]);
  });

  it("answers 415 to a body type the form never sends", async () => {
    const f = fakes();
    const result = await relay(jsonRequest(validJson, { "content-type": "text/plain" }), f.deps);
    expect(result).toMatchObject({ status: 415, kind: "refused", bodyKind: null });
    expect(f.sent).toEqual([]);
  });

  it("answers 413 to a body over the limit", async () => {
    const f = fakes();
    const result = await relay(jsonRequest({ ...validJson, message: "x".repeat(CONTACT_MAX_BODY_BYTES) }), f.deps);
    expect(result).toMatchObject({ status: 413, kind: "refused", message: CONTACT_MESSAGES.tooLarge });
    expect(f.sent).toEqual([]);
  });

  it("answers 429 with the time left when the address is over its limit, keeping the input", async () => {
    const f = fakes({ rate: { allowed: false, remaining: 0, retryAfterS: 150 } });
    const result = await relay(jsonRequest(validJson), f.deps);
    expect(result).toMatchObject({
      status: 429,
      kind: "refused",
      retryAfterS: 150,
      message: CONTACT_MESSAGES.rateLimited(3),
    });
    expect(result.values).toMatchObject({ message: PATIENT.message });
    expect(f.sent).toEqual([]);
  });
});

describe("relayContact: the backend's answer", () => {
  it("unreachable: 502, and an error event that carries none of the patient's fields", async () => {
    const f = fakes({ outcome: new BackendError("unreachable", "/sites/dupont/contact/", "ECONNREFUSED") });
    const result = await relay(jsonRequest(validJson), f.deps);
    expect(result).toMatchObject({ status: 502, kind: "refused", message: CONTACT_MESSAGES.unavailable });
    expect(result.values).toMatchObject({ name: PATIENT.name });
    expect(f.reportError).toHaveBeenCalledTimes(1);
    const [error, context] = f.reportError.mock.calls[0];
    expect(error).toBeInstanceOf(BackendError);
    expect(context).toEqual({ code: "dupont", failure: "unreachable" });
    const event = JSON.stringify(context) + String(error);
    for (const value of Object.values(PATIENT)) expect(event).not.toContain(value);
  });

  it("a failure that is not a backend error is reported as such", async () => {
    const f = fakes({ outcome: new TypeError("boom") });
    expect((await relay(jsonRequest(validJson), f.deps)).status).toBe(502);
    expect(f.reportError.mock.calls[0][1]).toEqual({ code: "dupont", failure: "error" });
  });

  it("a 5xx is relayed as it is, without an event, and logged without the message", async () => {
    const f = fakes({ outcome: { kind: "refused", status: 503 } });
    const result = await relay(jsonRequest(validJson), f.deps);
    expect(result).toMatchObject({ status: 503, kind: "refused", message: CONTACT_MESSAGES.unavailable });
    expect(f.reportError).not.toHaveBeenCalled();
    expect(f.log.mock.calls.map(([line]) => line)).toEqual([
      "[warn] contact: the backend refused a message for dupont with 503; the visitor was asked to call or retry",
    ]);
  });

  it("a status outside the contract becomes 502 and an event without the patient's fields", async () => {
    const f = fakes({ outcome: { kind: "refused", status: 418 } });
    expect((await relay(jsonRequest(validJson), f.deps)).status).toBe(502);
    expect(f.reportError).toHaveBeenCalledTimes(1);
    const [error, context] = f.reportError.mock.calls[0];
    const event = JSON.stringify(context) + String(error);
    for (const value of Object.values(PATIENT)) expect(event).not.toContain(value);
  });

  it("404 (not accepting messages) and 429 (practice throttled) keep their status and message", async () => {
    const notAccepting = await relay(jsonRequest(validJson), fakes({ outcome: { kind: "refused", status: 404 } }).deps);
    expect(notAccepting).toMatchObject({ status: 404, message: CONTACT_MESSAGES.notAccepting });
    const throttled = await relay(jsonRequest(validJson), fakes({ outcome: { kind: "refused", status: 429 } }).deps);
    expect(throttled).toMatchObject({ status: 429, message: CONTACT_MESSAGES.throttled });
    expect(throttled.retryAfterS).toBeUndefined();
  });

  it("a 400 becomes the backend's field errors, with the visitor's input kept", async () => {
    const errors = { email: ["Adresse refusée par le cabinet."], non_field_errors: ["Réessayez."] };
    const f = fakes({ outcome: { kind: "invalid", errors } });
    const result = await relay(jsonRequest(validJson), f.deps);
    expect(result).toMatchObject({ status: 400, kind: "invalid", message: CONTACT_MESSAGES.invalid, errors });
    expect(result.values).toMatchObject({ email: PATIENT.email });
    expect(f.reportError).not.toHaveBeenCalled();
  });
});
