import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeFile, loadEnvironments, memoryMb, NODE_BASELINE_MB, upstreams, WORKER_CAPS_MB } from "./environments";
import { DEFAULTS } from "./nginx/generate";

describe("the environment map", () => {
  const map = loadEnvironments("ops/environments.json");

  it("gives prod two instances with the specification's limits, sharing the environment's Redis", () => {
    const compose = composeFile(map, "prod", "practice-frontend:prod-v1.4", "/srv/practice-frontend/.env.prod") as {
      services: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(compose.services)).toEqual(["frontend", "frontend-2", "redis"]);
    for (const [name, port] of [["frontend", 3000], ["frontend-2", 3003]] as const) {
      const s = compose.services[name];
      expect(s.ports).toEqual([`127.0.0.1:${port}:3000`]);
      expect(s).toMatchObject({ mem_limit: "1g", read_only: true, restart: "unless-stopped", tmpfs: ["/tmp"] });
      expect(s.environment).toMatchObject({ ENVIRONMENT: "prod", NODE_OPTIONS: "--max-old-space-size=512", CACHE_URL: "redis://redis:6379/6" });
      // The image's HEALTHCHECK is the only one: compose must not declare another.
      expect(s.healthcheck).toBeUndefined();
    }
    expect(composeFile(map, "dev", "i", "f").services.frontend).toMatchObject({ mem_limit: "512m" });
    expect((composeFile(map, "dev", "i", "f").services.frontend as { environment: object }).environment).not.toHaveProperty("CACHE_URL");
  });

  it("keeps every cap reached at once under each memory limit, and refuses a map that would not", () => {
    for (const e of Object.values(map.environments)) {
      expect(e.heapMb + e.pageCacheMb + e.renderWorkers * WORKER_CAPS_MB + NODE_BASELINE_MB).toBeLessThan(memoryMb(e.memory));
    }
    const dir = mkdtempSync(join(tmpdir(), "map-"));
    const bad = structuredClone(map);
    bad.environments.dev.heapMb = 256;
    writeFileSync(join(dir, "m.json"), JSON.stringify(bad));
    expect(() => loadEnvironments(join(dir, "m.json"))).toThrow(/dev: .* = 560 MB must stay under memory \(512m\)/);
  });

  it("is where the nginx generator finds every instance", () => {
    expect(DEFAULTS.upstreams).toEqual(upstreams(map));
    expect(DEFAULTS.upstreams.prod).toEqual(["127.0.0.1:3000", "127.0.0.1:3003"]);
  });

  it("agrees with the Dockerfile's health check: /readyz", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    expect(/HEALTHCHECK[^\n]*\n[^\n]*127\.0\.0\.1:3000\/readyz/.test(dockerfile)).toBe(true);
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
