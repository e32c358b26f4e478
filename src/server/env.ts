/**
 * Every environment variable the server reads, parsed once, typed and validated. Nothing else in the
 * code base reads process.env: a missing or malformed value stops the start with a message naming it,
 * instead of surfacing later as a confusing failure on some request.
 */
import { isIP } from "node:net";
import { z } from "zod";

const ENVIRONMENTS = ["dev", "staging", "prod"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** A URL the check accepts (a value that does not parse is refused with the same message). */
function urlWhere(accept: (url: URL) => boolean, message: string) {
  return z
    .string()
    .trim()
    .refine((value) => {
      try {
        return accept(new URL(value));
      } catch {
        return false;
      }
    }, message);
}

const httpUrl = urlWhere((url) => url.protocol === "http:" || url.protocol === "https:", "must be an absolute http(s) URL")
  // One canonical form (no trailing slash) so that `${base}/sites/...` never doubles a slash.
  .transform((value) => value.replace(/\/+$/, ""));

const optionalHttpUrl = z.preprocess(emptyToUndefined, httpUrl.optional());

/** BACKEND_TIMEOUT_MS when unset; tests calling the backend client directly use it too (env-in-tests.unit.ts). */
export const BACKEND_TIMEOUT_DEFAULT_MS = 4000;

/** A positive whole number given as a string, with a default when unset. */
function positiveInt(defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`))
      .default(defaultValue),
  );
}

function emptyToUndefined(value: unknown) {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/, "must be a host name such as preview.example.org");

/** redis://[user:password@]host[:port][/db] (or rediss://), database 0-15. */
const redisUrl = urlWhere(
  (url) =>
    (url.protocol === "redis:" || url.protocol === "rediss:") &&
    !!url.hostname &&
    /^(?:|\d|1[0-5])$/.test(url.pathname.replace(/^\//, "")),
  "must be a redis:// or rediss:// URL with a host and an optional database 0-15, such as redis://127.0.0.1:6379/8",
);

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** Express `trust proxy` as addresses, CIDR ranges and Express's names; "false" trusts no proxy. */
const trustedProxy = z
  .string()
  .trim()
  .transform((value, ctx): string | false => {
    if (value === "false") return false;
    const entries = value.split(",").map((e) => e.trim());
    const bad = entries.filter((e) => {
      if (PROXY_NAMES.has(e)) return false;
      const [address, bits, ...rest] = e.split("/");
      if (rest.length || !isIP(address)) return true;
      return bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
    });
    // Trusting every peer ("true", "*") would let any client choose its own address for the rate limit.
    if (bad.length) {
      ctx.addIssue({
        code: "custom",
        message: `must list addresses, CIDR ranges or loopback/linklocal/uniquelocal (or be "false"); not ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
      });
      return z.NEVER;
    }
    return entries.join(", ");
  });

