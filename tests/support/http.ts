/**
 * HTTP requests with an explicit Host header (fetch() may not set Host), the way a browser reaching
 * a practice's domain through the reverse proxy would send them.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function http(
  baseUrl: string,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpResult> {
  // The path is sent as given (not resolved against the base), so "//_sites/x" stays a path.
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: opts.method ?? "GET",
        headers: { host, accept: "text/html", ...opts.headers },
        setHost: false,
      },
      collectAnswer(resolve, reject),
    );
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** The response callback of an http(s) request: the whole body as UTF-8 text, with status and headers. */
export function collectAnswer(resolve: (result: HttpResult) => void, reject: (error: Error) => void) {
  return (res: IncomingMessage) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    res.on("error", reject);
  };
}
