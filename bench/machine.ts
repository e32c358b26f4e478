/**
 * The machine's state beside every throughput figure: this machine's cores are shared (other work, other
 * sessions), and a figure taken while something else used a core is not the product's. Printed at the start
 * of a run and beside each figure: cores, load average, and the CPU the rest of the machine used during the
 * measured round (/proc/stat's busy time minus the CPU of the processes under test and the load generator).
 */
import { cpus, loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** Linux reports /proc CPU times in clock ticks of 1/100 s (USER_HZ; bench/processes.ts reads them the same way). */
export const TICKS_PER_SECOND = 100;

/** The machine-wide CPU times of /proc/stat's first line, in seconds. */
export interface CpuTimes {
  /** user + nice + system + irq + softirq + steal: time some process (or the hypervisor) had a core. */
  busy: number;
  /** Time the hypervisor gave this machine's cores to another guest (part of busy). */
  steal: number;
  /** busy + idle + iowait. */
  total: number;
}

/** Parses the aggregate "cpu" line of /proc/stat (the text is a parameter for the unit test). */
export function parseProcStat(text: string): CpuTimes {
  const line = text.split("\n").find((l) => /^cpu\s/.test(l));
  if (!line) throw new Error("/proc/stat has no aggregate cpu line");
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is counted in user already)
  const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / TICKS_PER_SECOND, steal: steal / TICKS_PER_SECOND, total: (busy + idle + iowait) / TICKS_PER_SECOND };
}

export function cpuTimes(): CpuTimes {
  return parseProcStat(readFileSync("/proc/stat", "utf8"));
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): [0] is field 3, the state. */
function statFields(pid: number | "self"): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU seconds (user + system) a process has used so far; with `reapedChildren`, its exited children's too. */
export function processCpuSeconds(pid: number | "self", reapedChildren = false): number {
  // utime is field 14, stime 15, cutime 16, cstime 17.
  const f = statFields(pid).slice(11, 15).map(Number);
  return (f[0] + f[1] + (reapedChildren ? f[2] + f[3] : 0)) / TICKS_PER_SECOND;
}

/**
 * The processes the bench started that are still running (servers, the demo backend, load generators): their
 * CPU is the bench's, not the machine's other work. bench/processes.ts and bench/load.ts add and remove them.
 */
export const benchPids = new Set<number>();

/**
 * CPU seconds used so far by the bench and everything it started: this process, its children that have
 * exited (cutime, cstime) and those still running (benchPids). The machine's busy time minus this is the
 * other work on the machine.
 */
export function benchCpuSeconds(): number {
  let total = processCpuSeconds("self", true);
  for (const pid of benchPids) {
    try {
      total += processCpuSeconds(pid);
    } catch {
      /* exited a moment ago: counted with the reaped children */
    }
  }
  return total;
}

/** What the rest of the machine did during one measured interval. */
export interface Elsewhere {
  /** Cores' worth of CPU used by processes other than those under test (can dip a little under 0: tick rounding). */
  otherCores: number;
  /** Cores' worth of steal (the hypervisor running another guest on this machine's cores). */
  stealCores: number;
  /** The 1-minute load average at the end of the interval. */
  load1: number;
}

/**
 * The CPU used elsewhere between two snapshots: the machine's busy time minus `underTestSeconds` (the CPU of
 * the servers under test, the load generator and this process over the same interval), per wall second.
 */
export function elsewhere(before: CpuTimes, after: CpuTimes, underTestSeconds: number, wallSeconds: number): Elsewhere {
  return {
    otherCores: (after.busy - before.busy - underTestSeconds) / wallSeconds,
    stealCores: (after.steal - before.steal) / wallSeconds,
    load1: loadavg()[0],
  };
}

const two = (n: number) => n.toFixed(2);

/**
 * Why a run must be on the deployed Node's major: the servers under test are started with this process's node
 * (bench/processes.ts), and the same build's HIT ratio moves with the runtime (2026-11-27, by hand on this machine:
 * about 72% of the bare server on Debian's Node 20, 80-87% on Node 24): a figure from another runtime is not the
 * product's. `deployed`: the version `ops/images/node.sh version` prints, as make reads it. null: it is.
 */
export function otherRuntime(running: string, deployed = execFileSync(resolve(import.meta.dirname, "../ops/images/node.sh"), ["version"], { encoding: "utf8" }).trim()): string | null {
  const major = (v: string) => v.replace(/^v/, "").split(".")[0];
  if (!/^\d+\.\d+\.\d+$/.test(deployed)) throw new Error(`ops/images/node.sh version printed ${JSON.stringify(deployed)}, not x.y.z`);
  if (major(running) === major(deployed)) return null;
  return `the bench runs on Node ${running}, the product on ${deployed} (ops/images/node.sh): run it with make bench, or with .cache/node/bin first on PATH`;
}

/** One line for the start of a run. */
export function machineLine(): string {
  const [l1, l5, l15] = loadavg();
  const model = cpus()[0]?.model ?? "?";
  return `${cpus().length} cores (${model}), load average ${two(l1)} / ${two(l5)} / ${two(l15)} (1, 5, 15 min), Node ${process.version}`;
}

/** Beside a figure measured over several rounds: the other processes' CPU over the rounds, and the load. */
export function elsewhereText(rounds: Elsewhere[]): string {
  if (rounds.length === 0) return "";
  const others = rounds.map((r) => r.otherCores).sort((a, b) => a - b);
  const steal = Math.max(...rounds.map((r) => r.stealCores));
  const loads = rounds.map((r) => r.load1);
  return (
    `machine: ${cpus().length} cores, load ${two(Math.min(...loads))}-${two(Math.max(...loads))}, other processes used ` +
    `${two(others[0])}-${two(others.at(-1)!)} cores (median ${two(others[Math.floor(others.length / 2)])}) during the ${rounds.length} measured runs` +
    (steal >= 0.01 ? `, steal up to ${two(steal)}` : "")
  );
}

/** The share of the machine's cores other work may take, in the median round, before a throughput figure is not judged. */
export const BUSY_SHARE = 0.1;

/** The median round's CPU used elsewhere (other processes and steal), in cores. */
export function medianElsewhere(rounds: Elsewhere[]): number {
  const used = rounds.map((r) => r.otherCores + r.stealCores).sort((a, b) => a - b);
  return used[Math.floor(used.length / 2)] ?? 0;
}

/**
 * Whether other work took a real share of the machine (more than BUSY_SHARE of its cores in the median
 * round): a throughput figure measured then is the machine's contention, not the product's, and is not
 * judged (bench/figures.ts judgeThroughput; on a busy 2-core machine a bare server measured 24k req/s and the
 * product 27k, while the product's CPU per request was 46% higher).
 */
export function wasBusy(rounds: Elsewhere[], cores = cpus().length): boolean {
  return medianElsewhere(rounds) > BUSY_SHARE * cores;
}
