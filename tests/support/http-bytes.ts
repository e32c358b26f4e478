/** Like http() (support/http.ts), but the body as bytes: images, and bodies sent in chunks. */
import { request as httpRequest } from "node:http";

export interface BytesResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function httpBytes(
  baseUrl: string,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer | (string | Buffer)[] } = {},
): Promise<BytesResult> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: opts.method ?? "GET", headers: { host, ...opts.headers }, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    // An array is written piece by piece: without a Content-Length, the server sees a chunked body.
    for (const piece of Array.isArray(opts.body) ? opts.body : opts.body === undefined ? [] : [opts.body]) req.write(piece);
    req.end();
  });
}
