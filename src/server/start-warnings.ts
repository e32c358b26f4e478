/**
 * Configuration that lets the server start but that an operator must hear about: redirect chains and
 * targets outside the site (with file and key), and a production instance whose CSP cannot allow the
 * CMS preview iframe.
 */
import type { Env } from "./env";
import { reportWarning } from "./monitoring";
import { formatProblem, type RedirectProblem } from "./redirects/map";
import { cmsOrigin } from "./build-constants";

export function reportStartWarnings(env: Env, redirectWarnings: RedirectProblem[]): void {
  for (const problem of redirectWarnings) {
    reportWarning(`redirects: ${formatProblem(problem)}`, { file: problem.file, key: problem.key });
  }
  if (env.ENVIRONMENT === "prod" && !cmsOrigin(env.BUILD_CMS_ORIGIN)) {
    reportWarning("security headers: BUILD_CMS_ORIGIN is empty, frame-ancestors is 'self' only: the CMS preview iframe is refused");
  }
}
