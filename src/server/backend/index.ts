/** The process's backend client, built once from the environment, reading through the data cache. */
import { getEnv } from "../env";
import { DataCache } from "../cache/data-cache";
import { createBackendClient, directReader, type BackendClient } from "./client";
import { postContact, type ContactOutcome, type ContactSubmission } from "./contact";
import { getMedia } from "./media";

export { BackendError, isBackendError } from "./errors";
export type { BackendFailure } from "./errors";
export type { ReadContext, BackendClient, Reader } from "./client";
export type { ContactOutcome, ContactSubmission } from "./contact";
export * from "./schemas";

let client: BackendClient | undefined;
let dataCache: DataCache | undefined;

/** The data cache the backend client reads through (the page cache invalidates it by tag). */
export function getDataCache(): DataCache {
  dataCache ??= new DataCache({ ttlSeconds: getEnv().BACKEND_REVALIDATE_TTL });
  return dataCache;
}

export function getBackend(): BackendClient {
  if (!client) {
    const env = getEnv();
    const direct = directReader({ baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS });
    // The vite dev server has no page cache and no revalidation route: a data cache there would hide
    // every backend edit until a restart. Built servers (and the pre-pass) read through it.
    client = createBackendClient(import.meta.env.DEV ? direct : getDataCache().wrap(direct));
  }
  return client;
}

/** Relays one contact submission (the only write to the backend). */
export function sendContact(code: string, submission: ContactSubmission): Promise<ContactOutcome> {
  const env = getEnv();
  return postContact({ baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS }, code, submission);
}

/** Fetches a validated media path from the origin of BACKEND_API_URL (the contract's "Media object"). */
export function fetchMedia(path: string, method: "GET" | "HEAD" = "GET"): Promise<Response> {
  const env = getEnv();
  return getMedia({ baseUrl: new URL(env.BACKEND_API_URL).origin, timeoutMs: env.BACKEND_TIMEOUT_MS }, path, method);
}
