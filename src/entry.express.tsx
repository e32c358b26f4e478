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
import { getEnv } from "./server/env";
import { getHostRules } from "./server/tenancy";
import { flushMonitoring, initMonitoring, reportError } from "./server/monitoring";
import { applyServerLimits, serverOptions } from "./server/http/server-limits";
import { installProcessGuard } from "./server/process-guard";
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
  const monitoring = initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT).catch((error) =>
    console.error(`error tracking unavailable: ${(error as Error).message}`),
  );
  reportStartWarnings(env, redirects.warnings);
  const distDir = join(fileURLToPath(import.meta.url), "..", "..", "dist");
  const renderRequest = createRenderer({ render, qwikCityPlan, checkOrigin: "lax-proto" });
  const pageCache = createPageCache(env, renderRequest);
  seedFromPrepass(pageCache, env);
  const app = createApp({ env, hostRules, renderRequest, distDir, redirects: redirects.table, pageCache });
  // Fresh cache hits are answered before Express (src/server/cache/http.ts says why).
  const server = createServer(serverOptions(), cacheFront(pageCache, hostRules, app, app.get("trust proxy fn")));
  applyServerLimits(server);
  // Uncaught exception: reported, then exit for the supervisor to restart; stray rejections: reported.
  installProcessGuard({
    report: reportError,
    flush: flushMonitoring,
    close: () => server.close(),
    exit: (code) => process.exit(code),
    stats: () => ({ storeKeys: pageCache.store.count, storeBytes: pageCache.store.bytes, heapUsed: process.memoryUsage().heapUsed }),
  });
  // Listen once error tracking is ready: the first requests' failures are reported (and scrubbed) too.
  void monitoring.then(() =>
    server.listen(env.PORT, () => {
      console.log(`frontend listening on http://localhost:${env.PORT} (ENVIRONMENT=${env.ENVIRONMENT})`);
    }),
  );
  const shutdown = () => server.close(() => process.exit(0));
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

start();
