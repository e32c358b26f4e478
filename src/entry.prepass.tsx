/**
 * Build pre-pass entry (`npm run build` runs it after the server build): renders every page of every
 * active registered practice with the server's own services and render function. src/server/prepass/prepass.ts
 * says how.
 */
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { initPrepassEnv } from "./server/env";
import { createServices } from "./server/services";
import { runPrepass } from "./server/prepass/prepass";
import { removePrepass } from "./server/prepass/store";
import { workerFile } from "./server/render-pool/config";

async function main(): Promise<void> {
  const init = initPrepassEnv();
  if ("problem" in init) {
    // A build without the build-time constants (a developer's plain `npm run build`) still succeeds.
    console.log(`activePracticeCodes: skipping every practice: ${init.problem}`);
    removePrepass(init.prepassDir);
    return;
  }
  const { env, workerEnv } = init;
  // The server's render pool (every core renders, at normal priority), its workers reading BUILD_API_URL too.
  const services = createServices(
    env,
    { render, qwikCityPlan, checkOrigin: "lax-proto" },
    { workerFile: workerFile(import.meta.url), pool: { normalPriority: true, heapCaps: false, workerEnv } },
  );
  const { renderer } = services;
  try {
    await runPrepass({
      env,
      practices: services.hostRules.registry.practices,
      backend: services.backend,
      render: renderer.renderListed,
      outDir: env.PREPASS_DIR,
      // MEDIA_CACHE_DIR when set (tests, benchmarks: the source tree is left alone), else public/media
      // (the vite dev server) and dist/media (shipped with the server): where mediaCachePath() looks.
      mediaDirs: services.mediaCacheRoots,
      concurrency: renderer.capacity,
      invalidateData: renderer.invalidateData,
    });
  } finally {
    await renderer.pool?.close();
  }
}

main().catch((error) => {
  console.error(`prepass failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});
