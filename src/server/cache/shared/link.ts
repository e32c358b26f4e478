/**
 * The two Redis connections of an instance (commands, and the subscriber pub/sub needs to itself) and
 * what an outage looks like from here. Redis is optional infrastructure: no command waits in an offline
 * queue or longer than a short timeout, reconnection backs off, and an outage is one log line and one
 * error event when it starts (and one line when it ends), never one per request.
 */
import { createRequire } from "node:module";
import type * as Redis from "redis";
import { reportError } from "../../monitoring";

type Client = ReturnType<typeof Redis.createClient>;

/**
 * The redis package, loaded by the first link (an instance with CACHE_URL), not when this module is: the server's
 * bundle puts this module in the chunk every render worker loads too, and redis's hundred modules cost each thread
 * about a quarter to half a second of CPU at start (the main thread, and every worker, which never talks to Redis).
 */
let redis: typeof Redis | undefined;
const loadRedis = (): typeof Redis => (redis ??= createRequire(import.meta.url)("redis") as typeof Redis);

/** Reconnection delay: 50 ms doubling to 2 s, with jitter so instances do not reconnect in step. */
export function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, 2000) + Math.floor(Math.random() * 50);
}

export class RedisUnavailable extends Error {
  override name = "RedisUnavailable";
}

export interface LinkEvents {
  /** The subscriber is (re)connected: its subscriptions must be confirmed before they are trusted. */
  subscriberReady: () => void;
  /** The subscriber lost its connection: messages may have been missed. */
  subscriberLost: () => void;
  /** One command's round trip, answered or not (the metrics). */
  roundTrip: (ok: boolean, ms: number) => void;
}

export class RedisLink {
  readonly commands: Client;
  readonly subscriber: Client;
  /** A reply's strings as Buffers (the shared pages' bodies). */
  private readonly buffers: Redis.TypeMapping;
  private down = false;
  private downSince = 0;
  private closing = false;

  constructor(
    url: string,
    private readonly timeoutMs: number,
    private readonly events: LinkEvents,
    // Late-bound: whatever console.log is when a line is written (monitoring/log.ts routes it, and the
    // process's streams, to the JSON log).
    private readonly log: (line: string) => void = (line) => console.log(line),
  ) {
    const options = {
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: Math.max(timeoutMs, 1000), reconnectStrategy: reconnectDelay },
    };
    const { createClient, RESP_TYPES } = loadRedis();
    this.buffers = { [RESP_TYPES.BLOB_STRING]: Buffer };
    this.commands = createClient(options);
    this.subscriber = createClient(options);
    for (const client of [this.commands, this.subscriber]) {
      client.on("error", (error: Error) => this.failed(error));
      client.on("ready", () => this.recovered());
    }
    this.subscriber.on("ready", () => events.subscriberReady());
    this.subscriber.on("reconnecting", () => events.subscriberLost());
    this.subscriber.on("end", () => events.subscriberLost());
    this.subscriber.on("error", () => events.subscriberLost());
  }

  /** Starts connecting; never throws (an unreachable Redis is an outage like any other). */
  connect(): void {
    for (const client of [this.commands, this.subscriber]) client.connect().catch((error) => this.failed(error));
  }

  get reachable(): boolean {
    return !this.down && this.commands.isReady;
  }

  /** One command, bounded by the timeout; rejects with RedisUnavailable when Redis cannot answer. */
  async run<T = unknown>(args: (string | Buffer)[], buffers = false): Promise<T> {
    if (!this.commands.isReady) throw new RedisUnavailable("Redis is not connected");
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisUnavailable(`Redis did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    const start = performance.now();
    try {
      const reply = this.commands.sendCommand(args, buffers ? { typeMapping: this.buffers } : undefined);
      const value = (await Promise.race([reply, timeout])) as T;
      this.events.roundTrip(true, performance.now() - start);
      return value;
    } catch (error) {
      this.events.roundTrip(false, performance.now() - start);
      if (error instanceof RedisUnavailable) this.failed(error);
      throw error instanceof RedisUnavailable ? error : new RedisUnavailable((error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([this.commands.close(), this.subscriber.close()]);
  }

  private failed(error: Error): void {
    if (this.down || this.closing) return;
    this.down = true;
    this.downSince = Date.now();
    const message = `shared cache: Redis unreachable (${error.message}); this instance serves and renders on its own and reconnects with backoff`;
    reportError(new Error(message));
  }

  private recovered(): void {
    if (!this.down || !this.commands.isReady || !this.subscriber.isReady) return;
    this.down = false;
    this.log(`shared cache: Redis reachable again after ${((Date.now() - this.downSince) / 1000).toFixed(1)} s`);
  }
}
