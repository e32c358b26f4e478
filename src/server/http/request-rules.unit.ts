import { describe, expect, it } from "vitest";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { requestRulesStage } from "./request-rules";
import { createPipeline } from "./pipeline";

const STACK = ["x-content-type-options", "nosniff", "content-security-policy", "default-src 'none'"];

/** The rules in front of a listener that counts what reaches it. */
async function withFront(run: (port: number, passed: () => number) => Promise<void>) {
  let passed = 0;
  const server: Server = createServer(
    createPipeline({
      rules: requestRulesStage(STACK),
      tenant: () => null,
      cacheHit: () => false,
      app: (req, res) => {
        passed += 1;
        res.end(`next ${req.url}`);
      },
      onResponse: [],
      requestId: () => "id",
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await run((server.address() as AddressInfo).port, () => passed);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** `headers`: a raw list (name, value, ...), so that a header can be sent twice. */
function ask(port: number, method: string, path: string, headers: string[] = ["host", "a.example"]) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("requestRulesStage", () => {
  it("answers a method no route takes with 405 and Allow, with the stack's headers, and passes nothing on", async () => {
    await withFront(async (port, passed) => {
      for (const method of ["OPTIONS", "PROPFIND", "DELETE", "PUT"]) {
        const res = await ask(port, method, "/contact/");
        expect([method, res.status, res.headers.allow, res.body]).toEqual([method, 405, "GET, HEAD", "Method Not Allowed"]);
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
        expect(res.headers["content-security-policy"]).toBe("default-src 'none'");
      }
      expect((await ask(port, "PUT", "/api/contact/")).headers.allow).toBe("GET, HEAD, POST");
      expect(passed()).toBe(0);
    });
  });

  it("answers Qwik call parameters, a fragment and two Host headers with 400 naming the reason", async () => {
    await withFront(async (port, passed) => {
      expect(await ask(port, "GET", "/?qdata=1")).toMatchObject({ status: 400, body: "Bad Request: no server function or action here" });
      expect(await ask(port, "HEAD", "/x?qfunc=2")).toMatchObject({ status: 400, body: "" });
      expect(await ask(port, "GET", "/#r1")).toMatchObject({ status: 400, body: "Bad Request: a request target has no fragment" });
      expect(await ask(port, "GET", "/", ["host", "a.example", "host", "b.example"])).toMatchObject({ status: 400, body: "Bad Request: one Host header expected" });
      expect(passed()).toBe(0);
    });
  });

  it("passes GET, HEAD and POST of an ordinary shape on", async () => {
    await withFront(async (port, passed) => {
      for (const method of ["GET", "HEAD", "POST"]) expect((await ask(port, method, "/contact/?utm_source=x")).status).toBe(200);
      expect(passed()).toBe(3);
    });
  });

  it("takes an absolute-form target naming the Host as its path and query; refuses one naming another host", async () => {
    await withFront(async (port, passed) => {
      const host = ["host", "Dupont.example:8080"];
      expect((await ask(port, "GET", "http://dupont.example:8080/x/../favicon.svg?a=1", host)).body).toBe("next /x/../favicon.svg?a=1");
      expect((await ask(port, "GET", "http://DUPONT.example:8080?a=1", host)).body).toBe("next /?a=1");
      expect((await ask(port, "GET", "http://dupont.example:8080", host)).body).toBe("next /");
      expect(passed()).toBe(3);
      for (const target of ["http://evil.example/x/../favicon.svg", "http://dupont.example/contact/", "ftp://dupont.example:8080/", "dupont.example:8080/x"]) {
        expect(await ask(port, "GET", target, host), target).toMatchObject({ status: 400 });
      }
      expect(await ask(port, "GET", "http://dupont.example:8080/#x", host)).toMatchObject({ status: 400, body: "Bad Request: a request target has no fragment" });
      expect(passed()).toBe(3);
    });
  });
});
