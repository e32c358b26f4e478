/**
 * Build pre-pass entry (`npm run build` runs it after the server build): renders every page of every
 * active registered practice with the server's own render function. src/server/cache/prepass.ts says how.
 */
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { createRenderer } from "./server/render";
import { initPrepassEnv, prepassSource } from "./server/env";
import { getBackend } from "./server/backend";
import { loadRegistry } from "./server/tenancy";
import { runPrepass } from "./server/cache/prepass";
import { removePrepass } from "./server/cache/prepass-store";
import { targetRenderer } from "./server/cache/render-target";
import { mediaCacheRoots } from "./server/media-cache";
import { createRenderPool, pooledRenderTarget, renderWorkerCount, workerFile } from "./server/render/pooled";

async function main(): Promise<void> {
  const init = initPrepassEnv();
  if ("problem" in init) {
    // A build without the build-time constants (a developer's plain `npm run build`) still succeeds.
    console.log(`activePracticeCodes: skipping every practice: ${init.problem}`);
    removePrepass(init.prepassDir);
    return;
  }
  const { env } = init;
  // The same render pool as the server (every core renders), its workers reading BUILD_API_URL too.
  const pool =
    renderWorkerCount(env) > 0
      ? createRenderPool(env, workerFile(import.meta.url), { workerEnv: prepassSource(process.env) })
      : undefined;
  try {
    await runPrepass({
      env,
      practices: loadRegistry(env.TENANTS_FILE).practices,
      backend: getBackend(),
      render: pool
        ? pooledRenderTarget(pool)
        : targetRenderer(createRenderer({ render, qwikCityPlan, checkOrigin: "lax-proto" })),
      outDir: env.PREPASS_DIR,
      // MEDIA_CACHE_DIR when set (tests, benchmarks: the source tree is left alone), else public/media
      // (the vite dev server) and dist/media (shipped with the server): where mediaCachePath() looks.
      mediaDirs: mediaCacheRoots(env.MEDIA_CACHE_DIR),
      concurrency: pool?.capacity,
    });
  } finally {
    await pool?.close();
  }
}

main().catch((error) => {
  console.error(`prepass failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});
