/**
 * The two revalidation routes (the specification's webhook and manual endpoint), answered on any Host
 * before tenancy, both ending in the one entry point `invalidate(tags)`:
 *
 *   POST /webhooks/revalidate/   header X-Revalidate-Secret, body { "tags": [...] }
 *   POST /api/revalidate         body { "secret": "...", "tags": [...] }
 *
 * 401 on a wrong or missing secret (and the warning `revalidate: auth rejected`), 400 naming what is
 * wrong with a malformed body, 200 with the tags and the number of page entries invalidated. With several
 * instances, 503 when the invalidation could not be confirmed on every one (applied here all the same):
 * the backend retries, so its edit is never silently lost (docs/decisions/0004-webhook-without-redis.md).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pathOf, sendJson } from "./respond";
import { isKnownTagShape, MAX_TAGS, TAG_SHAPES_TEXT } from "../backend/tags";
import { reportWarning } from "../monitoring";
import { InvalidationNotConfirmed } from "../cache/shared";

export { MAX_TAGS };
const MAX_TAG_LENGTH = 256;

export class BodyError extends Error {}

/** Validates the tags of a parsed body; returns them deduplicated, in order. */
export function validateTags(body: unknown): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new BodyError('body must be a JSON object such as {"tags": ["page:contact"]}');
  }
  const tags = (body as { tags?: unknown }).tags;
  if (tags === undefined) throw new BodyError('no tags: the body needs "tags", an array of tag strings');
  if (!Array.isArray(tags)) throw new BodyError('"tags" must be an array of tag strings');
  if (tags.length === 0) throw new BodyError('no tags: "tags" is empty');
  if (tags.length > MAX_TAGS) throw new BodyError(`too many tags: ${tags.length} (at most ${MAX_TAGS} per request)`);
  tags.forEach((tag, i) => {
    if (typeof tag !== "string" || tag.trim() === "") throw new BodyError(`tags[${i}] must be a non-empty string`);
    if (tag.length > MAX_TAG_LENGTH) throw new BodyError(`tags[${i}] is longer than ${MAX_TAG_LENGTH} characters`);
    if (!isKnownTagShape(tag)) {
      throw new BodyError(`tags[${i}] ${JSON.stringify(tag)} is not a known tag: use ${TAG_SHAPES_TEXT}`);
    }
  });
  return [...new Set(tags as string[])];
}

/**
 * Parses a body already read (and size-limited) on the Node side by the request-body middleware
 * (http/request-body.ts): an oversized or slow body never reaches these routes.
 */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString("utf8");
  if (text.trim() === "") throw new BodyError('body is empty: send a JSON object with "tags"');
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError("body is not valid JSON");
  }
}

/** Constant-time comparison: equal-length digests, so neither content nor length leaks through timing. */
export function secretMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || given === "") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export interface RevalidateOptions {
  secret: string;
  /** The request's body, read within its limits before the routes run (http/request-body.ts). */
  bodyOf: (req: IncomingMessage) => Buffer;
  invalidate: (tags: string[]) => number | Promise<number>;
}

export function revalidateHandlers(opts: RevalidateOptions) {
  const rejected = (req: IncomingMessage, res: ServerResponse) => {
    reportWarning("revalidate: auth rejected", { path: pathOf(req.url!) });
    sendJson(res, 401, { error: "invalid or missing revalidation secret" });
  };
  const badRequest = (res: ServerResponse, error: unknown) => {
    if (!(error instanceof BodyError)) throw error;
    sendJson(res, 400, { error: error.message });
  };
  const done = async (res: ServerResponse, tags: string[]) => {
    let invalidated: number;
    try {
      invalidated = await opts.invalidate(tags);
    } catch (error) {
      if (!(error instanceof InvalidationNotConfirmed)) throw error;
      reportWarning("revalidate: not confirmed on every instance", { detail: error.message, tags });
      res.setHeader("retry-after", "5");
      sendJson(res, 503, { revalidated: false, tags, error: `applied on this instance only: ${error.message}; retry` });
      return;
    }
    sendJson(res, 200, { revalidated: true, tags, invalidated });
  };

  /** POST /webhooks/revalidate/: the secret in X-Revalidate-Secret, checked before the body is read. */
  const webhook = async (req: IncomingMessage, res: ServerResponse) => {
    if (!secretMatches(req.headers["x-revalidate-secret"], opts.secret)) return rejected(req, res);
    let tags: string[];
    try {
      tags = validateTags(parseJsonBody(opts.bodyOf(req)));
    } catch (error) {
      return badRequest(res, error);
    }
    await done(res, tags);
  };

  /** POST /api/revalidate: the secret in the body, so the body is parsed first; tags are judged only once authenticated. */
  const api = async (req: IncomingMessage, res: ServerResponse) => {
    let body: unknown;
    try {
      body = parseJsonBody(opts.bodyOf(req));
    } catch (error) {
      return badRequest(res, error);
    }
    const secret = typeof body === "object" && body !== null ? (body as { secret?: unknown }).secret : undefined;
    if (!secretMatches(secret, opts.secret)) return rejected(req, res);
    let tags: string[];
    try {
      tags = validateTags(body);
    } catch (error) {
      return badRequest(res, error);
    }
    await done(res, tags);
  };

  return { webhook, api };
}
