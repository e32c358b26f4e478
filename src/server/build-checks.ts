/**
 * Checks of the build-time constants, run by vite.config.ts before a build. The specification's rule 3
 * warns that an empty BUILD_CMS_ORIGIN silently drops the CMS preview from the frame-ancestors policy,
 * and rule 2 that a build without PUBLIC_ERROR_TRACKING_DSN silently reports no browser error: a
 * production build (ENVIRONMENT=prod in the build's environment, as the deploy script sets it) refuses
 * the first and shouts about the second; other builds only warn.
 */

export interface BuildCheck {
  errors: string[];
  warnings: string[];
}

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && (url.pathname === "/" || url.pathname === "");
  } catch {
    return false;
  }
}

export function checkBuildEnv(env: Record<string, string | undefined>): BuildCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  const production = env.ENVIRONMENT?.trim() === "prod";
  const cms = env.BUILD_CMS_ORIGIN?.trim() ?? "";
  const dsn = env.PUBLIC_ERROR_TRACKING_DSN?.trim() ?? "";

  if (!cms) {
    const message =
      "BUILD_CMS_ORIGIN is empty: the Content-Security-Policy frame-ancestors would allow only the site itself, and the CMS preview iframe would break. Set it (per environment) in the deploy script.";
    (production ? errors : warnings).push(message);
  } else if (!isHttpOrigin(cms)) {
    errors.push(`BUILD_CMS_ORIGIN must be an http(s) origin such as https://cms.example.org, not ${JSON.stringify(cms)}.`);
  }
  if (!dsn) {
    warnings.push(
      production
        ? "PRODUCTION BUILD WITHOUT PUBLIC_ERROR_TRACKING_DSN: errors in visitors' browsers will NOT be reported. Pass the DSN as a build argument."
        : "PUBLIC_ERROR_TRACKING_DSN is empty: browser errors of this build are not reported.",
    );
  }
  return { errors, warnings };
}

/** The warnings as a box that stands out in a build log. */
export function formatBuildWarnings(warnings: string[]): string {
  if (!warnings.length) return "";
  const lines = warnings.map((w) => `!! ${w}`);
  const rule = "!".repeat(78);
  return `\n${rule}\n${lines.join("\n")}\n${rule}\n`;
}
