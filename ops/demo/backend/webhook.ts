/**
 * The revalidation webhook, backend to frontend (content-backend-api.md, "Webhook: backend to frontend").
 *
 * The admin API awaits the delivery and returns its outcome, so a test that edits content knows the
 * frontend has acknowledged (or failed to) before it checks the rendered page.
 */
import type { WebhookResult } from "./model.js";
import type { DemoState } from "./state.js";

export const WEBHOOK_PATH = "/webhooks/revalidate/";

export function webhookUrl(frontendUrl: string): string {
  // Appended rather than resolved with new URL(path, base), which would drop a path prefix of frontendUrl.
  return `${frontendUrl.replace(/\/+$/, "")}${WEBHOOK_PATH}`;
}

export async function sendRevalidation(state: DemoState, tags: string[]): Promise<WebhookResult> {
  const { frontendUrl, revalidationSecret, webhookTimeoutMs } = state.settings;
  const at = new Date().toISOString();
  if (!frontendUrl) {
    const result: WebhookResult = { sent: false, status: null, tags };
    state.logWebhook({ ...result, url: null, at });
    return result;
  }

  const url = webhookUrl(frontendUrl);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (revalidationSecret) headers["X-Revalidate-Secret"] = revalidationSecret;
  const body = { tags };

  let result: WebhookResult;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(webhookTimeoutMs),
    });
    await response.arrayBuffer(); // drain, so the connection is released
    result = { sent: true, status: response.status, tags };
    if (!response.ok) result.error = `frontend answered ${response.status}`;
  } catch (err) {
    result = { sent: true, status: null, error: describeError(err, webhookTimeoutMs), tags };
  }
  state.logWebhook({ ...result, url, at });
  const outcome = result.status ?? result.error;
  console.log(`demo-backend: webhook POST ${url} ${JSON.stringify(tags)} -> ${outcome}`);
  return result;
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return `timeout after ${timeoutMs} ms`;
    // fetch() reports network failures as "fetch failed" with the real reason (ECONNREFUSED...) as cause.
    const cause: unknown = err.cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return `${err.message}: ${code ?? cause.message}`;
    }
    return err.message;
  }
  return String(err);
}
