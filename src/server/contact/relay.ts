/**
 * The contact relay: every refusal the issue lists, in order, before anything reaches the backend;
 * then the backend's answer mapped to ours. Independent of Qwik City (the endpoint adapts it), so it is
 * tested with a fake backend and clock.
 *
 *   cross-origin 403 -> content type 415 -> size 413 -> fields 400 -> rate 429 -> backend
 *   backend: accepted 201 | field errors 400 (relayed) | 404 / 429 / 5xx relayed | other 502
 *            unreachable or timed out: 502 and an error-tracking event
 */
import { isBackendError, type ContactOutcome, type ContactSubmission } from "../backend";
import { clientKey, type RateLimiter } from "../util/rate-limit";
import {
  CONTACT_MAX_BODY_BYTES,
  CONTACT_MESSAGES,
  type ContactErrors,
  type ContactValues,
} from "~/lib/contact-fields";
import { bodyKind, BodyTooLarge, isFormWithoutOrigin, isSameOrigin, readBodyWithLimit, type BodyKind } from "./request";
import { DEFAULT_CONTACT_PAGE, validateContact } from "./validate";

export interface ContactResult {
  status: number;
  kind: "sent" | "invalid" | "refused";
  /** What the visitor is told (French). */
  message: string;
  errors?: ContactErrors;
  /** The visitor's input, to fill the form again when the submission was refused. */
  values?: ContactValues;
  /** The page the form was on: where the no-JS round trip returns. */
  page: string;
  retryAfterS?: number;
  /** How the request was sent (null: unsupported); decides between JSON and the no-JS answer. */
  bodyKind: BodyKind | null;
}

export interface RelayInput {
  request: Request;
  /** The request's Host (already resolved to this practice by the tenancy layer). */
  host: string;
  /** The client address as the trusted-proxy rules give it (util/request-scheme.ts clientAddress). */
  ip: string | undefined;
  code: string;
}

export interface RelayDeps {
  send: (code: string, submission: ContactSubmission) => Promise<ContactOutcome>;
  limiter: RateLimiter;
  reportError: (error: unknown, context: Record<string, unknown>) => void;
  /** A log line (never the submission's content). */
  log: (line: string) => void;
}

export async function relayContact(input: RelayInput, deps: RelayDeps): Promise<ContactResult> {
  const { request } = input;
  const kind = bodyKind(request.headers.get("content-type"));
  const refuse = (status: number, message: string, extra: Partial<ContactResult> = {}): ContactResult => ({
    status,
    kind: "refused",
    message,
    page: DEFAULT_CONTACT_PAGE,
    bodyKind: kind,
    ...extra,
  });

  if (!isSameOrigin(request.headers, input.host) || isFormWithoutOrigin(request.headers)) return refuse(403, CONTACT_MESSAGES.crossOrigin);
  if (!kind) return refuse(415, CONTACT_MESSAGES.unsupportedType);

  let text: string;
  try {
    text = await readBodyWithLimit(request, CONTACT_MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return refuse(413, CONTACT_MESSAGES.tooLarge);
    throw error;
  }

  let raw: Record<string, unknown>;
  if (kind === "json") {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      return {
        ...refuse(400, CONTACT_MESSAGES.invalid),
        kind: "invalid",
        errors: { non_field_errors: ["Le corps de la requête doit être un objet JSON."] },
      };
    }
    raw = json as Record<string, unknown>;
  } else {
    raw = Object.fromEntries(new URLSearchParams(text));
  }

  const checked = validateContact(raw, kind);
  const base = { page: checked.page, values: checked.values, bodyKind: kind };
  if (!checked.ok) return { ...base, status: 400, kind: "invalid", message: CONTACT_MESSAGES.invalid, errors: checked.errors };

  // Counted only when a submission would reach the backend: correcting a refused form costs nothing.
  const rate = deps.limiter.take(clientKey(input.ip));
  if (!rate.allowed) {
    return {
      ...base,
      status: 429,
      kind: "refused",
      message: CONTACT_MESSAGES.rateLimited(Math.ceil(rate.retryAfterS / 60)),
      retryAfterS: rate.retryAfterS,
    };
  }

  let outcome: ContactOutcome;
  try {
    outcome = await deps.send(input.code, checked.submission);
  } catch (error) {
    // Unreachable, timed out, or an answer that breaks the contract: a bad gateway, and an event.
    deps.reportError(error, { code: input.code, failure: isBackendError(error) ? error.failure : "error" });
    return { ...base, status: 502, kind: "refused", message: CONTACT_MESSAGES.unavailable };
  }
  switch (outcome.kind) {
    case "accepted":
      return { ...base, values: undefined, status: 201, kind: "sent", message: CONTACT_MESSAGES.sent };
    case "invalid":
      return { ...base, status: 400, kind: "invalid", message: CONTACT_MESSAGES.invalid, errors: outcome.errors };
    case "refused": {
      const s = outcome.status;
      if (s === 404) return { ...base, status: 404, kind: "refused", message: CONTACT_MESSAGES.notAccepting };
      if (s === 429) return { ...base, status: 429, kind: "refused", message: CONTACT_MESSAGES.throttled };
      // A 5xx is relayed as it is, and logged (the message was not taken; the backend's own error tracking
      // has the event); any other answer breaks the contract and is ours to call a bad gateway.
      if (s < 500 || s > 599) deps.reportError(new Error(`contact: unexpected backend status ${s}`), { code: input.code });
      else deps.log(`[warn] contact: the backend refused a message for ${input.code} with ${s}; the visitor was asked to call or retry`);
      return { ...base, status: s >= 500 && s <= 599 ? s : 502, kind: "refused", message: CONTACT_MESSAGES.unavailable };
    }
  }
}
