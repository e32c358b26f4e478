/**
 * The refused no-JS submission handed from the relay endpoint to the page that renders it, on the
 * request (Qwik City's sharedMap), never in module state.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { ContactResult } from "./relay";

const KEY = "contact:result";

export function setContactResult(ev: Pick<RequestEventBase, "sharedMap">, result: ContactResult): void {
  ev.sharedMap.set(KEY, result);
}

export function getContactResult(ev: Pick<RequestEventBase, "sharedMap">): ContactResult | undefined {
  return ev.sharedMap.get(KEY) as ContactResult | undefined;
}
