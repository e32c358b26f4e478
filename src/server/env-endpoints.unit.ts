import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

const valid = {
  BACKEND_API_URL: "http://backend:8000/api/v1/websites",
  REVALIDATION_SECRET: "a-long-enough-secret-value",
  ENVIRONMENT: "dev",
};

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  throw new Error("expected parseEnv to throw");
}

describe("the endpoints' variables", () => {
  it("have defaults", () => {
    expect(parseEnv(valid)).toMatchObject({
      CONTACT_RATE_LIMIT: 5,
      CONTACT_RATE_WINDOW_S: 600,
      TRUSTED_PROXY: "loopback, uniquelocal",
    });
    expect(parseEnv(valid).MEDIA_CACHE_DIR).toBeUndefined();
  });

  it.each([
    ["10.0.0.1", "10.0.0.1"],
    ["loopback, 10.0.0.0/8, fd00::/8", "loopback, 10.0.0.0/8, fd00::/8"],
    ["false", false],
  ])("TRUSTED_PROXY %j", (value, parsed) => {
    expect(parseEnv({ ...valid, TRUSTED_PROXY: value }).TRUSTED_PROXY).toBe(parsed);
  });

  it.each([
    ["true", 'TRUSTED_PROXY must list addresses, CIDR ranges or loopback/linklocal/uniquelocal (or be "false"); not "true"'],
    ["*", 'TRUSTED_PROXY must list addresses, CIDR ranges or loopback/linklocal/uniquelocal (or be "false"); not "*"'],
    ["10.0.0.0/33, proxy.local", 'TRUSTED_PROXY must list addresses, CIDR ranges or loopback/linklocal/uniquelocal (or be "false"); not "10.0.0.0/33", "proxy.local"'],
  ])("refuses TRUSTED_PROXY %j", (value, message) => {
    expect(problemsOf({ ...valid, TRUSTED_PROXY: value })).toEqual([message]);
  });

  it("refuses a rate limit that is not a positive whole number", () => {
    expect(problemsOf({ ...valid, CONTACT_RATE_LIMIT: "0" })).toEqual(["CONTACT_RATE_LIMIT must be at least 1"]);
    expect(problemsOf({ ...valid, CONTACT_RATE_WINDOW_S: "10m" })).toEqual(["CONTACT_RATE_WINDOW_S must be a whole number"]);
  });
});
