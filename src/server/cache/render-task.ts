/**
 * One render task, both sides of it: what the main thread posts to a render worker, what the worker does
 * (the checked render of render-target.ts, compress the storable result, transfer the bytes), and how the
 * main thread turns the answer back into a RenderResult for the page cache. Bodies travel as transferred
 * ArrayBuffers: no copies.
 */
import type { Transferable } from "node:worker_threads";
import { encodeSync, isStorable, type RenderResult } from "./entry";
import type { CacheTarget } from "./key";
import type { RenderTarget } from "./page-cache";
import { renderChecked, type PathLookups } from "./render-target";

export interface RenderTask {
  target: CacheTarget;
  /** Look the path up in the practice's page list first, and answer `unknownPage` without rendering. */
  checkUnknown: boolean;
}

/** A RenderResult as it crosses the thread boundary (Headers and Buffers are not transferable as they are). */
interface WireResult {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  tags: string[];
  encoded: { br: ArrayBuffer | null; gzip: ArrayBuffer | null; etag: string } | null;
  unknownPage: boolean;
  pathIndex: { pagePaths: string[]; slugs: string[] } | null;
}

/** Worker side: runs one task. */
export async function runRenderTask(
  task: RenderTask,
  render: RenderTarget,
  paths: PathLookups,
): Promise<{ value: WireResult; transfer: Transferable[] }> {
  const result = await renderChecked(task.target, task.checkUnknown, render, paths);
  const encoded = isStorable(result) ? encodeSync(result) : null;
  const body = ownArrayBuffer(result.body);
  const br = encoded?.br ? ownArrayBuffer(encoded.br) : null;
  const gzip = encoded?.gzip ? ownArrayBuffer(encoded.gzip) : null;
  const value: WireResult = {
    status: result.status,
    headers: [...result.headers],
    body,
    tags: result.tags,
    encoded: encoded && { br, gzip, etag: encoded.etag },
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
