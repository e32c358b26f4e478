/**
 * Attributes of the root <html> element for one render. The tenant layout stores them on the request
 * (sharedMap); the SSR entry, which only sees serverData, reads them back here.
 */
import type { RequestEventBase } from "@builder.io/qwik-city";

const KEY = "practice:html-attributes";

export function setHtmlAttributes(ev: RequestEventBase, attributes: Record<string, string>): void {
  ev.sharedMap.set(KEY, attributes);
}

export function htmlAttributesFor(serverData: Record<string, unknown> | undefined): Record<string, string> {
  const qwikcity = serverData?.qwikcity as { ev?: RequestEventBase } | undefined;
  return (qwikcity?.ev?.sharedMap.get(KEY) as Record<string, string> | undefined) ?? {};
}
