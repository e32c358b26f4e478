import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { writeFully } from "./log";

const logModule = fileURLToPath(new URL("./log.ts", import.meta.url));

/** Runs `body` in a fresh Node process after `startLog(format)`, with a console.log taken before it. */
function run(format: string, body: string) {
  const script = `
    const early = console.log;
    const { startLog } = await import(${JSON.stringify(logModule)});
    await startLog(${JSON.stringify(format)});
    ${body}
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, lines: `${r.stdout}${r.stderr}`.split("\n").filter((l) => l !== "") };
}

describe("startLog: every line of the process is JSON (LOG_FORMAT=json)", () => {
  it("a console.log taken before the log started, stream writes, lines in pieces and Node's warnings become JSON lines", () => {
    const { status, lines } = run("json", `
      early("shared cache: instance 42 joined the prod cluster");
      process.stdout.write("written to stdout\\n");
      process.stderr.write("written to stderr\\n");
      process.stdout.write("a line in ");
      process.stdout.write("two pieces\\n");
      process.stdout.write('{"already":"json"}\\n');
      console.warn("a warning", { n: 1 });
      process.emitWarning("a warning of Node's own");
      process.stdout.write("no line end before exit");
    `);
    expect(status).toBe(0);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; level?: number; already?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    const messages = parsed.map((p) => p.msg);
    expect(messages).toEqual(expect.arrayContaining([
      "shared cache: instance 42 joined the prod cluster",
      "written to stdout",
      "written to stderr",
      "a line in two pieces",
      "a warning { n: 1 }",
      "no line end before exit",
    ]));
    expect(messages.some((m) => m?.includes("a warning of Node's own"))).toBe(true);
    // A JSON line is passed on as it is, not wrapped.
    expect(parsed).toContainEqual({ already: "json" });
    // stderr's lines are warnings.
    expect(parsed.find((p) => p.msg === "written to stderr")?.level).toBe(40);
  });

  it("LOG_FORMAT=off leaves the streams alone", () => {
    const { lines } = run("off", `process.stdout.write("plain\\n");`);
    expect(lines).toEqual(["plain"]);
  });
});

describe("writeFully: an access batch written before it returns", () => {
  const errno = (code: string) => Object.assign(new Error(code), { code });

  it("goes on after a partial write and after a full pipe (EAGAIN, EBUSY), every byte once, in order", () => {
    const chunk = Buffer.from("0123456789abcdef");
    const out: string[] = [];
    const answers = [4, "EAGAIN", 5, "EBUSY", 100];
    writeFully(chunk, (bytes, at, length) => {
      const next = answers.shift()!;
      if (typeof next === "string") throw errno(next);
      const n = Math.min(next, length);
      out.push(Buffer.from(bytes.subarray(at, at + n)).toString());
      return n;
    });
    expect(out).toEqual(["0123", "45678", "9abcdef"]);
    expect(answers).toEqual([]);
  });

  it("waits, never spins, when a write takes nothing (0 bytes)", () => {
    const answers = [0, 0, 5];
    let calls = 0;
    const started = performance.now();
    writeFully(Buffer.from("line\n"), (_bytes, _at, length) => {
      calls++;
      return Math.min(answers.shift() ?? length, length);
    });
    expect(calls).toBe(3);
    // Two waits of FULL_WAIT_MS (10 ms) at least: it slept between the empty writes.
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("drops the chunk when stdout is gone (EPIPE) instead of throwing into the request that flushed it", () => {
    let calls = 0;
    expect(() =>
      writeFully(Buffer.from("line\n"), () => {
        calls++;
        throw errno("EPIPE");
      }),
    ).not.toThrow();
    expect(calls).toBe(1);
  });
});
