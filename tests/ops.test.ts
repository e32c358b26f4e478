/**
 * The operator scripts, run for real where this machine allows (no Docker engine here): the deploy
 * script's refusals and its dry run, and the secrets round trip.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync("bash", [script, ...args], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: tmpdir(), ...env } });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function deployRoot(mode = 0o600, content = "REVALIDATION_SECRET=x\nPREVIEW_DOMAIN=preview.example.org\n") {
  const root = mkdtempSync(join(tmpdir(), "deploy-"));
  for (const env of ["dev", "staging", "prod"]) {
    writeFileSync(join(root, `.env.${env}`), content);
    chmodSync(join(root, `.env.${env}`), mode);
  }
  return root;
}

/** Git settings for a child process that make `origin` a new bare repository holding `refs` (one empty commit). */
function fakeOrigin(refs: string[]): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "origin-"));
  const git = (cwd: string, ...args: string[]) => spawnSync("git", args, { cwd, encoding: "utf8" });
  git(dir, "init", "-q", "--bare", "origin.git");
  git(dir, "init", "-q", "work");
  git(join(dir, "work"), "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "x");
  for (const ref of refs) git(join(dir, "work"), "push", "-q", join(dir, "origin.git"), `HEAD:${ref}`);
  const bare = join(dir, "origin.git");
  const own = git(process.cwd(), "config", "--get", "remote.origin.url").stdout.trim();
  return own
    ? { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: `url.${bare}.insteadOf`, GIT_CONFIG_VALUE_0: own }
    : { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "remote.origin.url", GIT_CONFIG_VALUE_0: bare };
}

