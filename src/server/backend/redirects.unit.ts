/**
 * Backend calls never follow redirects (issue 8, defect 5): against a real HTTP server on loopback that
 * answers 3xx, the contact relay's POST is not repeated at the Location (nor turned into a GET), and a read
 * fails instead of reading wherever the backend points.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { postContact } from "./contact";
import { getJson } from "./http";
import { isBackendError } from "./errors";
import { BACKEND_TIMEOUT_DEFAULT_MS } from "../env";

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const status = Number(/\/(30\d)\//.exec(req.url ?? "")?.[1] ?? 0);
    if (status) {
      res.writeHead(status, { location: "/elsewhere/" }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"errors":{}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const submission = {
  name: "Jeanne",
  email: "jeanne@example.org",
  phone: null,
  message: "Bonjour",
  consent: true as const,
  website: "",
  elapsed_ms: 5000,
  page: "/contact/",
};

describe("backend redirects", () => {
  it.each([301, 303, 307, 308])("contact: a %i is a refusal, and the message goes nowhere else", async (status) => {
    seen.length = 0;
    const outcome = await postContact({ baseUrl: `${base}/${status}`, timeoutMs: BACKEND_TIMEOUT_DEFAULT_MS }, "dupont", submission);
    expect(outcome).toEqual({ kind: "refused", status });
    expect(seen).toEqual([`POST /${status}/sites/dupont/contact/`]);
  });

  it("reads: a 301 is a bad status, the Location is not read", async () => {
    seen.length = 0;
    const error = await getJson({ baseUrl: `${base}/301`, timeoutMs: BACKEND_TIMEOUT_DEFAULT_MS }, "/sites/dupont/config/", z.object({})).catch((e) => e);
    expect(isBackendError(error) && error.failure).toBe("bad_status");
    expect(seen).toEqual(["GET /301/sites/dupont/config/"]);
  });
});
