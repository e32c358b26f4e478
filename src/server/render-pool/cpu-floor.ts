/**
 * The renders' CPU floor (docs/decisions/0058-render-cpu-floor.md). A server's render workers run under
 * SCHED_IDLE (0038): they get only the CPU that threads of normal priority leave, so hits stay fast while
 * renders run. The price was starvation: when the main thread (or anything else of normal priority in the
 * server's CPU group) wants all the CPU, an idle-class thread gets none at all, and every render ran into its
 * time limit (issue 30: 0 of 20 renders done at 300 requests/s on a busy machine).
 *
 * The floor: while renders are in flight, every INTERVAL_MS this reads how long each render thread waited on a
 * run queue (Linux's /proc/self/task/<tid>/schedstat). A render thread that waited for at least half of the
 * interval is starving: it is moved to the normal class (SCHED_OTHER at its nice 10, where Linux gives it
 * about a tenth of what a thread of nice 0 gets: a floor, not a tie). Once no render is in flight, the threads
 * moved go back to SCHED_IDLE. A thread that gets its CPU is never moved, so the hits keep what 0038 measured.
 *
 * Which threads: those of this process under SCHED_IDLE (only the render workers are), and those it moved.
 * Off Linux, or without `chrt`, there is nothing to read or set and the floor does nothing.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** How often a busy pool's render threads are sampled. */
export const INTERVAL_MS = 250;
/** The share of the interval spent waiting for a core from which a render thread is starving. */
export const STARVED_SHARE = 0.5;

/** Linux's scheduling policies, as /proc/<pid>/task/<tid>/stat gives them (field 41). */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

export interface ThreadSample {
  tid: number;
  policy: number;
  /** Nanoseconds spent runnable, waiting on a run queue (schedstat's second field). */
  waitNs: number;
}

/** The threads of this process with their policy and run-queue wait; empty off Linux. */
export function readThreads(taskDir = "/proc/self/task"): ThreadSample[] {
  let tids: string[];
  try {
    tids = readdirSync(taskDir);
  } catch {
    return [];
  }
  const samples: ThreadSample[] = [];
  for (const tid of tids) {
    try {
      const stat = readFileSync(`${taskDir}/${tid}/stat`, "utf8");
      // The command name (field 2) may hold spaces: the fields that follow start after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const policy = Number(fields[41 - 3]);
      const waitNs = Number(readFileSync(`${taskDir}/${tid}/schedstat`, "utf8").split(" ")[1]);
      if (Number.isFinite(policy) && Number.isFinite(waitNs)) samples.push({ tid: Number(tid), policy, waitNs });
    } catch {
      // the thread ended meanwhile
    }
  }
  return samples;
}

/** Moves a thread to SCHED_IDLE (idle) or back to SCHED_OTHER, with util-linux's `chrt` (Node has no call for it). */
function setIdle(tid: number, idle: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    execFile("chrt", [idle ? "--idle" : "--other", "--pid", "0", String(tid)], { timeout: 2000 }, (error) => resolve(!error));
  });
}

export interface CpuFloorOptions {
  /** Renders are in flight or waiting for a worker. */
  busy: () => boolean;
  read?: () => ThreadSample[];
  setIdle?: (tid: number, idle: boolean) => Promise<boolean>;
}

export class CpuFloor {
  /** Threads moved to the normal class and not yet moved back. */
  readonly promoted = new Set<number>();
  /** Threads moved to the normal class so far (stats, tests). */
  promotions = 0;
  private readonly last = new Map<number, { waitNs: number; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly read: () => ThreadSample[];
  private readonly set: (tid: number, idle: boolean) => Promise<boolean>;

  constructor(private readonly opts: CpuFloorOptions) {
    this.read = opts.read ?? readThreads;
    this.set = opts.setIdle ?? setIdle;
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(performance.now()), INTERVAL_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One sample: starving render threads moved to the normal class; all moved back once the pool is idle. */
  tick(now: number): void {
    if (!this.opts.busy()) {
      for (const tid of this.promoted) void this.set(tid, true);
      this.promoted.clear();
      this.last.clear();
      return;
    }
    for (const { tid, policy, waitNs } of this.read()) {
      if (policy !== SCHED_IDLE && !this.promoted.has(tid)) continue;
      const before = this.last.get(tid);
      this.last.set(tid, { waitNs, at: now });
      if (!before || this.promoted.has(tid) || now <= before.at) continue;
      const share = (waitNs - before.waitNs) / 1e6 / (now - before.at);
      if (share < STARVED_SHARE) continue;
      this.promoted.add(tid);
      this.promotions++;
      void this.set(tid, false).then((done) => {
        if (!done) this.promoted.delete(tid);
      });
    }
  }
}
