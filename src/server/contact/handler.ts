/**
 * POST /api/contact: runs the relay, then answers the way the request came.
 *
 * The server calls contactAnswer() directly and renders the form page in the render pool (http/app.ts);
 * the vite dev server reaches it through the route below (handleContactPost). Either way:
 *
 * - JSON (the enhanced form, any API client): the status and a JSON body, always.
 * - urlencoded (the form without JavaScript):
 *   - sent: 303 to the page the form was on, at its success notice (`/contact/#contact-envoye`). The
 *     contact page stays one cached document for everyone; the notice is in it, shown by `:target`.
 *   - refused: the contact form page rendered as the answer to the POST, with the status, the errors
 *     and the visitor's input. Keeping input across a 303 would mean storing a patient's message on
 *     the server or putting it in a URL; as the answer to a POST it is never cached and never stored.
 *   - 403 and 415 answer in JSON: no page of ours sends them.
 */
import type { RequestEvent } from "@builder.io/qwik-city";
import { reportError } from "../monitoring";
import { requestContext, type RequestServices } from "../render/context";
import { internalPath } from "../tenancy";
import { CONTACT_SENT_ANCHOR } from "~/lib/contact-fields";
import { relayContact, type ContactResult, type RelayInput } from "./relay";
import { setContactResult } from "./result";

export { getContactResult } from "./result";
export type { ContactResult } from "./relay";

/** The internal route that renders a refused no-JS submission (src/routes/_sites/[code]/api/contact/resultat/). */
export const CONTACT_RESULT_ROUTE = "/api/contact/resultat/";

export function contactJsonBody(result: ContactResult): Record<string, unknown> {
  if (result.kind === "sent") return { status: "received", message: result.message };
  if (result.errors) return { errors: result.errors, message: result.message };
  return { error: result.message };
}

/** What a relay's result answers: a response as it is, or the contact form page rendered with the result. */
export type ContactAnswer = { kind: "response"; response: Response } | { kind: "form-page"; result: ContactResult; headers: Headers };

export function contactAnswer(result: ContactResult): ContactAnswer {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (result.retryAfterS) headers.set("Retry-After", String(result.retryAfterS));
  if (result.bodyKind === "form" && result.status !== 403) {
    if (result.kind !== "sent") return { kind: "form-page", result, headers };
    headers.set("Location", `${result.page}#${CONTACT_SENT_ANCHOR}`);
    return { kind: "response", response: new Response(null, { status: 303, headers }) };
  }
  headers.set("Content-Type", "application/json; charset=utf-8");
  return { kind: "response", response: new Response(JSON.stringify(contactJsonBody(result)), { status: result.status, headers }) };
}

/** The relay with this thread's services (the server's main thread and the vite dev server have them). */
export function relay(services: Pick<RequestServices, "contact">, input: RelayInput): Promise<ContactResult> {
  // A render worker has no relay: a contact post is never sent to one.
  if (!services.contact) throw new Error("contact relay: not available in this thread");
  return relayContact(input, { ...services.contact, reportError, log: console.warn });
}

/** A GET or HEAD on the relay: it only takes POST. */
export function contactMethodRefusal(): Response {
  return new Response(JSON.stringify({ error: "Méthode non autorisée : envoyez le formulaire (POST)." }), {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "application/json; charset=utf-8" },
  });
}

/**
 * The Qwik City endpoint, on the vite dev server only: the server answers POST /api/contact itself, with
 * no Qwik City on its main thread (http/practice-routes.ts).
 */
export async function handleContactPost(ev: RequestEvent): Promise<void> {
  const { code, services } = requestContext(ev);
  const answer = contactAnswer(await relay(services, { request: ev.request, host: ev.url.host, ip: ev.clientConn.ip, code }));
  if (answer.kind === "response") {
    ev.send(answer.response);
    return;
  }
  answer.headers.forEach((value, name) => ev.headers.set(name, value));
  setContactResult(ev, answer.result);
  ev.status(answer.result.status);
  throw ev.rewrite(internalPath(code, CONTACT_RESULT_ROUTE));
}
