/**
 * Base vite config: Qwik + Qwik City. The Express server build extends it in adapters/express/vite.config.ts.
 */
import { defineConfig, loadEnv, type UserConfig } from "vite";
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { fileURLToPath } from "node:url";
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
      qwikVite({ experimental: ["enableRequestRewrite"] }),
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
