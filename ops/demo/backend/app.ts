/**
 * The demo content backend: the content-backend API v1 served from fixtures, plus media files and an
 * admin API for demos and tests. `createDemoBackend` builds the app without listening;
 * `startDemoBackend` listens (port 0 picks a free port) and reports the real address.
 */
import type { AddressInfo } from "node:net";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { adminRouter } from "./admin.js";
import { API_BASE, apiRouter } from "./api.js";
import { mediaHandler } from "./media.js";
import { DemoState } from "./state.js";
import { trafficMiddleware } from "./traffic.js";

export { API_BASE } from "./api.js";
export { DemoState } from "./state.js";

export interface DemoBackendOptions {
  /** Default 4000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Origin written into media URLs; default http://<host>:<port> (the real port once listening). */
  publicOrigin?: string;
  /** Frontend base URL for the revalidation webhook; when unset, no webhook is sent. */
  frontendUrl?: string;
  /** Sent as X-Revalidate-Secret; must equal the frontend's REVALIDATION_SECRET. */
  revalidationSecret?: string;
  /** Default 5000. */
  webhookTimeoutMs?: number;
}

export interface RunningDemoBackend {
  /** Origin of the server, e.g. http://127.0.0.1:4000. */
  url: string;
  /** `url` + /api/v1/websites: what the frontend's BACKEND_API_URL should be. */
  apiUrl: string;
  port: number;
  state: DemoState;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4000;
const DEFAULT_HOST = "127.0.0.1";

const trimSlash = (url: string): string => url.replace(/\/+$/, "");

/** The address clients should use: a wildcard listening address (in a container) is not one. */
const reachableHost = (host: string): string => (host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host);

export function createDemoBackend(options: DemoBackendOptions = {}): { app: Express; state: DemoState } {
  const port = options.port ?? DEFAULT_PORT;
  const host = options.host ?? DEFAULT_HOST;
  const state = new DemoState({
    publicOrigin: trimSlash(options.publicOrigin ?? `http://${reachableHost(host)}:${port}`),
    frontendUrl: options.frontendUrl ? trimSlash(options.frontendUrl) : null,
    revalidationSecret: options.revalidationSecret ?? null,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 5000,
  });

  const app = express();
  app.disable("x-powered-by");

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  app.use(API_BASE, trafficMiddleware(state), apiRouter(state));
  app.use("/media", trafficMiddleware(state), mediaHandler());
  app.use("/admin", adminRouter(state));
  app.use((_req, res) => {
    res.status(404).json({ detail: "Not found." });
  });

  // Express 5 forwards rejected promises here. Body-parser errors carry their own 4xx status.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) {
      const message = err instanceof Error ? err.message : "bad request";
      if (req.originalUrl.startsWith(API_BASE)) {
        res.status(status).json({ errors: { non_field_errors: [`Requête invalide : ${message}`] } });
      } else {
        res.status(status).json({ error: message });
      }
      return;
    }
    console.error("demo-backend: unexpected error", err);
    if (!res.headersSent) res.status(500).json({ detail: "Internal server error." });
    else res.end();
  });

  return { app, state };
}

function httpStatusOf(err: unknown): number | undefined {
  if (err !== null && typeof err === "object" && "status" in err && typeof err.status === "number") return err.status;
  return undefined;
}

export async function startDemoBackend(options: DemoBackendOptions = {}): Promise<RunningDemoBackend> {
  const host = options.host ?? DEFAULT_HOST;
  const { app, state } = createDemoBackend(options);
  const server = app.listen(options.port ?? DEFAULT_PORT, host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${reachableHost(host)}:${port}`;
  // With port 0 the default origin could only be computed now.
  if (!options.publicOrigin) state.settings.publicOrigin = url;

  return {
    url,
    apiUrl: `${url}${API_BASE}`,
    port,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections (the frontend's fetch pool) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
