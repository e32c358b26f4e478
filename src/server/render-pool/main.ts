/**
 * A pool of worker threads (node:worker_threads) that run tasks posted from the main thread, so the CPU
 * of rendering and compressing never runs on the thread that answers cache hits
 * (docs/decisions/0022-render-pool.md says why not piscina).
 *
 * - Each worker runs up to `perWorker` tasks at once: a render spends most of its time waiting for the
 *   backend, so a few in flight keep a core busy. Tasks beyond the pool's capacity wait here, in order
 *   (the admission control in front, admission.ts, keeps this queue short and fair).
 * - A task that has not answered after `timeoutMs` (a render stuck in a loop) is rejected and its worker
 *   terminated. A worker that exits (a crash, out of memory) is replaced. Either way the other tasks the
 *   worker was running are queued again, once, with a fresh time limit: one practice's payload that kills a
 *   worker must not fail the other practices' renders on it. Such a task runs alone on a worker (it may be
 *   the cause); if that worker dies too, the task is rejected. Every rejection is a RenderUnavailable.
 * - broadcast() posts one message to every worker. A worker's messages are handled in the order they
 *   were posted, so a task posted after a broadcast runs after the worker handled it: an invalidation
 *   broadcast reaches a worker's read cache before any render posted after it starts.
 *
 * This file runs on the main thread; the messages are protocol.ts's, the worker side is worker.ts. The class
 * is generic over what the messages carry (its unit test fakes a worker); the server's pool carries renders.
 */
import { Worker, type ResourceLimits, type Transferable } from "node:worker_threads";
import { RenderUnavailable } from "../render/unavailable";
import type { Broadcast, FromWorker, RenderTask, ToWorker, WireResult } from "./protocol";
import { CpuFloor } from "./cpu-floor";
import type { BackendFigure } from "../monitoring/metrics";

export interface PoolOptions {
  /** The worker script (a built .js/.mjs file). */
  file: string | URL;
  size: number;
  perWorker: number;
  timeoutMs: number;
  resourceLimits?: ResourceLimits;
  /** Handed to every worker (worker_threads' workerData). */
  workerData?: unknown;
  /** The workers' environment variables (default: a copy of the main thread's). */
  env?: Record<string, string | undefined>;
  /** A worker that dies within 2 s of its start is replaced after this (a crash loop); default 1 s. */
  respawnDelayMs?: number;
  /** Told when a worker exits unexpectedly (reporting). */
  onWorkerExit?: (detail: string) => void;
  /** A worker's measure of a backend read (the metrics, recorded on this thread). */
  onFigure?: (figure: BackendFigure) => void;
  /** Workers under SCHED_IDLE: a starving one is moved to the normal class while renders are in flight (cpu-floor.ts). */
  cpuFloor?: boolean;
}

