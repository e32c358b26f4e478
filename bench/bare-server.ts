/**
 * Benchmark (a): the in-process limit. A bare node:http server answering one fixed buffer (a cached
 * page's brotli bytes, with the headers the cache sends) to every request. Run as its own process;
 * prints its port (a free one, or the third argument's).
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const [bodyFile, headersJson, port = "0"] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(headersJson) as string[];

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
process.on("SIGTERM", () => process.exit(0));
