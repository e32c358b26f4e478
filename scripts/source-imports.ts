/**
 * The import graph of src/, shared by the lint scripts (check-cycles.ts: no cycle; check-layout.ts: the folder
 * order of README's "Layout"). Type-only imports (`import type`, `export type`) count: they create no order of
 * evaluation, but a folder that names another's types depends on it as much as one that calls it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const SRC = resolve("src");
export const SERVER = join(SRC, "server");

/** The source files under dir, tests (`*.unit.ts`, `*.test.ts`) left out: they may import across the order. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(unit|test)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The file a relative or `~/` specifier names; null for a package or a virtual module. */
export function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("~/") ? join(SRC, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
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

/** The specifiers a source text imports or re-exports, type-only ones and dynamic `import()` included. */
export function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) specs.push(match[3]);
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specs.push(match[1]);
  return specs;
}

/** The files of src/ a file imports. */
export function importsOf(file: string): string[] {
  return importSpecifiers(readFileSync(file, "utf8")).flatMap((spec) => resolveImport(file, spec) ?? []);
}
