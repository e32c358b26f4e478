/**
 * Benchmark (k), "noisy neighbour" (issue 12): one practice's cache hits alone, then the same during a
 * storm another practice causes, side by side in one run:
 *
 *   - alone: hits on dupont's /contact/ (20 connections)
 *   - during a 404 storm: 4 more connections asking martin for unknown paths (each path once)
 *   - during a webhook storm: `site:` webhooks for martin, bernard and petit in a loop (~25/s), each
 *     naming their cached pages, which are re-rendered
 *   - during the cheap-request floods of issue 17, 4 connections on martin each: the social card of a real
 *     page title in whitespace spellings (`?title=%20%20Contact`…), Qwik call parameters (`/?qdata=N`),
 *     `OPTIONS /`, and raw backslash paths (`/zz9\..\contact\`); each once rendered on the main thread
 *     or stored under a key of its own before the fixes
 *   - during issue 26's floods, the same way: the card through `q-data.json`, 404s under `/api/`, invalid
 *     no-JS contact posts with the site's Origin, and invented preview hosts (20 codes, a new path each);
 *     each rendered on the main thread, or got past fair admission, before the fixes
 *
 * Targets (bench/targets.ts, 2 cores): hit throughput during each storm >= 50% of alone, hit p99 <= 3x alone.
 * The storm's own progress is printed beside it, and the other processes' CPU on the machine during each
 * measurement. The situations alternate over 3 rounds and the medians (by hit req/s) are reported. The
 * server runs as deployed (bench/processes.ts). Run alone with `npm run bench -- k`.
 */
import { runLoadInChild, type LoadResult } from "./load";
import { SECRET, startFrontendProcess, type Proc } from "./processes";
import { fmt, judgeThroughput, measuredElsewhere, median, note } from "./figures";
import type { Elsewhere } from "./machine";
import { TARGETS } from "./targets";
import { get } from "../tests/support/cache";

const HIT_CONNECTIONS = 20;
const STORM_CONNECTIONS = 4;
const WARMUP_MS = 1000;
const MEASURE_MS = 6000;
const WEBHOOK_INTERVAL_MS = 40;
const ROUNDS = 3;
const OTHERS = ["martin", "bernard", "petit"];
const host = (code: string) => `${code}.dev.localhost`;

