/**
 * Base vite config: Qwik + Qwik City. The Express server build extends it in adapters/express/vite.config.ts.
 */
import { defineConfig, loadEnv, type Plugin, type UserConfig } from "vite";
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { fileURLToPath } from "node:url";
import { connect } from "node:net";
import { loadRegistry } from "./src/server/tenancy/registry";
import { checkBuildEnv, formatBuildWarnings } from "./src/server/build-checks";

export default defineConfig(({ command, mode }): UserConfig => {
  if (command === "build") {
    // Build-time constants the specification warns about (src/server/build-checks.ts).
    const { errors, warnings } = checkBuildEnv({ ...loadEnv(mode, process.cwd(), ""), ...process.env });
    if (errors.length) throw new Error(`Build refused:\n${errors.map((e) => `  - ${e}`).join("\n")}`);
    if (warnings.length) console.warn(formatBuildWarnings(warnings));
  }
  if (command === "serve") {
    // The dev server runs the same server code as production, which reads its settings from
    // process.env (src/server/env.ts). Fill in the committed demo defaults for what the shell didn't set.
    const defaults = loadEnv("development", process.cwd(), "");
    for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;
  }
  return {
    // PUBLIC_ variables are inlined into the client bundle at build time (the specification's rule 1).
    envPrefix: ["PUBLIC_"],
    // The CMS origin of the frame-ancestors policy is a build argument (src/server/build-constants.ts).
    define: { __BUILD_CMS_ORIGIN__: JSON.stringify(process.env.BUILD_CMS_ORIGIN ?? loadEnv(mode, process.cwd(), "").BUILD_CMS_ORIGIN ?? "") },
    plugins: [
      qwikCity({ trailingSlash: true }),
      // enableRequestRewrite: ev.rewrite() keeps public URLs while routing to /_sites/<code>/ (DESIGN.md).
      // Qwik's image dev tools off: their script asks /__image_info for every image of a page, which fetches the
      // image from the server by the page's host (a practice's, which the dev server's own lookup cannot
      // resolve): two console 404s per page. Image sizes are checked by the Lighthouse runs and the tests.
      qwikVite({ experimental: ["enableRequestRewrite"], devTools: { imageDevTools: false } }),
      practiceIndex(),
      backendHint(),
    ],
    resolve: { alias: { "~": fileURLToPath(new URL("./src", import.meta.url)) } },
    server: {
      headers: { "Cache-Control": "public, max-age=0" },
      // Vite refuses unknown Host headers (DNS-rebinding guard): allow the practice list's domains and the
      // preview hosts; the tenant plugin then applies the real rules.
      allowedHosts: command === "serve" ? devAllowedHosts() : undefined,
    },
    build: { sourcemap: mode === "development" },
  };
});

function devAllowedHosts(): string[] {
  const registry = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json");
  const preview = process.env.PREVIEW_DOMAIN ? [`.${process.env.PREVIEW_DOMAIN}`] : [];
  return [".localhost", ...preview, ...registry.byHost.keys()];
}

/**
 * The dev server's bare http://localhost:<port>/ (the address vite prints) names no practice, so it would be
 * a 404: it answers the list of the practices' preview URLs instead, and the first link a developer sees
 * leads somewhere. The same for an IP address: vite's "Network:" link (http://<this machine's address>:<port>/,
 * printed with --host 0.0.0.0) answered 404. Dev server only; the production server never sees it.
 */
function practiceIndex(): Plugin {
  return {
    name: "practice-index",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const [hostname, port = ""] = (req.headers.host ?? "").split(/:(?=\d+$)/);
        const address = hostname === "localhost" || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || /^\[[0-9a-fA-F:.]+\]$/.test(hostname);
        if (req.url !== "/" || !address) return next();
        const { ENVIRONMENT, PREVIEW_DOMAIN } = process.env;
        const registry = loadRegistry(process.env.TENANTS_FILE || "tenants/practices.json");
        const hosts = registry.practices.map((p) => (PREVIEW_DOMAIN ? `${p.code}.${ENVIRONMENT}.${PREVIEW_DOMAIN}` : p.domains[0]));
        const links = hosts.map((h) => `<li><a href="http://${h}${port ? `:${port}` : ""}/">${h}</a></li>`).join("");
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.end(`<!doctype html><html lang="en"><title>Practices</title><h1>Practices on this dev server</h1><ul>${links}</ul>`);
      });
    },
  };
}

/**
 * `npm run dev` starts no content backend (`make dev` starts the demo backend beside it): without one, every
 * page waited for the backend's timeout and answered a bare 503. While nothing listens at BACKEND_API_URL the
 * dev server says what to run, in the terminal at start and at once as the 503 of a page. Checked on each page
 * request (a local TCP connect), so starting the backend later needs no restart. Dev server only.
 */
function backendHint(): Plugin {
  return {
    name: "backend-hint",
    apply: "serve",
    configureServer(server) {
      const api = process.env.BACKEND_API_URL ?? "";
      const hint =
        `The content backend is not running: nothing answers at ${api}. ` +
        "Run `make dev` (the demo backend and this dev server) instead of `npm run dev`, or start your backend.";
      void backendListening(api).then((up) => up || server.config.logger.warn(`\n  ${hint}\n`));
      server.middlewares.use((req, res, next) => {
        // Pages only (a navigation, or a path ending in "/"): vite's modules and static files need no backend.
        const path = (req.url ?? "").split("?")[0];
        if (!req.headers.accept?.includes("text/html") && !path.endsWith("/")) return next();
        void backendListening(api).then((up) => {
          if (up) return next();
          res.statusCode = 503;
          res.setHeader("Content-Type", "text/plain; charset=utf-8");
          res.end(`503 Service Unavailable\n\n${hint}\n`);
        });
      });
    },
  };
}

/** Whether something accepts a TCP connection at the URL's host and port (within a second). */
function backendListening(url: string): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(target.port) || (target.protocol === "https:" ? 443 : 80);
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ""), port, timeout: 1000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}
