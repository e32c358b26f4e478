/** Server build: the Express entry, the render worker and the build pre-pass entry, all bundled with the Qwik City plan. */
import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite";
import { extendConfig } from "@builder.io/qwik-city/vite";
import baseConfig from "../../vite.config";

export default extendConfig(baseConfig, () => {
  return {
    build: {
      ssr: true,
      rollupOptions: {
        input: ["src/entry.express.tsx", "src/entry.prepass.tsx", "src/entry.render-worker.tsx", "@qwik-city-plan"],
      },
    },
    // ssg: null — the adapter's static generation serves files by path only and carries internal URLs;
    // our own pre-pass (src/server/prepass/prepass.ts) renders every tenant page instead.
    plugins: [nodeServerAdapter({ name: "express", ssg: null })],
  };
});
