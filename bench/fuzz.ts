/**
 * npm run fuzz [-- --seed N] [--requests N] [--json]
 *
 * Thousands of generated hostile requests (odd paths, hosts, methods, headers and bodies) mixed with
 * normal page views, against the built server and the demo backend, each in its own process. What it
 * checks, and prints:
 *   requests sent      generated + normal
 *   restarts           times the server process died and had to be started again (must be 0)
 *   leaks              answers that showed a practice's name other than the one the Host names (every
 *                      answer of every request; none at all for a host naming no practice) (must be 0)
 *   resets, hangs      requests that got no whole answer: the connection failed (reset, closed early,
 *                      cut short) or nothing came for 20 s (each must be 0; a few samples are printed)
 *   store keys         the page store's key count at the end (its `[stats]` line, asked with SIGUSR2),
 *                      against the bound: the practices' canonical cacheable URLs (pages, their
 *                      q-data.json, robots, sitemap, one card per allowed title) for each scheme
 *   5xx                answers >= 500 other than the documented 502/503/504 of backend trouble
 * The same seed sends the same requests. Exit status 1 when a figure is out of bounds.
 * docs/decisions/0029-fuzz-run.md.
 */
import { request } from "node:http";
import { startBackendProcess, startFrontendProcess, type Proc } from "./processes";
import { seeded } from "./open-loop";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const SEED = arg("seed", Date.now() % 100_000);
const REQUESTS = arg("requests", 3000);
const JSON_OUT = args.includes("--json");
const CONCURRENCY = 8;
const PRACTICES = ["dupont", "martin", "bernard", "petit"] as const;

