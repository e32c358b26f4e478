/**
 * The render pool's wire protocol, both directions, in one place: what the main thread (main.ts) posts to
 * a render worker (worker.ts) and what comes back. Every message is one case of a union, so neither side
 * reads an `unknown` back with a cast.
 *
 *   main -> worker   { kind: "task", id, task }         render this target for the cache
 *                    { kind: "broadcast", message }     read caches: drop these tags, or everything
 *   worker -> main   { id, ok: true, value }            the render, bodies as transferred ArrayBuffers
 *                    { id, ok: false, error }           it failed (the message only)
 *                    { figure }                         a backend read the worker made, for the metrics
 *
 * A worker handles its messages in the order they were posted, so a task posted after a broadcast runs after
 * the worker applied it. The codec of a render result (toWire on the worker, fromWire on the main thread)
 * lives here too: Headers and Buffers do not cross a thread boundary as they are, and bodies must move
 * without copies.
 */
import type { Transferable } from "node:worker_threads";
import type { CacheTarget } from "../cache/key";
import type { RenderResult } from "../cache/entry";
import type { SharedValues } from "../render/context";
import type { BackendFigure } from "../monitoring/metrics";

/** One render for the cache. */
export interface RenderTask {
  target: CacheTarget;
  /** Look the path up in the practice's page list first, and answer `unknownPage` without rendering. */
  checkUnknown: boolean;
  /** The visitor's request that caused it, for the worker's log lines (none for a background refresh). */
  requestId?: string;
  /** Values put on the render's request (render/context.ts); such a render is never stored. */
  shared?: SharedValues;
}

/** What every worker is told: drop what these tags name from its read cache, or empty it. */
export type Broadcast = { kind: "invalidate"; tags: string[] } | { kind: "clear" };

/** What a render worker is told at its start (worker_threads' workerData). */
export interface RenderWorkerData {
  nice: number;
  /** Run under SCHED_IDLE: only when no thread of normal priority wants the core. */
  idle: boolean;
}

/** The envelopes; the pool's machinery (main.ts) is generic over what they carry, so its tests can fake a worker. */
export type ToWorker<Task = RenderTask, Message = Broadcast> =
  | { kind: "task"; id: number; task: Task }
  | { kind: "broadcast"; message: Message };

export type FromWorker<Answer = WireResult> =
  | { id: number; ok: true; value: Answer }
  | { id: number; ok: false; error: string }
  | { figure: BackendFigure };

/** A RenderResult as it crosses the thread boundary. */
export interface WireResult {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  tags: string[];
  encoded: { br: ArrayBuffer | null; gzip: ArrayBuffer | null; etag: string } | null;
  unknownPage: boolean;
  pathIndex: { pagePaths: string[]; slugs: string[] } | null;
}

/** Worker side: a render (and its compressed forms, when storable) as a message and the buffers it transfers. */
export function toWire(result: RenderResult, encoded: RenderResult["encoded"]): { value: WireResult; transfer: Transferable[] } {
  const body = ownArrayBuffer(result.body);
  const br = encoded?.br ? ownArrayBuffer(encoded.br) : null;
  const gzip = encoded?.gzip ? ownArrayBuffer(encoded.gzip) : null;
  const value: WireResult = {
    status: result.status,
    headers: [...result.headers],
    body,
    tags: result.tags,
    encoded: encoded ? { br, gzip, etag: encoded.etag } : null,
    unknownPage: result.unknownPage ?? false,
    pathIndex: result.pathIndex ? { pagePaths: [...result.pathIndex.pagePaths], slugs: [...result.pathIndex.slugs] } : null,
  };
  return { value, transfer: [body, br, gzip].filter((b): b is ArrayBuffer => b !== null) };
}

/** Main side: the worker's answer as the page cache's RenderResult (the bytes are not copied). */
export function fromWire(wire: WireResult): RenderResult {
  const headers = new Headers();
  for (const [name, value] of wire.headers) headers.append(name, value);
  const buffer = (bytes: ArrayBuffer | null) => (bytes ? Buffer.from(bytes) : null);
  return {
    status: wire.status,
    headers,
    body: Buffer.from(wire.body),
    tags: wire.tags,
    encoded: wire.encoded ? { br: buffer(wire.encoded.br), gzip: buffer(wire.encoded.gzip), etag: wire.encoded.etag } : undefined,
    unknownPage: wire.unknownPage || undefined,
    pathIndex: wire.pathIndex ? { pagePaths: new Set(wire.pathIndex.pagePaths), slugs: new Set(wire.pathIndex.slugs) } : undefined,
  };
}

/** The bytes in an ArrayBuffer of their own (transferring a shared pool slab would take it from others). */
function ownArrayBuffer(bytes: Buffer): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return bytes.buffer;
  }
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}
