/**
 * (l) The cost of the operator's view on the hit path: cache HIT throughput of three servers side by side,
 * in one run, the same page, the rounds alternating (whichever runs second would otherwise profit from a
 * machine that calmed down):
 *   off        METRICS_PORT=0, LOG_FORMAT=off: no metrics recorded, no access line (the baseline)
 *   metrics    the metrics on (the default), no access line                target: >= 97% of off
 *   + log      the metrics and the JSON access line (the production default), stdout to /dev/null as a
 *              container runtime's log pipe would take it (the reader's own cost is not the server's)
 * After the run, a sample of what /metrics says.
 */
import { fmt, host, medianOf, note, throughput, type Measured } from "./figures";

/** Rounds of the three servers in turn (the order alternating); the medians are reported. */
const ROUNDS = 5;
import { startFrontendProcess, type Proc } from "./processes";
import { freePort } from "../tests/support/frontend";
import { get } from "../tests/support/cache";

export async function operatorViewCost(backend: Proc): Promise<void> {
  console.log("\n(l) cache HIT throughput with metrics and access log on vs off, the dupont homepage (brotli)");
  const page = { path: "/", host: host("dupont") };
  const metricsPort = await freePort();
  const modes = [
    { label: "off (METRICS_PORT=0, LOG_FORMAT=off)", env: { METRICS_PORT: "0", LOG_FORMAT: "off" }, rounds: [] as Measured[] },
    { label: "metrics on", env: { METRICS_PORT: String(metricsPort), LOG_FORMAT: "off" }, rounds: [] as Measured[] },
    { label: "metrics on + JSON access log", env: { METRICS_PORT: String(await freePort()), LOG_FORMAT: "json" }, rounds: [] as Measured[] },
  ];
  const servers: Proc[] = [];
  try {
    for (const mode of modes) servers.push(await startFrontendProcess(backend.url, { ...mode.env, QUIET_STDOUT: "1" }));
    for (const server of servers) {
      await get(server.url, page.host, page.path);
      const hit = await get(server.url, page.host, page.path, { headers: { "accept-encoding": "gzip, deflate, br" } });
      if (hit.xcache !== "HIT") throw new Error(`(l) expected a HIT, got ${hit.xcache}`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [2, 1, 0] : [0, 1, 2];
      // Between the three, the one measured first changes too (after a quiet spell the first one profits).
      if (round % 3 === 2) order.push(order.shift()!);
      for (const i of order) {
        const m = await throughput(servers[i].port, [servers[i].child.pid!], page);
        if ((m.xcache.HIT ?? 0) !== m.requests) throw new Error(`(l) saw non-hits: ${JSON.stringify(m.xcache)}`);
        modes[i].rounds.push(m);
      }
    }
    const base = medianOf(modes[0].rounds);
    for (const [i, mode] of modes.entries()) {
      const m = medianOf(mode.rounds);
      const ratio = m.rps / base.rps;
      note({
        label: `(l) HIT, ${mode.label}`,
        value:
          `${fmt(m.rps)} req/s (rounds: ${mode.rounds.map((x) => fmt(x.rps)).join(", ")}), ${fmt(m.cpuUs, 1)} µs server CPU per request` +
          (i === 0 ? "" : `; ${fmt(ratio * 100, 1)}% of off in req/s, ${fmt((base.cpuUs / m.cpuUs) * 100, 1)}% in CPU per request`),
        ...(i === 1 ? { target: ">= 97% of off", met: ratio >= 0.97 } : {}),
      });
    }
    const sample = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const wanted = /^(frontend_http_requests_total|frontend_page_store_|frontend_render_workers_alive|frontend_backend_requests_total|frontend_render_duration_seconds_(sum|count)|process_resident_memory_bytes|nodejs_heap_size_used_bytes)/;
    console.log("  /metrics after the run (a sample):");
    for (const line of sample.split("\n").filter((l) => wanted.test(l))) console.log(`    ${line}`);
  } finally {
    for (const server of servers) await server.stop();
  }
}
