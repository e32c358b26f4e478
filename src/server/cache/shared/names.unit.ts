import { describe, expect, it } from "vitest";
import { cacheNamespace, sharedNames } from "./names";

describe("shared cache names", () => {
  it("put the environment and the deployment in every key and channel (pub/sub ignores database numbers)", () => {
    for (const env of ["prod", "staging", "dev"]) {
      const n = sharedNames(env, "eu1");
      const all = [n.invalidations, n.acks("i1"), n.joined, n.members, n.lease("i1"), n.versionPrefix, n.pendingPrefix, n.page("dupont\u0000x\u0000/")];
      for (const name of all) expect(name.startsWith(`practice-frontend:${env}:eu1:`), name).toBe(true);
    }
    expect(sharedNames("prod", "a").invalidations).not.toBe(sharedNames("staging", "a").invalidations);
    expect(sharedNames("prod", "a").invalidations).not.toBe(sharedNames("prod", "b").invalidations);
  });

  it("derives the namespace from the backend URL unless CACHE_NAMESPACE names it: one env file, one namespace", () => {
    const one = { BACKEND_API_URL: "http://backend-eu:8000/api/v1/websites" };
    const other = { BACKEND_API_URL: "http://backend-us:8000/api/v1/websites" };
    expect(cacheNamespace(one)).toBe(cacheNamespace({ ...one }));
    expect(cacheNamespace(one)).not.toBe(cacheNamespace(other));
    expect(cacheNamespace(one)).toMatch(/^[0-9a-f]{12}$/);
    expect(cacheNamespace({ ...one, CACHE_NAMESPACE: "blue" })).toBe("blue");
  });

  it("hashes page keys: bounded length, no raw bytes of the key in Redis", () => {
    const long = sharedNames("dev", "ns").page(`dupont\u0000dupont.dev.localhost\u0000/${"a".repeat(2000)}`);
    expect(long.length).toBeLessThan(100);
    expect(long).toMatch(/^practice-frontend:dev:ns:page:[A-Za-z0-9_-]{43}$/);
    expect(sharedNames("dev", "ns").page("a")).not.toBe(sharedNames("dev", "ns").page("b"));
  });
});
