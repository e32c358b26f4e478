/**
 * Request counting and fault injection, in front of the API and the media files.
 *
 * Counts let tests assert how often the frontend really called the backend (cache hits versus misses);
 * faults let them exercise the frontend's 502/503, stale-copy and timeout paths without a second server.
 */
import type { NextFunction, Request, Response } from "express";
import type { DemoState } from "./state.js";

/** The body a "malformed" fault answers: valid JSON that breaks every payload shape of the contract. */
export const MALFORMED_BODY = { code: 42 } as const;

const pathOf = (req: Request): string => req.originalUrl.split("?")[0] ?? "";

export function requestKey(req: Request): string {
  return `${req.method} ${pathOf(req)}`;
}

export function trafficMiddleware(state: DemoState) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    state.countRequest(requestKey(req));

    const fault = state.fault;
    const spared = fault && fault.rate < 1 && Math.random() >= fault.rate;
    if (!fault || spared || (fault.match !== null && !pathOf(req).includes(fault.match))) {
      next();
      return;
    }
    switch (fault.mode) {
      case "error500":
        res.status(500).json({ detail: "Injected fault: error500." });
        return;
      case "throttle":
        res.status(429).set("Retry-After", "30").json({ detail: "Injected fault: throttled." });
        return;
      case "malformed":
        res.status(200).json(MALFORMED_BODY);
        return;
      case "slow":
        // Unref'd so a pending delay never keeps a test process alive after the server is closed.
        await new Promise<void>((done) => setTimeout(done, fault.delayMs).unref());
        if (!res.headersSent) next();
        return;
    }
  };
}
