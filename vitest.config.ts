/**
 * Two projects: `unit` (*.unit.ts beside the code, fast, no server) and `integration` (tests/, against
 * the built server on a real port, the demo backend and Chromium). `npm test` runs both.
 */
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    // One file at a time: integration files start servers and Chromium (make test runs unit files two at a time).
    fileParallelism: false,
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["src/**/*.unit.ts", "ops/**/*.unit.ts", "scripts/**/*.unit.ts", "bench/**/*.unit.ts"], environment: "node" },
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
