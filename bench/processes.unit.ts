import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "../src/server/env";
import { benchFrontendEnv, countLines, deployedEnv } from "./processes";

describe("the bench's servers run as deployed", () => {
  const resolved = () =>
    parseEnv({ ...benchFrontendEnv(), BACKEND_API_URL: "http://127.0.0.1:1/api/v1/websites", REVALIDATION_SECRET: "a-secret-of-16-chars" });

  it("with the production defaults: JSON log lines, an access line for every request, metrics on", () => {
    const env = resolved();
    expect(env.LOG_FORMAT).toBe("json");
    expect(env.ACCESS_LOG).toBe("on");
    expect(env.METRICS_PORT).toBeGreaterThan(0);
  });

  it("with what the prod container is given, bar the differences the bench names", () => {
    const deployed = deployedEnv();
    const bench = benchFrontendEnv();
    for (const name of ["NODE_OPTIONS", "RENDER_WORKERS", "PAGE_CACHE_MAX_MB", "LOG_FORMAT"]) expect(bench[name], name).toBe(deployed[name]);
    expect(bench.CACHE_URL).toBeUndefined();
    expect(bench.ENVIRONMENT).toBe("dev");
  });

  it("lets a section turn observability off only by saying so", () => {
    expect(benchFrontendEnv({ METRICS_PORT: "0", LOG_FORMAT: "off" })).toMatchObject({ METRICS_PORT: "0", LOG_FORMAT: "off" });
  });
});

describe("countLines", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-count-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("counts every line holding the needle in a file larger than one read, needles cut by a chunk boundary included", async () => {
    const file = join(dir, "log");
    const access = '{"level":30,"msg":"access","path":"/"}\n';
    const other = '{"level":30,"msg":"started"}\n';
    // 64 KiB reads: 20,000 lines of about 40 bytes cross many chunk boundaries at every offset.
    const lines = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? other : access));
    writeFileSync(file, lines.join(""));
    expect(await countLines(file, '"msg":"access"')).toBe(lines.filter((l) => l === access).length);
  });
});
