/**
 * `npm run lint` runs this: the docs name only what exists, and the decision records keep their format.
 *
 * Documents: README.md and every docs/**\/*.md. What counts as a path (and must exist):
 * - a Markdown link's target (`[text](target)`, without its `#anchor`; not a URL with a scheme, not `/...`),
 *   resolved against the document's folder;
 * - in prose, code spans and fenced blocks alike: a token whose first segment is a top-level folder of the
 *   repository (`src/`, `ops/`, `tests/`, `docs/`, `bench/`, `scripts/`...: the folders git tracks at the root),
 *   resolved against the root; `../shared/...` against the root too, checked only where that folder exists;
 * - in code spans and fenced blocks only: a token with a `/` whose last segment has one of EXTENSIONS
 *   (`cache/key.ts`): some file of the tree must end with `/<token>`; a token ending with `/` (`cache/shared/`):
 *   some folder of the tree must end with it; and a bare file name with one of
 *   EXTENSIONS (`render-pool.md`, `page-cache.ts`): a record of docs/decisions/ for `.md`, else a file of that
 *   name anywhere in the tree (unless it is one of OUTPUTS, the files the product writes, not the repository).
 * A token is cut at white space and loses the punctuation around it and a `:line` suffix (`app.ts:180`). It is
 * not a path when it holds a template (`<code>`, `{code}`, `*`, `$VAR`, `...`, `NNNN`), a `=`, `?`, `|` or `\`, a
 * scheme (`https:`), or starts with `/` (a URL path), `-` (an option), `./` or `../` other than `../shared/`.
 * A path git ignores (build output: `server/`, `dist/`, `public/media/`) is not checked.
 * The tree is what `git ls-files --cached --others --exclude-standard` lists and the disk still has.
 *
 * The comments of the sources (src/, ops/, tests/, bench/, scripts/, adapters/, .ci/ and the root's files: the
 * lines that start a comment, and what follows ` // `) are read as prose, and a bare `*.md` name in them must be
 * a record, a file of the tree or of ../shared/ (not checked when ../shared/ is absent); a comment may name a
 * module without its extension. Comments of files this branch may not edit are PENDING_COMMENTS.
 *
 * Decision records (docs/decisions/NNNN-slug.md, docs/decisions/README.md says the format): the file name's
 * number is the title's; the first four lines are `# NNNN. Title`, a blank line, `- Date: YYYY-MM-DD`,
 * `- Status: ` proposed | accepted | superseded by [NNNN](file) | accepted; amended by [NNNN](file)[, [NNNN](file)...]
 * (proposed: decided by nobody yet, a choice the record argues for and the code does not follow);
 * a superseded record's fifth line says what replaced what (`- Replaced: ...`); every record a status links
 * to exists, has that number and links back; no number is used twice; README.md's "Decisions" section names
 * every record by its path; docs/decisions/README.md has a line per record that links it and ends with its
 * status.
 *
 * Prints every problem (document:line: ...) and exits 1; exits 0 when there is none.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, normalize, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** File extensions that make a token a file name. */
export const EXTENSIONS = ["ts", "tsx", "js", "mjs", "cjs", "sh", "md", "json", "yml", "yaml", "conf", "css"];

/** File names the docs mention that the product or its tools write at run time: not files of this repository. */
export const OUTPUTS = new Set([
  "bodies.bin",
  "compose.json",
  "containers.conf",
  "content-assessment.md",
  "crawl.json",
  "manifest.json",
  "q-data.json",
  "redirects-review.md",
  "redirects.json",
  "verify-report.json",
  "verify-report.md",
  ".crawl-state.json",
]);

export type Where = "link" | "code" | "prose";

export interface Mention {
  token: string;
  line: number;
  where: Where;
}

