/**
 * Production server entry: parse the environment, build the app, listen. Nothing else lives here.
 */
import qwikCityPlan from "@qwik-city-plan";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import render from "./entry.ssr";
import { createServer } from "node:http";
import { createApp } from "./server/app";
import { cacheFront, createPageCache } from "./server/cache";
import { seedFromPrepass } from "./server/cache/prepass-store";
import { createRenderer } from "./server/render";
import { createRenderPool, renderWorkerCount, workerFile } from "./server/render/pooled";
import { getEnv } from "./server/env";
import { getHostRules } from "./server/tenancy";
import { initMonitoring, reportError } from "./server/monitoring";
import { loadRedirects } from "./server/redirects";
import { reportStartWarnings } from "./server/start-warnings";
import type { RenderPlatform } from "./server/render-context";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface QwikCityPlatform extends RenderPlatform {}
}

function start() {
  let env, hostRules, redirects;
  try {
    env = getEnv();
    hostRules = getHostRules();
    redirects = loadRedirects(env.MIGRATIONS_DIR);
  } catch (error) {
    console.error(`Refusing to start: ${(error as Error).message}`);
    process.exit(1);
  }
  void initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT);
  // One request's stray rejection must not take every practice offline: report it and keep serving.
  process.on("unhandledRejection", (reason) => reportError(reason ?? new Error("unhandled rejection (no reason)")));
  reportStartWarnings(env, redirects.warnings);
  const distDir = join(fileURLToPath(import.meta.url), "..", "..", "dist");
  const renderRequest = createRenderer({ render, qwikCityPlan, checkOrigin: "lax-proto" });
  // Cacheable renders (pages, robots, sitemap, the social card) run in worker threads (render/pooled.ts).
  const pool = renderWorkerCount(env) > 0 ? createRenderPool(env, workerFile(import.meta.url)) : undefined;
  const pageCache = createPageCache(env, renderRequest, pool);
  seedFromPrepass(pageCache, env);
  const app = createApp({ env, hostRules, renderRequest, distDir, redirects: redirects.table, pageCache });
  // Fresh cache hits are answered before Express (src/server/cache/http.ts says why).
  const server = createServer(cacheFront(pageCache, hostRules, app)).listen(env.PORT, () => {
    console.log(`frontend listening on http://localhost:${env.PORT} (ENVIRONMENT=${env.ENVIRONMENT})`);
  });
  const shutdown = () => server.close(() => void (pool?.close() ?? Promise.resolve()).then(() => process.exit(0)));
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

start();
