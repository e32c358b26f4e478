/**
 * No product timeout or limit is set in a test below its default (src/server/env.ts) unless the test says
 * why: a timeout set tight in a test is a sleep by another name (issue 25: a relay timed out at 400 ms on a
 * busy machine, and "relays a 500" answered 502). A test about the timeout or limit itself may set a small
 * value: it is listed below with its reason, and the list may hold nothing that no longer occurs.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as envModule from "./env";
import { parseEnv } from "./env";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The tests' files: integration and browser tests and their support, unit tests, the benches tests run. */
function testFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }).map((f) => join(dir, f)).filter((f) => f.endsWith(".ts"));
  return [
    ...walk("tests"),
    ...walk("bench"),
    ...walk("src").filter((f) => f.endsWith(".unit.ts")),
    ...walk("ops").filter((f) => /\.(unit|test)\.ts$/.test(f)),
  ].filter((f) => f !== relative(ROOT, fileURLToPath(import.meta.url)));
}

/** The product's timeouts and limits, with their defaults: every numeric variable of the schema but ports. */
export function timeoutDefaults(): Map<string, number> {
  const defaults = parseEnv({ BACKEND_API_URL: "http://backend.invalid", REVALIDATION_SECRET: "x".repeat(16), ENVIRONMENT: "dev" });
  return new Map(
    Object.entries(defaults).filter((e): e is [string, number] => typeof e[1] === "number" && /_MS$|_S$|TTL|TIMEOUT|LIMIT|MAX/.test(e[0])),
  );
}

export interface Setting {
  file: string;
  line: number;
  name: string;
  /** The value as written: a number when it is a literal, else the expression. */
  value: number | string;
}

/** Every place a file sets one of the variables (`NAME: "400"`, `NAME: String(x)`, `NAME=400`). */
export function settingsIn(file: string, text: string, names: Iterable<string>): Setting[] {
  const found: Setting[] = [];
  for (const name of names) {
    // A literal, or an expression (String(x), a constant) ending where an object entry ends; prose in a
    // comment ("NAME: the budget was reached") is neither.
    const re = new RegExp(`\\b${name}\\b["']?\\s*[:=]\\s*(?:["'\`](\\d+)["'\`]|(\\d+)\\b|([A-Za-z_$][\\w$.]*(?:\\([^)]*\\))?)\\s*(?=[,}\\n]))`, "g");
    for (const m of text.matchAll(re)) {
      const literal = m[1] ?? m[2];
      found.push({ file, line: text.slice(0, m.index).split("\n").length, name, value: literal !== undefined ? Number(literal) : m[3].trim() });
    }
  }
  return found;
}

/** Settings below the default (or not a literal, so not known to be at least the default); env.ts's own exported
 * constants (`BACKEND_TIMEOUT_DEFAULT_MS`) are read as their values. */
export function tightened(settings: Setting[], defaults: Map<string, number>, constants: Record<string, unknown> = envModule): Setting[] {
  return settings.filter((s) => {
    const value = typeof s.value === "number" ? s.value : constants[s.value];
    return typeof value !== "number" || value < defaults.get(s.name)!;
  });
}

/** The justified exceptions: `file` and `name` ("*": any) with the reason the test needs the smaller value. */
const ALLOWED: { file: string; name: string; why: string }[] = [
  {
    file: "src/server/env.unit.ts",
    name: "*",
    why: "tests the parser itself: the values are its input, no server runs with them",
  },
  {
    file: "tests/cache.test.ts",
    name: "BACKEND_REVALIDATE_TTL",
    why: "the test is about the TTL passing (STALE once, then fresh): 1 s, and it polls for each step",
  },
  {
    file: "tests/cache.test.ts",
    name: "PAGE_CACHE_MAX_MB",
    why: "the test is about the byte budget evicting: 1 MB fills with a few hundred pages",
  },
  {
    file: "tests/contact.test.ts",
    name: "CONTACT_RATE_LIMIT",
    why: "the tests are about the limit refusing (429): a few submissions reach it; a limit is no timeout",
  },
  {
    file: "tests/migrate-accuracy.test.ts",
    name: "NOT_FOUND_FLUSH_MS",
    why: "a flush period, no deadline: a busy machine flushes later and the test polls (until) for the counts",
  },
  {
    file: "bench/run.ts",
    name: "PAGE_CACHE_MAX_MB",
    why: "bench (e) states the page store's budget it measures RSS with: PAGE_BUDGET_MB, env.ts's default (128), not below it",
  },
  {
    file: "tests/main-thread.test.ts",
    name: "NOT_FOUND_FLUSH_MS",
    why: "a flush period, no deadline: the test polls (until) for the listed practice's counts to be written",
  },
];

describe("product timeouts and limits in the tests", () => {
  const defaults = timeoutDefaults();

  it("reads the defaults from the schema", () => {
    expect(defaults.get("BACKEND_TIMEOUT_MS")).toBe(4000);
    expect([...defaults.keys()]).toEqual(
      expect.arrayContaining(["BACKEND_TIMEOUT_MS", "BACKEND_REVALIDATE_TTL", "NOT_FOUND_FLUSH_MS", "CONTACT_RATE_LIMIT", "PAGE_CACHE_MAX_MB"]),
    );
    expect(defaults.has("PORT")).toBe(false);
  });

  it("finds a tightened timeout however it is written", () => {
    const text = [
      'env: { BACKEND_TIMEOUT_MS: "400" }',
      "env: { NOT_FOUND_FLUSH_MS: String(FLUSH) }",
      "BACKEND_TIMEOUT_MS=9000 node x",
      "// evicted within PAGE_CACHE_MAX_MB: the budget was reached",
      "renderTimeoutMs({ BACKEND_TIMEOUT_MS: BACKEND_TIMEOUT_DEFAULT_MS })",
      "renderTimeoutMs({ BACKEND_TIMEOUT_MS: SHORT_TIMEOUT })",
      "",
    ].join("\n");
    const found = settingsIn("x.test.ts", text, defaults.keys());
    // env.ts's own default constant is the default; any other name is not known to be at least it.
    expect(tightened(found, defaults)).toEqual([
      { file: "x.test.ts", line: 1, name: "BACKEND_TIMEOUT_MS", value: 400 },
      { file: "x.test.ts", line: 6, name: "BACKEND_TIMEOUT_MS", value: "SHORT_TIMEOUT" },
      { file: "x.test.ts", line: 2, name: "NOT_FOUND_FLUSH_MS", value: "String(FLUSH)" },
    ]);
  });

  it("no test sets one below its default but the justified exceptions, and every exception still occurs", () => {
    const found = testFiles().flatMap((file) => settingsIn(file, readFileSync(join(ROOT, file), "utf8"), defaults.keys()));
    const low = tightened(found, defaults);
    const isAllowed = (s: Setting) => ALLOWED.some((a) => a.file === s.file && (a.name === s.name || a.name === "*"));
    expect(
      low.filter((s) => !isAllowed(s)).map((s) => `${s.file}:${s.line} ${s.name}=${s.value} (default ${defaults.get(s.name)})`),
    ).toEqual([]);
    expect(ALLOWED.filter((a) => !low.some((s) => s.file === a.file && (a.name === s.name || a.name === "*")))).toEqual([]);
    for (const a of ALLOWED) expect(a.why.length, `${a.file} ${a.name}`).toBeGreaterThan(20);
  });
});
