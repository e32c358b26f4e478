/**
 * An old site's id grammar learned by probing it (decision 0052, amended 2026-11-28, "ids learned by probing"): rules
 * the migration toolkit confirmed on the live old site (ops/migrate/probe.ts) for a platform it does not recognise,
 * stored in the practice's redirects.json beside its `$platform`:
 *
 *   "$idPaths": "/actualites /file_download"   under each prefix, `/prefix/N/<anything>` and `/prefix/N` are one page,
 *                                               N's (the old site answered a changed and a removed slug with the same
 *                                               page, and an unknown N with another answer)
 *   "$idQuery": "/?id" or "/*?id"              `?id=N` on the front controller (`/`, `/index.php`), or on any path
 *                                               (`/*`), names the page whose id is N (the old site answered it with
 *                                               that page); the keys spelled so are written per page, as the old site
 *                                               answered them
 *   "$idQueryWith": "s=cabinet s=soins"        parameters the old site was found to ignore beside the id
 *                                               (`/index.php?s=soins&id=14` is article 14); any other parameter beside
 *                                               the id keeps the URL apart (`?s=file_download&id=3` is a file)
 *   "$idForms": "/page{id}.html /soins/{id}"   spellings of a page by the id its markup prints (Tilda's page id,
 *                                               ExpressionEngine's entry id in the place of its url_title): the old
 *                                               site answered `/page3901342.html` with the page printing 3901342, and
 *                                               an unknown id with another answer; the keys spelled so are written per
 *                                               page, as the old site answered them
 *
 *   "$queryVars": "membre soin"                WordPress only: its custom post types' query vars the toolkit saw the old
 *                                               site use (a single post's body class `single-<type>`: WordPress
 *                                               registers a type's name as its query var), so `/?soin=<slug>` names
 *                                               the post of that slug wherever its permalink is (map.ts); any other
 *                                               single parameter on the front controller stays what it was
 *
 * A map without them reads as before. Applied before the platform's grammar (grammar.ts): a request's path under a
 * learned prefix is reduced to its id form; a query naming an id that no key knows is asked as `/?id=N` alone (the
 * id is the page's identity on that site, whatever path or other parameter carries it) and, unknown, answers 404.
 * Never on a URL the new site serves: prefixes are stored decoded and never under a route of the server
 * (isReservedPrefix); the id query is not read on a server route nor on a page the map sends to (map.ts).
 */

import { decode, isWordPressQueryVar, params } from "./grammar";
import { routeOf } from "../tenancy/routes";

export const ID_PATHS_KEY = "$idPaths";
export const ID_QUERY_KEY = "$idQuery";
export const ID_QUERY_WITH_KEY = "$idQueryWith";
export const ID_FORMS_KEY = "$idForms";
export const QUERY_VARS_KEY = "$queryVars";
/** Every key of a map that holds the learned grammar, not an old URL. */
export const LEARNED_KEYS: readonly string[] = [ID_PATHS_KEY, ID_QUERY_KEY, ID_QUERY_WITH_KEY, ID_FORMS_KEY, QUERY_VARS_KEY];

/**
 * The post types' query vars a map may hold, at most: a practice's site has a few (the blind Divi site two, `soin` and
 * `membre`); the toolkit writes no more (redirect-map.ts), so what it writes always loads.
 */
export const MAX_QUERY_VARS = 16;

/**
 * Whether a name can be a custom post type's query var: a post type's name as WordPress keeps it (sanitize_key:
 * lower-case letters, digits, `_` and `-`; at most 20 characters, register_post_type's limit) and none of WordPress's
 * own query vars (`s`, `cat`, `name`, `p`...: each names something else), nor its built-in `post`, which registers none.
 */
export const isPostTypeVar = (name: string): boolean => /^[a-z0-9_-]{1,20}$/.test(name) && name !== "post" && !isWordPressQueryVar(name);

/**
 * A map's `$queryVars` (names separated by spaces, each isPostTypeVar, at most MAX_QUERY_VARS), on a WordPress map
 * only: the vars, or the problem for the loader.
 */
