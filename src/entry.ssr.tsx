/**
 * SSR entry, used by the Express server, the build pre-pass and the vite dev server.
 * The root <html> carries lang="fr" and the practice's theme as inline OKLCH variables (the
 * specification's rule), which the tenant layout computed for this request.
 *
 * JavaScript budget (a content page loads no external script before interaction): Qwik 1.20 otherwise
 * adds the preloader, its bundle graph, a modulepreload of the core (~20 KB compressed) and the
 * qwikloader as an external module. The preloader is off, the qwikloader is inlined (it is what
 * resumes any listener a page may have), and the core is left out of the manifest handed to the
 * renderer, whose only use of it is that modulepreload link; a page that does have a listener still
 * imports the core on first interaction. Measured by scripts/js-budget.ts.
 */
import { renderToStream, type RenderToStreamOptions } from "@builder.io/qwik/server";
import Root from "./root";
import { htmlAttributesFor } from "./server/render/context";

export default function (opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    preloader: false,
    qwikLoader: "inline",
    manifest: { ...opts.manifest, core: undefined } as RenderToStreamOptions["manifest"],
    containerAttributes: {
      lang: "fr",
      ...opts.containerAttributes,
      ...htmlAttributesFor(opts.serverData),
    },
    serverData: { ...opts.serverData },
  });
}
