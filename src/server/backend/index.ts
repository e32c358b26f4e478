/** The process's backend client, built once from the environment. */
import { getEnv } from "../env";
import { createBackendClient, directReader, type BackendClient } from "./client";

export { BackendError, isBackendError } from "./errors";
export type { BackendFailure } from "./errors";
export type { ReadContext, BackendClient, Reader } from "./client";
export * from "./schemas";

let client: BackendClient | undefined;

export function getBackend(): BackendClient {
  if (!client) {
    const env = getEnv();
    client = createBackendClient(directReader({ baseUrl: env.BACKEND_API_URL, timeoutMs: env.BACKEND_TIMEOUT_MS }));
  }
  return client;
}
