/**
 * Three projects: `unit` and `unit-isolated` (*.unit.ts beside the code, fast, no server) and `integration` (tests/,
 * against the built server on a real port, the demo backend and Chromium). `npm test` runs all three.
 */
import { configDefaults, defineConfig } from "vitest/config";
import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };

const UNIT = ["src/**/*.unit.ts", "ops/**/*.unit.ts", "scripts/**/*.unit.ts", "bench/**/*.unit.ts"];
/**
 * What a unit file does to state other files would see: mocks a module, stubs a global or the environment, fakes the
 * clock, spies on a shared object, listens on the process. Such a file is in `unit-isolated`, which runs each file in
 * a module graph of its own; every other unit file is in `unit`, which `make test` runs with `--no-isolate` (its files
 * share their worker's graph: the unit run fell from 78 s to 24 s here, where 150 files each importing their graph
 * anew spent more time loading than testing). Vitest 3 takes isolation for a whole run, not per project: hence two
 * projects and two runs. Decided by what each file contains, so a new file that mocks is isolated without anyone
 * listing it.
 */
const TOUCHES_SHARED_STATE = new RegExp(
  [
    /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers|setSystemTime|spyOn|resetModules)\b/,
    // The environment, the process and the globals, written or listened on.
    /process\.env\s*(?:\.\w+|\[[^\]]+\])?\s*(?:\?\?|\|\||&&)?=(?!=)/,
    /Object\.(?:assign|defineProperty)\((?:process\.env|globalThis)\b/,
    /delete (?:process\.env|globalThis)\b/,
    /process\.(?:on|once|addListener|prependListener|chdir)\(|process\.exitCode\s*=/,
    /\bglobalThis\b[^;\n]*?(?:\.\w+|\[[^\]]+\])\s*(?:\?\?|\|\||&&)?=(?!=)/,
    // Built-ins replaced: the console, the clock, Math.
    /\b(?:console|Date|Math|JSON)\.\w+\s*=(?!=)/,
    // Process-wide services a test may start: error tracking (Sentry) and the process's log routing.
    /\b(?:initMonitoring|startLog|routeConsole|routeStreams|installProcessGuard)\(|\bSentry\.init\b/,
  ]
    .map((r) => r.source)
    .join("|"),
);
/** Resolved from this file's folder, not the working directory (vitest may be run from elsewhere with --root). */
const ROOT = fileURLToPath(new URL(".", import.meta.url));
const isolatedUnitFiles = UNIT.flatMap((pattern) => globSync(pattern, { cwd: ROOT })).filter((file) =>
  TOUCHES_SHARED_STATE.test(readFileSync(join(ROOT, file), "utf8")),
);

export default defineConfig({
  resolve: { alias },
  test: {
    // One file at a time: integration files start servers and Chromium (make test runs unit files two at a time).
    fileParallelism: false,
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: UNIT, exclude: [...configDefaults.exclude, ...isolatedUnitFiles], environment: "node" },
      },
      {
        resolve: { alias },
        test: { name: "unit-isolated", include: isolatedUnitFiles, environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts", "ops/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
