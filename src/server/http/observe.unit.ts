/**
 * The on-response consumers' own rules, on plain objects: the cache result label, and which 404s the migration
 * watch counts (every one the page cache answered a practice's host, none of the server's own plain 404s).
 */
import { describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resultOf, watchNotFound } from "./observe";
import type { RequestState } from "./pipeline";

function answered(opts: { status: number; cache?: string; site?: string | null; url?: string }) {
  const req = { url: opts.url ?? "/ancienne-page/" } as unknown as IncomingMessage;
  const res = { statusCode: opts.status } as ServerResponse;
  const site = opts.site === null ? null : { code: opts.site ?? "dupont", authority: "dupont.dev.localhost" };
  const state = { site, cache: opts.cache } as RequestState;
  return { req, res, state };
}

describe("resultOf", () => {
  it("says 404 for any 404, else the page cache's result, else NONE", () => {
    const label = (status: number, cache?: string) => {
      const { res, state } = answered({ status, cache });
      return resultOf(res, state);
    };
    expect(label(404, "HIT")).toBe("404");
    expect(label(200, "STALE")).toBe("STALE");
    expect(label(200, "MISS")).toBe("MISS");
    expect(label(200)).toBe("NONE");
  });
});

describe("watchNotFound", () => {
  function counted(cases: Parameters<typeof answered>[0][]): [string, string][] {
    const recorded: [string, string][] = [];
    const consumer = watchNotFound({ record: (code, url) => void recorded.push([code, url]) });
    for (const c of cases) {
      const { req, res, state } = answered(c);
      consumer(req, res, state, 1);
    }
    return recorded;
  }

  it("counts every 404 the page cache answered, whichever stage wrote it, with the target as asked", () => {
    expect(
      counted([
        { status: 404, cache: "HIT", url: "/vieux-lien/" }, // the cache hit stage: the stored 404 page
        { status: 404, cache: "MISS", url: "/api/nope/?p=12" }, // the app's handlers: the target as received
        { status: 404, cache: "STALE", url: "/plus-la/" },
      ]),
    ).toEqual([
      ["dupont", "/vieux-lien/"],
      ["dupont", "/api/nope/?p=12"],
      ["dupont", "/plus-la/"],
    ]);
  });

  it("counts no plain 404 (/build/, /assets/: no page), no other status, no request without a practice", () => {
    expect(
      counted([
        { status: 404, url: "/build/q-missing.js" },
        { status: 200, cache: "HIT" },
        { status: 301, cache: "HIT" },
        { status: 404, cache: "HIT", site: null },
      ]),
    ).toEqual([]);
  });
});
