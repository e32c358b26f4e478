/** The demo content backend, in-process on a free port, with helpers to read and steer it. */
import { startDemoBackend } from "../../ops/demo/backend/app";

export type DemoBackend = Awaited<ReturnType<typeof startDemoBackend>>;

export async function startBackend(opts: Parameters<typeof startDemoBackend>[0] = {}): Promise<DemoBackend> {
  return startDemoBackend({ port: 0, ...opts });
}

/** JSON from the demo backend (its API or admin API). */
export async function backendJson<T = unknown>(backend: { url: string }, path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${backend.url}${path}`, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${path} -> ${response.status}`);
  return (await response.json()) as T;
}

export const ACTIVE_DEMO_PRACTICES = ["dupont", "martin", "bernard", "petit"] as const;
export const INACTIVE_DEMO_PRACTICE = "leroy";

export async function practiceName(backend: { url: string }, code: string): Promise<string> {
  const config = await backendJson<{ name: string }>(backend, `/api/v1/websites/sites/${code}/config/`);
  return config.name;
}