export async function noisyNeighbour(backend: Proc, pathsOf: (code: string) => Promise<string[]>): Promise<void> {
  console.log("\n(k) noisy neighbour: dupont's cache hits alone, during a 404 storm, a webhook storm, and issue 17's cheap-request floods");
  const frontend = await startFrontendProcess(backend.url, {}, "frontend-k");
  /** The other processes' CPU during each measured run of the hits. */
  const machine: Elsewhere[] = [];
  try {
    const hit = { path: "/contact/", host: host("dupont") };
    await get(frontend.url, hit.host, hit.path);
    // The other practices' pages cached and recently asked for: a webhook re-renders them at once.
    const others = (await Promise.all(OTHERS.map(async (code) => (await pathsOf(code)).map((path) => ({ code, path }))))).flat();
    for (const page of others) await get(frontend.url, host(page.code), page.path);
    const hits = async () => {
      const opts = {
        port: frontend.port,
        targets: [hit],
        connections: HIT_CONNECTIONS,
        headers: { "accept-encoding": "gzip, deflate, br" },
      };
      await runLoadInChild({ ...opts, durationMs: WARMUP_MS });
      const { result, elsewhere } = await measuredElsewhere(() => runLoadInChild({ ...opts, durationMs: MEASURE_MS }));
      machine.push(elsewhere);
      return result;
    };

    const storm404 = async (round: number) => {
      const storm = runLoadInChild({
        port: frontend.port,
        // Every path asked once (a crawler on dead links): nothing for a per-path cache to catch.
        targets: Array.from({ length: 100_000 }, (_, i) => ({ path: `/lien-mort-${round}-${i}/`, host: host("martin") })),
        connections: STORM_CONNECTIONS,
        durationMs: WARMUP_MS + MEASURE_MS,
        // A crawler accepts compression like a browser does.
        headers: { "accept-encoding": "gzip, deflate, br" },
      });
      const during = await hits();
      return { during, storm: await storm };
    };
    const webhookStorm = async () => {
      let stop = false;
      let webhooks = 0;
      let named = 0;
      const loop = (async () => {
        const started = performance.now();
        for (let i = 0; !stop; i++) {
          const hook = await get(frontend.url, "127.0.0.1", "/webhooks/revalidate/", {
            method: "POST",
            headers: { "content-type": "application/json", "x-revalidate-secret": SECRET },
            body: JSON.stringify({ tags: [`site:${OTHERS[i % OTHERS.length]}`] }),
          });
          if (hook.status !== 200) throw new Error(`webhook: ${hook.status}`);
          webhooks++;
          named += (JSON.parse(hook.text) as { invalidated: number }).invalidated;
          await new Promise((r) => setTimeout(r, WEBHOOK_INTERVAL_MS));
        }
        return (performance.now() - started) / 1000;
      })();
      const during = await hits();
      stop = true;
      const seconds = await loop;
      // How far the re-renders got: the other practices' pages answered fresh (HIT) once the loop stopped.
      let fresh = 0;
      for (const page of others) if ((await get(frontend.url, host(page.code), page.path)).xcache === "HIT") fresh++;
      return { during, webhooksPerS: webhooks / seconds, namedPerS: named / seconds, fresh };
    };

    // The cheap-request floods (issue 17): each a shape that once cost a render per request.
    const title = await firstPageTitle(backend.url, "martin");
    const floods = [...cheapFloods(title, host("martin")), ...issue26Floods(host("martin"), frontend.port)];
    const flood = async (shape: Flood, round: number) => {
      const storm = runLoadInChild({
        port: frontend.port,
        targets: shape.targets(round),
        method: shape.method,
        connections: STORM_CONNECTIONS,
        durationMs: WARMUP_MS + MEASURE_MS,
        headers: { "accept-encoding": "gzip, deflate, br", ...shape.headers },
        body: shape.body,
      });
      const during = await hits();
      return { during, storm: await storm };
    };

    // Rounds alternate the situations (other work shares the cores); medians are reported.
    const alones: LoadResult[] = [];
    const with404: Awaited<ReturnType<typeof storm404>>[] = [];
    const withHooks: Awaited<ReturnType<typeof webhookStorm>>[] = [];
    const withFloods: Awaited<ReturnType<typeof flood>>[][] = floods.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      alones.push(await hits());
      with404.push(await storm404(round));
      withHooks.push(await webhookStorm());
      for (const [i, shape] of floods.entries()) withFloods[i].push(await flood(shape, round));
    }
    const alone = median(alones, (r) => r.rps);
    const { during: during404, storm } = median(with404, (r) => r.during.rps);
    const hooks = median(withHooks, (r) => r.during.rps);
    const duringWebhooks = hooks.during;

    const line = (r: LoadResult) =>
      `${fmt(r.rps)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms (${HIT_CONNECTIONS} connections)`;
    note({ label: "(k) hits alone", value: `${line(alone)} (rounds: ${alones.map((r) => fmt(r.rps)).join(", ")} req/s)` });
    const compare = (name: string, during: LoadResult, progress: string) => {
      const share = during.rps / alone.rps;
      const p99 = during.latencyMs.p99 / Math.max(alone.latencyMs.p99, 0.001);
      note({ label: `(k) hits during ${name}`, value: `${line(during)}; storm: ${progress}` });
      judgeThroughput(`(k) ${name}: hit throughput vs alone`, TARGETS.noisyShare, share, `${fmt(share * 100, 1)}%`, machine);
      judgeThroughput(`(k) ${name}: hit p99 vs alone`, TARGETS.noisyP99, p99, `${fmt(p99, 2)}x`, machine);
    };
    compare(
      "a 404 storm",
      during404,
      `${fmt(storm.rps)} unknown paths/s answered (${STORM_CONNECTIONS} connections; statuses ${JSON.stringify(storm.statuses)}, X-Cache ${JSON.stringify(storm.xcache)})`,
    );
    compare(
      "a webhook storm",
      duringWebhooks,
      `${fmt(hooks.webhooksPerS, 1)} webhooks/s naming ${fmt(hooks.namedPerS)} cached pages/s; ` +
        `${hooks.fresh}/${others.length} of those pages fresh (HIT) right after`,
    );
    for (const [i, shape] of floods.entries()) {
      const { during, storm: answered } = median(withFloods[i], (r) => r.during.rps);
      compare(
        shape.name,
        during,
        `${fmt(answered.rps)} req/s answered (${STORM_CONNECTIONS} connections; statuses ${JSON.stringify(answered.statuses)}, ` +
          `X-Cache ${JSON.stringify(answered.xcache)})`,
      );
    }
  } finally {
    await frontend.stop();
  }
}

