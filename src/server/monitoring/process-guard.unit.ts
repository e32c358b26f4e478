import { describe, expect, it } from "vitest";
import { EventEmitter } from "node:events";
import { installProcessGuard } from "./process-guard";

function setup(flush: () => Promise<void> = async () => {}) {
  const proc = new EventEmitter();
  const calls: string[] = [];
  let exited: (code: number) => void = () => {};
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const lines: string[] = [];
  installProcessGuard({
    proc: proc as unknown as NodeJS.Process,
    report: (error) => calls.push(`report ${(error as Error).message}`),
    flush: async () => {
      calls.push("flush");
      await flush();
    },
    close: () => calls.push("close"),
    exit: (code) => {
      calls.push(`exit ${code}`);
      exited(code);
    },
    stats: () => ({ storeKeys: 12, heapUsed: 3 }),
    log: (line) => lines.push(line),
  });
  return { proc, calls, exitCode, lines };
}

describe("installProcessGuard", () => {
  it("an uncaught exception is reported and flushed, the server closed, then the process exits 1", async () => {
    const { proc, calls, exitCode } = setup();
    proc.emit("uncaughtException", new Error("boom"));
    proc.emit("uncaughtException", new Error("again")); // one exit, not two
    expect(await exitCode).toBe(1);
    expect(calls).toEqual(["report boom", "close", "flush", "exit 1"]);
  });

  it("exits even when the report never flushes", async () => {
    const { proc, exitCode } = setup(() => new Promise(() => {}));
    proc.emit("uncaughtException", new Error("boom"));
    expect(await exitCode).toBe(1);
  }, 10_000); // the guard gives the report 2 s

  it("an unhandled rejection is reported and the process keeps running", () => {
    const { proc, calls } = setup();
    proc.emit("unhandledRejection", new Error("stray"));
    expect(calls).toEqual(["report stray"]);
  });

  it("SIGUSR2 prints the stats line", () => {
    const { proc, lines } = setup();
    proc.emit("SIGUSR2");
    expect(lines).toEqual(["[stats] storeKeys=12 heapUsed=3"]);
  });
});
