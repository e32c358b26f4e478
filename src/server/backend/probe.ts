/**
 * The backend, checked at start: a wrong BACKEND_API_URL (a missing `/api/v1/websites`, a wrong port) used to
 * be silent, every practice answering 404 while /readyz said 200. The probe asks for the configuration of
 * the registered practices, a few at a time, until one answers 200:
 * - one answers 200: the backend is the right one; the instance may become ready;
 * - every one probed answers 404: this backend knows none of our practices, which is a wrong URL far more
 *   often than every practice being inactive; the reason names the URL tried;
 * - no answer, or 5xx: the backend is down or not there; the reason says which;
 * - no practice registered: nothing to ask and nothing to serve; an instance that would answer 404 to every
 *   Host is not one a deploy should switch to, so that is a failure too (it never changes: the list is read
 *   once, at start).
 * Until it succeeds it runs again every few seconds. Each failure has two texts: `reason`, for the log and
 * the operator (the URL tried, the practices asked), and `status`, what /readyz answers on any Host, which
 * names neither (issue 26). Once it has succeeded it stops: a backend failing later is answered per request
 * (stale pages, 503 for cold ones), not by taking every instance out of the proxy
 * (docs/decisions/0039-backend-probe.md).
 */
import { request, type HttpOptions } from "./http";
import { isBackendError } from "./errors";

/** Practices asked for at most per round: enough to get past an inactive one, few for a large list. */
const PROBED_PER_ROUND = 5;
const RETRY_MS = 3000;

export type ProbeOutcome =
  | { ok: true; detail: string }
  /** `reason`: for the log (URL, practice codes); `status`: for /readyz (neither). */
  | { ok: false; reason: string; status: string };

/** What /readyz says before the first round has answered. */
export const PROBE_PENDING = "backend not answering for the practice list yet (first probe running)";

const NOT_ANSWERING = "backend not answering for the practice list";

/** One round: the configurations of up to five practices, one after the other, until one answers 200. */
export async function probeBackend(opts: HttpOptions, codes: readonly string[]): Promise<ProbeOutcome> {
  if (codes.length === 0) {
    return {
      ok: false,
      reason: "no practice registered (the practice list, TENANTS_FILE, is empty): nothing to serve",
      status: "no practice registered: nothing to serve",
    };
  }
  const probed = codes.slice(0, PROBED_PER_ROUND);
  const notFound: string[] = [];
  for (const code of probed) {
    const endpoint = `/sites/${encodeURIComponent(code)}/config/`;
    try {
      const response = await request(opts, endpoint, { method: "GET", headers: { accept: "application/json" } });
      await response.body?.cancel();
      if (response.ok) return { ok: true, detail: `${opts.baseUrl}${endpoint} answers ${response.status}` };
      if (response.status !== 404) {
        return {
          ok: false,
          reason: `backend ${opts.baseUrl} answered HTTP ${response.status} for ${endpoint}`,
          status: `${NOT_ANSWERING}: HTTP ${response.status}`,
        };
      }
      notFound.push(code);
    } catch (error) {
      if (!isBackendError(error)) throw error;
      const cause = error.message.split(": ").pop() ?? "";
      const how = error.failure === "timeout" ? "did not answer in time" : `is unreachable (${cause})`;
      // Only an error code (ECONNREFUSED, ENOTFOUND) goes to /readyz: a message may name the host.
      const brief = error.failure === "timeout" ? "no answer in time" : /^E[A-Z_]+$/.test(cause) ? `unreachable (${cause})` : "unreachable";
      return { ok: false, reason: `backend ${opts.baseUrl} ${how}`, status: `${NOT_ANSWERING}: ${brief}` };
    }
  }
  return {
    ok: false,
    reason:
      `backend ${opts.baseUrl} answers 404 for every practice asked (${notFound.join(", ")}): ` +
      "is BACKEND_API_URL the API base, ending in /api/v1/websites?",
    status: `${NOT_ANSWERING}: 404 for every practice asked (is BACKEND_API_URL the API base, ending in /api/v1/websites?)`,
  };
}

/**
 * Runs rounds until one succeeds. `onChange` hears every new outcome (not every round): the log and
 * /readyz follow it. Resolves once the backend has answered; `stop()` ends the retries (shutdown).
 */
export function watchBackendUntilUp(
  opts: HttpOptions,
  codes: readonly string[],
  onChange: (outcome: ProbeOutcome) => void,
  retryMs = RETRY_MS,
): { done: Promise<void>; stop: () => void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last = "";
  const done = new Promise<void>((resolve) => {
    const round = async () => {
      const outcome = await probeBackend(opts, codes);
      const key = outcome.ok ? "ok" : outcome.reason;
      if (key !== last) onChange(outcome);
      last = key;
      if (outcome.ok) return resolve();
      if (!stopped) timer = setTimeout(() => void round(), retryMs).unref();
    };
    void round();
  });
  return {
    done,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
