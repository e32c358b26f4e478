/**
 * What every benchmark section shares: the printed figures, the demo backend's admin calls, and the
 * throughput measurement (a warm-up, then a measured run, with the servers' own CPU per request).
 */
import { runLoadInChild, type LoadResult } from "./load";
import { cpuSeconds, SECRET, type Proc } from "./processes";
import { get } from "../tests/support/cache";

export const CONNECTIONS = 32;
const WARMUP_MS = 1000;
const MEASURE_MS = 4000;
/** Measurements compared side by side alternate this many times; the medians are reported. */
export const ROUNDS = 3;

export interface Figure {
  label: string;
  value: string;
  target?: string;
  met?: boolean;
}
export const figures: Figure[] = [];
export const note = (f: Figure) => {
  figures.push(f);
  const verdict = f.met === undefined ? "" : f.met ? "  [target met]" : "  [target NOT met]";
  console.log(`  ${f.label}: ${f.value}${f.target ? `  (target ${f.target})` : ""}${verdict}`);
};

export async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { "content-type": "application/json", ...init?.headers } });
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} -> ${res.status}`);
  return (await res.json()) as T;
}

export async function synthetic(backend: Proc, practices: number, pages: number): Promise<string[]> {
  const { codes } = await json<{ codes: string[] }>(`${backend.url}/admin/synthetic`, {
    method: "POST",
    body: JSON.stringify({ practices, pages }),
  });
  return codes;
}

export async function pathsOf(backend: Proc, code: string): Promise<string[]> {
  const { pages } = await json<{ pages: { path: string }[] }>(`${backend.url}/api/v1/websites/sites/${code}/pages/`);
  return pages.map((p) => p.path);
}

export const host = (code: string) => `${code}.dev.localhost`;
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export type Measured = LoadResult & { cpuUs: number };

/**
 * Requests per second on `port`, and the CPU the processes `pids` spent per request (independent of the
 * load generator's cost).
 */
export async function throughput(port: number, pids: number[], target: { path: string; host: string }): Promise<Measured> {
  const opts = { port, targets: [target], connections: CONNECTIONS, headers: { "accept-encoding": "gzip, deflate, br" } };
  await runLoadInChild({ ...opts, durationMs: WARMUP_MS });
  const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpuBefore = cpu();
  const result = await runLoadInChild({ ...opts, durationMs: MEASURE_MS });
  return { ...result, cpuUs: ((cpu() - cpuBefore) * 1e6) / result.requests };
}

/** The round with the median requests per second. */
export function medianOf(rounds: Measured[]): Measured {
  return median(rounds, (r) => r.rps);
}

/** The item with the median of `by` (the upper one of an even count). */
export function median<T>(items: T[], by: (item: T) => number): T {
  return [...items].sort((x, y) => by(x) - by(y))[Math.floor(items.length / 2)];
}

/**
 * 50 edits of dupont's tarifs page in the backend, each followed by the webhook (sent by the bench itself,
 * to time it from its first byte) to `hooked` and a read of the page from `reader`: milliseconds from the
 * webhook to the fresh page (sorted), and how many first reads had the edit.
 */
export async function webhookEdits(backend: Proc, hooked: Proc, reader: Proc): Promise<{ latencies: number[]; fresh: number }> {
  await json(`${backend.url}/admin/settings`, { method: "PUT", body: JSON.stringify({ frontendUrl: null }) });
  const latencies: number[] = [];
  let fresh = 0;
  for (let i = 0; i < 50; i++) {
    const warm = await get(reader.url, host("dupont"), "/tarifs/");
    if (warm.status !== 200) throw new Error(`tarifs: ${warm.status}`);
    const title = `Tarifs, édition ${i} ${Date.now()}`;
    await json(`${backend.url}/admin/sites/dupont/pages/tarifs`, { method: "PATCH", body: JSON.stringify({ title }) });
    const started = performance.now();
    const hook = await get(hooked.url, "127.0.0.1", "/webhooks/revalidate/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-revalidate-secret": SECRET },
      body: JSON.stringify({ tags: ["page:tarifs", "site:dupont:page:tarifs"] }),
    });
    if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${hook.text}`);
    const after = await get(reader.url, host("dupont"), "/tarifs/", { headers: { "accept-encoding": "br" } });
    latencies.push(performance.now() - started);
    if (after.text.includes(title)) fresh++;
  }
  return { latencies: latencies.sort((x, y) => x - y), fresh };
}

/** Median, worst and best of sorted latencies, as printed. */
export function latencySummary(latencies: number[]): { median: number; text: string } {
  const median = latencies[Math.floor(latencies.length / 2)];
  return { median, text: `${fmt(median, 1)} ms (worst ${fmt(latencies.at(-1)!, 1)} ms, best ${fmt(latencies[0], 1)} ms)` };
}