// A seeded generator (open-loop.ts's mulberry32), so a seed replays the same run.
const random = seeded(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const int = (max: number) => Math.floor(random() * max);

export interface Req {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body in 1 KB pieces, 5 ms apart (a slow upload: data still arriving after a refusal). */
  trickle?: boolean;
  /** Set for normal page views: the practice whose page this is. */
  practice?: string;
}

/**
 * The practice whose content this request may show: the one its Host names on the server's own port (any
 * case), else none (another port, an unknown or inactive practice, an IP, no host): then no practice's
 * name may appear in the answer. Forwarded-host headers name nothing (the product ignores them).
 */
export function owner(r: Pick<Req, "host">, port: number): string | null {
  const m = /^([a-z]+)\.dev\.localhost:(\d+)$/i.exec(r.host);
  const code = m?.[1].toLowerCase();
  return m && Number(m[2]) === port && (PRACTICES as readonly string[]).includes(code!) ? code! : null;
}

/**
 * What a client saw. `status` is set when the whole answer arrived (status line, headers, body to its end),
 * whatever the connection did afterwards: a server may close a connection it refuses a body on, once the
 * answer is sent. `failure` is set when no whole answer arrived: "reset" (the connection failed: reset,
 * closed early, a broken pipe, or an answer cut short) or "hang" (nothing for HANG_MS).
 */
interface Answer {
  status: number;
  body: string;
  failure?: "reset" | "hang";
  /** For a failure: the client's error code, and the status if the headers came before the end. */
  detail?: string;
}

/** A request with no answer for this long hangs (the server's own timeouts are all shorter). */
const HANG_MS = 20_000;

function send(port: number, r: Req): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    let headersStatus: number | undefined;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const fail = (failure: "reset" | "hang", error?: Error & { code?: string }) =>
      settle({ status: -1, body: "", failure, detail: `${error?.code ?? error?.message ?? failure}${headersStatus ? ` after a ${headersStatus}'s headers` : ""}` });
    const req = request(
      { host: "127.0.0.1", port, path: r.path, method: r.method, headers: { host: r.host, ...r.headers }, setHost: false, timeout: HANG_MS },
      (res) => {
        headersStatus = res.statusCode;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => settle({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (error) => fail("reset", error));
        // An answer cut short: "aborted" comes before (or instead of) an error.
        res.on("aborted", () => fail("reset", Object.assign(new Error("aborted"), { code: "ABORTED" })));
      },
    );
    req.on("error", (error) => fail("reset", error));
    req.on("timeout", () => {
      fail("hang");
      req.destroy();
    });
    if (r.body && r.trickle) {
      void (async () => {
        for (let at = 0; at < r.body!.length && !req.destroyed; at += 1024) {
          req.write(r.body!.subarray(at, at + 1024));
          await new Promise((done) => setTimeout(done, 5));
        }
        req.end();
      })();
      return;
    }
    if (r.body) req.write(r.body);
    req.end();
  });
}

/** The practices' names an answer shows that it must not: every one but the owner's (all for no owner). */
export function leakedNames(body: string, own: string | null, names: ReadonlyMap<string, string>): string[] {
  return [...names].filter(([code, name]) => code !== own && body.includes(name)).map(([, name]) => name);
}

async function backendJson<T>(backend: Proc, path: string): Promise<T> {
  return (await (await fetch(`${backend.url}/api/v1/websites${path}`)).json()) as T;
}

const PATH_MUTATIONS: ((p: string) => string)[] = [
  (p) => p,
  (p) => `${p}/`,
  (p) => p.replace("/", "//"),
  (p) => `/.${p}`,
  (p) => `/x/..${p}`,
  (p) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
  (p) => `${p}%2e%2e/`,
  (p) => `${p}q-data.json`,
  (p) => `/_sites/${pick(PRACTICES)}${p}`,
  (p) => `/%5Fsites/${pick(PRACTICES)}${p}`,
  (p) => `${p}${"a".repeat(int(3000))}/`,
  (p) => `${p}?${"utm_x=".repeat(int(50))}`,
  (p) => `${p}?qaction=${int(1e6)}`,
  (p) => `${p}%00/`,
  (p) => `${p}%zz/`,
  (p) => `${p}é/`,
  // Issue 17's shapes: backslashes, fragments, Qwik call parameters.
  (p) => p.replace(/\//g, "\\"),
  (p) => `/zz${int(1000)}\\..${p.replace(/\//g, "\\")}`,
  (p) => `/\\evil.example${p}./`,
  (p) => `${p}#r${int(1e6)}`,
  (p) => `${p}?${pick(["qdata", "qfunc", "qaction"])}=${int(1e6)}`,
];

const ODD_PATHS = [
  () => `/api/og?title=${encodeURIComponent(`Titre ${int(1e9)}`)}`,
  () => `/api/og?title=${"x".repeat(int(5000))}`,
  () => `/api/og${pick(["", "/"])}?title=${"%20".repeat(int(40))}Contact${pick(["%20", "%09", "%0A", ""]).repeat(int(5))}`,
  () => `/api/media?path=/media/${pick(PRACTICES)}/${int(1e6)}.png&w=${pick([160, 320, 7, -1, 99999])}`,
  () => `/api/media?path=${pick(["http://169.254.169.254/", "/media/../../etc/passwd", "//evil.example/x.png"])}`,
  () => `/media/${pick(PRACTICES)}/logo.svg`,
  () => "/robots.txt",
  () => "/sitemap.xml",
  () => "/api/contact",
  () => "/api/revalidate",
  () => "/webhooks/revalidate/",
  () => `/build/${"../".repeat(int(4))}package.json`,
  () => "/healthz",
];

function hostile(port: number, paths: Map<string, string[]>): Req {
  const code = pick(PRACTICES);
  const host = pick([
    `${code}.dev.localhost:${port}`,
    `${code}.dev.localhost:${port}`,
    `${code}.dev.localhost:${port}`,
    `${code.toUpperCase()}.DEV.localhost:${port}`,
    `${code}.dev.localhost:${pick([65536, 99999, 0])}`,
    `${code}.dev.localhost:${1 + int(65534)}`,
    `nosuch${int(1000)}.dev.localhost:${port}`,
    `leroy.dev.localhost:${port}`,
    "127.0.0.1",
    "",
    `${code}.dev.localhost:${port}.evil.example`,
  ]);
  const base = pick(paths.get(code) ?? ["/"]);
  const method = pick(["GET", "GET", "GET", "HEAD", "POST", "POST", "PUT", "DELETE", "OPTIONS", "PROPFIND", "TRACE", "PATCH"]);
  const bodyRoutes = ["/api/contact", "/api/contact/", "/api/revalidate", "/webhooks/revalidate/", base];
  const path =
    method === "POST" && random() < 0.5
      ? pick(bodyRoutes)
      : random() < 0.6
        ? pick(PATH_MUTATIONS)(base)
        : pick(ODD_PATHS)();
  const headers: Record<string, string> = {};
  if (random() < 0.3) headers["x-forwarded-proto"] = pick(["https", "http", "javascript", "https, http"]);
  if (random() < 0.2) headers["x-forwarded-host"] = `${pick(PRACTICES)}.dev.localhost`;
  if (random() < 0.2) headers["x-forwarded-for"] = `203.0.113.${int(255)}`;
  if (random() < 0.2) headers.cookie = `s=${int(1e9)}`;
  if (random() < 0.3) headers["accept-encoding"] = pick(["br", "gzip", "identity", "*", "br;q=0, gzip;q=0"]);
  if (random() < 0.2) headers["if-none-match"] = `W/"${int(1e9)}"`;
  if (random() < 0.1) headers["x-revalidate-secret"] = `guess-${int(1e6)}`;
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD" && random() < 0.8) {
    headers["content-type"] = pick(["application/json", "application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]);
    headers.origin = `http://${host}`;
    const size = pick([0, 200, 4000, 16 * 1024, 17 * 1024, 17 * 1024, 40 * 1024]);
    body = Buffer.from(
      pick([
        () => JSON.stringify({ name: "Fuzz", email: "fuzz@example.org", message: "m".repeat(size), consent: true, elapsed_ms: 5000 }),
        () => "{".repeat(size),
        () => `name=a&message=${"x".repeat(size)}`,
        () => JSON.stringify({ tags: ["site:dupont"], secret: "nope" }),
      ])(),
    );
    if (random() < 0.5) headers["content-length"] = String(body.length);
    else headers["transfer-encoding"] = "chunked";
  }
  return { method, host, path, headers, body, trickle: random() < 0.5 };
}

async function main() {
  const started = Date.now();
  const backend = await startBackendProcess();
  let frontend = await startFrontendProcess(backend.url);
  let restarts = 0;
  const names = new Map<string, string>();
  const paths = new Map<string, string[]>();
  let bound = 0;
  for (const code of PRACTICES) {
    const config = await backendJson<{ name: string }>(backend, `/sites/${code}/config/`);
    names.set(code, config.name);
    const res = await send(frontend.port, { method: "GET", host: `${code}.dev.localhost:${frontend.port}`, path: "/sitemap.xml", headers: {} });
    const urls = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    paths.set(code, urls);
    // Per scheme: each page and its q-data.json, robots, sitemap, and one card per page title plus the
    // practice's other allowed titles (site title, name, 404 title, home SEO title, card without title).
    bound += 2 * (2 * urls.length + 2 + urls.length + 5);
  }

  let sent = 0;
  let leaks = 0;
  let serverErrors = 0;
  let resets = 0;
  let hangs = 0;
  const errorSamples: string[] = [];
  const leakSamples: string[] = [];
  const failureSamples: string[] = [];
  const describe = (r: Req) =>
    `${r.method} ${r.host || "(no host)"} ${r.path.slice(0, 80)}${r.body ? ` with ${r.body.length} bytes${r.headers["transfer-encoding"] ? " chunked" : ""}${r.trickle ? " trickled" : ""} ${r.headers["content-type"]}` : ""}`;
  const next = (): Req => {
    if (random() < 0.3) {
      const code = pick(PRACTICES);
      return { method: "GET", host: `${code}.dev.localhost:${frontend.port}`, path: pick(paths.get(code)!), headers: { accept: "text/html" }, practice: code };
    }
    return hostile(frontend.port, paths);
  };
  const queue = Array.from({ length: REQUESTS }, next);
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const answer = await send(frontend.port, r);
      sent += 1;
      // A connection reset or a hang is a failure, whatever the request: a client must get an answer (a 4xx
      // for what the server refuses, its body sent before the server closes the connection on a body it
      // will not read). A reset after the whole answer arrived is no failure: `send` reports the answer.
      if (answer.failure === "reset") resets += 1;
      if (answer.failure === "hang") hangs += 1;
      if (answer.failure && failureSamples.length < 10) failureSamples.push(`${answer.failure} (${answer.detail}): ${describe(r)}`);
      // Every answer, of every request: no practice's name but the one the Host names (none for a host that
      // names no practice of ours on this port).
      for (const name of leakedNames(answer.body, owner(r, frontend.port), names)) {
        leaks += 1;
        if (leakSamples.length < 10) leakSamples.push(`${answer.status} showed ${name}: ${describe(r)}`);
      }
      if (answer.status >= 500 && ![502, 503, 504].includes(answer.status)) {
        serverErrors += 1;
        if (errorSamples.length < 5) errorSamples.push(`${answer.status} ${describe(r)}`);
      }
      if (frontend.child.exitCode !== null || frontend.child.signalCode !== null) {
        restarts += 1;
        console.error(`server exited (${frontend.child.exitCode ?? frontend.child.signalCode}); restarting:\n${frontend.output().slice(-2000)}`);
        frontend = await startFrontendProcess(backend.url);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  const seen = frontend.output().length;
  frontend.child.kill("SIGUSR2");
  let storeKeys = -1;
  // Renders on the main thread (docs/decisions/0047-main-thread-renders-nothing.md): must stay 0 whatever was sent.
  let mainThreadRenders = -1;
  for (let i = 0; i < 100 && storeKeys < 0; i++) {
    const line = /\[stats\] [^\n]*/.exec(frontend.output().slice(seen))?.[0] ?? "";
    const keys = /storeKeys=(\d+)/.exec(line);
    if (keys) {
      storeKeys = Number(keys[1]);
      mainThreadRenders = Number(/mainThreadRenders=(\d+)/.exec(line)?.[1] ?? -1);
    } else await new Promise((r) => setTimeout(r, 50));
  }
  await frontend.stop();
  await backend.stop();

  const figures = {
    seed: SEED, requests: sent, restarts, leaks, resets, hangs, storeKeys, storeKeyBound: bound, serverErrors, mainThreadRenders,
    seconds: (Date.now() - started) / 1000, samples: { leaks: leakSamples, failures: failureSamples, serverErrors: errorSamples },
  };
  if (JSON_OUT) console.log(JSON.stringify(figures));
  else {
    const samples = (list: string[]) => list.map((l) => `\n      ${l}`).join("");
    console.log(`fuzz  seed ${SEED}`);
    console.log(`  requests sent    ${sent}`);
    console.log(`  restarts         ${restarts}`);
    console.log(`  leaks            ${leaks}${samples(leakSamples)}`);
    console.log(`  resets           ${resets}`);
    console.log(`  hangs            ${hangs}`);
    if (failureSamples.length) console.log(`  no whole answer (first ${failureSamples.length}):${samples(failureSamples)}`);
    console.log(`  store keys       ${storeKeys} (bound ${bound})`);
    console.log(`  main-thread renders ${mainThreadRenders}`);
    console.log(`  5xx (undocumented) ${serverErrors}${samples(errorSamples)}`);
    console.log(`  time             ${figures.seconds.toFixed(1)} s`);
  }
  const ok =
    restarts === 0 && leaks === 0 && resets === 0 && hangs === 0 && storeKeys >= 0 && storeKeys <= bound && serverErrors === 0 && mainThreadRenders === 0;
  process.exit(ok ? 0 : 1);
}

// Run as a script (npm run fuzz, tests/fuzz.test.ts spawns it); imported, it only lends its checks.
if (import.meta.url === `file://${process.argv[1]}`) void main();
