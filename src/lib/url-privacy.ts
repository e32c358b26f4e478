/**
 * URLs as error tracking may see them: without query string and fragment, which may carry personal data
 * (`?email=…`, a pre-filled form). Shared by the server's scrubber and the browser reporter.
 */
export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}