describe("ops/deploy/deploy.sh", () => {
  /**
   * origin for the dry runs that name a ref: a bare repository holding main, feature/x and the tags v1.2 and v1.4.
   * A dry run asks origin whether the ref exists (git ls-remote), and the clone's own origin, whatever it is
   * (CI's, a developer's), holds none of these tags: it is redirected for the run (url.<bare>.insteadOf, since a
   * second remote.origin.url would only be added after the clone's own), never changed.
   */
  let origin: Record<string, string> | undefined;
  const withOrigin = (): Record<string, string> => (origin ??= fakeOrigin(["refs/heads/main", "refs/heads/feature/x", "refs/tags/v1.2", "refs/tags/v1.4"]));

  it.each([
    [["prod"], /a production deploy needs a tag/],
    [["prod", "main"], /REF must be a tag of the form v<major>.<minor>, got 'main'/],
    [["prod", "v1"], /REF must be a tag/],
    [["qa"], /ENV must be dev, staging or prod, got 'qa'/],
  ])("refuses %j", (args, message) => {
    const { status, out } = run("ops/deploy/deploy.sh", [...args, "--dry-run"], { DEPLOY_ROOT: deployRoot() });
    expect(status).toBe(1);
    expect(out).toMatch(message);
  });

  it("checks a deployed environment with make smoke ENV=..., and says what to give without it", () => {
    const bare = spawnSync("make", ["--no-print-directory", "smoke"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: tmpdir() } });
    expect(bare.status).toBe(2);
    expect(`${bare.stdout}${bare.stderr}`).toContain("make smoke ENV=<env> checks a deployed environment");
    const empty = mkdtempSync(join(tmpdir(), "deploy-"));
    const noEnvFile = spawnSync("make", ["--no-print-directory", "smoke", "ENV=dev"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: tmpdir(), DEPLOY_ROOT: empty } });
    expect(noEnvFile.status).not.toBe(0);
    expect(`${noEnvFile.stdout}${noEnvFile.stderr}`).toContain(`${empty}/.env.dev is missing`);
  });

  it("refuses when the decrypted env file is missing or readable by others", () => {
    const empty = mkdtempSync(join(tmpdir(), "deploy-"));
    // A real deploy stops before it runs anything (GIT_DIR: were it to go on, git could not touch this clone).
    const missing = run("ops/deploy/deploy.sh", ["dev"], { DEPLOY_ROOT: empty, GIT_DIR: "/nonexistent" });
    expect(missing.status).toBe(1);
    expect(missing.out).toContain("make decrypt ENV=dev");
    expect(missing.out).not.toContain("+ ");
    const open = run("ops/deploy/deploy.sh", ["dev", "--dry-run"], { DEPLOY_ROOT: deployRoot(0o644) });
    expect(open.status).toBe(1);
    expect(open.out).toContain("chmod 600");
  });

  it("a dry run needs no decrypted secrets: it says what is missing and what it would do", () => {
    const empty = mkdtempSync(join(tmpdir(), "deploy-"));
    const { status, out } = run("ops/deploy/deploy.sh", ["staging", "v1.2", "--dry-run"], { DEPLOY_ROOT: empty, ...withOrigin() });
    expect(status, out).toBe(0);
    expect(out).toContain(`deploy: (dry run) ${empty}/.env.staging is missing: a real deploy would stop here`);
    expect(out).toContain("+ git checkout --detach refs/tags/v1.2");
    expect(out).toContain(`--preview-domain <PREVIEW_DOMAIN of ${empty}/.env.staging>`);
    expect(out).toContain("dry run: nothing was changed");
    expect(out).not.toMatch(/is live/);
  });

  it("deploys a prod tag: fetch, image, compose file from the map, instances one by one, proxy, smoke on every instance", () => {
    const { status, out } = run("ops/deploy/deploy.sh", ["prod", "v1.4", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...withOrigin() });
    expect(status, out).toBe(0);
    expect(out).toContain("+ git checkout --detach refs/tags/v1.4");
    expect(out).toContain("+ ops/images/images.sh product prod v1.4");
    expect(out).toMatch(/\+ node --import tsx ops\/deploy\/environments.ts compose prod practice-frontend:prod-v1.4 \S+\/.env.prod > \S+\/compose.prod.json/);
    expect(out).toMatch(/compose -p practice-frontend-prod -f \S+\/compose.prod.json up -d redis/);
    // Both instances, replaced in turn, each waited for on its own port (ops/deploy/environments.json).
    expect(out).toMatch(/up -d --no-deps frontend\n\+ wait until http:\/\/127.0.0.1:3000\/readyz[^]*up -d --no-deps frontend-2\n\+ wait until http:\/\/127.0.0.1:3003\/readyz/);
    // Each new instance is proven beside the old one (its candidate on port + 1000: ready, smoke checks, the
    // same practices served) before nginx is pointed at it and the old one is stopped.
    expect(out).toMatch(
      /up -d --no-deps frontend-next\n\+ wait until http:\/\/127.0.0.1:4000\/readyz[^\n]*\n\+ env SMOKE_HOST=http:\/\/127.0.0.1:4000 SMOKE_COMPARE=http:\/\/127.0.0.1:3000 node --import tsx ops\/deploy\/smoke.ts\n.*--upstream prod=127.0.0.1:4000,127.0.0.1:3003\n.*\n\+ \S+ rm -f -t 15 practice-frontend-prod-frontend\n/,
    );
    expect(out).toMatch(/--upstream prod=127.0.0.1:3000,127.0.0.1:4003\n.*\n\+ \S+ rm -f -t 15 practice-frontend-prod-frontend-2\n/);
    expect(out).toContain("nginx -t");
    expect(out).toMatch(/--tls-certificate \S+\/tls\/practice-sites.crt --tls-key \S+\/tls\/practice-sites.key/);
    expect(out).not.toContain("self-signed.sh");
    expect(out).not.toMatch(/is live/);
    expect(out).toContain("dry run: nothing was changed");
    expect(out).toMatch(/SMOKE_ENV=prod SMOKE_PROXY=https:\/\/127.0.0.1:443 .* node --import tsx ops\/deploy\/smoke.ts/);
  });

  it("checks out a staging tag as the tag, a branch as origin's", () => {
    const tag = run("ops/deploy/deploy.sh", ["staging", "v1.2", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...withOrigin() });
    expect(tag.status, tag.out).toBe(0);
    expect(tag.out).toContain("+ git checkout --detach refs/tags/v1.2");
    const branch = run("ops/deploy/deploy.sh", ["staging", "feature/x", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...withOrigin() });
    expect(branch.out).toContain("+ git checkout --detach origin/feature/x");
    expect(branch.out).toContain("practice-frontend:staging-feature-x");
  });

  it("takes every port from the environment map (ENVIRONMENTS_FILE), and refuses a map that reuses a port", () => {
    const map = JSON.parse(readFileSync("ops/deploy/environments.json", "utf8"));
    map.environments.prod.instancePorts = [42100, 42101, 42102];
    map.proxy = { http: "127.0.0.1:42180", https: "127.0.0.1:42143" };
    const file = join(mkdtempSync(join(tmpdir(), "map-")), "environments.json");
    writeFileSync(file, JSON.stringify(map));
    const { status, out } = run("ops/deploy/deploy.sh", ["prod", "v1.4", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ENVIRONMENTS_FILE: file, ...withOrigin() });
    expect(status, out).toBe(0);
    expect(out).toContain("up -d --no-deps frontend-3\n+ wait until http://127.0.0.1:42102/readyz");
    expect(out).toContain("--listen 127.0.0.1:42180 --https-listen 127.0.0.1:42143");
    expect(out).toContain("SMOKE_PROXY=https://127.0.0.1:42143");
    map.environments.dev.instancePorts = [42100];
    writeFileSync(file, JSON.stringify(map));
    const refused = run("ops/deploy/deploy.sh", ["prod", "v1.4", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ENVIRONMENTS_FILE: file, ...withOrigin() });
    expect(refused.status).toBe(1);
    expect(refused.out).toContain("port 42100 is used by both prod and dev");
  });

  it("deploys main to dev by default, and a dry run refuses a branch origin does not have", () => {
    // origin: a bare repository holding main only (the clone's own origin, if any, is left alone).
    const origin = fakeOrigin(["refs/heads/main"]);
    const main = run("ops/deploy/deploy.sh", ["dev", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...origin });
    expect(main.status, main.out).toBe(0);
    expect(main.out).toContain("+ git checkout --detach origin/main");
    const develop = run("ops/deploy/deploy.sh", ["dev", "develop", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...origin });
    expect(develop.status).toBe(1);
    expect(develop.out).toContain("deploy: (dry run) origin has no heads/develop");
    expect(develop.out).not.toContain("git checkout");
  });

  it("deploys to dev and skips git with --quick", () => {
    const dev = run("ops/deploy/deploy.sh", ["dev", "--dry-run"], { DEPLOY_ROOT: deployRoot(), ...withOrigin() });
    expect(dev.status).toBe(0);
    expect(dev.out).toContain("+ git checkout --detach origin/main");
    expect(dev.out).toContain("practice-frontend-dev");
    expect(dev.out).toMatch(/\+ ops\/deploy\/nginx\/self-signed.sh \S+ \S+ \\\*\.dev\.preview\.example\.org/);
    const quick = run("ops/deploy/deploy.sh", ["staging", "--quick", "--dry-run"], { DEPLOY_ROOT: deployRoot() });
    expect(quick.status).toBe(0);
    expect(quick.out).not.toContain("git fetch");
    expect(quick.out).toContain("practice-frontend-staging");
    expect(quick.out).toContain("127.0.0.1:3001");
  });
});

