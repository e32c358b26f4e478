/**
 * The redirect maps of migrated practices: migrations/{code}/redirects.json, a JSON object from an old
 * path to a new path. Loaded and validated once at start; each old path then answers 301 to its new
 * path on the same host (http/redirects.ts; the cache's fast path asks findRedirect too). The format
 * alone, without Express: the migration toolkit (ops/migrate/) writes and checks the same maps.
 *
 * Validation, every problem named with its file and key:
 * - errors (the server refuses to start): a file that is not a JSON object of strings, a key or target
 *   that is not a path, a target under the internal prefix, two keys with the same normalised form
 *   (normaliseRedirectPath) but different targets, a key whose target is itself, and a loop (following
 *   targets as the server answers them comes back to a key);
 * - warnings: a chain (a target that is itself a key; served as one hop to the final target, so a
 *   visitor and a crawler see a single 301) and a target outside the site (an absolute URL; not served,
 *   since every answer here stays on the visitor's host).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isInternalPath, PRACTICE_CODE } from "../tenancy";

export const REDIRECTS_FILE = "redirects.json";

/** Old path (normalised) -> new path, per practice. */
export type RedirectTable = Map<string, Map<string, string>>;

export interface RedirectProblem {
  file: string;
  key: string | null;
  message: string;
}

export interface LoadedRedirects {
  table: RedirectTable;
  warnings: RedirectProblem[];
}

export class RedirectsError extends Error {
  constructor(readonly problems: RedirectProblem[]) {
    super(`Invalid redirect maps:\n${problems.map((p) => `  - ${formatProblem(p)}`).join("\n")}`);
    this.name = "RedirectsError";
  }
}

export function formatProblem(p: RedirectProblem): string {
  return `${p.file}${p.key === null ? "" : ` key ${JSON.stringify(p.key)}`}: ${p.message}`;
}

/**
 * The one form old URLs are compared in, by the server and by the migration toolkit (ops/migrate), so
 * an old URL matches however a visitor or an old link types it: percent-decoded, the path lower-cased,
 * runs of slashes collapsed, a final `index.html`/`index.htm`/`index.php` dropped, a `.html`/`.htm`/`.php` suffix dropped, no
 * trailing slash (except the root). The query is kept as written (it only matches a key that names it).
 * Null for a malformed escape, which matches nothing.
 */
export function normaliseRedirectPath(raw: string): string | null {
  const q = raw.indexOf("?");
  const pathPart = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? "" : raw.slice(q);
  const decoded = decodePath(pathPart);
  if (decoded === null) return null;
  // Slashes first, so `/Implants.html/` and `/soins//implants.html` lose their suffix like `/implants.html`.
  const path = noTrailingSlash(decoded.toLowerCase().replace(/\/{2,}/g, "/"));
  return noTrailingSlash(path.replace(/\/index\.(?:html?|php)$/, "/").replace(/\.(?:html?|php)$/, "")) + query;
}

const noTrailingSlash = (path: string) => (path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path);

/**
 * Campaign and click tracking parameters: never part of an old URL's identity, so `/?page_id=12&utm_source=x`
 * matches the key `/?page_id=12`; they are kept on the target, as the whole query is for a path-only match.
 */
const TRACKING_PARAM = /^(?:utm_[^=]*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid|igshid)(?:=|$)/i;

/** Whether a query parameter (`name` or `name=value`) only tracks a campaign or a click. */
export function isTrackingParam(param: string): boolean {
  return TRACKING_PARAM.test(param);
}

/** A query (without "?") split into the parameters that identify a page and the tracking ones. */
function splitTracking(query: string): { kept: string; tracking: string } {
  const kept: string[] = [];
  const tracking: string[] = [];
  for (const param of query.split("&")) {
    if (param) (TRACKING_PARAM.test(param) ? tracking : kept).push(param);
  }
  return { kept: kept.join("&"), tracking: tracking.join("&") };
}

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * The entry a request (path and query as received) falls on, or null: first with its query (tracking
 * parameters left out), then by its path alone. A request for the entry's own target is never redirected:
 * `/contact.html` -> `/contact/` leaves `/contact/` itself to the site even though both have the same
 * normalised form.
 */
function lookup(map: Map<string, string>, url: string): { from: string; target: string; matchedQuery: boolean } | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const kept = q === -1 ? "" : splitTracking(url.slice(q + 1)).kept;
  const candidates = kept ? [`${path}?${kept}`, path] : [path];
  for (const candidate of candidates) {
    const from = normaliseRedirectPath(candidate);
    const target = from === null ? undefined : map.get(from);
    if (from === null || target === undefined) continue;
    if (decodePath(candidate) === decodePath(target)) return null;
    return { from, target, matchedQuery: candidate !== path };
  }
  return null;
}

