import { describe, expect, it } from "vitest";
import { sharedNames } from "./names";

describe("shared cache names", () => {
  it("put the environment in every key and channel (pub/sub ignores database numbers)", () => {
    for (const env of ["prod", "staging", "dev"]) {
      const n = sharedNames(env);
      const all = [n.invalidations, n.acks("i1"), n.joined, n.members, n.lease("i1"), n.versionPrefix, n.page("dupont\u0000x\u0000/")];
      for (const name of all) expect(name.startsWith(`practice-frontend:${env}:`), name).toBe(true);
    }
    expect(sharedNames("prod").invalidations).not.toBe(sharedNames("staging").invalidations);
  });

  it("hashes page keys: bounded length, no raw bytes of the key in Redis", () => {
    const long = sharedNames("dev").page(`dupont\u0000dupont.dev.localhost\u0000/${"a".repeat(2000)}`);
    expect(long.length).toBeLessThan(100);
    expect(long).toMatch(/^practice-frontend:dev:page:[A-Za-z0-9_-]{43}$/);
    expect(sharedNames("dev").page("a")).not.toBe(sharedNames("dev").page("b"));
  });
});
