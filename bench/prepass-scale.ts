/**
 * `npx tsx bench/prepass-scale.ts <practices> [pages]` (after `npm run build`): the build pre-pass over N of the
 * demo backend's synthetic practices (ops/demo/backend/fixtures/synthetic.ts), as `npm run build` runs it
 * (render pool, one worker per CPU), then a server started on its output. Prints the pre-pass's wall time, CPU
 * and peak RSS (GNU time), the bytes it wrote, and the server's start: time to /healthz and RSS once seeded.
 * Issue 30's cold start; runs in the current directory's build (so an older build can be measured the same way).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { synthetic } from "./figures";
import { benchPrepassEnv, dirBytes, rssMiB, runPrepassProcess, startBackendProcess, startFrontendProcess } from "./processes";

const practices = Number(process.argv[2] ?? 300);
const pages = Number(process.argv[3] ?? 25);
const WORK = resolve("tmp/bench/prepass-scale");

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const backend = await startBackendProcess();
  try {
    const codes = await synthetic(backend, practices, pages);
    const tenants = join(WORK, "practices.json");
    writeFileSync(tenants, JSON.stringify(codes.map((code) => ({ code, domains: [] }))));
    const env = benchPrepassEnv(backend, WORK, { TENANTS_FILE: tenants });
    const run = await runPrepassProcess(env);
    const summary = /prepass: (\d+) pages of (\d+) practices/.exec(run.output);
    if (run.code !== 0 || !summary) throw new Error(`pre-pass failed:\n${run.output.slice(-3000)}`);
    console.log(
      `pre-pass: ${summary[1]} pages of ${summary[2]} practices in ${run.seconds.toFixed(1)} s, CPU ${run.cpu ?? "?"}, ` +
        `peak RSS ${run.peakRssMiB?.toFixed(0) ?? "?"} MiB, ${(dirBytes(env.PREPASS_DIR) / 1024 / 1024).toFixed(1)} MiB written`,
    );
    const started = performance.now();
    const frontend = await startFrontendProcess(backend.url, { ENVIRONMENT: "dev", PREVIEW_DOMAIN: "localhost", TENANTS_FILE: tenants, PREPASS_DIR: env.PREPASS_DIR, MEDIA_CACHE_DIR: env.MEDIA_CACHE_DIR }, "prepass-scale");
    try {
      const seconds = (performance.now() - started) / 1000;
      const seeded = /page cache: seeded (\d+) pages/.exec(frontend.output())?.[1] ?? "0";
      console.log(`server: up in ${seconds.toFixed(1)} s, ${seeded} pages seeded, RSS ${rssMiB(frontend.child.pid!).toFixed(0)} MiB`);
    } finally {
      await frontend.stop();
    }
  } finally {
    await backend.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
