/**
 * The pipeline's contract, on a real node:http server on port 0 with stages that record what they see: the
 * stages run in the declared order, a stage that answers ends the request's way, the state is made once and
 * is the same object for every stage and for stateOf(req), the Host header is resolved once per distinct value
 * (bounded), and the on-response consumers run once per response, abandoned ones included.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { createPipeline, stateOf, type PipelineStages, type RequestState, type Site } from "./pipeline";

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

interface Seen {
  order: string[];
  states: RequestState[];
  tenantCalls: string[];
  responses: { path: string; status: number; ms: number; aborted: boolean; closeListeners: number; bytes: number }[];
}

/** A pipeline whose stages record their passage; `answerAt` names the stage that answers (else the app does). */
async function start(
  opts: {
    answerAt?: (req: IncomingMessage) => "rules" | "cacheHit" | undefined;
    app?: (req: IncomingMessage, res: ServerResponse) => void;
    /** How a stage answers (default: the whole answer at once). */
    answer?: (req: IncomingMessage, res: ServerResponse, by: string) => void;
  } = {},
) {
  const seen: Seen = { order: [], states: [], tenantCalls: [], responses: [] };
  const whole = (res: ServerResponse, by: string) => {
    res.writeHead(200, { "x-answered-by": by });
    res.end(by);
  };
  const answer = (req: IncomingMessage, res: ServerResponse, by: string) => (opts.answer ?? ((_req, r, b) => whole(r, b)))(req, res, by);
  const stage = (name: "rules" | "cacheHit") => (req: IncomingMessage, res: ServerResponse, state: RequestState) => {
    seen.order.push(`${name} ${req.url}`);
    seen.states.push(state);
    expect(stateOf(req)).toBe(state);
    if (opts.answerAt?.(req) !== name) return false;
    answer(req, res, name);
    return true;
  };
  const stages: PipelineStages = {
    rules: stage("rules"),
    tenant: (host): Site | null => {
      seen.tenantCalls.push(host);
      return host.startsWith("www.cabinet-dupont.fr") ? { code: "dupont", authority: "www.cabinet-dupont.fr" } : null;
    },
    cacheHit: stage("cacheHit"),
    app: (req, res) => {
      seen.order.push(`app ${req.url}`);
      seen.states.push(stateOf(req)!);
      if (opts.app) opts.app(req, res);
      else whole(res, "app");
    },
    onResponse: [
      (req, res, state, ms) => {
        seen.order.push(`onResponse ${req.url}`);
        seen.states.push(state);
        seen.responses.push({ path: req.url!, status: res.statusCode, ms, aborted: state.aborted, closeListeners: res.listenerCount("close"), bytes: state.bytes });
      },
    ],
    requestId: (header) => (typeof header === "string" ? header : "generated"),
  };
  server = createServer(createPipeline(stages));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { seen, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, host = "www.cabinet-dupont.fr", headers: Record<string, string> = {}) {
  return new Promise<{ status: number; by: string | undefined }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, by: res.headers["x-answered-by"] as string | undefined }));
    });
    req.on("error", reject);
    req.end();
  });
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("not within 10 s");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("createPipeline", () => {
  it("runs rules, cache hit, then the app, in that order, and the on-response consumers once the response is done", async () => {
    const { seen, port } = await start();
    expect(await get(port, "/a/")).toEqual({ status: 200, by: "app" });
    await until(() => seen.responses.length === 1);
    expect(seen.order).toEqual(["rules /a/", "cacheHit /a/", "app /a/", "onResponse /a/"]);
    expect(seen.responses[0]).toMatchObject({ path: "/a/", status: 200, aborted: false });
    expect(seen.responses[0].ms).toBeGreaterThanOrEqual(0);
  });

  it("stops at the stage that answers: a refusal by the rules reaches neither the cache nor the app", async () => {
    const { seen, port } = await start({ answerAt: (req) => (req.url === "/refused/" ? "rules" : req.url === "/hit/" ? "cacheHit" : undefined) });
    expect((await get(port, "/refused/")).by).toBe("rules");
    expect((await get(port, "/hit/")).by).toBe("cacheHit");
    await until(() => seen.responses.length === 2);
    expect(seen.order).toEqual(["rules /refused/", "onResponse /refused/", "rules /hit/", "cacheHit /hit/", "onResponse /hit/"]);
  });

  it("is done with an answer a stage wrote whole when the stage returns: no listener per request, not aborted", async () => {
    const { seen, port } = await start({ answerAt: (req) => (req.url === "/refused/" ? "rules" : "cacheHit") });
    await get(port, "/refused/");
    await get(port, "/hit/");
    await until(() => seen.responses.length === 2);
    expect(seen.responses).toEqual([
      expect.objectContaining({ path: "/refused/", aborted: false, closeListeners: 0 }),
      expect.objectContaining({ path: "/hit/", aborted: false, closeListeners: 0 }),
    ]);
    // Once each, also after the response closes.
    await get(port, "/hit/");
    await until(() => seen.responses.length === 3);
    expect(seen.order.filter((o) => o === "onResponse /hit/")).toHaveLength(2);
  });

  it("waits for the close of an answer a stage is still writing when it returns, and says aborted when the client left first", async () => {
    const open: ServerResponse[] = [];
    const { seen, port } = await start({
      answerAt: (req) => (req.url === "/gone/" ? "rules" : "cacheHit"),
      answer: (req, res, by) => {
        res.writeHead(200, { "x-answered-by": by });
        // /gone/: the client's connection is already gone when the stage writes its whole answer.
        if (req.url === "/gone/") return void (req.socket.destroy(), res.end(by));
        res.write("part one ");
        open.push(res);
      },
    });
    const streamed = get(port, "/streamed/");
    await until(() => open.length === 1);
    expect(seen.responses).toEqual([]);
    open[0].end("part two");
    await streamed;
    await until(() => seen.responses.length === 1);
    expect(seen.responses[0]).toMatchObject({ path: "/streamed/", aborted: false });
    await get(port, "/gone/").catch(() => undefined);
    await until(() => seen.responses.length === 2);
    expect(seen.responses[1]).toMatchObject({ path: "/gone/", aborted: true });
  });

  it("counts each pipelined response's own bytes, once, whether it was written at once or queued behind another", async () => {
    const { seen, port } = await start({
      answerAt: (req) => (req.url!.startsWith("/refused") ? "rules" : req.url!.startsWith("/hit") ? "cacheHit" : undefined),
      app: (_req, res) => {
        res.writeHead(200, { "x-answered-by": "app" });
        res.write("slow ");
        setTimeout(() => res.end("app"), 30);
      },
    });
    const raw = ["/hit1", "/app", "/hit2", "/refused", "/hit3"].map((p) => `GET ${p} HTTP/1.1\r\nHost: www.cabinet-dupont.fr\r\n\r\n`).join("");
    const socket = connect(port, "127.0.0.1", () => socket.write(raw));
    let received = 0;
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    await until(() => seen.responses.length === 5);
    await until(() => received === seen.responses.reduce((sum, r) => sum + r.bytes, 0));
    socket.destroy();
    expect(seen.responses.map((r) => r.path)).toEqual(["/hit1", "/app", "/hit2", "/refused", "/hit3"]);
    // Each its own: a response's head and body, not the one queued behind it.
    const hits = seen.responses.filter((r) => r.path.startsWith("/hit")).map((r) => r.bytes);
    expect(new Set(hits).size).toBe(1);
    expect(seen.responses.every((r) => !r.aborted && r.bytes > 0)).toBe(true);
  });

  it("says aborted for a whole answer the client left before it was all taken (a large one, bytes still queued)", async () => {
    const big = "x".repeat(8 << 20);
    const { seen, port } = await start({
      answerAt: () => "cacheHit",
      answer: (_req, res) => {
        res.writeHead(200, { "content-length": String(big.length) });
        res.end(big);
      },
    });
    const socket = connect(port, "127.0.0.1", () => socket.write("GET /big HTTP/1.1\r\nHost: www.cabinet-dupont.fr\r\n\r\n"));
    socket.once("data", () => socket.destroy());
    await until(() => seen.responses.length === 1);
    expect(seen.responses[0]).toMatchObject({ path: "/big", aborted: true });
  });

  it("hands every stage the same state, made once per request, with the practice the Host header names", async () => {
    const { seen, port } = await start();
    await get(port, "/one/", "www.cabinet-dupont.fr", { "x-request-id": "abc" });
    await until(() => seen.responses.length === 1);
    const [first] = seen.states;
    expect(seen.states.every((s) => s === first)).toBe(true);
    expect(first.site).toEqual({ code: "dupont", authority: "www.cabinet-dupont.fr" });
    expect(first.id).toBe("abc");
    await get(port, "/two/", "unknown.example");
    await until(() => seen.responses.length === 2);
    const second = seen.states.at(-1)!;
    expect(second).not.toBe(first);
    expect(second.site).toBeNull();
    expect(second.id).toBe("generated");
  });

  it("resolves each distinct Host header once, not once per request, and keeps at most 1,024 of them", async () => {
    const { seen, port } = await start();
    for (let i = 0; i < 3; i++) await get(port, "/", "www.cabinet-dupont.fr");
    expect(seen.tenantCalls).toEqual(["www.cabinet-dupont.fr"]);
    for (let i = 0; i < 1030; i++) await get(port, "/", `h${i}.example`);
    // The memo was emptied when full: the first host is resolved again.
    await get(port, "/", "www.cabinet-dupont.fr");
    expect(seen.tenantCalls.filter((h) => h === "www.cabinet-dupont.fr")).toHaveLength(2);
  });

  it("counts a response the client abandoned, once", async () => {
    const { seen, port } = await start({ app: () => {} }); // the app never answers
    const req = request({ host: "127.0.0.1", port, path: "/slow/", headers: { host: "www.cabinet-dupont.fr" } });
    req.on("error", () => {});
    req.end();
    await until(() => seen.order.includes("app /slow/"));
    req.destroy();
    await until(() => seen.responses.length === 1);
    expect(seen.responses[0]).toMatchObject({ path: "/slow/", aborted: true });
  });
});
