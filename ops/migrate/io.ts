/**
 * How a step talks to the operator: log lines, and a progress line that rewrites itself on a terminal
 * (one line per update elsewhere, so a CI log or a test still sees it).
 */
import { createInterface } from "node:readline";
export interface StepIo {
  log: (line: string) => void;
  progress: (line: string) => void;
  /** Ends a progress line left open on a terminal. */
  progressDone: () => void;
  /** Asks the operator for one line (the review step); null once the input is closed. */
  ask?: (prompt: string) => Promise<string | null>;
}

export function consoleIo(stream: NodeJS.WriteStream = process.stderr): StepIo {
  let open = false;
  let lines: AsyncIterator<string> | null = null;
  return {
    ask: async (prompt) => {
      process.stdout.write(prompt);
      // One line reader for the whole run, created on the first question (the other steps never read stdin).
      lines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
      const next = await lines.next();
      return next.done ? null : next.value;
    },
    log: (line) => {
      if (open) stream.write("\n");
      open = false;
      console.log(line);
    },
    progress: (line) => {
      if (stream.isTTY) {
        stream.write(`\r${line}\x1b[K`);
        open = true;
      } else {
        stream.write(`${line}\n`);
      }
    },
    progressDone: () => {
      if (open) stream.write("\n");
      open = false;
    },
  };
}