describe("ops/deploy/nginx/self-signed.sh", () => {
  const names = (cert: string) => spawnSync("openssl", ["x509", "-in", cert, "-noout", "-ext", "subjectAltName"], { encoding: "utf8" }).stdout;

  it("keeps a pair that names every host, adds an environment's names to its own pair, refuses an operator's that lacks them", () => {
    const dir = mkdtempSync(join(tmpdir(), "tls-"));
    const [cert, key] = [join(dir, "a.crt"), join(dir, "a.key")];
    expect(run("ops/deploy/nginx/self-signed.sh", [cert, key, "*.dev.example.org"]).status).toBe(0);
    const first = readFileSync(cert, "utf8");
    expect(run("ops/deploy/nginx/self-signed.sh", [cert, key, "*.dev.example.org"]).status).toBe(0);
    expect(readFileSync(cert, "utf8")).toBe(first);
    // A staging deploy on the host where dev made the pair: one certificate for both (one proxy serves both).
    const staging = run("ops/deploy/nginx/self-signed.sh", [cert, key, "*.staging.example.org"]);
    expect(staging.status, staging.out).toBe(0);
    expect(names(cert)).toMatch(/DNS:\*\.dev\.example\.org, DNS:\*\.staging\.example\.org/);
    // An operator's certificate (signed by another) is never replaced.
    const ca = [join(dir, "ca.crt"), join(dir, "ca.key")];
    spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=ca", "-keyout", ca[1], "-out", ca[0]]);
    const op = [join(dir, "op.crt"), join(dir, "op.key"), join(dir, "op.csr")];
    spawnSync("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=op", "-addext", "subjectAltName=DNS:*.dev.example.org", "-keyout", op[1], "-out", op[2]]);
    spawnSync("openssl", ["x509", "-req", "-in", op[2], "-CA", ca[0], "-CAkey", ca[1], "-copy_extensions", "copy", "-days", "2", "-out", op[0]]);
    const operators = readFileSync(op[0], "utf8");
    const refused = run("ops/deploy/nginx/self-signed.sh", [op[0], op[1], "*.staging.example.org"]);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain("is not self-signed (the operator's) and does not name *.staging.example.org");
    expect(readFileSync(op[0], "utf8")).toBe(operators);
  });
});