const isSitePath = (value: string) => value.startsWith("/") && !value.startsWith("//") && !value.includes("\\");

/** Validates one parsed redirects.json; `file` names it in every problem. */
export function parseRedirects(json: unknown, file: string): { map: Map<string, string>; errors: RedirectProblem[]; warnings: RedirectProblem[] } {
  const errors: RedirectProblem[] = [];
  const warnings: RedirectProblem[] = [];
  const map = new Map<string, string>();
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    errors.push({ file, key: null, message: "must be a JSON object mapping an old path to a new path" });
    return { map, errors, warnings };
  }
  const rawKeyOf = new Map<string, string>();
  for (const [key, target] of Object.entries(json as Record<string, unknown>)) {
    if (typeof target !== "string") {
      errors.push({ file, key, message: "the new path must be a string" });
      continue;
    }
    if (!isSitePath(key)) {
      errors.push({ file, key, message: 'the old path must start with a single "/"' });
      continue;
    }
    if (!isSitePath(target)) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target.trim())) {
        warnings.push({ file, key, message: `target outside the site (${target}): not served; write the new path, e.g. "/contact/"` });
      } else {
        errors.push({ file, key, message: `the new path ${JSON.stringify(target)} must start with a single "/"` });
      }
      continue;
    }
    if (isInternalPath(target.split("?")[0])) {
      errors.push({ file, key, message: `the new path ${JSON.stringify(target)} is under the internal prefix` });
      continue;
    }
    const from = normaliseRedirectPath(key);
    if (from === null) {
      errors.push({ file, key, message: "the old path has a malformed percent-escape" });
      continue;
    }
    const previous = map.get(from);
    if (previous !== undefined && previous !== target) {
      errors.push({ file, key, message: `same old path as key ${JSON.stringify(rawKeyOf.get(from))} with another target` });
      continue;
    }
    map.set(from, target);
    rawKeyOf.set(from, key);
  }

  // Chains and loops: follow each key's targets through the map, as the server would answer them.
  const resolved = new Map<string, string>();
  for (const [from, target] of map) {
    const key = rawKeyOf.get(from)!;
    if (decodePath(key) === decodePath(target)) {
      errors.push({ file, key, message: `redirect loop: ${key} -> ${target} (the new path is the old path)` });
      continue;
    }
    const seen = [from];
    const hops = [key, target];
    let current = target;
    let loop = false;
    for (;;) {
      const next = lookup(map, current);
      if (next === null) break;
      if (seen.includes(next.from)) {
        loop = true;
        break;
      }
      seen.push(next.from);
      current = next.target;
      hops.push(current);
    }
    if (loop) {
      errors.push({ file, key, message: `redirect loop: ${hops.join(" -> ")}` });
      continue;
    }
    if (hops.length > 2) {
      warnings.push({ file, key, message: `redirect chain: ${hops.join(" -> ")}; served as one 301 to ${current}` });
    }
    resolved.set(from, current);
  }
  return { map: resolved, errors, warnings };
}

/**
 * Reads every migrations/<code>/redirects.json under `dir`. A missing directory means no redirects.
 * Throws RedirectsError listing every error of every file; warnings are returned for the caller to report.
 */
export function loadRedirects(dir: string): LoadedRedirects {
  const table: RedirectTable = new Map();
  const errors: RedirectProblem[] = [];
  const warnings: RedirectProblem[] = [];
  if (!existsSync(dir)) return { table, warnings };
  for (const code of readdirSync(dir).sort()) {
    const file = join(dir, code, REDIRECTS_FILE);
    if (!statSync(join(dir, code)).isDirectory() || !existsSync(file)) continue;
    if (!PRACTICE_CODE.test(code)) {
      warnings.push({ file, key: null, message: "the directory is not a practice code: file ignored" });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      errors.push({ file, key: null, message: `is not valid JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = parseRedirects(json, file);
    errors.push(...parsed.errors);
    warnings.push(...parsed.warnings);
    if (parsed.map.size) table.set(code, parsed.map);
  }
  if (errors.length) throw new RedirectsError(errors);
  return { table, warnings };
}

/** The new path for a request, or null. `url` is the request's path and query as received. */
export function findRedirect(table: RedirectTable, code: string, url: string): string | null {
  const map = table.get(code);
  if (!map) return null;
  const entry = lookup(map, url);
  if (!entry) return null;
  const q = url.indexOf("?");
  const query = q === -1 ? "" : entry.matchedQuery ? splitTracking(url.slice(q + 1)).tracking : url.slice(q + 1);
  if (!query) return entry.target;
  // The visitor's query (campaign tags...) follows the redirect; a target with its own query gets them after it.
  return `${entry.target}${entry.target.includes("?") ? "&" : "?"}${query}`;
}
