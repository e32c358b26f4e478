/**
 * Helpers of the page-cache tests: raw responses (bytes and headers, any encoding), the revalidation
 * routes, and a demo backend whose webhook reaches the frontend under test.
 */
import { request as httpRequest, Agent } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DEFAULT_SECRET, startFrontend, type Frontend } from "./frontend";
import { backendJson, startBackend, type DemoBackend } from "./demo-backend";

export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (possibly compressed). */
  raw: Buffer;
  /** The body decoded according to Content-Encoding. */
  text: string;
  xcache: string | undefined;
  etag: string | undefined;
}

/** A keep-alive agent with room for many concurrent requests (the coalescing test sends 200). */
export const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export function get(
  baseUrl: string,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResult> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? "GET",
        headers: { host, accept: "text/html", ...opts.headers },
        setHost: false,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const empty = raw.length === 0; // HEAD, 304
          const decoded = empty
            ? raw
            : encoding === "br"
              ? brotliDecompressSync(raw)
              : encoding === "gzip"
                ? gunzipSync(raw)
                : raw;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            raw,
            text: decoded.toString("utf8"),
            xcache: res.headers["x-cache"] as string | undefined,
            etag: res.headers.etag,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** POST JSON to a revalidation route (any Host). */
export async function revalidate(
  frontend: Frontend,
  route: "webhook" | "api",
  tags: unknown,
  opts: { secret?: string | null; host?: string } = {},
) {
  const secret = opts.secret === undefined ? DEFAULT_SECRET : opts.secret;
  const path = route === "webhook" ? "/webhooks/revalidate/" : "/api/revalidate";
  const body = route === "webhook" ? { tags } : { ...(secret === null ? {} : { secret }), tags };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (route === "webhook" && secret !== null) headers["x-revalidate-secret"] = secret;
  const res = await get(frontend.url, opts.host ?? "127.0.0.1", path, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: JSON.parse(res.text) as { revalidated?: boolean; tags?: string[]; invalidated?: number; error?: string },
  };
}

/** The demo backend plus the built frontend, the backend's webhook pointed at the frontend. */
export async function startPair(
  env: Record<string, string> = {},
): Promise<{ backend: DemoBackend; frontend: Frontend }> {
  const backend = await startBackend();
  const frontend = await startFrontend({ backendUrl: backend.url, env });
  await backendJson(backend, "/admin/settings", {
    method: "PUT",
    body: JSON.stringify({ frontendUrl: frontend.url, revalidationSecret: DEFAULT_SECRET }),
  });
  return { backend, frontend };
}

/** Backend requests per "GET /api/v1/websites/..." path since the last reset. */
export async function backendRequests(backend: DemoBackend): Promise<Record<string, number>> {
  return (await backendJson<{ requests: Record<string, number> }>(backend, "/admin/stats")).requests;
}

/** Qwik's per-render container id: two responses with the same one came from the same render. */
export function renderId(html: string): string | undefined {
  return /q:instance="([^"]+)"/.exec(html)?.[1];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
