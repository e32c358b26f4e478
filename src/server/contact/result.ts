/**
 * The refused no-JS submission handed from the relay to the page that renders it, on the request (Qwik
 * City's sharedMap), never in module state: set by the endpoint on the vite dev server, or put on the
 * request of the page's render in the pool by src/routes/plugin@tenant.ts (contactResultShared).
 */
import type { RequestEventBase } from "@builder.io/qwik-city";
import type { ContactResult } from "./relay";
import type { SharedValues } from "../render/context";

const KEY = "contact:result";

export function setContactResult(ev: Pick<RequestEventBase, "sharedMap">, result: ContactResult): void {
  ev.sharedMap.set(KEY, result);
}

export function getContactResult(ev: Pick<RequestEventBase, "sharedMap">): ContactResult | undefined {
  return ev.sharedMap.get(KEY) as ContactResult | undefined;
}

/** The result as a value the render finds on its request (a render in the pool: render/context.ts SharedValues). */
export function contactResultShared(result: ContactResult): SharedValues {
  return [[KEY, result]];
}
