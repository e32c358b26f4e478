/**
 * The command line of one step: positional arguments in a fixed order, `--name value` options and
 * `--flag`s, `--help`. Anything else is a usage error (exit status 2), reported with the step's usage.
 */
export class UsageError extends Error {}

export interface StepSpec {
  name: string;
  /** One line per argument and option, shown by --help. */
  usage: string;
  positionals: string[];
  options?: string[];
  flags?: string[];
}

export interface Parsed {
  help: boolean;
  positional: Record<string, string>;
  options: Record<string, string | undefined>;
  flags: Set<string>;
}

export function parseArgs(spec: StepSpec, argv: string[]): Parsed {
  const parsed: Parsed = { help: false, positional: {}, options: {}, flags: new Set() };
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      parsed.help = true;
    } else if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (spec.flags?.includes(name)) {
        parsed.flags.add(name);
      } else if (spec.options?.includes(name)) {
        const value = inline ?? argv[++i];
        if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
        parsed.options[name] = value;
      } else {
        throw new UsageError(`unknown option ${arg}`);
      }
    } else {
      values.push(arg);
    }
  }
  if (parsed.help) return parsed;
  if (values.length !== spec.positionals.length) {
    throw new UsageError(`expected ${spec.positionals.map((p) => `<${p}>`).join(" ")}, got ${values.length} argument(s)`);
  }
  spec.positionals.forEach((name, i) => (parsed.positional[name] = values[i]));
  return parsed;
}

/** A positive integer option, or the default. */
export function intOption(parsed: Parsed, name: string, fallback: number, max = 1_000_000): number {
  const raw = parsed.options[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be an integer from 1 to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/** An absolute http(s) URL argument. */
export function urlArgument(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${what} must be an absolute URL such as https://www.example.fr, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${what} must be http or https, got ${url.protocol}`);
  return url;
}

/** `--connect HOST:PORT` (curl's --connect-to): where requests go instead of the URL's own address. */
export function connectOption(parsed: Parsed): string | undefined {
  const raw = parsed.options.connect;
  if (raw === undefined) return undefined;
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(raw);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) throw new UsageError(`--connect takes HOST:PORT, got ${JSON.stringify(raw)}`);
  return raw;
}
