/**
 * Mozilla's HTTP Observatory grade of the product as deployed: the built server behind the generated
 * nginx with TLS (a self-signed certificate, trusted by the grader), graded with the Observatory's own
 * retriever, tests and grader (scripts/observatory.ts says what differs from its scan() and why).
 * A+ (score >= 100) on each kind of response a visitor gets: a page, the practice's 404 page, the social
 * card and a media file. The grades are printed, so `make test` shows them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { startFrontend, type Frontend } from "./support/frontend";
import { startNginx, type TestNginx } from "./support/nginx";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";
import { reapOnExit } from "./support/reaper";
import type { ObservatoryGrade } from "../scripts/observatory";

const HOST = "www.cabinet-dupont.fr";

let backend: DemoBackend;
let frontend: Frontend;
let nginx: TestNginx;

beforeAll(async () => {
  // Media URLs on an HTTPS origin, as every deployed backend returns them (the page's img-src names it;
  // an http: source would cost points). The grader loads no image.
  backend = await startBackend({ publicOrigin: "https://media.example.org" });
  // The CMS origin of frame-ancestors is HTTPS in every deployed environment (an http: source costs 20 points).
  frontend = await startFrontend({ backendUrl: backend.url, env: { BUILD_CMS_ORIGIN: "https://cms.example.org" } });
  nginx = await startNginx([`127.0.0.1:${frontend.port}`], { tls: true });
}, 30_000);

afterAll(async () => {
  nginx?.stop();
  await frontend?.stop();
  await backend?.close();
});

/** Runs the grader in a process of its own: Node reads NODE_EXTRA_CA_CERTS (the test certificate) at start. */
function grade(path: string): Promise<ObservatoryGrade> {
  const port = (url: string) => new URL(url).port;
  const args = ["--host", HOST, "--http-port", port(nginx.url), "--https-port", port(nginx.httpsUrl!), "--path", path];
  const child = reapOnExit(
    spawn(process.execPath, ["--import", "tsx", "scripts/observatory.ts", ...args], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(nginx.configDir, "tls.crt") },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`observatory exited with ${code}: ${err}`));
      else resolve(JSON.parse(out) as ObservatoryGrade);
    });
  });
}

/** The rules that cost points or failed, named, so a failure says which one to fix. */
function lostPoints(result: ObservatoryGrade): string[] {
  return Object.entries(result.tests)
    .filter(([, t]) => !t.pass || t.scoreModifier < 0)
    .map(([name, t]) => `${name}: ${t.result} (${t.scoreModifier})`);
}

async function firstPageTitle(): Promise<string> {
  const { pages } = await backendJson<{ pages: { title: string; kind: string }[] }>(backend, "/api/v1/websites/sites/dupont/pages/");
  return pages.find((p) => p.kind !== "home")!.title;
}

describe("HTTP Observatory grade behind nginx with TLS", () => {
  it.each([
    ["a page", async () => "/", 200],
    ["the practice's 404 page", async () => "/nulle-part/", 404],
    ["the social card", async () => `/api/og?title=${encodeURIComponent(await firstPageTitle())}`, 200],
    ["a media file", async () => `/api/media?path=${encodeURIComponent("/media/dupont/hero-480w.webp")}`, 200],
  ])(
    "%s: A+ (score >= 100)",
    async (kind, path, status) => {
      const result = await grade(await path());
      console.log(`observatory ${kind}: ${result.grade} ${result.score} (${result.statusCode})`);
      expect(result.statusCode).toBe(status);
      expect({ kind, grade: result.grade, score: result.score, lost: lostPoints(result) }).toEqual({
        kind,
        grade: "A+",
        score: expect.any(Number),
        lost: [],
      });
      expect(result.score).toBeGreaterThanOrEqual(100);
    },
    30_000,
  );
});
