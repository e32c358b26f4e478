/**
 * CI's decision about the container drills (ops/deploy/engine.sh engine_ci_decision, used by .ci/run): run them
 * where an engine is or can be installed, fail where none can be unless CI_SKIP_CONTAINERS=1 says to skip
 * them on purpose. Run with a PATH of a temporary directory holding only the commands each case needs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory to be the whole PATH, with fake commands (each records its arguments in calls.log). */
function fakePath(commands: Record<string, number> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "ci-path-"));
  dirs.push(dir);
  for (const [name, status] of Object.entries(commands)) {
    writeFileSync(join(dir, name), `#!/bin/bash\necho "${name} $*" >> "${dir}/calls.log"\nexit ${status}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function decide(path: string, env: Record<string, string> = {}) {
  const run = spawnSync("/bin/bash", ["-c", "source ops/deploy/engine.sh && engine_ci_decision"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: path, ...env },
    // No stdin: on a socket (a Node pipe), Debian's bash takes itself for an ssh session and reads ~/.bashrc.
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: run.status, message: run.stderr.trim() };
}

describe("engine_ci_decision", () => {
  it("runs the drills where an engine is on the PATH", () => {
    expect(decide(fakePath({ podman: 0 }))).toEqual({ status: 0, message: "ci: container drills with podman" });
    expect(decide(fakePath({ docker: 0 }))).toEqual({ status: 0, message: "ci: container drills with docker" });
  });

  it("fails where no engine is and none can be installed, saying how to proceed", () => {
    const { status, message } = decide(fakePath());
    expect(status).toBe(1);
    expect(message).toContain("no container engine, and none can be installed here");
    expect(message).toContain("set CI_SKIP_CONTAINERS=1 to skip them on purpose");
  });

  it("with apt-get and no engine: installs podman as root, fails otherwise", () => {
    const { status, message } = decide(fakePath({ "apt-get": 0 }));
    if (process.getuid?.() === 0) expect({ status, message }).toEqual({ status: 0, message: "ci: container drills with podman, installed from Debian's packages first" });
    else expect(status).toBe(1);
  });

  it("skips them on purpose with CI_SKIP_CONTAINERS=1, and says so", () => {
    const skipped = { status: 2, message: "ci: CI_SKIP_CONTAINERS=1: the container drills are skipped on purpose" };
    expect(decide(fakePath(), { CI_SKIP_CONTAINERS: "1" })).toEqual(skipped);
    expect(decide(fakePath({ podman: 0 }), { CI_SKIP_CONTAINERS: "1" })).toEqual(skipped);
    // Only 1 says so: another value is no decision to skip.
    expect(decide(fakePath(), { CI_SKIP_CONTAINERS: "yes" }).status).toBe(1);
  });
});

describe(".ci/run", () => {
  /** .ci/run with a fake make (and podman where given): its status, message and the make targets it ran. */
  function ci(commands: Record<string, number>, env: Record<string, string> = {}) {
    const dir = fakePath({ make: 0, ...commands });
    symlinkSync(spawnSync("/bin/bash", ["-c", "command -v dirname"], { encoding: "utf8" }).stdout.trim(), join(dir, "dirname"));
    const run = spawnSync("/bin/bash", [".ci/run"], { cwd: ROOT, encoding: "utf8", env: { PATH: dir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let calls = "";
    try {
      calls = readFileSync(join(dir, "calls.log"), "utf8");
    } catch {
      /* nothing was called */
    }
    return { status: run.status, stderr: run.stderr, made: calls.split("\n").filter((l) => l.startsWith("make ")) };
  }

  it("fails before the tests when the drills cannot run", () => {
    const run = ci({});
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("the container drills cannot run");
    expect(run.made).toEqual([]);
  });

  it("runs the tests and not the drills with CI_SKIP_CONTAINERS=1, and passes saying so", () => {
    const run = ci({}, { CI_SKIP_CONTAINERS: "1" });
    expect(run.status).toBe(0);
    expect(run.made).toEqual(["make test"]);
    expect(run.stderr).toContain("the container drills did not run (CI_SKIP_CONTAINERS=1)");
  });

  it("runs the tests, then the drills, where an engine is", () => {
    const run = ci({ podman: 0 });
    expect(run.status).toBe(0);
    expect(run.made).toEqual(["make test", "make test-containers"]);
  });

  it("starts no Redis of its own (the tests start theirs)", () => {
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).not.toMatch(/redis-server|6379/);
  });
});
