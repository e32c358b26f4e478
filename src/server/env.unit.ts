import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

const valid = {
  BACKEND_API_URL: "http://backend:8000/api/v1/websites/",
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

describe("parseEnv", () => {
  it("applies the specification's defaults", () => {
    const env = parseEnv(valid);
    expect(env.BACKEND_API_URL).toBe("http://backend:8000/api/v1/websites");
    expect(env.BACKEND_REVALIDATE_TTL).toBe(3600);
    expect(env.PORT).toBe(3000);
    expect(env.PREVIEW_DOMAIN).toBeUndefined();
    expect(env.TENANTS_FILE).toBe("tenants/practices.json");
  });

  it("reads the optional values", () => {
    const env = parseEnv({ ...valid, PORT: "8080", BACKEND_REVALIDATE_TTL: "60", PREVIEW_DOMAIN: "Preview.Example.org" });
    expect(env).toMatchObject({ PORT: 8080, BACKEND_REVALIDATE_TTL: 60, PREVIEW_DOMAIN: "preview.example.org" });
  });

  it.each(["BACKEND_API_URL", "REVALIDATION_SECRET", "ENVIRONMENT"])("names %s when it is missing", (name) => {
    const source: Record<string, string | undefined> = { ...valid, [name]: undefined };
    expect(problemsOf(source)).toEqual([`${name} is required but not set`]);
    expect(problemsOf({ ...valid, [name]: "" })).toEqual([`${name} is required but not set`]);
  });

  it.each([
    ["BACKEND_API_URL", "backend:8000", "BACKEND_API_URL must be an absolute http(s) URL"],
    ["BACKEND_API_URL", "ftp://backend/api", "BACKEND_API_URL must be an absolute http(s) URL"],
    ["REVALIDATION_SECRET", "short", "REVALIDATION_SECRET must be at least 16 characters"],
    ["ENVIRONMENT", "production", "ENVIRONMENT must be one of dev, staging, prod"],
    ["BACKEND_REVALIDATE_TTL", "1h", "BACKEND_REVALIDATE_TTL must be a whole number"],
    ["BACKEND_REVALIDATE_TTL", "0", "BACKEND_REVALIDATE_TTL must be at least 1"],
    ["PORT", "70000", "PORT must be at most 65535"],
    ["PORT", "-1", "PORT must be a whole number"],
    ["PREVIEW_DOMAIN", "https://preview.example.org", "PREVIEW_DOMAIN must be a host name such as preview.example.org"],
    ["BUILD_CMS_ORIGIN", "cms.example.org", "BUILD_CMS_ORIGIN must be an absolute http(s) URL"],
  ])("names %s when it is malformed (%s)", (name, value, message) => {
    expect(problemsOf({ ...valid, [name]: value })).toEqual([message]);
  });

  it("reads CACHE_URL (several instances) and refuses what is not a Redis URL", () => {
    expect(parseEnv(valid).CACHE_URL).toBeUndefined();
    expect(parseEnv({ ...valid, CACHE_URL: "" }).CACHE_URL).toBeUndefined();
    expect(parseEnv({ ...valid, CACHE_URL: "redis://127.0.0.1:6379/8" }).CACHE_URL).toBe("redis://127.0.0.1:6379/8");
    expect(parseEnv({ ...valid, CACHE_URL: "rediss://user:pw@cache.internal" }).CACHE_URL).toBe("rediss://user:pw@cache.internal");
    for (const bad of ["http://127.0.0.1:6379", "redis://127.0.0.1:6379/16", "redis://127.0.0.1/x", "127.0.0.1:6379"]) {
      expect(problemsOf({ ...valid, CACHE_URL: bad })[0]).toMatch(/^CACHE_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });

  it("reads a CACHE_URL with the Redis password (the generated compose's form) and never repeats it in a problem", () => {
    const url = "redis://:0123456789abcdef0123456789abcdef@redis:6379/6";
    expect(parseEnv({ ...valid, CACHE_URL: url }).CACHE_URL).toBe(url);
    // node-redis takes the password from the URL: it is there, decoded, where the client looks.
    expect(new URL(parseEnv({ ...valid, CACHE_URL: url }).CACHE_URL!).password).toBe("0123456789abcdef0123456789abcdef");
    const problems = problemsOf({ ...valid, CACHE_URL: "redis://:0123456789abcdef0123456789abcdef@redis:6379/99" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).not.toContain("0123456789abcdef");
  });

  it("lists every problem at once", () => {
    expect(problemsOf({})).toHaveLength(3);
  });
});
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

describe("the operator's view settings", () => {
  it("default to metrics on port 9464 on loopback and JSON logs; METRICS_PORT=0 is off", () => {
    const env = parseEnv(valid);
    expect([env.METRICS_PORT, env.METRICS_HOST, env.LOG_FORMAT]).toEqual([9464, "127.0.0.1", "json"]);
    expect(parseEnv({ ...valid, METRICS_PORT: "0", LOG_FORMAT: "pretty" })).toMatchObject({ METRICS_PORT: 0, LOG_FORMAT: "pretty" });
  });

  it("refuse a port that is not one and a log format that does not exist, by name", () => {
    expect(problemsOf({ ...valid, METRICS_PORT: "metrics" })).toEqual(["METRICS_PORT must be a whole number (0: off)"]);
    expect(problemsOf({ ...valid, METRICS_PORT: "70000" })).toEqual(["METRICS_PORT must be at most 65535"]);
    expect(problemsOf({ ...valid, LOG_FORMAT: "xml" })).toEqual(["LOG_FORMAT must be json, pretty or off"]);
    expect(problemsOf({ ...valid, ACCESS_LOG: "yes" })).toEqual(["ACCESS_LOG must be on or off"]);
  });
});
