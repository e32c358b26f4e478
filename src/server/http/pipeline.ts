/**
 * The request pipeline: every stage a request to the public port goes through, in order, declared here
 * and nowhere else (as fastify's lib/hooks.js declares its lifecycle). The README's "Request path" names
 * these stages.
 *
 *   1. guard        what Node's HTTP parser refuses, answered (raw-targets.ts); the server's timeouts
 *                   (server-limits.ts). On the server, before any request exists: createFrontServer.
 *   2. observe      the request's state begins (RequestState: arrival time, request id), and its end is
 *                   handed to the on-response consumers (7).
 *   3. rules        the request rules' refusals, which cost a node:http answer (request-rules.ts).
 *   4. tenant       Host -> practice and the host as the cache key holds it, resolved once per Host header
 *                   (tenancy's resolveHost; memoised), kept in the state for every later stage.
 *   5. cache hit    a fresh entry the stack served once, or a path a practice's cached 404 page proves is
 *                   no page: written from the page cache (cache-front.ts, serve.ts).
 *   6. app          everything else, a list of handlers on the same Node objects (app.ts, stack.ts): global
 *                   endpoints, the build's files, tenancy's refusals, redirects, canonical paths, the page
 *                   cache's misses rendered in the render pool, the practice's routes.
 *   7. on response  when the response is done or abandoned: the metrics, the access line, the migration
 *                   watch (the consumers createApp gives: onResponse). A response a stage wrote whole before
 *                   it returned (a refusal, a cache hit: one end() each) is done then; any other when it closes.
 *
 * A stage answers or passes: it returns true when it wrote the response. The state is computed once and
 * handed to every stage; the app's handlers and the render (its request id) read it with stateOf(req).
 *
 * Every request and response of the process is a plain IncomingMessage and ServerResponse from the first
 * byte to the last: no framework gives them another prototype or replaces their methods (no Express, no
 * compression middleware). Node's own HTTP code, shared by every response, then sees one shape of each and
 * stays fast for the cache hits (docs/decisions/0064-hit-path-shapes.md measured what the others cost).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
// Imported, not the global: Node's global `performance` is a getter, called on every read (about 0.1 µs a HIT, twice).
import { performance } from "node:perf_hooks";
import { applyServerLimits, serverOptions } from "./server-limits";
import { answerRefusedRequests } from "./raw-targets";
import { resolveHost, type HostRules } from "../tenancy";
import { hostKeyPart } from "../cache/key";

/** The practice a Host header names, and the host as the page cache's key holds it (null: not a DNS name). */
export interface Site {
  code: string;
  authority: string | null;
}

/**
 * The practice the app's tenancy handler accepted a request for (app.ts): its Host's practice, on the port
 * this server listens on, for a path that is not internal. Set once; read by the later handlers.
 */
export interface RequestTenant {
  code: string;
  /** The Host header as sent (one, checked by http/request-rules.ts). */
  host: string;
}

/** What the pipeline knows of one request, computed once (see stateOf). */
export class RequestState {
  /** performance.now() when the request arrived: the duration the access line and the metrics give. */
  readonly start = performance.now();
  /** The practice its Host header names (stage 4); null before, or for a Host no practice has. */
  site: Site | null = null;
  /** Set by the app's tenancy handler (app.ts) when it accepts the request for `site`; null before or when refused. */
  tenant: RequestTenant | null = null;
  /**
   * Set when the page cache wrote the answer (cache-front.ts): HIT or STALE for a stored entry, MISS for a
   * render's. Read by the on-response consumers (http/observe.ts: the metrics' and the access line's label, the
   * migration watch's rule). Kept here because a stored entry's headers go out as one raw list, which getHeader
   * cannot read back.
   */
  cache: string | undefined = undefined;
  /**
   * The socket's bytes written before this response (the access line's bytes). A response queued behind another on
   * its connection (pipelined requests) reads it again when it gets the socket (createPipeline).
   */
  bytesBefore: number;
  /**
   * The socket's bytes written once the response's last byte was handed to it, for a response done when it closes
   * (createPipeline): by then the next response of a pipelined connection may have written too. Undefined when never.
   */
  bytesEnd: number | undefined = undefined;
  /** Set before the on-response consumers run: the client went away before the response was all handed to the socket. */
  aborted = false;
  private requestId: string | undefined;

  constructor(
    readonly req: IncomingMessage,
    private readonly newId: (header: string | string[] | undefined) => string,
  ) {
    this.bytesBefore = req.socket.bytesWritten;
  }

  /** The bytes of the response on its connection (the access line's). */
  get bytes(): number {
    return (this.bytesEnd ?? this.req.socket.bytesWritten) - this.bytesBefore;
  }

  /** The validated X-Request-Id, or a generated id: decided on first use, the same for every reader. */
  get id(): string {
    return (this.requestId ??= this.newId(this.req.headers["x-request-id"]));
  }
}

const STATE = Symbol("requestState");
type WithState = IncomingMessage & { [STATE]?: RequestState };

