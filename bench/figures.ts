/**
 * What every benchmark section shares: the printed figures, the demo backend's admin calls, and the
 * throughput measurement (a warm-up, then a measured run, with the servers' own CPU per request).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLoadInChild, type LoadResult } from "./load";
import { cpuSeconds, SECRET, startBareServer, type Proc } from "./processes";
import { benchCpuSeconds, cpuTimes, elsewhere, elsewhereText, medianElsewhere, wasBusy, type Elsewhere } from "./machine";
import { met, type Target } from "./targets";
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
  /** Why a figure with a target was not judged (it then counts as not met). */
  notJudged?: string;
  /** The machine's state while it was measured (printed in the section, not repeated in the summary). */
  machine?: string;
}
export const figures: Figure[] = [];
export const note = (f: Figure) => {
  figures.push(f);
  const verdict = f.met === undefined ? "" : f.notJudged ? "  [NOT JUDGED]" : f.met ? "  [target met]" : "  [target NOT met]";
  const why = f.notJudged ? `; not judged: ${f.notJudged}` : "";
  const machine = f.machine ? `; ${f.machine}` : "";
  console.log(`  ${f.label}: ${f.value}${why}${machine}${f.target ? `  (target ${f.target})` : ""}${verdict}`);
};

/** A figure judged against one of bench/targets.ts's targets: `value` in the target's unit, `text` as printed. */
export const judge = (label: string, target: Target, value: number, text: string) =>
  note({ label, value: text, target: target.text, met: met(target, value) });

/**
 * A throughput figure judged like `judge`, unless other work took a real share of the machine during its
 * rounds: then it is printed but not judged, and counts as a miss (the target was not shown). The machine's
 * state is printed beside it either way.
 */
export function judgeThroughput(label: string, target: Target, value: number, text: string, rounds: Elsewhere[]) {
  const machine = elsewhereText(rounds);
  if (!wasBusy(rounds)) return note({ label, value: text, machine, target: target.text, met: met(target, value) });
  note({
    label,
    value: text,
    machine,
    notJudged:
      `a busy machine, other work used ${medianElsewhere(rounds).toFixed(2)} cores in the median round ` +
      `(on its face: ${met(target, value) ? "met" : "NOT met"})`,
    target: target.text,
    met: false,
  });
}

/** A section that could not measure what it names: counted as a missed target (the run exits 1). */
export const failed = (label: string, why: string) => note({ label, value: why, target: "no error", met: false });

/**
 * Runs `measure` and says what the rest of the machine did meanwhile: /proc/stat's busy time minus the CPU of
 * the bench and every process it started (servers, load generators) over the same interval.
 */
export async function measuredElsewhere<T>(measure: () => Promise<T>): Promise<{ result: T; elsewhere: Elsewhere }> {
  const machine = cpuTimes();
  const ours = benchCpuSeconds();
  const started = performance.now();
  const result = await measure();
  const wall = (performance.now() - started) / 1000;
  return { result, elsewhere: elsewhere(machine, cpuTimes(), benchCpuSeconds() - ours, wall) };
}

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

export type Measured = LoadResult & { cpuUs: number; elsewhere: Elsewhere; warmupRequests: number };

/**
 * Requests per second on `port`, the CPU the processes `pids` spent per request (independent of the load
 * generator's cost), and the other work on the machine during the measured run.
 */
export async function throughput(port: number, pids: number[], target: { path: string; host: string }): Promise<Measured> {
  const opts = { port, targets: [target], connections: CONNECTIONS, headers: { "accept-encoding": "gzip, deflate, br" } };
  const warmup = await runLoadInChild({ ...opts, durationMs: WARMUP_MS });
  const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpuBefore = cpu();
  const { result, elsewhere } = await measuredElsewhere(() => runLoadInChild({ ...opts, durationMs: MEASURE_MS }));
  return { ...result, cpuUs: ((cpu() - cpuBefore) * 1e6) / result.requests, elsewhere, warmupRequests: warmup.requests };
}

/** The median of the rounds' ratios `of[k] / to[k]` (each pair measured in the same round, a minute apart at most). */
export function medianRatio(of: LoadResult[], to: LoadResult[]): number {
  const ratios = of.map((r, k) => r.rps / to[k].rps).sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)];
}

/** Asks for `page` until it is cached: the HIT's answer (brotli), or an error naming what came instead. */
/**
 * What a deployed server has answered before any HIT is measured: every other kind of answer (a bundle of the
 * build, robots and the sitemap, the practice's 404 page, a canonical 301, the media proxy's stream, the
 * probes, a refused contact post, a refused method, a plain 404), `times` each. A process that has only served
 * the one HIT measured is not the deployed one: Node's code is then optimised for that response alone. The bare
 * twins get the same requests (bench/run.ts): the traffic's variety (its header sets, its methods) reaches Node's
 * parser on both sides alike, and what differs is what the product does with it.
 */
export async function warmEveryAnswer(frontend: Pick<Proc, "url">, host: string, times = 20): Promise<void> {
  const bundle = readdirSync(join("dist", "build")).find((f) => f.endsWith(".js"));
  const br = { "accept-encoding": "gzip, deflate, br" };
  const shapes: { path: string; method?: string; headers?: Record<string, string>; body?: string }[] = [
    { path: `/build/${bundle}`, headers: br },
    { path: "/robots.txt", headers: br },
    { path: "/sitemap.xml", headers: br },
    { path: "/page-qui-n-existe-pas/", headers: br },
    { path: "/%70hilosophie/" },
    { path: "/api/media?path=/media/dupont/logo.svg", headers: br },
    { path: "/healthz" },
    { path: "/readyz" },
    { path: "/api/contact", method: "POST", headers: { "content-type": "text/plain" }, body: "x" },
    { path: "/", method: "OPTIONS" },
    { path: "/build/absent.js" },
  ];
  for (let i = 0; i < times; i++) for (const shape of shapes) await get(frontend.url, host, shape.path, shape);
}

export async function warmHit(frontend: Proc, page: { path: string; host: string }) {
  await get(frontend.url, page.host, page.path);
  const hit = await get(frontend.url, page.host, page.path, { headers: { "accept-encoding": "gzip, deflate, br" } });
  if (hit.xcache !== "HIT") throw new Error(`expected a HIT on :${frontend.port}, got ${hit.xcache}`);
  return hit;
}

/**
 * A bare node:http server answering `page`'s cached brotli bytes, with the headers `frontend` sends (bar
 * Date and the connection's): what the product's HIT is compared with. Checks that the page is a HIT first.
 */
export async function startBareTwin(frontend: Proc, page: { path: string; host: string }, workDir: string): Promise<{ bare: Proc; raw: Buffer }> {
  const hit = await warmHit(frontend, page);
  const headers: string[] = [];
  for (const [name, value] of Object.entries(hit.headers)) {
    if (["date", "connection", "keep-alive"].includes(name) || value === undefined) continue;
    headers.push(name, String(value));
  }
  const bodyFile = join(workDir, `page-${frontend.port}.br`);
  writeFileSync(bodyFile, hit.raw);
  return { bare: await startBareServer(bodyFile, headers), raw: hit.raw };
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
