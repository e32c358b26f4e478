import { component$ } from "@builder.io/qwik";
import { reportBrowserError } from "~/client/error-reporter";

/** Baked in at build (the specification's rule: a PUBLIC_ variable is inlined into the client bundle). */
const DSN: string | undefined = import.meta.env.PUBLIC_ERROR_TRACKING_DSN;

/**
 * Browser error tracking at no first-load cost: a window `error` / `unhandledrejection` listener declared
 * in the HTML, which Qwik's inline loader turns into the import of the reporter (src/client/error-reporter)
 * on the first error only. Without a DSN nothing is rendered at all.
 */
export const ErrorTracking = component$(() => {
  if (!DSN) return null;
  return (
    <span
      hidden
      data-error-tracking
      window:onError$={(event) => {
        reportBrowserError(event, import.meta.env.PUBLIC_ERROR_TRACKING_DSN);
      }}
      window:onUnhandledrejection$={(event) => {
        reportBrowserError(event, import.meta.env.PUBLIC_ERROR_TRACKING_DSN);
      }}
    />
  );
});
