/**
 * `make demo-twice`: `make demo` twice in a row, as someone trying the product would, and how long each
 * takes from the command to the first practice's homepage answering 200 (and /readyz 200), that first answer a
 * cache HIT (the pre-pass rendered the URL the demo prints), and no unexpected warning printed. The second
 * start must be under 15 s (the build is reused, ops/demo/demo-build.sh). Slow (the first run may build for
 * minutes), so not part of `make test`.
 *
 * Ports: PORT, DEMO_BACKEND_PORT and METRICS_PORT from the environment, else 3000, 4000 and 9464 as
 * `make demo` uses. Each run is stopped with SIGINT to its process group (what Ctrl-C does), and the
 * script checks that nothing it started still listens afterwards.
 */
import { spawn } from "node:child_process";
import { get } from "node:http";
import { pathToFileURL } from "node:url";

const PORT = process.env.PORT ?? "3000";
const BACKEND = process.env.DEMO_BACKEND_PORT ?? "4000";
const METRICS = process.env.METRICS_PORT ?? "9464";
const LIMIT_S = 15;

/**
 * Warnings the demo prints on purpose, so not start-up noise: the demo backend serves a block of a type
 * outside the contract (ops/demo/backend/fixtures/dupont.ts, `carousel`) to show it is skipped, and the
 * build's pre-pass renders that page. Each pattern matches one message exactly; any other warning fails.
 */
// The quotes may come escaped: the server logs JSON lines (LOG_FORMAT=json), the build's pre-pass plain text.
const EXPECTED_WARNINGS = [/\[warn\] blocks: unknown block type \\?"carousel\\?" skipped/];

/** The lines of a start that someone trying the demo would read as trouble (warnings, errors, curl noise). */
export function unexpectedNoise(output: string): string[] {
  return output
    .split("\n")
    .filter((l) => /\[warn\]|\[error\]|curl: \(/.test(l))
    .filter((l) => !(/\[warn\]/.test(l) && EXPECTED_WARNINGS.some((expected) => expected.test(l))));
}

/** Whether a GET answers 200, and its X-Cache (node:http: fetch would not send our Host header). */
function answers(url: string, host?: string): Promise<{ ok: boolean; xcache?: string }> {
  return new Promise((resolve) => {
    const req = get(url, { headers: host ? { host } : {}, timeout: 5000 }, (res) => {
      res.resume();
      res.on("end", () => resolve({ ok: res.statusCode === 200, xcache: res.headers["x-cache"]?.toString() }));
      res.on("error", () => resolve({ ok: false }));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ ok: false }));
  });
}

async function listening(port: string): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch (error) {
    return !/ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error));
  }
}

async function once(label: string): Promise<number> {
  const started = performance.now();
  const child = spawn("make", ["--no-print-directory", "demo"], {
    env: { ...process.env, PORT, DEMO_BACKEND_PORT: BACKEND, METRICS_PORT: METRICS, LOG_FORMAT: "json" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: SIGINT reaches make, the script and every child, as Ctrl-C does
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", () => stopGroup("SIGKILL"));
  try {
    let firstPage: { ok: boolean; xcache?: string } | undefined;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: make demo exited with ${child.exitCode}:\n${output.slice(-3000)}`);
      if ((await answers(`http://127.0.0.1:${PORT}/readyz`)).ok) {
        firstPage = await answers(`http://127.0.0.1:${PORT}/`, `dupont.dev.localhost:${PORT}`);
        if (firstPage.ok) break;
      }
      if (performance.now() - started > 15 * 60_000) throw new Error(`${label}: not ready within 15 min:\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const rebuilt = !output.includes("Build up to date");
    console.log(`${label}: ready in ${seconds.toFixed(1)} s (${rebuilt ? "built" : "build reused"})`);
    // A start that is quick but shouts (a probe warning, curl noise) is not what someone trying it should see.
    const noise = unexpectedNoise(output);
    if (noise.length) throw new Error(`${label}: the start printed warnings:\n${noise.join("\n")}`);
    // The URL the demo prints is served from the pre-pass (ops/demo/demo.sh: BUILD_PREPASS_ORIGINS), not rendered cold.
    if (firstPage?.xcache !== "HIT")
      throw new Error(`${label}: the demo's first page answered X-Cache ${firstPage?.xcache}, not HIT: the pre-pass did not render for the host the demo prints`);
    return seconds;
  } finally {
    stopGroup("SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    stopGroup("SIGKILL");
  }
}

async function main() {
  const first = await once("first make demo");
  for (const port of [PORT, BACKEND, METRICS]) if (await listening(port)) throw new Error(`port ${port} still answers after the first demo stopped`);
  const second = await once("second make demo");
  for (const port of [PORT, BACKEND, METRICS]) if (await listening(port)) throw new Error(`port ${port} still answers after the second demo stopped`);
  const met = second < LIMIT_S;
  console.log(`${met ? "met    " : "NOT met"}  second make demo ready in ${second.toFixed(1)} s (first: ${first.toFixed(1)} s; target < ${LIMIT_S} s)`);
  if (!met) process.exitCode = 1;
}

// Run as a script (make demo-twice), not when its unit test imports unexpectedNoise.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
