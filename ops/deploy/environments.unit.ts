import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync } from "node:fs";
import { cacheUrlProblem, composeFile, loadEnvironments, memoryMb, NODE_BASELINE_MB, upstreams, WORKER_CAPS_MB } from "./environments";
import { DEFAULTS } from "./nginx/generate";

describe("the environment map", () => {
  const map = loadEnvironments("ops/deploy/environments.json");

  it("gives prod two instances with the specification's limits, sharing the environment's Redis", () => {
    const compose = composeFile(map, "prod", "practice-frontend:prod-v1.4", "/srv/practice-frontend/.env.prod") as {
      services: Record<string, Record<string, unknown>>;
    };
    // Each instance has its candidate, the same service on its port + 1000: a deploy proves a new instance there.
    expect(Object.keys(compose.services)).toEqual(["frontend", "frontend-next", "frontend-2", "frontend-2-next", "redis"]);
    for (const [name, port] of [["frontend", 3000], ["frontend-next", 4000], ["frontend-2", 3003], ["frontend-2-next", 4003]] as const) {
      const s = compose.services[name];
      expect(s.ports).toEqual([`127.0.0.1:${port}:3000`]);
      expect(s).toMatchObject({ mem_limit: "1g", read_only: true, restart: "unless-stopped", tmpfs: ["/tmp"] });
      expect(s.environment).toMatchObject({ ENVIRONMENT: "prod", NODE_OPTIONS: "--max-old-space-size=512" });
      // CACHE_URL, with the Redis password, comes from the env file only.
      expect(s.environment).not.toHaveProperty("CACHE_URL");
      expect(s.env_file).toEqual(["/srv/practice-frontend/.env.prod"]);
      // The image's HEALTHCHECK is the only one: compose must not declare another.
      expect(s.healthcheck).toBeUndefined();
      expect(s.depends_on).toEqual(["redis"]);
    }
    expect(composeFile(map, "dev", "i", "f").services.frontend).toMatchObject({ mem_limit: "512m" });
    expect((composeFile(map, "dev", "i", "f").services.frontend as { environment: object }).environment).not.toHaveProperty("CACHE_URL");
  });

  it("runs Redis with the env file's password, off the host's ports, the password in no argument (issue 26)", () => {
    const compose = composeFile(map, "prod", "i", "/srv/practice-frontend/.env.prod") as { services: Record<string, Record<string, unknown>> };
    const redis = compose.services.redis;
    expect(redis.ports).toBeUndefined();
    expect(redis.env_file).toEqual(["/srv/practice-frontend/.env.prod"]);
    expect(JSON.stringify(redis)).not.toContain("protected-mode");
    // The command as the container runs it (compose turns $$ into $), against a stand-in redis-server that
    // prints its arguments and the configuration it reads on its standard input.
    const [shell, flag, script] = redis.command as string[];
    expect([shell, flag]).toEqual(["sh", "-c"]);
    const dir = mkdtempSync(join(tmpdir(), "redis-cmd-"));
    writeFileSync(join(dir, "redis-server"), '#!/bin/sh\necho "args: $*"\ncat\n');
    chmodSync(join(dir, "redis-server"), 0o755);
    const password = "0123456789abcdef0123456789abcdef";
    const run = (cacheUrl: string) =>
      spawnSync("sh", ["-c", script.replaceAll("$$", "$")], { encoding: "utf8", env: { PATH: `${dir}:/usr/bin:/bin`, CACHE_URL: cacheUrl } });
    const ok = run(`redis://:${password}@redis:6379/6`);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`requirepass ${password}`);
    const args = ok.stdout.split("\n").find((l) => l.startsWith("args: "))!;
    expect(args).toBe("args: - --save  --appendonly no --maxmemory 512mb --maxmemory-policy allkeys-lru");
    expect(args).not.toContain(password);
    // No password (or a malformed URL): Redis does not start open.
    for (const bad of ["redis://redis:6379/6", "", "redis://:a b@redis:6379/6"]) {
      const refused = run(bad);
      expect(refused.status, bad).toBe(1);
      expect(refused.stderr).toContain("must be redis://:<password>@redis:6379/<db>");
    }
    expect(execFileSync("sh", ["-n", "-c", script.replaceAll("$$", "$")], { encoding: "utf8" })).toBe("");
  });

  it("checks the env file's CACHE_URL: this map's Redis, with a password; none where the map has no Redis", () => {
    const password = "0123456789abcdef0123456789abcdef";
    expect(cacheUrlProblem(map, "prod", `A=1\nCACHE_URL=redis://:${password}@redis:6379/6\n`)).toBeNull();
    expect(cacheUrlProblem(map, "prod", `CACHE_URL="redis://:${password}@redis/6"`)).toBeNull();
    expect(cacheUrlProblem(map, "dev", "BACKEND_API_URL=x\n")).toBeNull();
    const problems = [
      cacheUrlProblem(map, "prod", "A=1\n"),
      cacheUrlProblem(map, "prod", "CACHE_URL=redis://redis:6379/6"),
      cacheUrlProblem(map, "prod", "CACHE_URL=redis://:short@redis:6379/6"),
      cacheUrlProblem(map, "prod", `CACHE_URL=redis://:${password}@127.0.0.1:6379/6`),
      cacheUrlProblem(map, "prod", `CACHE_URL=redis://:${password}@redis:6379/8`),
      cacheUrlProblem(map, "dev", `CACHE_URL=redis://:${password}@redis:6379/8`),
    ];
    expect(problems.every((p) => typeof p === "string")).toBe(true);
    expect(problems.join("\n")).not.toContain(password);
    expect(problems[1]).toMatch(/needs a password of at least 32 letters and digits/);
    expect(problems[3]).toMatch(/must name this environment's Redis: redis:\/\/:<password>@redis:6379\/6/);
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

  it("refuses a map where a candidate's port (instance port + 1000) is another instance's", () => {
    const dir = mkdtempSync(join(tmpdir(), "map-"));
    const bad = structuredClone(map);
    bad.environments.dev.instancePorts = [4000];
    writeFileSync(join(dir, "m.json"), JSON.stringify(bad));
    expect(() => loadEnvironments(join(dir, "m.json"))).toThrow(/port 4000 is used by both prod and dev/);
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