interface Queued<Task, Answer> {
  id: number;
  task: Task;
  transfer: Transferable[];
  resolve: (value: Answer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Workers this task was lost with (0 or 1). */
  requeued: number;
}

interface Pending<Task, Answer> extends Queued<Task, Answer> {
  slot: Slot;
}

interface Slot {
  worker: Worker;
  running: number;
  startedAt: number;
  /** Broken: terminated or exited, no new task goes to it. */
  gone: boolean;
  /** Running a task lost with another worker, alone: if it kills this worker too, it takes nothing else along. */
  isolated: boolean;
}

/** A worker that dies within this long of its start waits before its replacement (a crash loop). */
const YOUNG_MS = 2_000;

export class RenderPool<Task = RenderTask, Answer = WireResult, Message = Broadcast> {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending<Task, Answer>>();
  private readonly queue: Queued<Task, Answer>[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers replaced after an exit or a timeout (tests, stats). */
  replaced = 0;
  private readonly floor: CpuFloor | undefined;

  constructor(private readonly opts: PoolOptions) {
    for (let i = 0; i < opts.size; i++) this.slots.push(this.spawn());
    if (opts.cpuFloor) {
      this.floor = new CpuFloor({ busy: () => this.pending.size > 0 || this.queue.length > 0 });
      this.floor.start();
    }
  }

  /** Tasks the workers can run at once. */
  get capacity(): number {
    return this.opts.size * this.opts.perWorker;
  }

  get size(): number {
    return this.opts.size;
  }

  /** Runs one task in a worker; rejects with RenderUnavailable if it times out or its worker dies. */
  run(task: Task, transfer: Transferable[] = []): Promise<Answer> {
    if (this.closed) return Promise.reject(new RenderUnavailable("render pool closed"));
    return new Promise<Answer>((resolve, reject) => {
      const id = this.nextId++;
      // The time limit counts from here: a task never waits without end, even with every worker down.
      const timer = setTimeout(() => this.expire(id), this.opts.timeoutMs);
      this.queue.push({ id, task, transfer, resolve, reject, timer, requeued: 0 });
      this.dispatch();
    });
  }

  /** Posts a message to every worker (handled before any task posted after it). */
  broadcast(message: Message): void {
    const envelope: ToWorker<Task, Message> = { kind: "broadcast", message };
    for (const slot of this.slots) if (!slot.gone) slot.worker.postMessage(envelope);
  }

  stats() {
    return {
      workers: this.slots.filter((s) => !s.gone).length,
      running: this.pending.size,
      queued: this.queue.length,
      replaced: this.replaced,
      /** Render threads moved out of SCHED_IDLE because they starved (cpu-floor.ts), since the start. */
      cpuFloorPromotions: this.floor?.promotions ?? 0,
    };
  }

  /** Terminates every worker; running and queued tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    this.floor?.stop();
    for (const item of this.queue.splice(0)) {
      clearTimeout(item.timer);
      item.reject(new RenderUnavailable("render pool closed"));
    }
    await Promise.all(this.slots.map((slot) => this.retire(slot, "render pool closed")));
  }

  private spawn(): Slot {
    const worker = new Worker(this.opts.file, {
      resourceLimits: this.opts.resourceLimits,
      env: this.opts.env,
      workerData: this.opts.workerData,
    });
    const slot: Slot = { worker, running: 0, startedAt: Date.now(), gone: false, isolated: false };
    worker.on("message", (message: FromWorker<Answer>) => {
      if ("figure" in message) {
        this.opts.onFigure?.(message.figure);
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return; // timed out meanwhile
      this.settle(message.id, pending);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new Error(message.error || "render failed in a worker"));
      this.dispatch();
    });
    // An uncaught exception in the worker also ends it: "exit" follows and does the cleanup.
    worker.on("error", (error) => this.opts.onWorkerExit?.(`render worker error: ${error.message}`));
    worker.on("exit", (code) => {
      if (slot.gone) return;
      this.opts.onWorkerExit?.(`render worker exited with code ${code}`);
      void this.replace(slot, `render worker exited (code ${code})`);
    });
    return slot;
  }

  private dispatch(): void {
    while (this.queue.length) {
      const suspect = this.queue[0].requeued > 0;
      let best: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.gone || slot.isolated) continue;
        const free = suspect ? slot.running === 0 : slot.running < this.opts.perWorker;
        if (free && (!best || slot.running < best.running)) best = slot;
      }
      if (!best) return;
      const item = this.queue.shift()!;
      const { id } = item;
      const slot = best;
      this.pending.set(id, { ...item, slot });
      slot.running++;
      slot.isolated = suspect;
      try {
        const envelope: ToWorker<Task, Message> = { kind: "task", id, task: item.task };
        slot.worker.postMessage(envelope, item.transfer);
      } catch (error) {
        // Not cloneable: the caller's mistake, not the worker's.
        const pending = this.pending.get(id)!;
        this.settle(id, pending);
        pending.reject(error as Error);
      }
    }
  }

  private expire(id: number): void {
    const error = new RenderUnavailable(`render timed out after ${this.opts.timeoutMs} ms`);
    const at = this.queue.findIndex((item) => item.id === id);
    if (at !== -1) {
      this.queue.splice(at, 1)[0].reject(error);
      return;
    }
    const pending = this.pending.get(id);
    if (!pending) return;
    this.settle(id, pending);
    pending.reject(error);
    // Its worker may be stuck in a loop, which only terminating it ends.
    void this.replace(pending.slot, "its worker was restarted after another render timed out");
  }

  private settle(id: number, pending: Pending<Task, Answer>): void {
    clearTimeout(pending.timer);
    this.pending.delete(id);
    pending.slot.running--;
    if (pending.requeued > 0) pending.slot.isolated = false;
  }

  /**
   * Ends a slot's worker (the pool's own decision, or its exit). Its tasks are queued again once, ahead of
   * the others and with a fresh time limit, unless the pool is closing or they were lost with a worker before.
   */
  private async retire(slot: Slot, reason: string): Promise<void> {
    if (slot.gone) return;
    slot.gone = true;
    const again: Queued<Task, Answer>[] = [];
    for (const [id, pending] of this.pending) {
      if (pending.slot !== slot) continue;
      this.settle(id, pending);
      if (this.closed || pending.requeued > 0 || pending.transfer.length > 0) {
        // Run again alone on a live worker and lost with it too: this task is what ends workers.
        pending.reject(new RenderUnavailable(reason, 5, true, !this.closed && pending.requeued > 0));
        continue;
      }
      const { task, transfer, resolve, reject } = pending;
      const timer = setTimeout(() => this.expire(id), this.opts.timeoutMs);
      again.push({ id, task, transfer, resolve, reject, timer, requeued: pending.requeued + 1 });
    }
    this.queue.unshift(...again);
    this.dispatch(); // to the live workers at once; the replacement takes the rest when it starts
    await slot.worker.terminate();
  }

  private async replace(slot: Slot, reason: string): Promise<void> {
    const young = Date.now() - slot.startedAt < YOUNG_MS;
    await this.retire(slot, reason);
    if (this.closed) return;
    if (young) await new Promise((r) => setTimeout(r, this.opts.respawnDelayMs ?? 1_000));
    if (this.closed) return;
    this.replaced++;
    this.slots[this.slots.indexOf(slot)] = this.spawn();
    this.dispatch();
  }
}
