/**
 * The Node-side body reader on a stream shaped like Node's IncomingMessage (headers, data, end, close):
 * every way a body goes wrong is an outcome, never a rejection.
 */
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { readNodeBody } from "./request-body";

function incoming(headers: Record<string, string> = {}) {
  const stream = new PassThrough() as PassThrough & { headers: Record<string, string>; complete: boolean };
  stream.headers = headers;
  stream.complete = false;
  return stream;
}
const asReq = (s: PassThrough) => s as unknown as IncomingMessage;
const limits = { maxBytes: 10, timeoutMs: 200 };

describe("readNodeBody", () => {
  it("reads a body within the limit", async () => {
    const req = incoming();
    const outcome = readNodeBody(asReq(req), limits);
    req.end(Buffer.from("é".repeat(5)));
    expect(await outcome).toEqual({ kind: "ok", body: Buffer.from("ééééé") });
  });

  it("refuses a declared length over the limit before reading", async () => {
    expect(await readNodeBody(asReq(incoming({ "content-length": "11" })), limits)).toEqual({ kind: "too-large" });
  });

  it("refuses a streamed body as soon as it passes the limit", async () => {
    const req = incoming();
    const outcome = readNodeBody(asReq(req), limits);
    req.write("x".repeat(6));
    req.write("x".repeat(6));
    expect(await outcome).toEqual({ kind: "too-large" });
  });

  it("gives up on a body that does not finish in time", async () => {
    const req = incoming();
    const outcome = readNodeBody(asReq(req), limits);
    req.write("x");
    expect(await outcome).toEqual({ kind: "timeout" });
  });

  it("reports a body whose sender went away", async () => {
    const req = incoming();
    const outcome = readNodeBody(asReq(req), limits);
    req.write("x");
    req.destroy();
    expect(await outcome).toEqual({ kind: "aborted" });
  });
});
