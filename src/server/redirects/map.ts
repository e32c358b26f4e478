/**
 * The redirect maps of migrated practices: migrations/{code}/redirects.json, a JSON object from an old
 * path to a new path, or to null for an old URL dropped on purpose (it answers one 404), and optionally
 * `"$platform": "joomla"` (one of grammar.ts's PLATFORMS, `static` included): the old site's URL grammar
 * (grammar.ts), by which every spelling of an old URL meets its one key, and under which an old CMS query URL
 * the map does not know answers 404. A file without it reads as before (the common rules only). It may also hold the
 * id grammar the migration toolkit learned by probing the old site (`"$idPaths"`, `"$idQuery"`, `"$idQueryWith"`,
 * `"$idForms"`: learned.ts); a file without them reads as before. Loaded and
 * validated once at start; each old URL then answers 301 to its new path on the same host (http/redirects.ts;
 * the cache's fast path asks answerRequest too). The format alone, without Express: the migration toolkit
 * (ops/migrate/) writes and checks the same maps.
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
import { routeOf } from "../tenancy/routes";
import { decode as decodePath, isPlatform, isTrackingParam, joomlaCategoryPaths, oldUrlForm, PLATFORMS, type Platform } from "./grammar";
import { ID_FORMS_KEY, ID_PATHS_KEY, ID_QUERY_KEY, ID_QUERY_WITH_KEY, idPathOf, idQueryOf, LEARNED_KEYS, NO_LEARNED, parseLearned, parseQueryVars, QUERY_VARS_KEY, type LearnedGrammar } from "./learned";

export { isTrackingParam } from "./grammar";

export const REDIRECTS_FILE = "redirects.json";

/** Old path (normalised) -> new path, per practice. */
export type RedirectTable = Map<string, PracticeRedirects>;

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
 * The one form old URLs are compared in, by the server and by the migration toolkit (ops/migrate), so an old
 * URL matches however a visitor or an old link types it: the common rules of grammar.ts (decoded, lower-cased,
 * slashes collapsed, `index.html` and `.html`/`.php` suffixes dropped, no trailing slash, `&amp;` read as `&`,
 * tracking and language parameters dropped, parameters in name order), then the identity rules of the old
 * site's platform when the map declares one. Null for a malformed escape, which matches nothing.
 */
export function normaliseRedirectPath(raw: string, platform: Platform | null = null, categories?: ReadonlySet<string>): string | null {
  return oldUrlForm(raw, platform, categories)?.form ?? null;
}

