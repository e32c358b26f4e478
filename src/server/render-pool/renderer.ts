/**
 * How the page cache renders, in one interface with two implementations, chosen once by the composition
 * root (src/server/services.ts):
 *
 * - pooledRenderer(): in the render pool's worker threads (a built server, RENDER_WORKERS >= 1);
 * - inProcessRenderer(): in this thread (RENDER_WORKERS=0).
 *
 * Both put every render a visitor can cause behind the same admission control (admission.ts,
 * docs/decisions/0019-admission.md: bounded, fair between practices, visitors first), so a server without
 * workers behaves the same under load, only with less CPU. Both also own the backend read caches their
 * renders read through: an invalidation drops the tags from each of them before any render posted after it
 * starts (docs/decisions/0021-read-cache-placement.md).
 */
import type { RenderRequest } from "../render/render";
import type { CacheTarget } from "../cache/key";
import type { PageCacheOptions, Priority, RenderTarget } from "../cache/page-cache";
import type { RenderResult } from "../cache/entry";
import type { SharedValues } from "../render/context";
import { mayCheckUnknown } from "../cache/not-found";
import type { PathLookups } from "../site/path-index";
import { Admission } from "./admission";
import type { RenderPool } from "./main";
import { fromWire } from "./protocol";
import { renderChecked, targetRenderer } from "./target";
import type { Metrics } from "../monitoring/metrics";
import { withRequestId } from "../monitoring/log";
import { visitorSignal } from "./visitor";

/** What the page cache is given to render with (its options), and what the pre-pass and the server use. */
export interface CacheRenderer extends Pick<PageCacheOptions, "render" | "promote" | "invalidateData" | "concurrency" | "refreshBudget"> {
  /** Empties every read cache (a possibly missed invalidation: cache/shared/). */
  clearData(): void;
  /** A listed page for the pre-pass: no unknown-path check, no admission (the pre-pass bounds its own). */
  renderListed: RenderTarget;
  /** Renders that can run at once. */
  capacity: number;
  /** The render pool, when renders run in one (stats, shutdown). */
  pool?: RenderPool;
  /**
   * A visitor's render that is never stored: a refused no-JS contact submission's page, with the result on
   * its request (`shared`). Behind the same admission as a miss: the main thread renders nothing.
   */
  renderOnce(target: CacheTarget, shared: SharedValues, requestId?: string): Promise<RenderResult>;
}

/** Which admission queue a practice's renders wait in (tenancy's listedOrUnlisted: unlisted codes share one). */
export type AdmissionBucket = (code: string) => string;

/** A read cache the renders read through (backend/read-cache.ts). */
interface DataCache {
  invalidate(tags: string[]): void;
  clear(): void;
}

/** A practice's renders waiting at most, and all practices' (past them: the stale copy or a 503). */
const MAX_QUEUED_PER_PRACTICE = 32;
const MAX_QUEUED = 512;
/** A render that waited this long for a slot is refused rather than started late. */
export const MAX_WAIT_MS = 10_000;
/** Background re-renders waiting at most: the eager budget after an invalidation. */
const REFRESH_BUDGET = 256;
/**
 * Renders at once without a pool: most of a render's time is spent waiting for the backend, and the thread
 * rendering is the one answering hits, so fewer than a pool of two workers runs.
 */
const IN_PROCESS_CONCURRENCY = 4;

/** Renders in the pool's workers; invalidations reach this thread's read cache and every worker's. */
/** Where renders through admission are measured (the server's metrics; off: a Metrics that counts nothing). */
export type RenderMeasure = Pick<Metrics, "measuredRender">;

export function pooledRenderer(pool: RenderPool, dataCache: DataCache | null, bucket: AdmissionBucket, measure: RenderMeasure): CacheRenderer {
  const run = async (target: CacheTarget, checkUnknown: boolean, requestId?: string) =>
    fromWire(await pool.run({ target, checkUnknown: checkUnknown && mayCheckUnknown(target), requestId }));
  const { admit, ...admission } = admitted(pool.capacity, bucket, (target, requestId) => run(target, true, requestId), measure);
  return {
    ...admission,
    renderOnce: (target, shared, requestId) =>
      admit(target, "visitor", async () => fromWire(await pool.run({ target, checkUnknown: false, requestId, shared }))),
    renderListed: (target) => run(target, false),
    invalidateData: (tags) => {
      // This thread's read cache (the renders that stay here: contact, media) and every worker's. A worker
      // applies the broadcast before any render posted after it: nothing rendered after the webhook's answer
      // reads a payload the tags named from before.
      dataCache?.invalidate(tags);
      pool.broadcast({ kind: "invalidate", tags });
    },
    clearData: () => {
      dataCache?.clear();
      pool.broadcast({ kind: "clear" });
    },
    // Background re-renders at once: one per worker. A webhook naming hundreds of pages must not fill every
    // render slot (both cores) while other practices' visitors are served; a visitor asking for a page whose
    // refresh still waits renders it at once, as a visitor's miss.
    concurrency: pool.size,
    capacity: pool.capacity,
    pool,
  };
}

/** Renders in this thread, with the same admission and checks as in a worker. */
export function inProcessRenderer(
  renderRequest: RenderRequest,
  paths: PathLookups,
  dataCache: DataCache | null,
  bucket: AdmissionBucket,
  measure: RenderMeasure,
): CacheRenderer {
  const render = targetRenderer(renderRequest);
  const { admit, ...admission } = admitted(
    IN_PROCESS_CONCURRENCY,
    bucket,
    (target, requestId) => withRequestId(requestId, () => renderChecked(target, mayCheckUnknown(target), render, paths)),
    measure,
  );
  return {
    ...admission,
    renderOnce: (target, shared, requestId) => admit(target, "visitor", () => withRequestId(requestId, () => render(target, shared))),
    renderListed: (target) => render(target),
    invalidateData: (tags) => dataCache?.invalidate(tags),
    clearData: () => dataCache?.clear(),
    concurrency: Math.max(1, IN_PROCESS_CONCURRENCY / 2),
    capacity: IN_PROCESS_CONCURRENCY,
  };
}

/**
 * A render function behind admission, its promotion (a visitor joined a queued refresh), and `admit` for
 * any other render that must wait its turn. Queues are per bucket: a listed practice's own, or the one
 * every unlisted code shares (an invented preview host must not get a queue of its own).
 */
function admitted(
  concurrency: number,
  bucket: AdmissionBucket,
  render: (target: CacheTarget, requestId?: string) => ReturnType<RenderTarget>,
  measure: RenderMeasure,
) {
  const admission = new Admission({
    concurrency,
    maxQueuedPerPractice: MAX_QUEUED_PER_PRACTICE,
    maxQueued: MAX_QUEUED,
    maxWaitMs: MAX_WAIT_MS,
  });
  // Queue wait, queue depth and render time measured here, on the main thread (monitoring/metrics.ts). A
  // visitor's render carries the visitor's signal (visitor.ts): dropped if they all leave before it starts.
  const admit = (target: CacheTarget, priority: Priority, run: () => Promise<RenderResult>) => {
    const queued = (start: () => Promise<RenderResult>) =>
      admission.run(bucket(target.code), target.key, priority, start, priority === "visitor" ? visitorSignal() : undefined);
    return measure.measuredRender(target.code, queued, run);
  };
  return {
    render: ((target, priority = "visitor", requestId) => admit(target, priority, () => render(target, requestId))) as RenderTarget,
    promote: (target: CacheTarget) => admission.promote(bucket(target.code), target.key, visitorSignal()),
    refreshBudget: REFRESH_BUDGET,
    admit,
  };
}
