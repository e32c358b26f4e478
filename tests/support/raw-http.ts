/**
 * Requests written byte by byte on a TCP socket: what no HTTP client library sends (half a header, a
 * body that stops, a body that trickles, repeated headers), for the hostile-traffic tests.
 */
import { connect } from "node:net";

export interface RawAnswer {
  /** The status of the answer, or null when the server closed without answering. */
  status: number | null;
  text: string;
  /** Milliseconds until the server closed the connection (or the test gave up). */
  closedAfterMs: number;
  reset: boolean;
}

export interface RawStep {
  data?: string | Buffer;
  /** Wait this long before the next step. */
  waitMs?: number;
  /** Close our side abruptly (an aborted upload). */
  destroy?: boolean;
}

export function rawRequest(port: number, steps: RawStep[], giveUpMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let text = "";
    let reset = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : null, text, closedAfterMs: Date.now() - started, reset });
    };
    const timer = setTimeout(finish, giveUpMs);
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", () => (reset = true));
    socket.on("close", finish);
    socket.on("connect", async () => {
      for (const step of steps) {
        if (done || socket.destroyed) return;
        if (step.data !== undefined && socket.writable) socket.write(step.data);
        if (step.waitMs) await new Promise((r) => setTimeout(r, step.waitMs));
        if (step.destroy) {
          socket.destroy();
          return;
        }
      }
    });
  });
}

/** A chunked-encoding chunk. */
export const chunk = (data: string | Buffer) => {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from(`${buf.length.toString(16)}\r\n`), buf, Buffer.from("\r\n")]);
};