export function parseQueryVars(value: unknown, wordpress: boolean): { vars: string[]; error: string | null } {
  if (value === undefined) return { vars: [], error: null };
  const names = typeof value === "string" ? value.split(/\s+/).filter(Boolean) : null;
  if (!wordpress) return { vars: [], error: 'only a WordPress map ("$platform": "wordpress") reads post types\' query vars' };
  if (names === null || !names.length || !names.every(isPostTypeVar))
    return { vars: [], error: 'must be post types\' query vars separated by spaces ("membre soin"): lower-case letters, digits, "_" or "-", none of WordPress\'s own (s, p, name...)' };
  const vars = [...new Set(names)];
  if (vars.length > MAX_QUERY_VARS) return { vars: [], error: `at most ${MAX_QUERY_VARS} query vars (${vars.length} given)` };
  return { vars, error: null };
}

export interface LearnedGrammar {
  /** Prefixes (decoded, lower-cased, no final slash) under which `/prefix/N[/anything]` is the page of id N. */
  idPaths: string[];
  /** The query parameter naming a page by its id, and whether it does so on any path or on the front controller only. */
  idQuery: { name: string; anyPath: boolean; with: string[] } | null;
  /**
   * Paths naming a page by the id its markup prints, the id's place written `{id}` (decoded, lower-cased, in its last
   * segment: `/page{id}.html`, `/soins/{id}`): `/Page03901342.html/` is `/page3901342.html`.
   */
  idForms: string[];
}

export const NO_LEARNED: LearnedGrammar = { idPaths: [], idQuery: null, idForms: [] };

/**
 * The learned prefixes and id forms a map may hold, at most. idPathOf tries each on every request of the practice's
 * site (a form is a pattern run on the path): 5,000 forms cost about 1 ms per request, three 0.004 ms. The probes learn
 * at most six prefixes (probe.ts's MAX_PREFIXES) and, on the forty-nine old sites measured, at most two forms; sixteen
 * of each leaves an operator room to add some by hand and keeps the cost a few microseconds. The probes stop
 * confirming at these bounds, so what they write always loads.
 */
export const MAX_ID_PATHS = 16;
export const MAX_ID_FORMS = 16;
/** The parameters `$idQueryWith` may name, at most: each request's parameters are looked up in them (idQueryOf). */
export const MAX_ID_QUERY_WITH = 16;

