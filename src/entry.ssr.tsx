/**
 * SSR entry, used by the Express server, the build pre-pass and the vite dev server.
 * The root <html> carries lang="fr" and the practice's theme as inline OKLCH variables (the
 * specification's rule), which the tenant layout computed for this request.
 */
import { renderToStream, type RenderToStreamOptions } from "@builder.io/qwik/server";
import Root from "./root";
import { htmlAttributesFor } from "./server/html-attributes";

export default function (opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    // Content pages need no JS before interaction: no modulepreload links, nothing fetched while idle.
    preloader: { ssrPreloads: 0, maxIdlePreloads: 0 },
    containerAttributes: {
      lang: "fr",
      ...opts.containerAttributes,
      ...htmlAttributesFor(opts.serverData),
    },
    serverData: { ...opts.serverData },
  });
}
