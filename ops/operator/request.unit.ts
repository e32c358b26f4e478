/**
 * call() against a raw TCP server that closes a kept-alive connection as the next request arrives on it, the
 * way nginx's old workers do on a reload: a GET is sent again on a new connection, a POST is not.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { call } from "./request";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Answers the first request of each connection (kept alive), and drops the connection on its second. */
async function closingServer() {
  let connections = 0;
  const sockets = new Set<Socket>();
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    let requests = 0;
    socket.on("data", () => {
      if (++requests === 1) socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok");
      else socket.destroy();
    });
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, connections: () => connections, closeAll: () => sockets.forEach((s) => s.destroy()) };
}

describe("call", () => {
  it("sends a GET again on a new connection when the kept-alive one is closed under it, once", async () => {
    const s = await closingServer();
    expect((await call(s.base, "a.fr", "/one")).text).toBe("ok");
    const second = await call(s.base, "a.fr", "/two");
    expect([second.status, second.text]).toEqual([200, "ok"]);
    expect(s.connections()).toBe(2);
    s.closeAll();
  });

  it("does not send a POST twice: the close is the caller's to judge", async () => {
    const s = await closingServer();
    expect((await call(s.base, "a.fr", "/one")).status).toBe(200);
    await expect(call(s.base, "a.fr", "/form", { method: "POST", body: "x=1" })).rejects.toThrow(/socket hang up|ECONNRESET/);
    s.closeAll();
  });

  it("fails a request Node's client refuses at once (an unescaped path) like any other, leaving no timer to fire on it", async () => {
    // Before: the deadline's timer, set before the client threw, fired on a request never made: a ReferenceError
    // that killed the process 15 s after the probes asked `/sœurs/21` (the review of the id forms, defect 2).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await expect(call("http://127.0.0.1:9", "a.fr", "/sœurs/21", { deadlineMs: 50 })).rejects.toThrow(/unescaped characters/);
      expect(vi.getTimerCount()).toBe(0);
      expect(() => vi.runAllTimers()).not.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});
