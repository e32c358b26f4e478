/**
 * How a step talks to the operator: log lines, and a progress line that rewrites itself on a terminal
 * (one line per update elsewhere, so a CI log or a test still sees it).
 */
export interface StepIo {
  log: (line: string) => void;
  progress: (line: string) => void;
  /** Ends a progress line left open on a terminal. */
  progressDone: () => void;
}

export function consoleIo(stream: NodeJS.WriteStream = process.stderr): StepIo {
  let open = false;
  return {
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
