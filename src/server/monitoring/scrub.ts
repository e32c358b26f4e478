/**
 * What may leave for error tracking. Patients write health-related messages through the contact form:
 * no request body, cookie, query string, client address or personal field may reach a third party.
 * Sentry is configured not to collect them (sendDefaultPii: false, no request bodies), and every event,
 * transaction and breadcrumb still passes through these functions before it is sent, so a new SDK
 * default or a careless `extra` cannot leak them. docs/decisions/0028-error-tracking-privacy.md.
 */
import { stripQuery } from "~/lib/url-privacy";

/** Request headers that say nothing about the visitor (everything else, cookies and addresses included, goes). */
export const KEPT_REQUEST_HEADERS: ReadonlySet<string> = new Set(["host", "user-agent", "accept", "accept-encoding", "content-type", "content-length"]);

/**
 * Keys of `extra`/`contexts`/`tags`/breadcrumb data that may hold personal data or a client address (`arguments`: a
 * console breadcrumb's raw arguments, a logged line's values).
 */
const PERSONAL_KEY = /(^|_)(ip|ip_address|email|e-?mail|name|phone|tel|message|body|data|cookies?|query(_string)?|address|user|remote_addr|x-forwarded-for|x-real-ip|forwarded|arguments)$/i;


type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);

/** Drops personal keys and query strings from a flat bag of values (extra, tags, breadcrumb data). */
export function scrubValues<T>(bag: T): T {
  if (!isDict(bag)) return bag;
  const out: Dict = {};
  for (const [key, value] of Object.entries(bag)) {
    if (PERSONAL_KEY.test(key)) continue;
    out[key] = typeof value === "string" && /^(https?:\/\/|\/)/.test(value) ? stripQuery(value) : value;
  }
  return out as T;
}

/** An event (error, message or transaction) with nothing personal left in it. */
export function scrubEvent<T extends object>(event: T): T {
  const e: Dict = { ...(event as Dict) };
  delete e.user;
  if (isDict(e.request)) {
    const r = e.request;
    const headers = isDict(r.headers)
      ? Object.fromEntries(Object.entries(r.headers).filter(([name]) => KEPT_REQUEST_HEADERS.has(name.toLowerCase())))
      : undefined;
    e.request = {
      ...(typeof r.method === "string" ? { method: r.method } : {}),
      ...(typeof r.url === "string" ? { url: stripQuery(r.url) } : {}),
      ...(headers ? { headers } : {}),
    };
  }
  if (isDict(e.extra)) e.extra = scrubValues(e.extra);
  if (isDict(e.tags)) e.tags = scrubValues(e.tags);
  if (isDict(e.contexts)) {
    const contexts: Dict = {};
    for (const [name, value] of Object.entries(e.contexts)) if (!PERSONAL_KEY.test(name)) contexts[name] = scrubValues(value);
    e.contexts = contexts;
  }
  if (Array.isArray(e.breadcrumbs)) e.breadcrumbs = e.breadcrumbs.map((b) => scrubBreadcrumb(b as Dict));
  if (isDict(e.exception) && Array.isArray(e.exception.values)) e.exception = { ...e.exception, values: e.exception.values.map(withoutVariables) };
  if (typeof e.transaction === "string") e.transaction = stripQuery(e.transaction);
  return e as unknown as T;
}

/**
 * An exception without the values of its frames' local variables (`vars`: the SDK's LocalVariables integration fills
 * them when asked, and a frame of the contact relay holds the patient's message): the code's lines stay.
 */
function withoutVariables(value: unknown): unknown {
  if (!isDict(value) || !isDict(value.stacktrace) || !Array.isArray(value.stacktrace.frames)) return value;
  const frames = value.stacktrace.frames.map((frame) => {
    if (!isDict(frame)) return frame;
    const { vars: _vars, ...kept } = frame;
    return kept;
  });
  return { ...value, stacktrace: { ...value.stacktrace, frames } };
}

/** A breadcrumb without query strings or personal data (an outgoing fetch's URL may carry both). */
export function scrubBreadcrumb<T extends object>(crumb: T): T {
  const c: Dict = { ...(crumb as Dict) };
  if (typeof c.message === "string") c.message = c.message.replace(/\?[^\s"']*/g, "");
  if (isDict(c.data)) c.data = scrubValues(c.data);
  return c as unknown as T;
}
