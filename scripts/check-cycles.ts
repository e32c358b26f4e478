/**
 * `npm run lint` runs this: no import cycle in src/, neither between files nor between the folders of
 * src/server/ (the tree reads as the request path, so a folder may only depend on folders further down it).
 * Type-only imports (`import type`, `export type`) count too: they create no order of evaluation, but a
 * folder that names another's types depends on it as much as one that calls it (a reader must know both).
 * Prints every cycle found and exits 1; exits 0 when there is none.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve("src");
const SERVER = join(ROOT, "server");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(unit|test)\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("~/") ? join(ROOT, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* try the next form */
    }
  }
  return null;
}

/** Imports and re-exports of a file, type-only ones included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) specs.push(match[3]);
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specs.push(match[1]);
  return specs.flatMap((spec) => resolveImport(file, spec) ?? []);
}

/** Strongly connected components with more than one node (or a self-loop): the cycles. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The folder of src/server/ a file belongs to (files directly in src/server/ are their own node). */
function folderOf(file: string): string | null {
  const rel = relative(SERVER, file);
  if (rel.startsWith("..")) return null;
  const parts = rel.split("/");
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

const files = new Map<string, Set<string>>();
const folders = new Map<string, Set<string>>();
for (const file of sourceFiles(ROOT)) {
  const imports = importsOf(file);
  files.set(file, new Set(imports));
  const from = folderOf(file);
  if (!from) continue;
  for (const target of imports) {
    const to = folderOf(target);
    if (!to || to === from) continue;
    if (!folders.has(from)) folders.set(from, new Set());
    folders.get(from)!.add(to);
  }
}

const problems = [
  ...cycles(files).map((c) => `file cycle: ${c.map((f) => relative(process.cwd(), f)).join(" <-> ")}`),
  ...cycles(folders).map((c) => `folder cycle in src/server/: ${c.join(" <-> ")}`),
];
for (const problem of problems) console.error(problem);
console.log(`import cycles: ${problems.length} (${files.size} files, ${folders.size} folders of src/server/)`);
process.exit(problems.length ? 1 : 0);
