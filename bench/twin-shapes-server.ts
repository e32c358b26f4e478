/**
 * bench/twin-shapes.ts's server: the bare twin of bench/bare-server.ts (one fixed buffer, the HIT's headers), in a
 * process that first did one more thing the product's process does (SHAPES, comma-separated), before the load:
 *
 *   express      its first 200 requests answered by an Express 5 app with the compression middleware
 *   plain        the same app without compression
 *   compression  the compression middleware alone around a plain handler
 *   workers      two idle worker threads, as the render pool's
 *   timers       five repeating timers, as the server's samplers and flushes
 *
 * Arguments: the body's file, the headers as JSON, the port. Prints the port once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import express from "express";
import compression from "compression";

const [bodyFile, headersJson, port] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(headersJson) as string[];
const shapes = new Set((process.env.SHAPES ?? "").split(",").filter(Boolean));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const page = "<p>a page rendered by the app</p>".repeat(60);
let other: Handler | null = null;
if (shapes.has("express") || shapes.has("plain")) {
  const app = express();
  if (shapes.has("express")) app.use(compression());
  app.get("/", (_req, res) => void res.set("x-app", "1").send(page));
  other = app as unknown as Handler;
} else if (shapes.has("compression")) {
  const compress = compression();
  other = (req, res) => compress(req as never, res as never, () => void res.setHeader("content-type", "text/html").end(page));
}
let otherLeft = other ? 200 : 0;
if (shapes.has("workers")) for (let i = 0; i < 2; i++) new Worker("setInterval(() => {}, 1000)", { eval: true }).unref();
if (shapes.has("timers")) for (let i = 0; i < 5; i++) setInterval(() => {}, 200 + i).unref();

const server = createServer((req, res) => {
  if (otherLeft > 0) {
    otherLeft--;
    return other!(req, res);
  }
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write(`${port}\n`));
process.on("SIGTERM", () => process.exit(0));
