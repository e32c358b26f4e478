/**
 * The one client of the content backend: typed reads (client.ts) over one GET with timeout and
 * validation (http.ts), the read cache in front of them (read-cache.ts), the tag names every read
 * records (tags.ts), the contact relay's write (contact.ts) and the media proxy's fetch (media.ts).
 * Built once per process by src/server/services.ts.
 */
export { BackendError, isBackendError } from "./errors";
export type { BackendFailure } from "./errors";
export { createBackendClient, directReader } from "./client";
export type { ReadContext, BackendClient, Reader } from "./client";
export { postContact } from "./contact";
export type { ContactOutcome, ContactSubmission } from "./contact";
export { getMedia } from "./media";
export { expectOk, request } from "./http";
export { ReadCache } from "./read-cache";
export * from "./schemas";
