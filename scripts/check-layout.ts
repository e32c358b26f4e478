/**
 * `npm run lint` runs this: the folder order of src/server/ as README.md's "Layout" lists it. Each folder (and
 * each file directly in src/server/) may import only what is listed above it; entries on one line
 * (`site/, contact/, og/`) are peers and import none of each other. Type-only imports count
 * (source-imports.ts says why). A subfolder is a node of its own, never folded into its parent: `cache/shared/`
 * listed below `cache/` may import `cache/`, and `cache/` may not import it; a subfolder missing from the
 * layout is reported, as is any other file or folder of src/server/ the layout does not list.
 *
 * The order is read from README.md only (its fenced block under "## Layout", the lines indented by exactly two
 * spaces below `src/server/`: the names before the first run of two spaces), so the README is the one place
 * it is written. Tests (`*.unit.ts`) are not checked. Prints every violation and exits 1; exits 0 when there
 * is none.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { SERVER, importsOf, sourceFiles } from "./source-imports";

/** The layout's entries, one array per line (a rank), top first. Throws when README has no layout block. */
export function parseLayout(readme: string): string[][] {
  const section = readme.split(/^## /m).find((s) => s.startsWith("Layout\n"));
  if (!section) throw new Error('README.md has no "## Layout" section');
  const block = section.match(/^```[^\n]*\n([\s\S]*?)^```/m)?.[1];
  if (!block) throw new Error('README.md\'s "Layout" section has no fenced block');
  const lines = block.split("\n");
  const start = lines.findIndex((line) => line.trim() === "src/server/");
  if (start < 0) throw new Error('README.md\'s layout block has no "src/server/" line');
  const ranks: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break; // the entries after src/server/ (src/entry.*, ops/, ...)
    if (line.startsWith("   ")) continue; // a description's continuation
    const names = line.slice(2).split(/\s{2,}/)[0];
    ranks.push(names.split(/,\s*/).map((name) => name.trim()).filter(Boolean));
  }
  if (!ranks.length) throw new Error("README.md's layout block lists nothing under src/server/");
  return ranks;
}

/**
 * The layout entry a path of src/server/ (relative, `cache/shared/codec.ts`) belongs to: the longest listed
 * folder that contains it, or the file itself when it is listed; null when the layout does not list it.
 * A file in an unlisted subfolder of a listed folder is null too (`site/seo/x.ts` with `site/` alone listed):
 * folding it into its parent would hide imports between the two.
 */
export function entryOf(path: string, entries: readonly string[]): string | null {
  if (entries.includes(path)) return path;
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  return dir && entries.includes(dir) ? dir : null;
}

export interface Violation {
  from: string;
  to: string;
  reason: string;
}

/** The imports (pairs of paths relative to src/server/) that break the order of ranks. */
export function orderViolations(imports: Iterable<[string, string]>, ranks: readonly string[][]): Violation[] {
  const rank = new Map<string, number>();
  ranks.forEach((names, index) => names.forEach((name) => rank.set(name, index)));
  const entries = [...rank.keys()];
  const found: Violation[] = [];
  for (const [from, to] of imports) {
    const a = entryOf(from, entries);
    const b = entryOf(to, entries);
    if (!a) {
      found.push({ from, to, reason: `${from} is in no entry of README's layout` });
      continue;
    }
    if (!b) {
      found.push({ from, to, reason: `${to} is in no entry of README's layout` });
      continue;
    }
    if (a === b) continue;
    if (rank.get(b)! >= rank.get(a)!) {
      const where = rank.get(b) === rank.get(a) ? "listed on the same line as" : "listed below";
      found.push({ from, to, reason: `${b} is ${where} ${a}` });
    }
  }
  return found;
}

/**
 * Imports that break the order today and are being moved by the lead (issue 28: the 404 watch leaves cache/,
 * http/ is rebuilt as the pipeline). Reported on every run, not counted as failures; an entry that no longer
 * occurs fails the run, so that this list is emptied as the moves land.
 */
export const PENDING_MOVES: ReadonlyArray<readonly [string, string]> = [
];

function main(): void {
  const ranks = parseLayout(readFileSync("README.md", "utf8"));
  const entries = ranks.flat();
  const imports: [string, string][] = [];
  const unlisted = new Set<string>();
  for (const file of sourceFiles(SERVER)) {
    const from = relative(SERVER, file);
    if (!entryOf(from, entries)) unlisted.add(from);
    for (const target of importsOf(file)) {
      const to = relative(SERVER, target);
      if (!to.startsWith("..")) imports.push([from, to]);
    }
  }
  const pending = new Set(PENDING_MOVES.map(([a, b]) => `${a} -> ${b}`));
  const seenPending = new Set<string>();
  const problems: string[] = [...unlisted].map((file) => `src/server/${file}: in no entry of README's layout`);
  const deferred: string[] = [];
  for (const v of orderViolations(imports, ranks)) {
    const edge = `${v.from} -> ${v.to}`;
    const line = `src/server/${v.from} imports src/server/${v.to}: ${v.reason}`;
    if (pending.has(edge)) {
      seenPending.add(edge);
      deferred.push(line);
    } else if (!v.reason.endsWith("in no entry of README's layout")) problems.push(line);
  }
  for (const edge of pending) {
    if (!seenPending.has(edge)) problems.push(`PENDING_MOVES lists ${edge}, which no longer breaks the order: remove it`);
  }
  for (const line of deferred) console.log(`pending (the lead's move, issue 28): ${line}`);
  for (const problem of problems) console.log(problem);
  console.log(
    `folder order (README.md, "Layout"): ${problems.length} violations, ${deferred.length} pending ` +
      `(${ranks.length} ranks, ${imports.length} imports of src/server/)`,
  );
  process.exit(problems.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
