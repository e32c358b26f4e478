import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkBuildEnv } from "./build-checks";

const prod = { ENVIRONMENT: "prod", BUILD_CMS_ORIGIN: "https://cms.example.org", PUBLIC_ERROR_TRACKING_DSN: "https://k@o1.ingest.sentry.io/1" };

describe("checkBuildEnv", () => {
  it("passes a complete production build", () => {
    expect(checkBuildEnv(prod)).toEqual({ errors: [], warnings: [] });
  });

  it("refuses a production build with an empty BUILD_CMS_ORIGIN", () => {
    for (const value of [undefined, "", "  "]) {
      const { errors } = checkBuildEnv({ ...prod, BUILD_CMS_ORIGIN: value });
      expect(errors).toEqual([expect.stringMatching(/^BUILD_CMS_ORIGIN is empty: .*CMS preview iframe would break/)]);
    }
  });

  it("refuses a BUILD_CMS_ORIGIN that is not an origin, in any build", () => {
    expect(checkBuildEnv({ ...prod, BUILD_CMS_ORIGIN: "cms.example.org" }).errors).toHaveLength(1);
    expect(checkBuildEnv({ BUILD_CMS_ORIGIN: "https://cms.example.org/admin/" }).errors).toHaveLength(1);
  });

  it("warns loudly about a production build without the browser DSN", () => {
    const { errors, warnings } = checkBuildEnv({ ...prod, PUBLIC_ERROR_TRACKING_DSN: "" });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^PRODUCTION BUILD WITHOUT PUBLIC_ERROR_TRACKING_DSN/)]);
  });

  it("only warns outside production", () => {
    const { errors, warnings } = checkBuildEnv({});
    expect(errors).toEqual([]);
    expect(warnings).toHaveLength(2);
  });
});

describe("vite.config.ts", () => {
  const saved = { ...process.env };
  // Loading the config loads vite and its plugins: about 2 s, once, outside the tests' own time limits.
  type Config = (env: object) => { define: Record<string, string> };
  let config: Config;
  beforeAll(async () => {
    config = (await import("../../vite.config")).default as unknown as Config;
  }, 60_000);
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  it("fails a production build with an empty BUILD_CMS_ORIGIN, naming it", async () => {
    process.env.ENVIRONMENT = "prod";
    process.env.BUILD_CMS_ORIGIN = "";
    expect(() => config({ command: "build", mode: "production" })).toThrow(/BUILD_CMS_ORIGIN is empty/);
  });

  it("prints the loud warning for a production build without DSN, and builds", async () => {
    process.env.ENVIRONMENT = "prod";
    process.env.BUILD_CMS_ORIGIN = "https://cms.example.org";
    process.env.PUBLIC_ERROR_TRACKING_DSN = "";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(config({ command: "build", mode: "production" })).toMatchObject({ envPrefix: ["PUBLIC_"] });
    expect(warn.mock.calls.join("\n")).toContain("PRODUCTION BUILD WITHOUT PUBLIC_ERROR_TRACKING_DSN");
  });

  it("bakes BUILD_CMS_ORIGIN into the bundle (the running container does not have it)", async () => {
    process.env.ENVIRONMENT = "prod";
    process.env.BUILD_CMS_ORIGIN = "https://cms.example.org";
    process.env.PUBLIC_ERROR_TRACKING_DSN = "https://k@o1.ingest.sentry.io/1";
    expect(config({ command: "build", mode: "production" }).define.__BUILD_CMS_ORIGIN__).toBe('"https://cms.example.org"');
  });
});