const PREFIX = /^(?:\/[^/?#\s$]+)+$/;

/**
 * A learned prefix in its one stored form: decoded (`/actualit%C3%A9s` is `/actualités`), NFC, lower-cased; null for
 * a malformed escape, an escaped slash, or a `.`/`..` segment.
 */
export function prefixForm(prefix: string): string | null {
  if (/%2f/i.test(prefix)) return null;
  const text = decode(prefix);
  // (A `%` left after decoding would decode again when the stored form is loaded back: `/a%2531` stored as `/a%31`
  // loads as `/a1`. Only a form that is its own stored form is kept.)
  if (text === null || text.includes("%") || !PREFIX.test(text) || text.split("/").some((s) => s === "." || s === "..")) return null;
  return text.normalize("NFC").toLowerCase();
}

/** A prefix the server answers itself (`/api`, `/media`, `/build`...: tenancy/routes.ts): never an old site's ids. */
export function isReservedPrefix(prefix: string): boolean {
  const first = prefix.split("/")[1] ?? "";
  return routeOf("GET", `/${encodeURIComponent(first)}/1/`) !== "page" || GLOBAL_ROUTES.has(first);
}

/** The global endpoints answered before tenancy, on any host (not a practice's routes: routes.ts). */
const GLOBAL_ROUTES: ReadonlySet<string> = new Set(["healthz", "readyz", "build", "assets"]);
const PARAM = /^[a-z_][a-z0-9_]{0,30}$/;

/**
 * A learned id form in its one stored form (`/Page{id}.html` is `/page{id}.html`): decoded, NFC, lower-cased, as
 * prefixForm reads a prefix. Null unless it is a path with one `{id}` in its last segment and no digit beside it (the
 * digits read there are the id's alone), or when it falls under a route the server answers itself. Checked on the
 * decoded text, the one stored and compared with requests (the review of the id forms): `/page%7Bid%7D{id}.html` has
 * two `{id}`, and `/page{id}%31.html` a digit beside it.
 */
export function idFormOf(form: string): string | null {
  if (/%2f/i.test(form)) return null;
  const text = decode(form)?.normalize("NFC").toLowerCase();
  if (text === undefined || text.includes("%")) return null;
  const parts = text.split("{id}");
  if (parts.length !== 2) return null;
  const [head, tail] = parts;
  // (A brace left beside the `{id}`, `/page{{id}}`, is no spelling a CMS writes, and would read as a second `{id}`.)
  if (!head.startsWith("/") || tail.includes("/") || /[{}]/.test(head + tail) || /\d$/.test(head) || /^\d/.test(tail)) return null;
  const path = prefixForm(`${head}1${tail}`);
  if (path === null || isReservedPrefix(path) || routeOf("GET", path) !== "page") return null;
  return `${head}{id}${tail}`;
}

/**
 * A learned id form's pattern: the id's digits (leading zeros too) where `{id}` stands, one final slash either way.
 * Made once per stored form (the maps' forms, at most MAX_ID_FORMS each); the memo is emptied past a bound all the same.
 */
const FORM_PATTERNS = new Map<string, RegExp>();
const MAX_FORM_PATTERNS = 1024;
function formPattern(form: string): RegExp {
  let pattern = FORM_PATTERNS.get(form);
  if (pattern === undefined) {
    if (FORM_PATTERNS.size >= MAX_FORM_PATTERNS) FORM_PATTERNS.clear();
    const [head, tail] = form.split("{id}").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    pattern = new RegExp(`^${head}(\\d{1,15})${tail}/?$`);
    FORM_PATTERNS.set(form, pattern);
  }
  return pattern;
}

/** The learned grammar of a map's `$idPaths`, `$idQuery`, `$idQueryWith` and `$idForms` values; problems named for the loader. */
export function parseLearned(idPaths: unknown, idQuery: unknown, idQueryWith?: unknown, idForms?: unknown): { learned: LearnedGrammar; errors: { key: string; message: string }[] } {
  const errors: { key: string; message: string }[] = [];
  const learned: LearnedGrammar = { idPaths: [], idQuery: null, idForms: [] };
  if (idPaths !== undefined) {
    const prefixes = typeof idPaths === "string" ? idPaths.split(/\s+/).filter(Boolean) : null;
    const forms = prefixes?.map(prefixForm) ?? null;
    if (forms === null || forms.some((p) => p === null)) errors.push({ key: ID_PATHS_KEY, message: 'must be paths separated by spaces ("/actualites /file_download")' });
    else if (forms.some((p) => isReservedPrefix(p!)))
      errors.push({ key: ID_PATHS_KEY, message: `a prefix under a route the server answers itself (${forms.filter((p) => isReservedPrefix(p!)).join(", ")}) cannot be an old site's` });
    else if (new Set(forms).size > MAX_ID_PATHS)
      errors.push({ key: ID_PATHS_KEY, message: `at most ${MAX_ID_PATHS} prefixes (${new Set(forms).size} given): each is tried on every request of the site` });
    else learned.idPaths = [...new Set(forms as string[])];
  }
  if (idQuery !== undefined) {
    const m = typeof idQuery === "string" ? /^\/(\*)?\?([^=&]+)$/.exec(idQuery) : null;
    if (m === null || !PARAM.test(m[2].toLowerCase())) errors.push({ key: ID_QUERY_KEY, message: 'must be "/?<name>" (the front controller) or "/*?<name>" (any path)' });
    else learned.idQuery = { name: m[2].toLowerCase(), anyPath: m[1] === "*", with: [] };
  }
  if (idQueryWith !== undefined) {
    const pairs = typeof idQueryWith === "string" ? idQueryWith.split(/\s+/).filter(Boolean) : null;
    if (pairs === null || learned.idQuery === null || pairs.some((p) => !/^[^=&\s]+=[^=&\s]*$/.test(p))) errors.push({ key: ID_QUERY_WITH_KEY, message: 'must be parameters "name=value" separated by spaces, beside a "$idQuery"' });
    // (Bounded as the forms and prefixes are: each request's parameters are looked up in them.)
    else if (new Set(pairs).size > MAX_ID_QUERY_WITH) errors.push({ key: ID_QUERY_WITH_KEY, message: `at most ${MAX_ID_QUERY_WITH} parameters (${new Set(pairs).size} given): each request's parameters are looked up in them` });
    else learned.idQuery!.with = pairs.map((p) => p.toLowerCase());
  }
  if (idForms !== undefined) {
    const forms = typeof idForms === "string" ? idForms.split(/\s+/).filter(Boolean).map(idFormOf) : null;
    if (forms === null || forms.some((f) => f === null))
      errors.push({ key: ID_FORMS_KEY, message: 'must be paths with one "{id}" in their last segment, separated by spaces ("/page{id}.html /soins/{id}"), under no route the server answers itself' });
    else if (new Set(forms).size > MAX_ID_FORMS)
      errors.push({ key: ID_FORMS_KEY, message: `at most ${MAX_ID_FORMS} id forms (${new Set(forms).size} given): each is tried on every request of the site` });
    else learned.idForms = [...new Set(forms as string[])];
  }
  return { learned, errors };
}

/** The map's values of a learned grammar (undefined when there is nothing to write). */
export function learnedValues(learned: LearnedGrammar): { [ID_PATHS_KEY]?: string; [ID_QUERY_KEY]?: string; [ID_QUERY_WITH_KEY]?: string; [ID_FORMS_KEY]?: string } {
  return {
    ...(learned.idPaths.length ? { [ID_PATHS_KEY]: learned.idPaths.join(" ") } : {}),
    ...(learned.idQuery ? { [ID_QUERY_KEY]: `/${learned.idQuery.anyPath ? "*" : ""}?${learned.idQuery.name}` } : {}),
    ...(learned.idQuery?.with.length ? { [ID_QUERY_WITH_KEY]: learned.idQuery.with.join(" ") } : {}),
    ...(learned.idForms.length ? { [ID_FORMS_KEY]: learned.idForms.join(" ") } : {}),
  };
}

/**
 * A URL with its path reduced to the id form when it falls under a learned prefix (`/Actualites/55/any-title/` is
 * `/actualites/55`) or matches a learned id form (`/Page03901342.html/` is `/page3901342.html`); `id` that form when
 * it does. The URL as given otherwise.
 */
export function idPathOf(url: string, learned: LearnedGrammar): { url: string; id: string | null } {
  if (!learned.idPaths.length && !learned.idForms.length) return { url, id: null };
  const cut = url.search(/[?#]/);
  const rawPath = cut === -1 ? url : url.slice(0, cut);
  // An escaped slash inside a segment, or a `.`/`..` segment (`/actualites/55/..` is `/actualites`): no id path.
  if (/%2f/i.test(rawPath)) return { url, id: null };
  const path = decode(rawPath)?.normalize("NFC").toLowerCase().replace(/\/{2,}/g, "/");
  if (!path || path.split("/").some((s) => s === "." || s === "..")) return { url, id: null };
  for (const prefix of learned.idPaths) {
    if (!path.startsWith(`${prefix}/`)) continue;
    const m = /^(\d{1,15})(?:\/[^/]*)?\/?$/.exec(path.slice(prefix.length + 1));
    if (m) {
      const id = `${prefix}/${Number(m[1])}`;
      return { url: `${id}${cut === -1 ? "" : url.slice(cut)}`, id };
    }
  }
  for (const form of learned.idForms) {
    const m = formPattern(form).exec(path);
    if (m) {
      const id = form.replace("{id}", String(Number(m[1])));
      return { url: `${id}${cut === -1 ? "" : url.slice(cut)}`, id };
    }
  }
  return { url, id: null };
}

/**
 * The page a query names by its learned id parameter (`/soins/?id=14&s=soins` -> `/?id=14` on a grammar learned on
 * any path; `/index.php?id=14` on the front controller's), or null when it names none. The parameters grammar.ts
 * drops when the form is read (tracking, language, session, `stage=live`: grammar.ts's params) are no part of it.
 */
export function idQueryOf(url: string, learned: LearnedGrammar): string | null {
  const rule = learned.idQuery;
  if (!rule) return null;
  const hash = url.indexOf("#");
  const raw = hash === -1 ? url : url.slice(0, hash);
  const q = raw.indexOf("?");
  if (q === -1) return null;
  const path = decode(raw.slice(0, q))?.toLowerCase().replace(/\/{2,}/g, "/");
  if (path === undefined || path === null) return null;
  if (!rule.anyPath && !/^\/(?:index\.php\/?)?$/.test(path)) return null;
  const parsed = params(raw.slice(q + 1));
  if (parsed === null) return null;
  let id: string | null = null;
  for (const [name, value] of parsed) {
    if (name === rule.name && id === null && /^\d{1,15}$/.test(value)) id = String(Number(value));
    // Another parameter the old site was not found to ignore beside the id: another URL (`?s=file_download&id=3`).
    else if (!rule.with.includes(`${name}=${value}`)) return null;
  }
  return id === null ? null : `/?${rule.name}=${id}`;
}
