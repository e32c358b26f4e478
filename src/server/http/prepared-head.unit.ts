import { createServer, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { prepareHead, writePreparedHead } from "./prepared-head";

const LIST = [
  "content-security-policy", "default-src 'none'; script-src 'self' 'sha256-abc'",
  "content-type", "text/html; charset=utf-8",
  "link", "</a.css>; rel=preload; as=style",
  "link", "</b.woff2>; rel=preload; as=font",
  "content-length", "5",
  "x-cache", "HIT",
  "age", "0",
];

let server: Server | null = null;
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = null;
});

/** Serves each request with `answer`, then sends the raw requests on one connection; the raw responses, Date removed. */
async function rawResponses(answer: (res: ServerResponse, n: number) => void, requests: number): Promise<string[]> {
  let n = 0;
  server = createServer((_req, res) => answer(res, n++));
  await new Promise<void>((listening) => server!.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as { port: number };
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString("latin1")));
  socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(requests));
  // Each response is its head and the 5 bytes of body.
  await expect.poll(() => text.split("hello").length - 1, { timeout: 10_000 }).toBe(requests);
  socket.destroy();
  return text.split(/(?<=hello)/).map((r) => r.replace(/^Date: .*\r\n/m, ""));
}

describe("prepareHead and writePreparedHead", () => {
  it("put on the wire the bytes writeHead(status, list) puts, for every response of a shared head", async () => {
    const expected = await rawResponses((res, n) => {
      const list = LIST.slice();
      list[list.length - 1] = String(n);
      res.writeHead(200, list);
      res.end("hello");
    }, 3);
    const head = prepareHead(LIST.slice());
    const prepared = await rawResponses((res, n) => {
      writePreparedHead(res, 200, head, String(n));
      res.end("hello");
    }, 3);
    expect(prepared).toEqual(expected);
    // Both Link lines, in order, and each response its own Age.
    expect(prepared[2]).toMatch(/link: <\/a.css>.*\r\nlink: <\/b.woff2>/);
    expect(prepared.map((r) => /age: (\d+)/.exec(r)?.[1])).toEqual(["0", "1", "2"]);
  });

  it("joins the headers Node does not look at into runs, and keeps those it frames the response by (and Age) on their own", async () => {
    // Fails, as the symbol's test does, on a Node that no longer writes a joined run as it is (the module's check).
    // Date in the middle: Node must see it (no Date of its own added), and the run after it starts again.
    const list = ["x-a", "1", "Date", "Thu, 01 Jan 2026 00:00:00 GMT", "x-b", "2", "link", "<a>", "link", "<b>", ...LIST.slice(8)];
    const { outgoing } = prepareHead(list.slice());
    expect(Object.entries(outgoing)).toEqual([
      ["x-a", ["x-a", "1"]],
      ["date", ["Date", "Thu, 01 Jan 2026 00:00:00 GMT"]],
      ["x-b", ["x-b", "2\r\nlink: <a>\r\nlink: <b>"]],
      ["content-length", ["content-length", "5"]],
      ["x-cache", ["x-cache", "HIT"]],
      ["age", ["age", "0"]],
    ]);
    const expected = await rawResponses((res) => {
      res.writeHead(200, list);
      res.end("hello");
    }, 2);
    const head = prepareHead(list.slice());
    const prepared = await rawResponses((res) => {
      writePreparedHead(res, 200, head, "0");
      res.end("hello");
    }, 2);
    // rawResponses drops the first Date line: the list's own, on both sides.
    expect(prepared).toEqual(expected);
    expect(prepared[0].match(/^Date: /gim)).toBeNull();
    expect(prepared[0]).toMatch(/\r\nx-b: 2\r\nlink: <a>\r\nlink: <b>\r\ncontent-length: 5\r\n/);
  });

  it("takes Node's own path (headers checked once, not per response); a response already holding a header takes the list", async () => {
    const head = prepareHead(LIST.slice());
    let ownPath: boolean[] = [];
    const responses = await rawResponses((res, n) => {
      if (n === 1) res.setHeader("x-request-id", "r1");
      writePreparedHead(res, 200, head, "7");
      // Node's own path stores the prepared object itself as the response's headers.
      ownPath.push(Object.getOwnPropertySymbols(res).some((s) => (res as unknown as Record<symbol, unknown>)[s] === head.outgoing));
      res.end("hello");
    }, 2);
    expect(ownPath).toEqual([true, false]);
    expect(responses[1]).toMatch(/x-request-id: r1\r\n/);
    expect(responses[1]).toMatch(/content-security-policy: default-src 'none'/);
    ownPath = [];
  });

  it("keeps a shared head from being changed once written (what sharing it relies on)", async () => {
    const head = prepareHead(LIST.slice());
    const errors: string[] = [];
    await rawResponses((res) => {
      writePreparedHead(res, 200, head, "0");
      for (const change of [() => res.setHeader("x-cache", "MISS"), () => res.removeHeader("x-cache")]) {
        try {
          change();
        } catch (error) {
          errors.push((error as { code?: string }).code ?? "");
        }
      }
      res.end("hello");
    }, 1);
    expect(errors).toEqual(["ERR_HTTP_HEADERS_SENT", "ERR_HTTP_HEADERS_SENT"]);
    expect(head.outgoing["x-cache"]).toEqual(["x-cache", "HIT"]);
  });

  it.each([
    ["a value with a line break", ["x-a", "1\r\nSet-Cookie: a=b", "age", "0"], "ERR_INVALID_CHAR"],
    ["a name that is no token", ["x a", "1", "age", "0"], "ERR_INVALID_HTTP_TOKEN"],
  ])("refuses %s as writeHead does", (_name, list, code) => {
    expect(() => prepareHead(list)).toThrow(expect.objectContaining({ code }));
  });

  it("keeps the headers an object with fast properties, not a dictionary (Node's for-in over them on every HIT)", () => {
    setFlagsFromString("--allow-natives-syntax");
    const hasFastProperties = runInNewContext("(o) => %HasFastProperties(o)") as (o: object) => boolean;
    // Thirty headers: more than an object grown key by key keeps fast.
    const many = Array.from({ length: 30 }, (_, i) => [`x-header-${i}`, "v"]).flat();
    for (const list of [LIST.slice(), [...many, "age", "0"]]) {
      const { outgoing } = prepareHead(list);
      expect(hasFastProperties(outgoing)).toBe(true);
      expect(Object.getPrototypeOf(outgoing)).toBeNull();
    }
    // What the test tells apart: the shape an object grown on Object.create(null) has.
    const grown = Object.create(null) as Record<string, string>;
    grown.a = "b";
    expect(hasFastProperties(grown)).toBe(false);
  });

  it("refuses a list without Age last (the one value it sets per response)", () => {
    expect(() => prepareHead(["x-cache", "HIT"])).toThrow(/Age/);
    expect(() => prepareHead(["age", "0", "age", "1"])).toThrow(/one Age/);
  });
});
