/**
 * The post-deploy smoke script against a real server: all 20 checks pass on a healthy deployment, and
 * a broken one fails with the failed checks printed and a non-zero exit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { runSmoke } from "../ops/deploy/smoke";
import { freePort, startFrontend, type Frontend } from "./support/frontend";
import { startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let frontend: Frontend;

beforeAll(async () => {
  backend = await startBackend();
  frontend = await startFrontend({ backendUrl: backend.url });
});

afterAll(async () => {
  await frontend?.stop();
  await backend?.close();
});

describe("ops/deploy/smoke.ts", () => {
  it("passes its 20 checks on a healthy deployment", async () => {
    const lines: string[] = [];
    const result = await runSmoke(frontend.url, ["dupont.dev.localhost", "martin.dev.localhost"], (l) => lines.push(l));
    expect(lines.filter((l) => l.startsWith("FAIL"))).toEqual([]);
    expect(result).toEqual({ passed: 20, failed: 0 });
  });

  it("names the backend when it is the cause of the failures", async () => {
    // A deployment whose backend is not there (its address taken from a backend stopped at once).
    const gone = await startBackend();
    await gone.close();
    const orphan = await startFrontend({ backendUrl: gone.url });
    try {
      const lines: string[] = [];
      const result = await runSmoke(orphan.url, ["dupont.dev.localhost", "martin.dev.localhost"], (l) => lines.push(l));
      expect(result.failed).toBeGreaterThan(5);
      // /readyz says why without naming the backend (docs/decisions/0050-readiness-probed.md); the log names it.
      expect(lines.join("\n")).toContain("cause: the instance is not ready: starting: backend not answering for the practice list: unreachable (ECONNREFUSED)");
    } finally {
      await orphan.stop();
    }
  });

  it("exits non-zero and prints the failed checks when the deployment is down", async () => {
    const port = await freePort();
    const run = spawnSync(process.execPath, ["--import", "tsx", "ops/deploy/smoke.ts"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, SMOKE_HOST: `http://127.0.0.1:${port}`, SMOKE_SITES: "dupont.dev.localhost,martin.dev.localhost" },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/FAIL  1 health endpoint answers: connect ECONNREFUSED/);
    expect(run.stdout).toContain("0 passed, 20 failed");
  });
});
