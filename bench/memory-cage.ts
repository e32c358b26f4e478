/**
 * A container's memory limit for a bench's server, without the container: a memory cgroup of its own under
 * the bench's, with the limit a deploy gives the container (`memory` in ops/deploy/environments.json), which is
 * what `podman run --memory` sets. The kernel charges the server's heap, its render workers (threads of the
 * same process) and the file pages it reads (the pre-pass's pages.bin) to it, reclaims file pages under the
 * limit, and kills the process if it cannot stay under: an out-of-memory kill is counted and reported.
 *
 * cgroup v1 (memory.limit_in_bytes, as on the machines this runs on) and v2 (memory.max, where the bench's own
 * cgroup delegates the memory controller to its children: +memory in its cgroup.subtree_control, which the
 * kernel allows only to a cgroup without processes of its own); where neither can be written the bench says so
 * and stops, unless `--memory-limit 0` asks for none.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface MemoryCage {
  /** The limit, bytes. */
  limit: number;
  /**
   * Moves a process and its threads into the cage, at its start: what it allocates from then on is charged
   * here (recent kernels no longer move what it was charged before: a moment of a starting process).
   */
  add(pid: number): void;
  /** The most memory the cage held at once, bytes (null where the kernel does not say). */
  peak(): number | null;
  /** Processes the kernel killed for lack of memory inside the cage. */
  oomKills(): number;
  /** Removes the cage (once its processes exited). */
  remove(): void;
}

/**
 * The memory cgroup of a process whose /proc/<pid>/cgroup reads `procCgroup`: its directory and the cgroup
 * version, or null (`mounted` says which hierarchies this machine has).
 */
export function memoryCgroupOf(procCgroup: string, mounted: { v1: boolean; v2: boolean }): { dir: string; v2: boolean } | null {
  const lines = procCgroup.split("\n");
  const v1 = lines.map((l) => /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/.exec(l)?.[1]).find((p) => p !== undefined);
  if (v1 !== undefined && mounted.v1) return { dir: join("/sys/fs/cgroup/memory", v1), v2: false };
  const unified = lines.map((l) => /^0::(.*)$/.exec(l)?.[1]).find((p) => p !== undefined);
  if (unified !== undefined && mounted.v2) return { dir: join("/sys/fs/cgroup", unified), v2: true };
  return null;
}

/** A cage named `name` with `limit` bytes; throws with what to do when the machine does not allow it. */
export function memoryCage(name: string, limit: number): MemoryCage {
  const own = memoryCgroupOf(readFileSync("/proc/self/cgroup", "utf8"), {
    v1: existsSync("/sys/fs/cgroup/memory"),
    v2: existsSync("/sys/fs/cgroup/cgroup.controllers"),
  });
  if (!own) throw new Error("no memory cgroup found for this process; run with --memory-limit 0 to measure without a limit");
  const dir = join(own.dir, `${name}-${process.pid}`);
  const read = (file: string) => readFileSync(join(dir, file), "utf8");
  try {
    mkdirSync(dir);
    if (own.v2) {
      writeFileSync(join(dir, "memory.max"), String(limit));
      try {
        writeFileSync(join(dir, "memory.swap.max"), "0");
      } catch {
        /* no swap accounting: nothing to limit */
      }
    } else {
      writeFileSync(join(dir, "memory.limit_in_bytes"), String(limit));
    }
  } catch (error) {
    try {
      rmdirSync(dir);
    } catch {
      /* never made */
    }
    throw new Error(
      `cannot make a memory cgroup under ${own.dir} (${(error as Error).message}); run as root on cgroup v1 or ` +
        `with a delegated cgroup v2, or with --memory-limit 0 to measure without a limit`,
    );
  }
  return {
    limit,
    add: (pid) => writeFileSync(join(dir, "cgroup.procs"), String(pid)),
    peak: () => {
      try {
        return Number(read(own.v2 ? "memory.peak" : "memory.max_usage_in_bytes").trim());
      } catch {
        return null;
      }
    },
    oomKills: () => {
      try {
        const m = /oom_kill (\d+)/.exec(read(own.v2 ? "memory.events" : "memory.oom_control"));
        return m ? Number(m[1]) : 0;
      } catch {
        return 0;
      }
    },
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        /* a process still in it: the kernel keeps the directory until it is empty */
      }
    },
  };
}