interface Flood {
  name: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  targets: (round: number) => { path: string; host: string }[];
}

/**
 * Issue 26's floods: shapes that rendered on the main thread (the card through q-data.json, a 404 page
 * under /api/, the form page of an invalid no-JS contact post) or each got an admission queue of their own
 * (invented preview codes). Now each is a stored 404 page, a render in the pool behind admission (one queue
 * for every unlisted code), or a refusal (docs/decisions/0047-main-thread-renders-nothing.md).
 */
function issue26Floods(stormHost: string, port: number): Flood[] {
  const many = (n: number, target: (i: number) => { path: string; host: string }) => Array.from({ length: n }, (_, i) => target(i));
  return [
    { name: "an og q-data.json flood", targets: (round) => many(5000, (i) => ({ path: `/api/og/q-data.json?title=t${round}-${i}`, host: stormHost })) },
    { name: "a flood of 404s under /api/", targets: (round) => many(5000, (i) => ({ path: `/api/nope-${round}-${i}/`, host: stormHost })) },
    {
      name: "an invalid no-JS contact flood",
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${stormHost}:${port}` },
      body: "name=&email=pas-un-email&message=x&consent=on&elapsed_ms=5000",
      targets: () => many(1, () => ({ path: "/api/contact", host: `${stormHost}:${port}` })),
    },
    {
      name: "an invented-preview-host flood (20 codes)",
      targets: (round) => many(5000, (i) => ({ path: `/p-${round}-${i}/`, host: `rtq${i % 20}.dev.localhost` })),
    },
  ];
}

/** Issue 17's cheap requests, each as a flood on one practice's host (many spellings: no per-URL cache helps). */
function cheapFloods(title: string, stormHost: string): Flood[] {
  const many = (n: number, path: (i: number) => string) => Array.from({ length: n }, (_, i) => ({ path: path(i), host: stormHost }));
  const spaces = ["%20", "%09", "+", "%0A", "%C2%A0"];
  const escaped = encodeURIComponent(title);
  return [
    {
      name: "an og flood (a real title, whitespace spellings)",
      // Leading and trailing whitespace in every mix: the card draws the trimmed title.
      targets: () =>
        many(600, (i) => {
          const pad = spaces[i % spaces.length].repeat(1 + (i % 12));
          return `/api/og?title=${i % 2 ? pad + escaped : escaped + pad}`;
        }),
    },
    { name: "a ?qdata flood", targets: (round) => many(5000, (i) => `/?qdata=${round}-${i}`) },
    { name: "an OPTIONS / flood", method: "OPTIONS", targets: () => many(1, () => "/") },
    {
      name: "a backslash-path flood",
      targets: (round) => many(5000, (i) => (i % 2 ? `/zz${round}-${i}\\..\\contact\\` : `/api/x${i}\\..\\..\\contact\\`)),
    },
  ];
}

/** The title of one of the practice's pages other than home: what a card is legitimately asked for. */
async function firstPageTitle(backendUrl: string, code: string): Promise<string> {
  const response = await fetch(`${backendUrl}/api/v1/websites/sites/${code}/pages/`);
  const { pages } = (await response.json()) as { pages: { title: string; kind: string }[] };
  return pages.find((p) => p.kind !== "home")!.title;
}
