/**
 * POST /sites/{code}/contact/ (content-backend-api.md): the relay's one write to the backend. The
 * backend's answers become outcomes the relay maps to HTTP; a transport failure (refused, timed out)
 * is a BackendError like any read's.
 */
import { z } from "zod";
import { BackendError } from "./errors";
import { readBounded, request, type HttpOptions } from "./http";

/** The contract's request body. `website` and `elapsed_ms` are forwarded as received: the backend decides. */
export interface ContactSubmission {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  consent: true;
  website: string;
  elapsed_ms: number;
  page: string;
}

export type ContactOutcome =
  | { kind: "accepted" }
  | { kind: "invalid"; errors: Record<string, string[]> }
  /** Any other answer: 404 (inactive practice), 429 (throttled), 5xx... */
  | { kind: "refused"; status: number };

const errorsSchema = z.object({ errors: z.record(z.string(), z.array(z.string())) });

export async function postContact(http: HttpOptions, code: string, submission: ContactSubmission): Promise<ContactOutcome> {
  const endpoint = `/sites/${encodeURIComponent(code)}/contact/`;
  const response = await request(http, endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(submission),
  });
  if (response.status === 200 || response.status === 201) {
    await response.body?.cancel();
    return { kind: "accepted" };
  }
  if (response.status === 400) {
    const text = await readBounded(response, endpoint);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new BackendError("invalid_payload", endpoint, `400 body is not JSON (${(error as Error).message})`, 400);
    }
    const parsed = errorsSchema.safeParse(json);
    if (!parsed.success) throw new BackendError("invalid_payload", endpoint, "400 body has no errors object", 400);
    return { kind: "invalid", errors: parsed.data.errors };
  }
  await response.body?.cancel();
  return { kind: "refused", status: response.status };
}
