/**
 * CLI: `npx tsx ops/demo/backend/main.ts` (or `npm run demo-backend`).
 *
 * Environment:
 *   DEMO_BACKEND_PORT              listening port, default 4000 (0 = any free port)
 *   DEMO_BACKEND_HOST              listening address, default 127.0.0.1 (0.0.0.0 inside a container)
 *   DEMO_PUBLIC_ORIGIN             origin written into media URLs, default http://127.0.0.1:<port>
 *   FRONTEND_URL                   frontend base URL for the revalidation webhook; unset = no webhook
 *   FRONTEND_REVALIDATION_SECRET   sent as X-Revalidate-Secret; must equal the frontend's REVALIDATION_SECRET
 */
import { DEFAULT_PORT, startDemoBackend } from "./app.js";

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`demo-backend: DEMO_BACKEND_PORT must be a port number, got "${value}"`);
    process.exit(2);
  }
  return port;
}

const env = (name: string): string | undefined => process.env[name] || undefined;

const backend = await startDemoBackend({
  port: portFromEnv(env("DEMO_BACKEND_PORT")),
  host: env("DEMO_BACKEND_HOST"),
  publicOrigin: env("DEMO_PUBLIC_ORIGIN"),
  frontendUrl: env("FRONTEND_URL"),
  revalidationSecret: env("FRONTEND_REVALIDATION_SECRET"),
});

console.log(`demo backend listening on ${backend.apiUrl}`);
const { frontendUrl, revalidationSecret, publicOrigin } = backend.state.settings;
console.log(`demo backend: media URLs use ${publicOrigin}/media/`);
if (frontendUrl) {
  console.log(`demo backend: revalidation webhook -> ${frontendUrl}/webhooks/revalidate/`);
  if (!revalidationSecret)
    console.warn("demo backend: FRONTEND_REVALIDATION_SECRET is unset; the frontend will reject the webhook");
} else {
  console.log("demo backend: FRONTEND_URL unset, no revalidation webhook will be sent");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void backend.close().finally(() => process.exit(0));
  });
}
