/**
 * The operator's commands, against a running instance's internal port (src/server/operator/metrics-server.ts):
 *
 *   npm run ops -- practices            each practice: state at the backend, preview host, cached pages,
 *                                       last render, last backend error
 *   npm run ops -- cache                the page store, renders, render workers, shared store
 *   npm run ops -- purge <code>         every cached page and payload of a practice
 *   npm run ops -- purge --tag <tag>    one cache tag (the backend's names: site:<code>, site:<code>:page:<slug>…)
 *
 * Which instance: OPS_URL (e.g. http://10.0.0.5:9464), else http://127.0.0.1:$METRICS_PORT (default 9464).
 * With several instances, a purge is confirmed on every one (as the webhook is) or answers 503.
 */
const base = (process.env.OPS_URL ?? `http://127.0.0.1:${process.env.METRICS_PORT || 9464}`).replace(/\/+$/, "");

interface PracticeRow {
  code: string;
  state: string;
  preview: string | null;
  cachedPages: number;
  lastRender: string | null;
  lastBackendError: { outcome: string; resource: string; at: string } | null;
}

function usage(message?: string): never {
  if (message) console.error(message);
  console.error("usage: npm run ops -- practices | cache | purge <code> | purge --tag <tag>");
  process.exit(2);
}

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    console.error(`cannot reach ${base} (${(error as Error).cause ?? (error as Error).message}): is the server running, with METRICS_PORT / OPS_URL naming its internal port?`);
    process.exit(1);
  }
  return { status: response.status, body: await response.json() };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (command === "practices") {
    const { body } = await call("/ops/practices");
    const rows = (body as PracticeRow[]).map((p) => [
      p.code,
      p.state,
      p.preview ?? "-",
      String(p.cachedPages),
      p.lastRender ?? "-",
      p.lastBackendError ? `${p.lastBackendError.outcome} (${p.lastBackendError.resource}) at ${p.lastBackendError.at}` : "-",
    ]);
    console.log(table([["PRACTICE", "STATE", "PREVIEW HOST", "CACHED PAGES", "LAST RENDER", "LAST BACKEND ERROR"], ...rows]));
    return;
  }
  if (command === "cache") {
    const { body } = await call("/ops/cache");
    console.log(JSON.stringify(body, null, 2));
    return;
  }
  if (command === "purge") {
    const query = args[0] === "--tag" ? (args[1] ? `tag=${encodeURIComponent(args[1])}` : usage("purge --tag needs a tag")) : args[0] ? `practice=${encodeURIComponent(args[0])}` : usage("purge needs a practice code");
    const { status, body } = await call(`/ops/purge?${query}`, { method: "POST" });
    console.log(JSON.stringify(body));
    if (status !== 200) process.exit(1);
    return;
  }
  usage(command ? `unknown command "${command}"` : undefined);
}

void main();