describe("ops/deploy/deploy.sh reads the deployment's values from the env file only", () => {
  it("takes PREVIEW_DOMAIN (and the build's public values) from the env file, not from the operator's shell", () => {
    const root = deployRoot(0o600, 'PREVIEW_DOMAIN="preview.praticiens.example.org"\nPUBLIC_ERROR_TRACKING_DSN=https://k@errors.example.org/3\n');
    const { status, out } = run("ops/deploy/deploy.sh", ["dev", "--dry-run"], {
      DEPLOY_ROOT: root,
      PREVIEW_DOMAIN: "shell.evil.example",
    });
    expect(status, out).toBe(0);
    expect(out).toContain("--preview-domain preview.praticiens.example.org");
    expect(out).not.toContain("shell.evil.example");
  });

  it("refuses an env file without a valid PREVIEW_DOMAIN", () => {
    for (const content of ["REVALIDATION_SECRET=x\n", "PREVIEW_DOMAIN=evil.example;id\n"]) {
      const { status, out } = run("ops/deploy/deploy.sh", ["dev", "--dry-run"], { DEPLOY_ROOT: deployRoot(0o600, content), PREVIEW_DOMAIN: "preview.example.org" });
      expect(status).toBe(1);
      expect(out).toMatch(/PREVIEW_DOMAIN in .* must be a host name/);
    }
  });
});

