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
import { startSharedCache } from "./server/cache/shared";
import { Lifecycle } from "./server/lifecycle";
import { createRenderer } from "./server/render";
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
  const pageCache = createPageCache(env, renderRequest);
  // Several instances (CACHE_URL): warm from the shared store instead of the pre-pass, whose pages carry
  // no tag versions and could predate an edit the other instances already acknowledged.
  const shared = startSharedCache(env, pageCache);
  if (!shared) seedFromPrepass(pageCache, env);
  const lifecycle = new Lifecycle();
  const invalidate = shared ? (tags: string[]) => shared.invalidate(tags) : undefined;
  const app = createApp({ env, hostRules, renderRequest, distDir, redirects: redirects.table, pageCache, invalidate, lifecycle });
  // Fresh cache hits are answered before Express (src/server/cache/http.ts says why).
  const server = createServer(cacheFront(pageCache, hostRules, app)).listen(env.PORT, () => {
    console.log(`frontend listening on http://localhost:${env.PORT} (ENVIRONMENT=${env.ENVIRONMENT})`);
  });
  // Ready once joined to the other instances; after 5 s without Redis it serves on its own all the same.
  void (shared ? shared.whenTrusted(5000) : Promise.resolve()).then(() => lifecycle.markReady());
  const shutdown = () => void lifecycle.shutdown(server, async () => shared?.stop());
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

start();