/** Every candidate token of a Markdown text, with its line (1-based) and whether it sits in code. */
export function mentions(markdown: string): Mention[] {
  const found: Mention[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    const line = index + 1;
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      for (const token of text.split(/\s+/)) found.push({ token, line, where: "code" });
      return;
    }
    // Code spans first; what remains outside them is prose, with its links (a link inside a code span is text).
    const prose = text.replace(/`([^`]+)`/g, (_, code: string) => {
      for (const token of code.split(/\s+/)) found.push({ token, line, where: "code" });
      return " ";
    });
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) found.push({ token: match[1], line, where: "link" });
    for (const token of prose.replace(/\]\([^)\s]+\)/g, "] ").split(/\s+/)) found.push({ token, line, where: "prose" });
  });
  return found.filter((m) => m.token !== "");
}

/** The token without surrounding punctuation and `:line` suffix; null when it is not path-shaped at all. */
export function cleanToken(raw: string): string | null {
  // An ellipsis stands for what is left out (`ops/...`); `[...path]` is a folder's literal name.
  if (/\.\.\.|…/.test(raw.replace(/\[\.\.\.\w+\]/g, ""))) return null;
  // Emphasis markers (`**x**`) go; any other `*` is a glob (`*.unit.ts`), a template.
  let token = raw.replace(/^\*\*|\*\*(?=[)"',;:.!]*$)/g, "").replace(/^[("'[_,;]+/, "").replace(/[)"',;:.!_\]]+$/, "");
  // A possessive (`bench/targets.ts's table`) names the path before it.
  token = token.replace(/'s$/, "").replace(/[)"',;:.!_\]]+$/, "");
  token = token.replace(/:\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/, "");
  if (!token || /[<>{}*$=?|\\`…]|NNNN/.test(token) || /^[a-z][a-z0-9+.-]*:/i.test(token)) return null;
  if (token.startsWith("/") || token.startsWith("-") || token.startsWith("~")) return null;
  if (token.startsWith("./") || (token.startsWith("../") && !token.startsWith("../shared/"))) return null;
  return token;
}

function extensionOf(name: string): string | null {
  const match = name.match(/\.([a-z0-9]+)$/i);
  return match ? match[1].toLowerCase() : null;
}

export type Claim =
  | { kind: "exact"; path: string; suffix?: undefined } // relative to the root
  | { kind: "suffix"; suffix: string } // some file ends with /suffix
  | { kind: "folder"; suffix: string } // some folder ends with /suffix
  | { kind: "name"; name: string; suffix?: undefined }; // a record, else a file of that name anywhere

/**
 * What a mention claims exists, or null when it claims nothing. `top`: the root's folders (`src`, `ops`...);
 * `docDir`: the document's folder relative to the root (links are relative to it).
 */
export function claimOf(mention: Mention, top: ReadonlySet<string>, docDir: string): Claim | null {
  if (mention.where === "link") {
    const target = mention.token.replace(/^<|>$/g, "").split("#")[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) return null;
    return { kind: "exact", path: normalize(join(docDir, decodeURIComponent(target))) };
  }
  const token = cleanToken(mention.token);
  if (!token) return null;
  if (token.startsWith("../shared/")) return { kind: "exact", path: token };
  const segments = token.split("/");
  if (segments.length > 1 && top.has(segments[0])) return { kind: "exact", path: token };
  if (mention.where !== "code") return null;
  const last = segments[segments.length - 1];
  if (last === "" && segments.length > 1) {
    const folder = segments.slice(0, -1);
    return folder.every((segment) => /^[\w@.[\]-]+$/.test(segment)) ? { kind: "folder", suffix: folder.join("/") } : null;
  }
  const ext = extensionOf(last);
  if (!ext || !EXTENSIONS.includes(ext) || !/^[\w@.[\]-]+$/.test(last)) return null;
  if (segments.length > 1) return segments.every(Boolean) ? { kind: "suffix", suffix: token } : null;
  return OUTPUTS.has(last) ? null : { kind: "name", name: last };
}

/**
 * The words of a source file's comments, as prose mentions: lines that start a comment (`*`, `//`, `/*`, `#`)
 * and the tail of a line after ` // `. Only what a comment says is a path is checked in code, never a string.
 */
export function commentMentions(source: string): Mention[] {
  const found: Mention[] = [];
  source.split("\n").forEach((text, index) => {
    const comment = text.match(/^\s*(?:\*(?!\/)|\/\/|\/\*\*?|#)(?!!)(.*)$/)?.[1] ?? text.match(/\s\/\/\s(.*)$/)?.[1];
    if (comment) for (const token of comment.split(/\s+/)) if (token) found.push({ token, line: index + 1, where: "prose" });
  });
  return found;
}

/**
 * Paths named in comments of files the lead is moving (issue 28), which this branch may not edit: reported on
 * every run, not failures; an entry that no longer fails is itself reported, so the list empties as they land.
 */
export const PENDING_COMMENTS = new Set<string>([
]);

export interface RecordFile {
  name: string; // NNNN-slug.md
  text: string;
}

const RECORD_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const LINK = /\[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\)/g;

/** The format problems of the decision records (see the header). */
export function recordProblems(records: readonly RecordFile[]): string[] {
  const problems: string[] = [];
  const byName = new Map(records.map((r) => [r.name, r]));
  const numbers = new Map<string, string>();
  for (const record of records) {
    const at = `docs/decisions/${record.name}`;
    const number = record.name.match(RECORD_NAME)?.[1];
    if (!number) {
      problems.push(`${at}: a record is named NNNN-slug.md (lower-case slug)`);
      continue;
    }
    if (numbers.has(number)) problems.push(`${at}: number ${number} is also ${numbers.get(number)}`);
    numbers.set(number, record.name);
    const lines = record.text.split("\n");
    const title = lines[0]?.match(/^# (\d{4})\. \S/);
    if (!title) problems.push(`${at}:1: the first line is "# ${number}. Title"`);
    else if (title[1] !== number) problems.push(`${at}:1: the title's number ${title[1]} is not the file's ${number}`);
    if (lines[1] !== "") problems.push(`${at}:2: a blank line follows the title`);
    const date = lines[2]?.match(/^- Date: (\d{4}-\d{2}-\d{2})$/)?.[1];
    if (!date || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
      problems.push(`${at}:3: the third line is "- Date: YYYY-MM-DD" (a real date)`);
    }
    const status = lines[3]?.match(/^- Status: (.*)$/)?.[1];
    const links = [...(status ?? "").matchAll(LINK)];
    const list = "\\[\\d{4}\\]\\(\\d{4}-[a-z0-9-]+\\.md\\)";
    if (status === undefined) problems.push(`${at}:4: the fourth line is "- Status: ..."`);
    else if (
      status !== "accepted" &&
      status !== "proposed" &&
      !new RegExp(`^superseded by ${list}$`).test(status) &&
      !new RegExp(`^accepted; amended by ${list}(?:, ${list})*$`).test(status)
    ) {
      problems.push(`${at}:4: the status is "proposed", "accepted", "superseded by [NNNN](file)" or "accepted; amended by [NNNN](file)"`);
    }
    if (status?.startsWith("superseded") && !/^- Replaced: \S/.test(lines[4] ?? "")) {
      problems.push(`${at}:5: a superseded record says in one line what replaced what ("- Replaced: ...")`);
    }
    for (const [, linkNumber, file] of links) {
      const target = byName.get(file);
      if (!target) problems.push(`${at}:4: the status links to ${file}, which does not exist`);
      else if (!file.startsWith(`${linkNumber}-`)) problems.push(`${at}:4: the link [${linkNumber}] names ${file}`);
      else if (file === record.name) problems.push(`${at}:4: the status links to the record itself`);
      // A proposal decides nothing: it can neither replace nor change an accepted record.
      else if (target.text.split("\n")[3] === "- Status: proposed") problems.push(`${at}:4: the status links to ${file}, which is only proposed`);
      else if (!target.text.includes(`](${record.name})`)) {
        problems.push(`docs/decisions/${file}: links nowhere back to ${record.name}, whose status names it`);
      }
    }
  }
  return problems;
}

/** The records a text (README.md's "Decisions" section) does not name by their path, `docs/decisions/<name>`. */
export function unlisted(text: string, recordNames: readonly string[]): string[] {
  return recordNames.filter((name) => !text.includes(`docs/decisions/${name}`));
}

/**
 * The problems of docs/decisions/README.md: a line per record, `- [NNNN](NNNN-slug.md) Title: status`, ending with
 * the status the record gives itself.
 */
export function indexProblems(index: string, records: readonly RecordFile[]): string[] {
  const lines = index.split("\n");
  return records.flatMap((record) => {
    const line = lines.find((l) => l.startsWith(`- [${record.name.slice(0, 4)}](${record.name}) `));
    if (!line) return [`docs/decisions/README.md: no line starts with "- [${record.name.slice(0, 4)}](${record.name}) "`];
    const status = record.text.split("\n")[3]?.replace(/^- Status: /, "");
    return status && !line.endsWith(status) ? [`docs/decisions/README.md: the line of ${record.name} does not end with its status "${status}"`] : [];
  });
}

/** README.md's "## Decisions" section (up to the next `## `), or "" when it has none. */
export function decisionsSection(readme: string): string {
  return readme.split(/^## /m).find((section) => section.startsWith("Decisions\n")) ?? "";
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return name.startsWith(".") ? [] : statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

function main(): void {
  const root = process.cwd();
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
    .split("\n")
    .filter((file) => file && existsSync(file));
  const top = new Set(files.filter((file) => file.includes("/")).map((file) => file.split("/")[0]));
  const fileSet = new Set(files);
  const dirs = new Set(files.flatMap((file) => file.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
  const names = new Set(files.map((file) => basename(file)));
  const shared = existsSync(resolve(root, "../shared"));
  // Comments name the specification's files by name too (`content-backend-api.md`, `DESIGN.md`).
  const sharedNames = new Set(shared ? filesUnder(resolve(root, "../shared")).map((file) => basename(file)) : []);
  const ignoredCache = new Map<string, boolean>();
  const ignored = (path: string): boolean => {
    if (!ignoredCache.has(path)) {
      // Both spellings: a pattern with a trailing slash (`/public/media/`) matches only a folder.
      const clean = path.replace(/\/$/, "");
      const result = [clean, `${clean}/`].some((spelling) => {
        try {
          execFileSync("git", ["check-ignore", "-q", "--no-index", spelling], { stdio: "ignore" });
          return true;
        } catch {
          return false; // exit status 1: not ignored
        }
      });
      ignoredCache.set(path, result);
    }
    return ignoredCache.get(path)!;
  };
  const exists = (path: string): boolean => {
    const clean = path.replace(/\/$/, "");
    return fileSet.has(clean) || dirs.has(clean) || (existsSync(clean) && !ignored(clean));
  };

  const problems: string[] = [];
  let checked = 0;
  /** The problem of one claim, or null when it holds (or is not checked: ignored, ../shared/ absent). */
  const problemOf = (claim: Claim, moduleSpelling = false): string | null => {
    if (claim.kind === "exact") {
      if (claim.path.startsWith("../")) {
        if (!claim.path.startsWith("../shared/") || !shared) return null;
        checked++;
        return existsSync(resolve(root, claim.path)) ? null : "no such file or folder";
      }
      if (ignored(claim.path)) return null;
      checked++;
      // A comment may name a module as an import does, without its extension (`src/client/error-reporter`).
      const spellings = moduleSpelling ? ["", ".ts", ".tsx", "/index.ts"] : [""];
      return spellings.some((ext) => exists(claim.path.replace(/\/$/, "") + ext)) ? null : "no such file or folder";
    }
    if (ignored(claim.suffix ?? "")) return null;
    checked++;
    if (claim.kind === "folder") {
      return dirs.has(claim.suffix) || [...dirs].some((dir) => dir.endsWith(`/${claim.suffix}`)) ? null : `no folder of the tree ends with ${claim.suffix}/`;
    }
    if (claim.kind === "suffix") {
      return files.some((file) => file.endsWith(`/${claim.suffix}`) || file === claim.suffix) ? null : `no file of the tree ends with ${claim.suffix}`;
    }
    const record = claim.name.endsWith(".md") && fileSet.has(`docs/decisions/${claim.name}`);
    return record || names.has(claim.name) ? null : "no record of docs/decisions/ and no file of the tree has this name";
  };

  const documents = ["README.md", ...markdownFiles("docs").map((file) => relative(root, file))];
  for (const document of documents) {
    const docDir = dirname(document);
    for (const mention of mentions(readFileSync(document, "utf8"))) {
      const claim = claimOf(mention, top, docDir);
      const problem = claim && problemOf(claim);
      if (problem) problems.push(`${document}:${mention.line}: ${mention.token}: ${problem}`);
    }
  }

  // Comments of the sources: full paths (the prose rule) and record names (`*.md`) only.
  const sources = files.filter(
    (file) =>
      (/^(src|ops|tests|bench|scripts|adapters|\.ci)\//.test(file) || !file.includes("/")) &&
      (/\.(ts|tsx|js|mjs|cjs|sh)$/.test(file) || ["Dockerfile", "Makefile", ".ci/run"].includes(file)),
  );
  const pendingSeen = new Set<string>();
  const pending: string[] = [];
  for (const source of sources) {
    for (const mention of commentMentions(readFileSync(source, "utf8"))) {
      const token = cleanToken(mention.token);
      const claim: Claim | null =
        claimOf(mention, top, ".") ?? (token && /^[\w.-]+\.md$/.test(token) && !OUTPUTS.has(token) ? { kind: "name", name: token } : null);
      if (claim?.kind === "name" && (sharedNames.has(claim.name) || (!shared && !names.has(claim.name)))) continue;
      const problem = claim && problemOf(claim, true);
      if (!problem) continue;
      const key = `${source}: ${token}`;
      if (PENDING_COMMENTS.has(key)) {
        pendingSeen.add(key);
        pending.push(`${source}:${mention.line}: ${mention.token}: ${problem}`);
      } else problems.push(`${source}:${mention.line}: ${mention.token}: ${problem}`);
    }
  }
  for (const key of PENDING_COMMENTS) if (!pendingSeen.has(key)) problems.push(`PENDING_COMMENTS lists "${key}", which no longer fails: remove it`);
  for (const line of pending) console.log(`pending (the lead's move, issue 28): ${line}`);

  const recordNames = readdirSync("docs/decisions").filter((name) => name.endsWith(".md") && name !== "README.md").sort();
  const records = recordNames.map((name) => ({ name, text: readFileSync(join("docs/decisions", name), "utf8") }));
  problems.push(...recordProblems(records));
  for (const name of unlisted(decisionsSection(readFileSync("README.md", "utf8")), recordNames)) {
    problems.push(`README.md: the "Decisions" section does not name docs/decisions/${name}`);
  }
  const index = existsSync("docs/decisions/README.md") ? readFileSync("docs/decisions/README.md", "utf8") : "";
  if (!index) problems.push("docs/decisions/README.md: missing (the records' format and index)");
  else problems.push(...indexProblems(index, records));

  for (const problem of problems) console.log(problem);
  console.log(
    `docs: ${problems.length} problems, ${pending.length} pending (${checked} paths named in ${documents.length} documents ` +
      `and the comments of ${sources.length} sources, ${records.length} decision records)`,
  );
  process.exit(problems.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
