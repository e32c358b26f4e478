/**
 * Production server entry: parse the environment, build the services, start error tracking, build the
 * app, listen. Nothing else lives here.
 */
import qwikCityPlan from "@qwik-city-plan";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import render from "./entry.ssr";
import { getEnv, refusalLogFormat, type Env } from "./server/env";
import { createServices, type Services } from "./server/services";
import { workerFile } from "./server/render-pool/config";
import { createApp } from "./server/http/app";
import { seedFromPrepass } from "./server/prepass/store";
import { Lifecycle } from "./server/http/lifecycle";
import { loadImageLibrary } from "./server/media/resize";
import { flushMonitoring, initMonitoring, reportError, reportWarning } from "./server/monitoring";
import { PROBE_PENDING, watchBackendUntilUp } from "./server/backend/probe";
import { createFrontServer } from "./server/http/pipeline";
import { installProcessGuard } from "./server/monitoring/process-guard";
import { reportStartWarnings } from "./server/start-warnings";
import { startOperatorView } from "./server/operator/operator-view";
import { startLog, type LogFormat } from "./server/monitoring/log";
import type { RenderPlatform } from "./server/render/context";

/** One line saying why (a JSON line unless LOG_FORMAT says otherwise), then exit 1. */
async function refuseToStart(error: unknown, format?: LogFormat): Promise<never> {
  if (format) await startLog(format);
  console.error(`Refusing to start: ${(error as Error).message}`);
  process.exit(1);
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface QwikCityPlatform extends RenderPlatform {}
}

async function start() {
  let env: Env;
  try {
    env = getEnv();
  } catch (error) {
    return refuseToStart(error, refusalLogFormat());
  }
  // JSON lines from here on (LOG_FORMAT; monitoring/log.ts), before anything is built: a module that keeps
  // console.log, a library's warning and the start warnings all write JSON.
  await startLog(env.LOG_FORMAT);
  let services: Services;
  try {
    // Cacheable renders (pages, robots, sitemap, the social card) run in worker threads (render-pool/config.ts).
    services = createServices(env, { render, qwikCityPlan, checkOrigin: "lax-proto" }, { workerFile: workerFile(import.meta.url) });
  } catch (error) {
    return refuseToStart(error);
  }
  const { pageCache, shared } = services;
  // Error tracking first, so that the start warnings below reach it.
  await initMonitoring(env.SENTRY_DSN, env.ENVIRONMENT);
  reportStartWarnings(env, services.redirects.warnings);
  // The JSON log, the metrics and the operator's commands on the internal port (METRICS_PORT).
  const view = await startOperatorView(services);
  // Several instances (CACHE_URL): join the others; the pre-pass's pages carry no tag versions, so each is
  // served only once the shared store admitted it (docs/decisions/0060-prepass-with-shared-store.md).
  shared?.start();
  await seedFromPrepass(services.prepassPages, env, console.log, Boolean(shared));
  // Not ready until each of these has answered: the backend probe (a wrong BACKEND_API_URL must never look
  // ready to a deploy, not even before its first answer) and, with CACHE_URL, the join to the others.
  const lifecycle = new Lifecycle({
    backend: PROBE_PENDING,
    images: "loading the image library (sharp)",
    ...(shared ? { cluster: "joining the other instances (CACHE_URL)" } : {}),
  });
  const distDir = join(fileURLToPath(import.meta.url), "..", "..", "dist");
  // The request pipeline (src/server/http/pipeline.ts declares its stages in order), on the public port.
  const server = createFrontServer(createApp({ services, distDir, lifecycle, observe: view.observe }));
  // Uncaught exception: reported, then exit for the supervisor to restart; stray rejections: reported.
  installProcessGuard({
    report: reportError,
    flush: flushMonitoring,
    close: () => server.close(),
    exit: (code) => process.exit(code),
    stats: () => ({
      storeKeys: pageCache.store.count,
      storeBytes: pageCache.store.bytes,
      renders: pageCache.renders,
      rendering: pageCache.rendering,
      mainThreadRenders: services.metrics.mainThreadRenders,
      heapUsed: process.memoryUsage().heapUsed,
    }),
  });
  server.listen(env.PORT, () => {
    console.log(`frontend listening on http://localhost:${env.PORT} (ENVIRONMENT=${env.ENVIRONMENT})`);
  });
  // The image library, loaded after listening rather than at import (src/server/media/resize.ts says why): not
  // ready without it, as a broken install once failed the start.
  loadImageLibrary().then(
    () => lifecycle.waitFor("images", null),
    (error: unknown) => {
      reportError(new Error(`the image library (sharp) failed to load: ${String(error)}`));
      lifecycle.waitFor("images", "the image library (sharp) failed to load");
    },
  );
  // Joined to the other instances; after 5 s without Redis it serves on its own all the same.
  if (shared) void shared.whenTrusted(5000).then(() => lifecycle.waitFor("cluster", null));
  // The backend answering for our practices: until then /readyz is 503, saying why (without the URL).
  const backend = watchBackendUntilUp(
    { baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS },
    services.hostRules.registry.practices.map((p) => p.code),
    (outcome) => {
      if (outcome.ok) console.log(`backend probe: ${outcome.detail}`);
      else reportWarning(`backend probe: ${outcome.reason}; /readyz answers 503 until the probe succeeds`);
      lifecycle.waitFor("backend", outcome.ok ? null : outcome.status);
    },
  );
  // The render workers stay up until the process exits: requests in flight while draining still render.
  const shutdown = (signal: NodeJS.Signals) => {
    // One line when the drain starts (a second signal changes nothing), one when the process exits.
    if (lifecycle.state !== "draining") console.log(`${signal}: draining: /readyz answers 503, no new connection, requests in flight finish (8 s at most), then exit`);
    void lifecycle.shutdown(server, async () => {
      backend.stop();
      view.close();
      // The migration watch's counts since its last flush: with CACHE_URL once this instance has left the cluster
      // and before its connection closes (a slow Redis never delays the leaving), else into its file now.
      if (shared) await shared.stop(() => services.notFound.flush());
      else await services.notFound.flush();
    }, (code) => {
      console.log(`${signal}: exiting (drained, or the 8 s were up)`);
      process.exit(code);
    });
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

void start();