describe("Makefile", () => {
  it.each([
    ["deploy", ["ENV=dev", "REF=$(shell touch PWNED)"]],
    ["decrypt", ["ENV=$(shell touch PWNED)"]],
    ["quickdeploy", ["ENV=$(shell touch PWNED)dev"]],
  ])("make %s %j: make and the shell run nothing of it", (target, assignments) => {
    const marker = join(mkdtempSync(join(tmpdir(), "make-")), "pwned");
    const result = spawnSync("make", ["--no-print-directory", target, ...assignments.map((a) => a.replaceAll("PWNED", marker))], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: tmpdir(), DEPLOY_ROOT: mkdtempSync(join(tmpdir(), "deploy-")) },
    });
    expect(existsSync(marker), `${result.stdout}${result.stderr}`).toBe(false);
    expect(result.status).not.toBe(0);
  });

  it.each([
    ["deploy", "ENV=dev; id #"],
    ["deploy", "ENV=dev $(id)"],
    ["quickdeploy", "ENV=dev`id`"],
    ["decrypt", "ENV=dev; id #"],
    ["deploy", "REF=main; id #"],
  ])("make %s %s runs nothing of it and says why", (target, assignment) => {
    const args = [target, assignment, ...(assignment.startsWith("REF") ? ["ENV=staging"] : [])];
    const result = spawnSync("make", ["--no-print-directory", ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: tmpdir(), DEPLOY_ROOT: mkdtempSync(join(tmpdir(), "deploy-")) },
    });
    const out = `${result.stdout}${result.stderr}`;
    expect(out).not.toMatch(/uid=\d+/);
    expect(result.status).not.toBe(0);
    expect(out).toMatch(/make: (ENV must be dev, staging or prod|REF may hold)/);
  });

  // `npm` is a stand-in that records its arguments, so the migrate recipe runs without starting the toolkit.
  function makeWithStubNpm(args: string[]) {
    const dir = mkdtempSync(join(tmpdir(), "make-"));
    writeFileSync(join(dir, "npm"), `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/npm-args"\n`);
    chmodSync(join(dir, "npm"), 0o755);
    const pwned = join(dir, "pwned");
    const result = spawnSync("make", ["--no-print-directory", ...args.map((a) => a.replaceAll("PWNED", pwned))], {
      encoding: "utf8",
      env: { PATH: `${dir}:${process.env.PATH}`, HOME: tmpdir(), DEPLOY_ROOT: dir },
    });
    const npmArgs = existsSync(join(dir, "npm-args")) ? readFileSync(join(dir, "npm-args"), "utf8").split("\n").slice(0, -1) : [];
    return { pwned: existsSync(pwned), npmArgs, out: `${result.stdout}${result.stderr}` };
  }

  it("make migrate passes ARGS on as separate words, running none of them", () => {
    const chained = makeWithStubNpm(["migrate", "ARGS=crawl x; touch PWNED #"]);
    expect(chained.pwned).toBe(false);
    expect(chained.npmArgs).toEqual(["run", "migrate", "--", "crawl", "x;", "touch", expect.stringMatching(/pwned$/), "#"]);
    const substituted = makeWithStubNpm(["migrate", "ARGS=crawl $(shell touch PWNED) `touch PWNED`"]);
    expect(substituted.pwned).toBe(false);
    expect(substituted.npmArgs.slice(3, 5)).toEqual(["crawl", "$(shell"]);
  });
});

