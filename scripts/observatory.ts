/**
 * Grades one URL with Mozilla's HTTP Observatory rules, offline: the `@mdn/mdn-http-observatory` package's
 * own retriever (http:// then https://, every redirect, the robots.txt and CORS requests it makes), its
 * ten tests and its grader, exactly as its scan() combines them (the package's scanner/index.js), with three
 * differences that a scan of a site on this machine needs (docs/decisions/0043-content-security-policy.md):
 *
 * - ports and path: scan() calls retrieve(hostname) without the options retrieve() takes (httpPort,
 *   httpsPort, path), so the test nginx's free ports and a page other than / could not be graded;
 * - names: every host name resolves to --address (the practice domains are not in this machine's DNS);
 * - the HSTS preload list: the package's postinstall downloads it, which cannot run here (no network);
 *   an empty list is used when it is missing (no host counts as preloaded: no bonus, no excuse);
 * - status: scan() refuses to grade a 4xx other than 401/403; the 404 page is graded all the same.
 *
 * The self-signed certificate is trusted with NODE_EXTRA_CA_CERTS (set by the caller: Node reads it at
 * start), so the TLS checks count as for a real certificate.
 *
 *   NODE_EXTRA_CA_CERTS=tls.crt npx tsx scripts/observatory.ts --host H --http-port P --https-port Q --path /x/
 *
 * Prints one JSON object: { grade, score, statusCode, tests: { name: { result, pass, scoreModifier } } }.
 */
import dns from "node:dns";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

export interface ObservatoryTest {
  result: string;
  pass: boolean;
  scoreModifier: number;
}

export interface ObservatoryGrade {
  grade: string;
  score: number;
  statusCode: number;
  tests: Record<string, ObservatoryTest>;
}

interface TestOutput {
  result: string | null;
  pass: boolean;
  constructor: { name: string };
}

interface Modules {
  retrieve(hostname: string, options: { httpPort?: number; httpsPort?: number; path?: string }): Promise<{
    responses: { auto: { status: number } | null };
  }>;
  ALL_TESTS: ((requests: unknown) => TestOutput)[];
  getGradeForScore(score: number): { grade: string; score: number };
  getScoreModifier(expectation: string): number;
  MINIMUM_SCORE_FOR_EXTRA_CREDIT: number;
}

async function loadObservatory(): Promise<Modules> {
  const root = dirname(createRequire(import.meta.url).resolve("@mdn/mdn-http-observatory/package.json"));
  const preload = join(root, "conf", "hsts-preload.json");
  if (!existsSync(preload)) writeFileSync(preload, "{}\n");
  const load = (file: string) => import(pathToFileURL(join(root, "src", file)).href) as Promise<Record<string, unknown>>;
  const [retriever, constants, grader, charts] = await Promise.all([
    load("retriever/retriever.js"),
    load("constants.js"),
    load("grader/grader.js"),
    load("grader/charts.js"),
  ]);
  return { ...retriever, ...constants, ...grader, ...charts } as unknown as Modules;
}

/** Every host name resolves to `address`; the retriever's connections go through dns.lookup. */
function resolveEverythingTo(address: string): void {
  const family = address.includes(":") ? 6 : 4;
  const lookup = ((_host: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => (all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  }) as typeof dns.lookup;
  dns.lookup = lookup;
}

export async function grade(opts: { host: string; httpPort: number; httpsPort: number; path: string }): Promise<ObservatoryGrade> {
  const o = await loadObservatory();
  const requests = await o.retrieve(opts.host, { httpPort: opts.httpPort, httpsPort: opts.httpsPort, path: opts.path });
  if (!requests.responses.auto) throw new Error(`no answer from ${opts.host}`);
  // As scan() does: 100, plus every modifier; the bonuses count only when the penalties leave an A.
  let withBonus = 100;
  let uncurved = 100;
  const tests: Record<string, ObservatoryTest> = {};
  for (const test of o.ALL_TESTS) {
    const output = test(requests);
    if (!output.result) continue;
    const scoreModifier = o.getScoreModifier(output.result);
    withBonus += scoreModifier;
    if (scoreModifier < 0) uncurved += scoreModifier;
    tests[output.constructor.name] = { result: output.result, pass: output.pass, scoreModifier };
  }
  const final = o.getGradeForScore(uncurved >= o.MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonus : uncurved);
  return { grade: final.grade, score: final.score, statusCode: requests.responses.auto.status, tests };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      "http-port": { type: "string", default: "80" },
      "https-port": { type: "string", default: "443" },
      path: { type: "string", default: "/" },
      address: { type: "string", default: "127.0.0.1" },
    },
  });
  if (!values.host) {
    console.error("usage: observatory.ts --host HOST [--http-port 80] [--https-port 443] [--path /] [--address 127.0.0.1]");
    process.exit(2);
  }
  resolveEverythingTo(values.address!);
  grade({ host: values.host, httpPort: Number(values["http-port"]), httpsPort: Number(values["https-port"]), path: values.path! })
    .then((result) => console.log(JSON.stringify(result)))
    .catch((error: unknown) => {
      console.error(`observatory: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
