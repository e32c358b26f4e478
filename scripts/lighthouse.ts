/**
 * Lighthouse scores of a demo practice: the homepage and a service detail page, mobile settings
 * (Lighthouse's default: a mid-range phone, simulated slow 4G), four categories each.
 *
 *   npm run lighthouse -- [--frontend http://127.0.0.1:3000] [--backend http://127.0.0.1:4000] [--code dupont] [--env dev]
 *
 * Needs a running frontend and the content backend it reads (`make demo`). Chromium comes from
 * CHROME_PATH (default /usr/bin/chromium; ops/operator/lighthouse.ts runs it). Not part of CI: scores move with the machine's load.
 * Note: a deployment that is not ENVIRONMENT=prod is noindex by design, which Lighthouse's SEO
 * category counts against the page ("Page is blocked from indexing"); run the frontend with
 * ENVIRONMENT=prod (and --env prod here) for the production figure.
 */
import { formatScores, runLighthouse } from "../ops/operator/lighthouse";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function serviceDetailPath(backend: string, code: string): Promise<string> {
  const res = await fetch(`${backend.replace(/\/+$/, "")}/api/v1/websites/sites/${encodeURIComponent(code)}/pages/`);
  if (!res.ok) throw new Error(`page list of ${code}: HTTP ${res.status}`);
  const { pages } = (await res.json()) as { pages: { kind: string; path: string }[] };
  const detail = pages.find((p) => p.kind === "service_detail");
  if (!detail) throw new Error(`${code} has no service detail page`);
  return detail.path;
}

async function main() {
  const frontend = new URL(arg("frontend", "http://127.0.0.1:3000"));
  const backend = arg("backend", "http://127.0.0.1:4000");
  const code = arg("code", "dupont");
  const origin = `${frontend.protocol}//${code}.${arg("env", "dev")}.localhost:${frontend.port || 80}`;
  const urls = [`${origin}/`, `${origin}${await serviceDetailPath(backend, code)}`];

  const results = await runLighthouse(urls);
  console.log("Lighthouse, mobile settings\n");
  console.log(formatScores(results));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
