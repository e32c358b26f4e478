/**
 * Request bodies are read here, on the Node side, before anything builds a fetch Request from them.
 *
 * Why: a web stream made from a Node request (`Readable.toWeb(req)`) crashes the whole process on Node 20
 * when it is cancelled while Node is still pushing data into it (ERR_INVALID_STATE "Controller is already
 * closed"). Refusing an oversized body by cancelling that stream took every practice down. So no code
 * path gets such a stream: the body is buffered here with a byte limit and a time limit, and the fetch
 * Request is built from the buffer (safe to cancel).
 *
 * Over the limit: 413 with `Connection: close`; the rest of the body is read and discarded on the Node
 * side up to DRAIN_MAX_BYTES (so an ordinary client still reads the answer), then the socket is destroyed.
 * Too slow (BODY_TIMEOUT_MS for the whole body): 408 and the same. Aborted mid-way: nothing to answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handler } from "./stack";

/** Every route that takes a body (contact relay, revalidation, page posts) needs less than this. */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024;
/** A whole body must arrive within this time; a legitimate 16 KB post takes milliseconds. */
export const BODY_TIMEOUT_MS = 10_000;
/** How much of a refused body is still read (and dropped) so the client sees the answer, not a reset. */
export const DRAIN_MAX_BYTES = 1024 * 1024;

export const BODY_TOO_LARGE_MESSAGE = `Envoi refusé : le corps de la requête dépasse ${MAX_REQUEST_BODY_BYTES / 1024} Ko.`;
const BODY_TIMEOUT_MESSAGE = "Envoi refusé : la requête est arrivée trop lentement.";

export type BodyOutcome =
  | { kind: "ok"; body: Buffer }
  | { kind: "too-large" }
  | { kind: "timeout" }
  | { kind: "aborted" };

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

const DEFAULT_LIMITS: BodyLimits = { maxBytes: MAX_REQUEST_BODY_BYTES, timeoutMs: BODY_TIMEOUT_MS };

/**
 * Reads the whole body of `req` within the limits. Never rejects: every way a body can go wrong is an
 * outcome. A declared Content-Length over the limit is refused before a byte is read.
 */
export function readNodeBody(req: IncomingMessage, limits: BodyLimits = DEFAULT_LIMITS): Promise<BodyOutcome> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.resolve({ kind: "too-large" });
  if (req.readableEnded || req.complete) return Promise.resolve({ kind: "ok", body: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: BodyOutcome) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("close", onAbort);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) finish({ kind: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: "ok", body: Buffer.concat(chunks) });
    const onAbort = () => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout" }), limits.timeoutMs);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onAbort);
    req.once("close", onAbort);
  });
}

/**
 * After a refusal: keep reading (and dropping) what the client still sends, up to DRAIN_MAX_BYTES or
 * BODY_TIMEOUT_MS, then destroy the socket; `done` runs once, when the rest has been read or the bounds
 * are reached (before the socket is destroyed). Only Node streams are touched here, never a web stream.
 */
export function discardRest(req: IncomingMessage, done: () => void = () => {}): void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done();
  };
  if (req.readableEnded || req.destroyed) {
    finished = true;
    done();
    return;
  }
  let dropped = 0;
  const stop = () => {
    req.off("data", onData);
    finish();
    if (!req.readableEnded) req.destroy();
  };
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) stop();
  };
  const timer = setTimeout(stop, BODY_TIMEOUT_MS);
  req.on("data", onData);
  req.once("end", finish);
  req.once("error", finish);
  req.resume();
}

const bodies = new WeakMap<IncomingMessage, Buffer>();

/** The body read by requestBodyMiddleware (empty for GET/HEAD and bodiless requests). */
export function bodyOf(req: IncomingMessage): Buffer {
  return bodies.get(req) ?? EMPTY;
}
const EMPTY = Buffer.alloc(0);

/** Methods whose body is never read: Node discards it when the answer ends. */
const BODILESS = new Set(["GET", "HEAD", "OPTIONS"]);

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  res.statusCode = status;
  res.setHeader("Connection", "close");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  // A body too large: the answer is written whole at once (its length says where it ends) but ended only once
  // the rest of the body was read (bounded by discardRest): Node closes a `Connection: close` socket as the
  // answer ends, and closing with the client's bytes unread sends a reset, which can drop the answer from the
  // client's buffers before it reads it (a flaky "no answer" on a busy machine). A body too slow is not waited
  // for again: its answer ends at once.
  if (status !== 413) {
    res.end(body);
    discardRest(req);
    return;
  }
  res.write(body);
  discardRest(req, () => res.end());
}

/**
 * The app's handler that buffers the body of every request that may carry one, before any route or the
 * render sees it. Before the revalidation routes and the tenancy handler.
 */
export function requestBodyMiddleware(limits: BodyLimits = DEFAULT_LIMITS): Handler {
  return async (req, res, next) => {
    if (BODILESS.has(req.method!)) return next();
    const outcome = await readNodeBody(req, limits);
    switch (outcome.kind) {
      case "ok":
        bodies.set(req, outcome.body);
        return next();
      case "too-large":
        return refuse(req, res, 413, BODY_TOO_LARGE_MESSAGE);
      case "timeout":
        return refuse(req, res, 408, BODY_TIMEOUT_MESSAGE);
      case "aborted":
        // The client is gone: nothing to answer, and nothing to cancel.
        if (!req.destroyed) req.destroy();
        return;
    }
  };
}