describe("ops/deploy/secrets.sh", () => {
  it("refuses a modified encrypted file, and another environment's file, without touching the plaintext", () => {
    const home = mkdtempSync(join(tmpdir(), "secrets-"));
    const env = { SECRETS_KEY_FILE: join(home, "key"), DEPLOY_ROOT: join(home, "srv"), SECRETS_DIR: join(home, "enc") };
    run("ops/deploy/secrets.sh", ["setup"], env);
    spawnSync("mkdir", ["-p", env.DEPLOY_ROOT]);
    const original = "BACKEND_API_URL=http://backend:8000/api/v1/websites\nREVALIDATION_SECRET=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";
    writeFileSync(join(env.DEPLOY_ROOT, ".env.prod"), original);
    expect(run("ops/deploy/secrets.sh", ["encrypt", "prod"], env).status).toBe(0);
    const encFile = join(env.SECRETS_DIR, ".env.prod.enc");
    const good = readFileSync(encFile);
    // Flip one bit in the middle of the ciphertext (CBC without a MAC decrypted this to altered secrets).
    const tampered = Buffer.from(good);
    tampered[Math.floor(tampered.length / 2)] ^= 0x01;
    writeFileSync(encFile, tampered);
    writeFileSync(join(env.DEPLOY_ROOT, ".env.prod"), "KEPT=1\n");
    const result = run("ops/deploy/secrets.sh", ["decrypt", "prod"], env);
    expect(result.status).toBe(1);
    expect(result.out).toMatch(/cannot decrypt/);
    expect(readFileSync(join(env.DEPLOY_ROOT, ".env.prod"), "utf8")).toBe("KEPT=1\n");
    // The prod file copied over staging's is refused too: the environment is authenticated with it.
    writeFileSync(join(env.SECRETS_DIR, ".env.staging.enc"), good);
    expect(run("ops/deploy/secrets.sh", ["decrypt", "staging"], env).status).toBe(1);
    writeFileSync(encFile, good);
    expect(run("ops/deploy/secrets.sh", ["decrypt", "prod"], env).status).toBe(0);
    expect(readFileSync(join(env.DEPLOY_ROOT, ".env.prod"), "utf8")).toBe(original);
  });

  it("round-trips an env file through encryption, owner-only on the server", () => {
    const home = mkdtempSync(join(tmpdir(), "secrets-"));
    const env = { SECRETS_KEY_FILE: join(home, "key"), DEPLOY_ROOT: join(home, "srv"), SECRETS_DIR: join(home, "enc") };
    // Nothing encrypted yet (a first deploy): it says how the file is made, not that a key is missing.
    const nothing = run("ops/deploy/secrets.sh", ["decrypt", "dev"], env);
    expect(nothing.status).toBe(1);
    expect(nothing.out).toContain(`nothing to decrypt: ${env.SECRETS_DIR}/.env.dev.enc does not exist`);
    expect(nothing.out).toMatch(/make setup[^]*from .env.example[^]*make encrypt ENV=dev/);
    expect(run("ops/deploy/secrets.sh", ["setup"], env).status).toBe(0);
    expect(statSync(env.SECRETS_KEY_FILE).mode & 0o777).toBe(0o600);
    const original = "BACKEND_API_URL=http://backend:8000/api/v1/websites\nREVALIDATION_SECRET=s3cret-value-long-enough\n";
    spawnSync("mkdir", ["-p", env.DEPLOY_ROOT]);
    writeFileSync(join(env.DEPLOY_ROOT, ".env.staging"), original);
    expect(run("ops/deploy/secrets.sh", ["encrypt", "staging"], env).status).toBe(0);
    const encrypted = readFileSync(join(env.SECRETS_DIR, ".env.staging.enc"));
    expect(encrypted.toString("latin1")).not.toContain("s3cret");
    writeFileSync(join(env.DEPLOY_ROOT, ".env.staging"), "overwritten");
    expect(run("ops/deploy/secrets.sh", ["decrypt", "staging"], env).status).toBe(0);
    expect(readFileSync(join(env.DEPLOY_ROOT, ".env.staging"), "utf8")).toBe(original);
    expect(statSync(join(env.DEPLOY_ROOT, ".env.staging")).mode & 0o777).toBe(0o600);
    const noKey = run("ops/deploy/secrets.sh", ["decrypt", "staging"], { ...env, SECRETS_KEY_FILE: join(home, "absent") });
    expect(noKey.status).toBe(1);
    expect(noKey.out).toContain("no key at");
  });

  it("refuses a wrong key without touching the plaintext", () => {
    const home = mkdtempSync(join(tmpdir(), "secrets-"));
    const env = { SECRETS_KEY_FILE: join(home, "key"), DEPLOY_ROOT: join(home, "srv"), SECRETS_DIR: join(home, "enc") };
    run("ops/deploy/secrets.sh", ["setup"], env);
    spawnSync("mkdir", ["-p", env.DEPLOY_ROOT]);
    writeFileSync(join(env.DEPLOY_ROOT, ".env.prod"), "A=1\n");
    run("ops/deploy/secrets.sh", ["encrypt", "prod"], env);
    writeFileSync(env.SECRETS_KEY_FILE, "another key\n");
    const result = run("ops/deploy/secrets.sh", ["decrypt", "prod"], env);
    expect(result.status).toBe(1);
    expect(result.out).toContain("wrong key?");
    expect(readFileSync(join(env.DEPLOY_ROOT, ".env.prod"), "utf8")).toBe("A=1\n");
  });
});
