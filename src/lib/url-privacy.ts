/**
 * URLs as error tracking may see them: without query string and fragment, which may carry personal data
 * (`?email=…`, a pre-filled form). Shared by the server's scrubber and the browser reporter.
 */
export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * Every URL inside a text (a stack trace, an error message) without its query and fragment; a stack frame's
 * `:line:column` is kept. `at f (https://h/p?email=a@b.c#x:12:5)` -> `at f (https://h/p:12:5)`.
 */
export function stripQueries(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s()?#]*)[?#][^\s()]*?(:\d+:\d+)?(?=[\s()]|$)/gi, "$1$2");
}
