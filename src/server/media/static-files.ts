/**
 * The build-time media cache (dist/media/<code>/logo.svg, favicon.png...) is served from the client build
 * directory, which is shared by every host. Without a guard, practice B's domain served practice A's SVG
 * logo as a document of B's origin: a script inside it would run there (stored XSS across practices).
 *
 * So a file under /media/<code>/ is served only on the hosts of practice <code> (404 elsewhere: the app's
 * handler in src/server/http/media-files.ts), and an SVG carries this policy, the media proxy's SVGs too
 * (media/proxy.ts): no script, no network, no forms.
 */

/** An SVG opened on its own must not run script or reach anything (the proxy's SVGs too). */
export const SVG_SANDBOX_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