const envSchema = z.object({
  /** Base of the content backend API, including /api/v1/websites. */
  BACKEND_API_URL: httpUrl,
  /** Shared with the backend's FRONTEND_REVALIDATION_SECRET; short secrets are guessable. */
  REVALIDATION_SECRET: z.string().min(16, "must be at least 16 characters"),
  /** Only `prod` allows indexing (src/server/site/indexing.ts). Other spellings are refused, not silently noindexed. */
  ENVIRONMENT: z.enum(ENVIRONMENTS, { error: `must be one of ${ENVIRONMENTS.join(", ")}` }),
  /** Time-based revalidation interval in seconds (the specification's default: 1 hour). */
  BACKEND_REVALIDATE_TTL: positiveInt(3600, 7 * 24 * 3600),
  /** Per-call timeout toward the content backend. */
  BACKEND_TIMEOUT_MS: positiveInt(BACKEND_TIMEOUT_DEFAULT_MS, 60_000),
  PORT: positiveInt(3000, 65535),
  /** Preview hosts are {code}.{ENVIRONMENT}.{PREVIEW_DOMAIN}; unset means no preview hosts. */
  PREVIEW_DOMAIN: z.preprocess(emptyToUndefined, hostname.optional()),
  /** The practice list, the single source of truth for registered hosts. */
  TENANTS_FILE: z.preprocess(emptyToUndefined, z.string().default("tenants/practices.json")),
  /** Where migrations/{code}/redirects.json live. */
  MIGRATIONS_DIR: z.preprocess(emptyToUndefined, z.string().default("migrations")),
  /** Byte budget of the rendered-page store, in MiB. */
  PAGE_CACHE_MAX_MB: positiveInt(128, 16_384),
  /**
   * The warm tier behind the page store on local disk (cache/disk/, without CACHE_URL): where its files go
   * (unlinked once open: they never outlive the process), its byte budget in MiB (0: none written, the
   * pre-pass's pages are still read from its output) and the pages it indexes at most (a few hundred bytes
   * of memory each). Without a writable directory it writes nothing and says so at start.
   */
  PAGE_DISK_DIR: z.preprocess(emptyToUndefined, z.string().default("tmp/page-disk")),
  PAGE_DISK_MAX_MB: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().max(1_048_576, "must be at most 1048576"))
      .default(2048),
  ),
  PAGE_DISK_MAX_KEYS: positiveInt(100_000, 10_000_000),
  /** Where the build pre-pass writes the rendered pages the server seeds its cache from. */
  PREPASS_DIR: z.preprocess(emptyToUndefined, z.string().default("server/prepass")),
  /** Server-side error tracking (Sentry). Unset: errors are only logged. */
  SENTRY_DSN: z.preprocess(emptyToUndefined, z.string().url("must be a DSN URL").optional()),
  /** Contact relay: submissions forwarded per client address and window (src/server/util/rate-limit.ts). */
  CONTACT_RATE_LIMIT: positiveInt(5, 10_000),
  CONTACT_RATE_WINDOW_S: positiveInt(600, 24 * 3600),
  /**
   * Express's `trust proxy`: the peers whose X-Forwarded-For / X-Forwarded-Proto are believed. The
   * default trusts a proxy on this machine or the container network only; "false" trusts nobody.
   */
  TRUSTED_PROXY: z.preprocess(emptyToUndefined, trustedProxy.default("loopback, uniquelocal")),
  /** Where the build-time media cache (logos for the social card) is read; see src/server/media/build-cache.ts. */
  MEDIA_CACHE_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * Render worker threads (src/server/render-pool/config.ts); unset: one per CPU; 0: render in the main
   * thread (no pool: every render then competes with the cache hits).
   */
  RENDER_WORKERS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().max(64, "must be at most 64"))
      .optional(),
  ),
  /**
   * The Redis several instances of this environment share (invalidations, tag versions, rendered pages);
   * unset: one instance on its own. The specification's databases: 6 prod, 7 staging, 8 dev.
   */
  CACHE_URL: z.preprocess(emptyToUndefined, redisUrl.optional()),
  /**
   * Names this deployment's keys and channels on the shared Redis, beside the environment: two deployments
   * of one environment on one Redis server must not invalidate each other. Unset: derived from
   * BACKEND_API_URL (cache/shared/names.ts), so every instance started from one env file agrees.
   */
  CACHE_NAMESPACE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be 1-40 lower-case letters, digits and hyphens")
      .optional(),
  ),
  /**
   * The internal port of the metrics and the operator's commands (monitoring/metrics-server.ts); 0: off
   * (no metrics recorded at all). Never the public port: nginx does not proxy it.
   */
  METRICS_PORT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number (0: off)")
      .transform(Number)
      .pipe(z.number().int().max(65535, "must be at most 65535"))
      .default(9464),
  ),
  /** The address the internal port listens on: loopback, or the container's own network address. */
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().trim().default("127.0.0.1")),
  /** How often the migration watch's 404 counts are saved (migration-watch/not-found-watch.ts; tests shorten it). */
  NOT_FOUND_FLUSH_MS: positiveInt(30_000, 3_600_000),
  /** json: one JSON object per line (containers, production); pretty: for people (make demo, make dev); off. */
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(["json", "pretty", "off"], { error: "must be json, pretty or off" }).default("json")),
  /** One access line per request (on) or none (off: the proxy logs requests already; it costs the hit path). */
  ACCESS_LOG: z.preprocess(emptyToUndefined, z.enum(["on", "off"], { error: "must be on or off" }).default("on")),
  /** Build-time constants, also read by the build pre-pass and the security headers. */
  BUILD_API_URL: optionalHttpUrl,
  BUILD_CMS_ORIGIN: optionalHttpUrl,
  /**
   * The origins the build pre-pass renders each practice's pages for, comma-separated, `{host}` standing for
   * its main host (prepass/prepass.ts) and `{code}` for its code. The cache key holds scheme, host and port
   * (cache/key.ts), so only a page rendered for the origin a visitor uses is a HIT for them. Unset:
   * `https://{host}`, what nginx forwards on the practices' domains. `make demo` sets it to the hosts it
   * prints, `http://{code}.dev.localhost:3000` (ops/demo/demo.sh).
   */
  BUILD_PREPASS_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((value) => value.split(",").map((o) => o.trim()).filter(Boolean))
      .refine(
        (templates) =>
          templates.length > 0 &&
          templates.every((t) => {
            // A template must name a practice, and become a bare http(s) origin once filled in.
            if (!t.includes("{host}") && !t.includes("{code}")) return false;
            const filled = t.replaceAll("{host}", "host.example").replaceAll("{code}", "code");
            try {
              const url = new URL(filled);
              return (url.protocol === "http:" || url.protocol === "https:") && url.origin === filled;
            } catch {
              return false;
            }
          }),
        "must list origins such as https://{host},http://{code}.dev.localhost:3000 (each naming {host} or {code}, no path)",
      )
      .default(["https://{host}"]),
  ),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses a given environment; throws EnvError listing every problem by variable name. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    const missing = source[name] === undefined || source[name] === "";
    return missing ? `${name} is required but not set` : `${name} ${issue.message}`;
  });
  throw new EnvError(problems);
}