/** A query (without "?") split into the parameters that identify a page and the tracking ones. */
function splitTracking(query: string): { kept: string; tracking: string } {
  const kept: string[] = [];
  const tracking: string[] = [];
  for (const param of query.replace(/&(?:amp|#0*38|#x0*26);/gi, "&").split("&")) {
    if (param) (isTrackingParam(param) ? tracking : kept).push(param);
  }
  return { kept: kept.join("&"), tracking: tracking.join("&") };
}

/**
 * An old page's file suffix: the new site's pages are paths ending in "/", so such a path the map does not know
 * is no page (answered 404 at once on a map that declares a platform, not a 301 adding a slash and then 404).
 */
const OLD_FILE_SUFFIX = /\.(?:html?|shtml|php\d?|aspx?|jsp|cfm|cgi)$/i;

/** What the map says of a request: a 301 to its target, a 404 (a dropped old URL), or nothing. */
export type OldUrlAnswer = { status: 301; target: string; matchedQuery: boolean } | { status: 404 } | null;

/**
 * What a practice's map answers a request (path and query as received), in one normalisation and a few Map
 * lookups (it runs on every request of a migrated practice):
 * 1. its form (grammar.ts) is a key: 301 to the target, unless the request is the target itself
 *    (`/contact.html` -> `/contact/` leaves `/contact/` to the site though both have the same form);
 * 2. its form is a dropped old URL (a key whose value is null): 404; on a WordPress map, a query var naming a post by
 *    its slug (`/?name=x`, a learned post type's `/?soin=x`) whose permalink is not at the root: 301 to the one key
 *    ending in that slug;
 * 3. on a map that declares its old platform, a query URL of that platform (`?p=`, `?option=`, `?q=`), any CMS's
 *    on the home path of a platform that reads no query (Wix, Ghost, Hugo, CM4all, Odoo, Grav: `/?p=12` on a Hugo site,
 *    `/?post/2019/05/14/x` on an Odoo site), or any
 *    query on the home path the map does not know: 404, never the page at its path (a soft 404);
 * 4. its path alone is a key (the query was not part of the old URL's identity): 301, the whole query kept;
 * 5. on a map that declares its platform, a path only that platform makes (`/component/...`, `/node/12`, its
 *    uploads: grammar.ts) or an old page suffix (`.html`, `.php`...) the map does not know, a query on the
 *    home path that names another path (Drupal's `/?q=contact`), or any CMS query it does not know: 404.
 */
export function answerOldUrl(map: PracticeRedirects, url: string): OldUrlAnswer {
  const hash = url.indexOf("#");
  const unreduced = hash === -1 ? url : url.slice(0, hash);
  // A page the map sends to is the new site's, and so is its data (`<page>/q-data.json`, what Qwik's navigation asks
  // for): neither an archive's shape (`/conseils/category/x/`) nor a learned id prefix over it may take that request
  // (an outside review found the page served and its data answering 404 or 301).
  if (map.targetPaths.size && isTargetData(map, unreduced)) return null;
  // An id path the old site was found to answer by its number alone, or a learned id form (learned.ts): its id form.
  const { url: raw, id: idPath } = idPathOf(unreduced, map.learned);
  const form = oldUrlForm(raw, map.platform, map.categories);
  if (form === null) return null;
  const q = raw.indexOf("?");
  const rawPath = decodePath(q === -1 ? raw : raw.slice(0, q));
  // The request as sent (its path not reduced to an id form): what "the request is the target itself" compares.
  const uq = unreduced.indexOf("?");
  const sentRawPath = uq === -1 ? unreduced : unreduced.slice(0, uq);
  const sentPath = decodePath(sentRawPath);
  const kept = uq === -1 ? "" : splitTracking(unreduced.slice(uq + 1)).kept;
  const asked = kept ? `${sentPath}?${decodePath(kept) ?? kept}` : sentPath;
  // An old CMS query on the home path of a platform that reads none (its identity dropped with the rest, grammar.ts):
  // not the home page, whatever spelling of the home page the map knows.
  if (form.cmsQuery && form.form === "/" && map.platform !== null) return { status: 404 };
  const exact = map.get(form.form);
  // Another spelling of the home page on a map that declares its platform (`/index.php`, `/fr/`): one 301 home.
  if (exact === undefined && map.platform !== null && form.form === "/" && rawPath !== "/") return { status: 301, target: "/", matchedQuery: false };
  if (exact !== undefined) return asked === decodePath(exact) ? null : { status: 301, target: exact, matchedQuery: form.form !== form.path };
  if (map.gone.has(form.form)) return { status: 404 };
  // WordPress's query vars of a post whose permalink is not at the root (`/?name=x` of `/blog/x/`, a custom post type's
  // `/?soin=x` of `/soins/x/`: the one var on the front controller, grammar.ts's frontVar, read in the parse above):
  // WordPress answers them with a 301 to the permalink, so the key ending in that slug (postBySlug). (`?pagename=` is
  // a page's whole path, which the form above already is: `/le-centre/notre-equipe`, parents included.)
  const slugTarget = form.frontVar === undefined ? undefined : map.postBySlug(form.frontVar.name, form.frontVar.value);
  if (slugTarget !== undefined) return { status: 301, target: slugTarget, matchedQuery: true };
  // A page's id in the query the old site was found to read (learned.ts), on whatever path or beside whatever other
  // parameter: that page, or one 404 for an id the map does not know (the old site answered no page of it).
  // Never on a path the new site serves: one of its pages (a target of the map; the front controller, `/`, excepted:
  // the id query's own path) or a route the server answers itself (`/media/<code>/logo.svg?id=55`, `/api/og?id=55`).
  const byId = map.learned.idQuery && idQueryApplies(map, sentRawPath, sentPath) ? idQueryOf(raw, map.learned) : null;
  if (byId !== null) {
    const idForm = oldUrlForm(byId, map.platform, map.categories)?.form;
    const target = idForm === undefined ? undefined : map.get(idForm);
    return target === undefined ? { status: 404 } : { status: 301, target, matchedQuery: true };
  }
  const query = form.form !== form.path;
  if (query && map.platform !== null && (form.cmsQuery || form.path === "/")) return { status: 404 };
  if (query) {
    const byPath = map.get(form.path);
    if (byPath !== undefined) return sentPath === decodePath(byPath) ? null : { status: 301, target: byPath, matchedQuery: false };
    if (map.gone.has(form.path)) return { status: 404 };
  }
  // An id under a learned prefix, or in a learned id form, that the map knows neither with its query nor by its path
  // alone: the old site answered no page there.
  if (idPath !== null) return { status: 404 };
  // (Never a page the map sends to: the new site's `/conseils/category/prevention/` is its own, whatever the old
  // platform's archives looked like; a map sending there loads.)
  if (map.platform !== null && rawPath !== null && form.path !== "/" && ((form.cmsPath && !map.targetPaths.has(pagePathForm(rawPath)!)) || OLD_FILE_SUFFIX.test(rawPath))) return { status: 404 };
  // A query on the home path that named another path (Drupal's `/?q=contact`) the map does not know: the home
  // page would answer it (a soft 404). So does any CMS query the map does not know, whatever spelling of the front
  // controller carries it (`/index.php/?url=/x`, `//?it=x`: one 404, not the site's answer to that path).
  if (map.platform !== null && ((rawPath === "/" && form.path !== "/") || form.cmsQuery)) return { status: 404 };
  return null;
}

/** Whether `url` asks for the data file of a page the map sends to (`/conseils/category/x/q-data.json`). */
function isTargetData(map: PracticeRedirects, url: string): boolean {
  const q = url.indexOf("?");
  const end = q === -1 ? url.length : q;
  // (Nothing made for the requests that ask for no data file: nearly all.)
  if (!url.startsWith(DATA_FILE, end - DATA_FILE.length)) return false;
  const page = pagePathForm(decodePath(url.slice(0, end - DATA_FILE.length + 1)));
  return page !== null && map.targetPaths.has(page);
}
const DATA_FILE = "/q-data.json";

/** A path as the new site's pages are compared: decoded, NFC, lower-cased, no final slash. */
function pagePathForm(path: string | null): string | null {
  if (path === null) return null;
  const p = path.normalize("NFC").toLowerCase().replace(/\/{2,}/g, "/");
  return p.length > 1 ? p.replace(/\/+$/, "") || "/" : p;
}

/**
 * Whether a learned id query may name a page on this path: the front controller always; another path only when it
 * is a page route of the server (routes.ts) and none of the new site's pages the map sends to.
 */
function idQueryApplies(map: PracticeRedirects, rawPath: string, path: string | null): boolean {
  const form = pagePathForm(path);
  if (form === null) return false;
  if (/^\/(?:index\.php)?$/.test(form)) return true;
  return routeOf("GET", rawPath) === "page" && !map.targetPaths.has(form);
}

/** The entry a map key or a target falls on (for the chain and loop checks): what the server would answer it. */
function lookup(map: PracticeRedirects, url: string): { from: string; target: string } | null {
  const answer = answerOldUrl(map, url);
  if (answer?.status !== 301) return null;
  const form = oldUrlForm(idPathOf(url, map.learned).url, map.platform, map.categories)!;
  return { from: answer.matchedQuery || map.has(form.form) ? form.form : form.path, target: answer.target };
}

/**
 * A post's slug as WordPress writes it (sanitize_title: letters, digits, `-`, `_`, never a `.` nor a `/`), in a path
 * segment's form; not all digits (WordPress suffixes a numeric slug, `2-2`, since it would read as a page number or
 * a date): a number or a file name is no post's.
 */
const SLUG = /^(?!\d+$)[^/?#\s.]+$/u;

/**
 * One practice's map: normalised old URL -> new path, the dropped old URLs (404 in one answer), and the old
 * site's platform when the file declares it (`"$platform": "joomla"`: its URL grammar, grammar.ts).
 */
export class PracticeRedirects extends Map<string, string> {
  platform: Platform | null = null;
  /** The id grammar learned by probing the old site (`$idPaths`, `$idQuery`, `$idForms`: learned.ts); none by default. */
  learned: LearnedGrammar = NO_LEARNED;
  readonly gone = new Set<string>();
  /**
   * On a Joomla map, its category paths (grammar.ts's joomlaCategoryPaths of its keys, dropped ones included): a SEF
   * page numbered under one of them is that category (`/actualites/6-vie-du-cabinet.html`), not article 6.
   */
  categories: ReadonlySet<string> = new Set();
  /** The new site's pages the map sends to (pagePathForm): paths a learned id query never takes. */
  readonly targetPaths = new Set<string>();
  /**
   * On a WordPress map, the custom post types' query vars the old site was seen to use (`$queryVars`, learned.ts):
   * the only single parameters besides `name` that name a post by its slug. Any other one WordPress ignores (an
   * unregistered var: it shows the home page), so it keeps its answer as before (`/?v=2`, `/?q=contact`: one 404).
   */
  queryVars: ReadonlySet<string> = new Set();
  /**
   * On a WordPress map, each post's slug (a key's last segment) -> that key's form, or null when keys ending in it go
   * to different pages or one of them is dropped: what WordPress's query vars name a post by (`?name=x`, `?soin=x`:
   * postBySlug). Keys ending in it that all go to one page are one answer (an old URL and the new page's own spelling
   * the toolkit writes: `/soins/parodontologie` and `/parodontologie`, both to `/parodontologie/`). Built once at load
   * (indexSlugs), one entry per key at most.
   */
  readonly slugKeys = new Map<string, string | null>();

  /**
   * The target of the post a WordPress query var names by its slug: `name` or a learned post type's var (queryVars),
   * spelled as WordPress reads it (case-sensitive: `?Soin=` is no var of WordPress's), its value a slug (SLUG); the one
   * key ending in it (slugKeys). Undefined otherwise.
   */
  postBySlug(name: string, value: string): string | undefined {
    if ((name !== "name" && !this.queryVars.has(name)) || !SLUG.test(value)) return undefined;
    const key = this.slugKeys.get(value);
    return key ? this.get(key) : undefined;
  }

  /**
   * Fills slugKeys from the keys and the dropped URLs (WordPress only: no other platform names a post by a slug alone).
   * Only keys a post's permalink can be: not a path of the platform's own (an archive, `/blog/tag/x`, `/blog/author/x`),
   * nor one whose last segment is no slug (SLUG: a number, `/blog/page/2`, `/2019/05`, `/soins/1`; a document,
   * `/tarifs.pdf`): `/?v=2` or `/?soin=tarifs.pdf` would answer them.
   */
  indexSlugs(): void {
    if (this.platform !== "wordpress") return;
    for (const form of [...this.keys(), ...this.gone]) {
      if (form.includes("?") || form === "/") continue;
      const slug = form.slice(form.lastIndexOf("/") + 1);
      // (Nor a key sending to the home page, `/accueil-2/`: `/?membre=accueil-2` would answer the home page, a soft 404.)
      if (!SLUG.test(slug) || oldUrlForm(form, "wordpress")?.cmsPath !== false || this.get(form) === "/") continue;
      const previous = this.slugKeys.get(slug);
      if (previous === undefined) this.slugKeys.set(slug, form);
      else if (previous !== null && (this.get(previous) === undefined || this.get(previous) !== this.get(form))) this.slugKeys.set(slug, null);
    }
  }

  override set(key: string, target: string): this {
    // (Map's constructor may call set before the fields exist: a map built empty, as here, never does.)
    const path = pagePathForm(decodePath(target.split(/[?#]/)[0]));
    if (path !== null) this.targetPaths?.add(path);
    return super.set(key, target);
  }
}

/** The key of redirects.json that declares the old site's platform (every other key is an old path). */
export const PLATFORM_KEY = "$platform";

const isSitePath = (value: string) => value.startsWith("/") && !value.startsWith("//") && !value.includes("\\");

/** Validates one parsed redirects.json; `file` names it in every problem. */
export function parseRedirects(json: unknown, file: string): { map: PracticeRedirects; errors: RedirectProblem[]; warnings: RedirectProblem[] } {
  const errors: RedirectProblem[] = [];
  const warnings: RedirectProblem[] = [];
  const map = new PracticeRedirects();
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    errors.push({ file, key: null, message: "must be a JSON object mapping an old path to a new path" });
    return { map, errors, warnings };
  }
  const entries = Object.entries(json as Record<string, unknown>);
  // The platform first: every key is read in its grammar.
  const declared = (json as Record<string, unknown>)[PLATFORM_KEY];
  if (declared !== undefined) {
    if (isPlatform(declared)) map.platform = declared;
    else errors.push({ file, key: PLATFORM_KEY, message: `the old site's platform must be one of ${PLATFORMS.join(", ")}` });
  }
  const values = json as Record<string, unknown>;
  const learned = parseLearned(values[ID_PATHS_KEY], values[ID_QUERY_KEY], values[ID_QUERY_WITH_KEY], values[ID_FORMS_KEY]);
  map.learned = learned.learned;
  for (const e of learned.errors) errors.push({ file, ...e });
  const queryVars = parseQueryVars(values[QUERY_VARS_KEY], map.platform === "wordpress");
  if (queryVars.error !== null) errors.push({ file, key: QUERY_VARS_KEY, message: queryVars.error });
  map.queryVars = new Set(queryVars.vars);
  // (Joomla: read from every key first, as the toolkit read them from the crawl, so each key's form knows them.)
  if (map.platform === "joomla") map.categories = joomlaCategoryPaths(entries.map(([key]) => key));
  const rawKeyOf = new Map<string, string>();
  const gone = new Map<string, string>();
  for (const [key, target] of entries) {
    if (key === PLATFORM_KEY || LEARNED_KEYS.includes(key)) continue;
    if (target !== null && typeof target !== "string") {
      errors.push({ file, key, message: "the new path must be a string (or null: the old URL answers 404)" });
      continue;
    }
    if (!isSitePath(key)) {
      errors.push({ file, key, message: 'the old path must start with a single "/"' });
      continue;
    }
    const from = normaliseRedirectPath(idPathOf(key, map.learned).url, map.platform, map.categories);
    if (from === null) {
      errors.push({ file, key, message: "the old path has a malformed percent-escape" });
      continue;
    }
    if (target === null) {
      // A dropped old URL: one 404 (a skipped page), never the home page.
      if (from === "/") errors.push({ file, key, message: "the home page cannot be dropped (null)" });
      else if (map.has(from)) errors.push({ file, key, message: `same old path as key ${JSON.stringify(rawKeyOf.get(from))}, which redirects it` });
      else gone.set(from, key);
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
    // `/index.html`, `/accueil`, `/home` are the home page's spellings (grammar.ts): sent elsewhere, the home page would be.
    if (from === "/" && target.split("?")[0] !== "/") {
      errors.push({ file, key, message: `a spelling of the home page can only go to the home page, not ${JSON.stringify(target)}` });
      continue;
    }
    const previous = map.get(from);
    if ((previous !== undefined && previous !== target) || gone.has(from)) {
      errors.push({ file, key, message: `same old path as key ${JSON.stringify(rawKeyOf.get(from) ?? gone.get(from))} with another target` });
      continue;
    }
    map.set(from, target);
    rawKeyOf.set(from, key);
  }
  for (const form of gone.keys()) map.gone.add(form);

  // Chains and loops: follow each key's targets through the map, as the server would answer them.
  const resolved = new PracticeRedirects();
  resolved.platform = map.platform;
  resolved.learned = map.learned;
  resolved.queryVars = map.queryVars;
  resolved.categories = map.categories;
  for (const form of map.gone) resolved.gone.add(form);
  for (const [from, target] of map) {
    const key = rawKeyOf.get(from)!;
    if (decodePath(key) === decodePath(target)) {
      errors.push({ file, key, message: `redirect loop: ${key} -> ${target} (the new path is the old path)` });
      continue;
    }
    if (answerOldUrl(map, target)?.status === 404) {
      errors.push({ file, key, message: `the new path ${target} would answer 404: it is spelled like a dropped old URL` });
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
  resolved.indexSlugs();
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

/**
 * What the practice's map answers a request (`url`: its path and query as received): a 301 with its Location
 * (the visitor's campaign tags follow it), a 404 for a dropped or unknown old CMS URL, or null (the site's own).
 */
export function answerRequest(table: RedirectTable, code: string, url: string): { status: 301; location: string } | { status: 404 } | null {
  const map = table.get(code);
  if (!map) return null;
  const entry = answerOldUrl(map, url);
  if (entry === null || entry.status === 404) return entry;
  // Only the visitor's campaign tags follow: the old URL's other parameters (`?lang=en`, `?lightbox=...`) meant
  // something to the old site only.
  const q = url.indexOf("?");
  const query = q === -1 ? "" : splitTracking(url.slice(q + 1)).tracking;
  if (!query) return { status: 301, location: entry.target };
  // The visitor's query (campaign tags...) follows the redirect; a target with its own query gets them after it.
  return { status: 301, location: `${entry.target}${entry.target.includes("?") ? "&" : "?"}${query}` };
}

/** The new path for a request, or null (also for a URL the map answers 404). */
export function findRedirect(table: RedirectTable, code: string, url: string): string | null {
  const answer = answerRequest(table, code, url);
  return answer?.status === 301 ? answer.location : null;
}
