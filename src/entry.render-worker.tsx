/**
 * Render worker entry: a worker thread of the render pool (src/server/render/pool.ts) that runs the real
 * Qwik City render, bundled with the route plan like the other server entries. src/server/render-worker.ts
 * says what it does.
 */
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { startRenderWorker } from "./server/render-worker";

startRenderWorker({ render, qwikCityPlan, checkOrigin: "lax-proto" });
