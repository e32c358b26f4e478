/**
 * Build pre-pass entry (`npm run build` runs it after the server build): renders every page of every
 * active registered practice with the server's own render function. src/server/cache/prepass.ts says how.
 */
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { createRenderer } from "./server/render";
import { initPrepassEnv } from "./server/env";
import { getBackend } from "./server/backend";
import { loadRegistry } from "./server/tenancy";
import { runPrepass } from "./server/cache/prepass";
import { removePrepass } from "./server/cache/prepass-store";
import { targetRenderer } from "./server/cache/render-target";
import { mediaCacheRoots } from "./server/media-cache";

async function main(): Promise<void> {
  const init = initPrepassEnv();
  if ("problem" in init) {
    // A build without the build-time constants (a developer's plain `npm run build`) still succeeds.
    console.log(`activePracticeCodes: skipping every practice: ${init.problem}`);
    removePrepass(init.prepassDir);
    return;
  }
  const { env } = init;
  const renderRequest = createRenderer({ render, qwikCityPlan, checkOrigin: "lax-proto" });
  await runPrepass({
    env,
    practices: loadRegistry(env.TENANTS_FILE).practices,
    backend: getBackend(),
    render: targetRenderer(renderRequest),
    outDir: env.PREPASS_DIR,
    // MEDIA_CACHE_DIR when set (tests, benchmarks: the source tree is left alone), else public/media
    // (the vite dev server) and dist/media (shipped with the server): where mediaCachePath() looks.
    mediaDirs: mediaCacheRoots(env.MEDIA_CACHE_DIR),
  });
}

main().catch((error) => {
  console.error(`prepass failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});
