/**
 * Steady traffic for the failure drills (drills.ts): requests at a fixed rate until stopped, every status
 * kept, and for each target the X-Cache of the answer to the first request sent for it, so a drill that says
 * a page was "rendered for the first time" can check that it was (MISS), not served from a cache (HIT).
 */
export interface Target {
  host: string;
  path: string;
}

/** What the drills need of an answer (the Answer of ops/operator/request.ts has it). */
export interface TrafficAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface TrafficResult {
  /** Answers by status ("200", "503"...) or "error <message>". */
  statuses: Map<string, number>;
  /** Per target (`host path`): the first request's answer, as "<status> <X-Cache>" or "error <message>". */
  first: Map<string, string>;
}

export const targetKey = (t: Target) => `${t.host} ${t.path}`;

export function traffic(targets: Target[], send: (t: Target) => Promise<TrafficAnswer>, perSecond = 8) {
  const statuses = new Map<string, number>();
  const first = new Map<string, string>();
  const pending = new Set<Promise<void>>();
  const sentOnce = new Set<string>();
  let n = 0;
  const timer = setInterval(() => {
    const t = targets[n++ % targets.length];
    const key = targetKey(t);
    // The first request sent for a target, not the first to come back: it is the one that found no copy.
    const isFirst = !sentOnce.has(key);
    sentOnce.add(key);
    const p = send(t)
      .then(
        (r) => ({ status: String(r.status), seen: `${r.status} ${String(r.headers["x-cache"] ?? "(no X-Cache)")}` }),
        (e: Error) => ({ status: `error ${e.message}`, seen: `error ${e.message}` }),
      )
      .then(({ status, seen }) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (isFirst) first.set(key, seen);
        pending.delete(p);
      });
    pending.add(p);
  }, 1000 / perSecond);
  return {
    async stop(): Promise<TrafficResult> {
      clearInterval(timer);
      await Promise.all(pending);
      return { statuses, first };
    },
  };
}

/** The targets whose first answer was not a 200 rendered for it (MISS), as "host path: what it was". */
export function notRenderedFirst(targets: Target[], first: Map<string, string>): string[] {
  return targets.map((t) => `${targetKey(t)}: ${first.get(targetKey(t)) ?? "never asked for"}`).filter((line) => !line.endsWith(": 200 MISS"));
}