let cached: Env | undefined;

/**
 * The process's LOG_FORMAT alone, for the one line a server that refuses to start writes (its environment did
 * not parse): json unless LOG_FORMAT is valid and says otherwise.
 */
export function refusalLogFormat(): Env["LOG_FORMAT"] {
  const parsed = envSchema.shape.LOG_FORMAT.safeParse(process.env.LOG_FORMAT);
  return parsed.success ? parsed.data : "json";
}

/** The process environment, parsed on first use and then kept. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The environment the pre-pass parses (and hands to its render workers): the backend is BUILD_API_URL. */
export function prepassSource(source: Record<string, string | undefined>): Record<string, string | undefined> {
  return { REVALIDATION_SECRET: "unused-by-the-build-pre-pass", ...source, BACKEND_API_URL: source.BUILD_API_URL };
}

/**
 * The build pre-pass renders with the server's own code (which calls getEnv()), but reads the backend
 * at BUILD_API_URL and needs no revalidation secret. Without BUILD_API_URL or with an invalid variable it
 * says why, and where its (then removed) output would be, instead of throwing: the build still succeeds.
 */
export function initPrepassEnv(
  source: Record<string, string | undefined> = process.env,
): { env: Env; workerEnv: Record<string, string | undefined> } | { problem: string; prepassDir: string } {
  const prepassDir = envSchema.shape.PREPASS_DIR.safeParse(source.PREPASS_DIR).data ?? "server/prepass";
  if (!source.BUILD_API_URL?.trim()) return { problem: "BUILD_API_URL is not set", prepassDir };
  try {
    cached = parseEnv(prepassSource(source));
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return { problem: error.problems.join("; "), prepassDir };
  }
  // The render workers parse the same environment for themselves.
  return { env: cached, workerEnv: prepassSource(source) };
}
