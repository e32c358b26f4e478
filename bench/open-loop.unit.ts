import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { CONNECTION_ERROR, runOpenLoop } from "./open-loop";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Cache: HIT\r\n\r\nok";

/**
 * A server that answers the first request of every connection and closes the connection on the second without
 * a byte (as nginx closes an idle kept-alive connection just as a request crosses it); `closeFirst`: also closes
 * a fresh connection without answering.
 */
async function closingServer(closeFirst = false): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  server = createServer((socket) => {
    connections++;
    let requests = 0;
    socket.on("data", (chunk) => {
      requests += chunk.toString("latin1").split("\r\n\r\n").length - 1;
      if (requests === 1 && !closeFirst) socket.write(OK);
      else socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server!.address() as AddressInfo).port, connections: () => connections };
}

// Four requests half a second apart: a request sent once more (a new connection, then its answer) has time to come
// back before the next is due on a busy machine. At 50 ms apart a CI run beside other work saw the next request find
// its only connection still busy and go unsent ([200, 0, 0, 200]).
const options = (port: number) => ({
  port,
  rate: 2,
  durationMs: 2000,
  hosts: ["dupont.dev.localhost"],
  paths: ["/"],
  zipf: 1,
  seed: 1,
  timeoutMs: 5000,
  maxConnections: 1,
});

describe("the open-loop generator", () => {
  it("sends a request once more on a new connection when a kept-alive one closes before any byte of its answer", async () => {
    const { port, connections } = await closingServer();
    const result = await runOpenLoop(options(port));
    // 4 requests, one connection at a time: each connection answers once, then closes under the next request.
    expect(result.status).toEqual([200, 200, 200, 200]);
    expect(result.resent).toBe(3);
    expect(connections()).toBe(4);
  });

  it("counts a connection error when a fresh connection closes without an answer: nothing is sent twice there", async () => {
    const { port } = await closingServer(true);
    const result = await runOpenLoop({ ...options(port), durationMs: 500 });
    expect(result.latencyMs).toEqual([CONNECTION_ERROR]);
    expect(result.resent).toBe(0);
  });
});