/** The request's state, for the app's handlers and the render (undefined outside the pipeline). */
export function stateOf(req: IncomingMessage): RequestState | undefined {
  return (req as WithState)[STATE];
}

/** Stage 2's first step: the request's state, made and attached (createPipeline; a handler's unit test). */
export function beginState(req: IncomingMessage, requestId: (header: string | string[] | undefined) => string): RequestState {
  const state = new RequestState(req, requestId);
  (req as WithState)[STATE] = state;
  return state;
}

/** A stage: true when it answered the request, false to pass it on. */
export type Stage = (req: IncomingMessage, res: ServerResponse, state: RequestState) => boolean;

/** A consumer of finished responses (stage 7): `ms` from arrival to the response's end or abandon. */
export type OnResponse = (req: IncomingMessage, res: ServerResponse, state: RequestState, ms: number) => void;

export interface PipelineStages {
  /** Stage 3. */
  rules: Stage;
  /** Stage 4: the practice a Host header names (memoised here, per Host header). */
  tenant: (host: string) => Site | null;
  /** Stage 5. */
  cacheHit: Stage;
  /** Stage 6. */
  app: RequestListener;
  /** Stage 7, in this order. */
  onResponse: readonly OnResponse[];
  /** The request id of a request (monitoring/access.ts's requestId). */
  requestId: (header: string | string[] | undefined) => string;
}

/** Stage 4's resolution (createPipeline memoises it): the practice of the practice list a Host header names. */
export function tenantOf(rules: HostRules): (host: string) => Site | null {
  return (host) => {
    const code = resolveHost(host, rules);
    return code ? { code, authority: hostKeyPart(host) } : null;
  };
}

/** Bounded memo of Host header -> site: one resolution per distinct Host header, not per request. */
const HOST_MEMO_MAX = 1024;

/** Stages 2 to 7 as one request listener. */
export function createPipeline(stages: PipelineStages): RequestListener {
  const { rules, cacheHit, app, onResponse, requestId } = stages;
  const hosts = new Map<string, Site | null>();
  const tenant = (host: string | undefined): Site | null => {
    if (!host) return null;
    let site = hosts.get(host);
    if (site === undefined) {
      site = stages.tenant(host);
      if (hosts.size >= HOST_MEMO_MAX) hosts.clear();
      hosts.set(host, site);
    }
    return site;
  };
  // 7. on response
  const respond = (req: IncomingMessage, res: ServerResponse, state: RequestState): void => {
    const ms = performance.now() - state.start;
    for (const consumer of onResponse) consumer(req, res, state, ms);
  };
  // One listener for every response (not a closure per request): the response knows its request. "close", not
  // "finish": a response the client abandoned is counted and logged too.
  function closed(this: ServerResponse): void {
    const state = (this.req as WithState)[STATE]!;
    state.aborted = !this.writableFinished;
    respond(this.req, this, state);
  }
  // Its last byte handed to the socket ("prefinish"): the end of its bytes (RequestState.bytesEnd).
  function handed(this: ServerResponse): void {
    (this.req as WithState)[STATE]!.bytesEnd = this.socket?.bytesWritten;
  }
  const watch = (res: ServerResponse): void => {
    if (onResponse.length === 0) return;
    // `on`, not `once`: the response emits each once and is dropped after, and `once` allocates a wrapper per request.
    res.on("prefinish", handed);
    res.on("close", closed);
  };
  // A stage answered. Written whole on its own connection before it returned, every byte taken by the kernel (a
  // refusal, a cache hit of a usual size: one end() each), the response is done now: no listener added and called
  // per request, which cost a HIT about 0.1 µs of Node's event code (issue 28). Else it is done when it closes: a
  // stream; bytes still queued on the socket (a client reading slowly may leave before they go); a response queued
  // behind another of the connection (pipelined requests), not written yet. (The outside review's three cases.)
  const answered = (req: IncomingMessage, res: ServerResponse, state: RequestState): void => {
    const socket = req.socket;
    if (!res.writableEnded || res.socket !== socket || socket.writableLength > 0) return watch(res);
    // A client that reset the connection: the socket has its error before it is destroyed.
    state.aborted = socket.destroyed || socket.errored != null;
    respond(req, res, state);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    // 2. observe
    const state = beginState(req, requestId);
    // Queued behind the connection's previous response: its bytes start where that one's end, when it gets the socket.
    if (res.socket === null) res.once("socket", (socket) => void (state.bytesBefore = socket.bytesWritten));
    // 3. rules
    if (rules(req, res, state)) return answered(req, res, state);
    // 4. tenant
    state.site = tenant(req.headers.host);
    // 5. cache hit
    if (cacheHit(req, res, state)) return answered(req, res, state);
    // 6. app
    watch(res);
    app(req, res);
  };
}

/** Stage 1 around the rest: the public port's server. */
export function createFrontServer(listener: RequestListener): Server {
  return answerRefusedRequests(applyServerLimits(createServer(serverOptions(), listener)));
}
