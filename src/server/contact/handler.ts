/**
 * POST /api/contact as a Qwik City endpoint: runs the relay, then answers the way the request came.
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
import { requestContext } from "../render/context";
import { internalPath } from "../tenancy";
import { CONTACT_SENT_ANCHOR } from "~/lib/contact-fields";
import { relayContact, type ContactResult } from "./relay";
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

export async function handleContactPost(ev: RequestEvent): Promise<void> {
  const { code, services } = requestContext(ev);
  // A render worker has no relay: only cacheable GET renders are ever sent to one.
  if (!services.contact) throw new Error("contact relay: not available in this thread");
  // A post to /api/contact (no slash) reaches here as /api/contact/ (http/endpoint-paths.ts), so the
  // refused-submission page below is never redirected by Qwik City's trailing-slash rule.
  const result = await relayContact(
    { request: ev.request, host: ev.url.host, ip: ev.clientConn.ip, code },
    { ...services.contact, reportError, log: console.warn },
  );
  ev.headers.set("Cache-Control", "no-store");
  if (result.retryAfterS) ev.headers.set("Retry-After", String(result.retryAfterS));
  if (result.bodyKind === "form" && result.status !== 403) {
    if (result.kind === "sent") throw ev.redirect(303, `${result.page}#${CONTACT_SENT_ANCHOR}`);
    setContactResult(ev, result);
    ev.status(result.status);
    throw ev.rewrite(internalPath(code, CONTACT_RESULT_ROUTE));
  }
  ev.json(result.status, contactJsonBody(result));
}

/** Any other method: the relay only takes POST. */
export function refuseContactMethod(ev: RequestEvent): void {
  ev.headers.set("Allow", "POST");
  ev.json(405, { error: "Méthode non autorisée : envoyez le formulaire (POST)." });
}
