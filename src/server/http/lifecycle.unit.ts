import { describe, expect, it } from "vitest";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Lifecycle } from "./lifecycle";

/** GET /readyz of a server answering with the lifecycle's handler: [status, body]. */
async function readyz(lifecycle: Lifecycle): Promise<[number, string]> {
  const server = createServer(lifecycle.readyz).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as AddressInfo;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return [res.status, await res.text()];
  } finally {
    server.close();
  }
}

describe("Lifecycle", () => {
  it("answers 503 from the start until every condition named at construction has answered, then 200", async () => {
    const lifecycle = new Lifecycle({ backend: "backend not probed yet", cluster: "joining" });
    // Nothing has failed yet, and it is still not ready: ready is never the default.
    expect(await readyz(lifecycle)).toEqual([503, "starting: backend not probed yet; joining"]);
    lifecycle.waitFor("cluster", null);
    expect(await readyz(lifecycle)).toEqual([503, "starting: backend not probed yet"]);
    // A failing condition says why, and keeps it at 503 while it fails.
    lifecycle.waitFor("backend", "backend not answering: HTTP 502");
    expect(await readyz(lifecycle)).toEqual([503, "starting: backend not answering: HTTP 502"]);
    lifecycle.waitFor("backend", null);
    expect(await readyz(lifecycle)).toEqual([200, "ready"]);
  });

  it("answers 503 once draining", async () => {
    const lifecycle = new Lifecycle({});
    expect(await readyz(lifecycle)).toEqual([200, "ready"]);
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    let left = false;
    const exits: number[] = [];
    const done = lifecycle.shutdown(server, async () => void (left = true), (code) => void exits.push(code));
    expect(await readyz(lifecycle)).toEqual([503, "draining"]);
    await done;
    expect([left, exits, server.listening]).toEqual([true, [0], false]);
  });

  it("lets a request in flight finish before exiting", async () => {
    const lifecycle = new Lifecycle({});
    const server = createServer((_req, res) => setTimeout(() => res.end("late but whole"), 300));
    server.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    const answer = new Promise<string>((resolve, reject) => {
      request({ port, host: "127.0.0.1" }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve(body));
      })
        .on("error", reject)
        .end();
    });
    await new Promise((r) => setTimeout(r, 50));
    const exits: number[] = [];
    await lifecycle.shutdown(server, async () => undefined, (code) => void exits.push(code));
    expect(await answer).toBe("late but whole");
    expect(exits).toEqual([0]);
  });
});
