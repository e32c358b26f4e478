/**
 * The migration gate (npm run migrate -- gate) for real: Lighthouse mobile in Debian's Chromium on the
 * built product, under the practice's domain through --connect. One page kind per run (the command
 * covers every kind; Lighthouse is slow). Scores move with the machine's load, so the passing run is
 * checked for consistency (the exit status follows the printed scores); the failing run is certain (a
 * noindexed deployment cannot score above 95 in SEO). Both run Lighthouse once (`--runs 1`: three runs cost
 * 30 s more of `make test`); the gate's default of three runs and their median are unit-tested
 * (ops/migrate/gate.unit.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { startFrontend, type Frontend } from "./support/frontend";
import { migrate } from "./support/migrate";
import { THRESHOLDS } from "../ops/migrate/gate";

const SITE = "http://www.cabinet-dupont.fr";
let backend: DemoBackend;
let prod: Frontend;
let staging: Frontend;

beforeAll(async () => {
  backend = await startBackend();
  [prod, staging] = await Promise.all([
    startFrontend({ backendUrl: backend.url, env: { ENVIRONMENT: "prod" } }),
    startFrontend({ backendUrl: backend.url, env: { ENVIRONMENT: "staging" } }),
  ]);
});

afterAll(async () => {
  await Promise.all([prod?.stop(), staging?.stop()]);
  await backend?.close();
});

/** The gate's table row of one page: result and the four scores. */
function row(out: string, path: string) {
  const match = new RegExp(`^(ok|FAIL)\\s+${path.replace(/\//g, "\\/")}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)`, "m").exec(out);
  expect(match, out).not.toBeNull();
  const [performance, accessibility, , seo] = match!.slice(2).map(Number);
  return { result: match![1], performance, accessibility, seo };
}

// The two runs at once (each waits on its own Chromium most of the time): the scores they assert do not
// depend on the machine's load, and the passing run's verdict is checked against its own printed scores.
describe.concurrent("gate", () => {
  it("scores the contact page of the production build and decides by the thresholds", async () => {
    const run = await migrate(["gate", "dupont", SITE, "--connect", `127.0.0.1:${prod.port}`, "--kinds", "contact", "--runs", "1"], {
      BACKEND_API_URL: `${backend.url}/api/v1/websites`,
    });
    const scores = row(run.out, "/contact/");
    const passes = scores.performance > THRESHOLDS.performance! && scores.accessibility > THRESHOLDS.accessibility! && scores.seo > THRESHOLDS.seo!;
    expect(run.out).toContain(`${SITE}/contact/`);
    expect(run.out).toContain("the median of 1 run per page");
    expect(run.out.match(/^lighthouse: /gm)).toHaveLength(1);
    expect(scores.result).toBe(passes ? "ok" : "FAIL");
    expect(run.code, run.out).toBe(passes ? 0 : 1);
    // The product's own figures: accessibility and SEO do not depend on the machine's load.
    expect(scores.accessibility).toBeGreaterThan(95);
    expect(scores.seo).toBeGreaterThan(95);
  }, 120_000);

  it("fails a deployment that is not indexable, naming the category", async () => {
    const run = await migrate(["gate", "dupont", SITE, "--connect", `127.0.0.1:${staging.port}`, "--kinds", "home", "--runs", "1", "--backend", `${backend.url}/api/v1/websites`]);
    expect(run.code, run.out).toBe(1);
    const scores = row(run.out, "/");
    expect(scores.result).toBe("FAIL");
    expect(scores.seo).toBeLessThanOrEqual(95);
    expect(run.out).toMatch(/seo \d+ \(needs above 95\)/);
    expect(run.out).toContain("is-crawlable");
    expect(run.out).toContain("gate: 0 of 1 pages pass");
    expect(run.out).toContain("median of 1 run per page");
  }, 180_000);
});
