/**
 * Render worker entry: a worker thread of the render pool (src/server/render-pool/), bundled with the route
 * plan like the other server entries. It builds the worker's renders (src/server/services.ts) and serves the
 * pool's tasks (src/server/render-pool/worker.ts).
 */
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { createWorkerRenders } from "./server/services";
import { startRenderWorker } from "./server/render-pool/worker";

startRenderWorker((env, figures) => createWorkerRenders(env, { render, qwikCityPlan, checkOrigin: "lax-proto" }, figures));
