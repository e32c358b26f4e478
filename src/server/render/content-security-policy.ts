/**
 * The Content-Security-Policy of each kind of response.
 *
 * - A rendered HTML page (Qwik): scripts only from this origin (the /build/ bundles), the analytics
 *   origin, and the page's own inline scripts named by their sha256 hashes; images from this origin and
 *   from the origins of the page's own <img> (the backend's absolute media URLs). Qwik's inline scripts
 *   (the qwikloader, the event list, `q:func` state) change with the render, and a per-response nonce
 *   would make every cached response unique; a hash depends only on the bytes, so it is computed once at
 *   render time (pagePolicy() from the rendered HTML, createRenderer()) and travels with the render's
 *   headers: the page cache stores it with the entry, the shared store and the pre-pass carry it, and
 *   every hit replays the same header bytes. Styles keep 'unsafe-inline': the practice's theme is an
 *   inline style attribute on <html> (the specification's rule) and Qwik inlines component styles.
 * - Everything else (images, the social card, media, JSON, text, robots.txt, the tenancy 404s):
 *   `default-src 'none'` — such a response opened as a document may load nothing and run nothing.
 *
 * The vite dev server sends neither (docs/decisions/0043-content-security-policy.md): vite injects its own
 * scripts and the policy is a property of the built server.
 */
import { createHash } from "node:crypto";

export interface PolicyOptions {
  /** Origin of the content backend's admin (the CMS preview iframe); undefined: only 'self' may frame. */
  cmsOrigin: string | undefined;
}

export interface PageOrigins {
  /** PUBLIC_ANALYTICS_URL: the analytics script and where it reports. */
  analyticsUrl?: string;
  /** PUBLIC_ERROR_TRACKING_DSN: where the browser reporter sends its events. */
  errorTrackingDsn?: string;
}

function ancestors(cmsOrigin: string | undefined): string {
  return ["'self'", ...(cmsOrigin ? [new URL(cmsOrigin).origin] : [])].join(" ");
}

/** The origin of a URL (no path, no user info), or null when it is none or not http(s). */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The policy of every response that is not a rendered page: it may load and run nothing. */
export function resourcePolicy({ cmsOrigin }: PolicyOptions): string {
  return [`default-src 'none'`, `frame-ancestors ${ancestors(cmsOrigin)}`, "base-uri 'none'", "form-action 'none'"].join("; ");
}

/**
 * The policy of one rendered page, `hashes` being its inline scripts' (inlineScriptHashes()). Without
 * 'unsafe-inline' for scripts: an injected inline script (or event handler attribute) does not run.
 */
export function pagePolicy(opts: PolicyOptions & PageOrigins, hashes: readonly string[], imageOrigins: readonly string[] = []): string {
  const analytics = originOf(opts.analyticsUrl);
  const reporter = originOf(opts.errorTrackingDsn);
  const list = (...sources: (string | null)[]) => [...new Set(sources.filter((s): s is string => !!s))].join(" ");
  return [
    "default-src 'none'",
    `script-src ${list("'self'", analytics, ...hashes)}`,
    "style-src 'self' 'unsafe-inline'",
    // data: for the small images CSS and the browser inline (icons); the backend's media origin(s) the
    // page's own <img>/<source> name (absolute URLs by contract, whatever public origin the backend has).
    `img-src ${list("'self'", "data:", ...imageOrigins)}`,
    "font-src 'self'",
    // Qwik City's client navigation (q-data.json), the analytics beacon, the error reporter.
    `connect-src ${list("'self'", analytics, reporter)}`,
    "manifest-src 'self'",
    `frame-ancestors ${ancestors(opts.cmsOrigin)}`,
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;
const TYPE_ATTRIBUTE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
/** The types a browser executes (the HTML standard's JavaScript MIME types, and modules). */
const EXECUTABLE_TYPE = /^(?:module|(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/(?:jscript|livescript)|text\/javascript1\.[0-5])$/i;

/**
 * The CSP source expressions (`'sha256-…'`) of the HTML's executable inline scripts, each once, in
 * document order. Data blocks (`qwik/json`, `application/ld+json`) are not scripts a policy governs.
 * The hash is over the text as the browser's parser sees it: the HTML input stream turns CR LF and
 * lone CR into LF before tokenising.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const [, attributes, text] = match;
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    const value = type ? (type[1] ?? type[2] ?? type[3]).trim() : "";
    if (value && !EXECUTABLE_TYPE.test(value)) continue;
    const normalised = text.replace(/\r\n?/g, "\n");
    hashes.add(`'sha256-${createHash("sha256").update(normalised, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

const IMAGE_TAG = /<(?:img|source)\b([^>]*)>/gi;
const URL_ATTRIBUTE = /(?:^|\s)(?:src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
/** An origin that is safe to put in a header as it is: scheme, host name or address, port. */
const PLAIN_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
/** A bound on the header's size: a page naming images on more origins than this loses the others. */
export const MAX_IMAGE_ORIGINS = 8;

/**
 * The origins of the absolute http(s) image URLs of the HTML's <img> and <source> (src and srcset), each
 * once, in document order, at most MAX_IMAGE_ORIGINS. An origin that is not plainly a host (a `;` or a
 * quote would be read as policy syntax) is left out: its images are blocked, never the policy bent.
 */
export function imageOrigins(html: string): string[] {
  const origins = new Set<string>();
  for (const tag of html.matchAll(IMAGE_TAG)) {
    for (const attribute of tag[1].matchAll(URL_ATTRIBUTE)) {
      const value = (attribute[1] ?? attribute[2] ?? attribute[3]).replace(/&amp;/g, "&");
      // A srcset is a comma-separated list of "URL [descriptor]".
      for (const candidate of value.split(",")) {
        const url = candidate.trim().split(/\s+/)[0];
        if (!/^https?:\/\//i.test(url)) continue;
        let origin: string;
        try {
          origin = new URL(url).origin;
        } catch {
          continue;
        }
        if (PLAIN_ORIGIN.test(origin)) origins.add(origin);
        if (origins.size >= MAX_IMAGE_ORIGINS) return [...origins];
      }
    }
  }
  return [...origins];
}

function isHtml(contentType: string | null): boolean {
  return !!contentType && /^\s*text\/html\b/i.test(contentType);
}

/**
 * A render's Response with its page policy: an HTML body is read whole (its hashes need every inline
 * script), the others are returned as they are and keep the policy of every response. The render's
 * bodies are a few tens of KB, and the page cache reads them whole anyway.
 */
export async function withPagePolicy(response: Response, opts: PolicyOptions & PageOrigins): Promise<Response> {
  if (!response.body || !isHtml(response.headers.get("content-type"))) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  const html = body.toString("utf8");
  headers.set("content-security-policy", pagePolicy(opts, inlineScriptHashes(html), imageOrigins(html)));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
