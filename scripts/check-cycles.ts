/**
 * `npm run lint` runs this: no import cycle in src/, neither between files nor between the folders of
 * src/server/ (the tree reads as the request path, so a folder may only depend on folders further down it).
 * Type-only imports (`import type`, `export type`) count too: they create no order of evaluation, but a
 * folder that names another's types depends on it as much as one that calls it (a reader must know both).
 * A subfolder is a folder of its own, never folded into its parent: `cache/` importing `cache/shared/` while
 * `cache/shared/` imports `cache/` is a cycle (folded into one `cache/`, it was invisible).
 * Prints every cycle found and exits 1; exits 0 when there is none.
 */
import { relative } from "node:path";
import { SERVER, SRC, importsOf, sourceFiles } from "./source-imports";

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

/**
 * The folder of src/server/ a file belongs to, subfolders their own (`cache/shared/`); files directly in
 * src/server/ are their own node.
 */
function folderOf(file: string): string | null {
  const rel = relative(SERVER, file);
  if (rel.startsWith("..")) return null;
  const slash = rel.lastIndexOf("/");
  return slash === -1 ? rel : rel.slice(0, slash + 1);
}

const files = new Map<string, Set<string>>();
const folders = new Map<string, Set<string>>();
for (const file of sourceFiles(SRC)) {
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
