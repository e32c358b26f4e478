/**
 * Asks a server started with `--inspect=127.0.0.1:0 --expose-gc` for its memory after a full garbage
 * collection (through the inspector protocol): the live set, as opposed to RSS, which also holds garbage
 * V8 has not needed to collect yet on a machine with plenty of memory.
 */
import { WebSocket } from "undici";

export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export function inspectorUrl(output: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1] ?? null;
}

export async function memoryAfterGc(wsUrl: string): Promise<Memory> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve());
    ws.addEventListener("error", () => reject(new Error(`cannot reach the inspector at ${wsUrl}`)));
  });
  const answer = new Promise<string>((resolve, reject) => {
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(String(event.data)) as { id?: number; result?: { result?: { value?: string } } };
      if (msg.id === 1) {
        const value = msg.result?.result?.value;
        if (value) resolve(value);
        else reject(new Error(`inspector answered ${String(event.data)}`));
      }
    });
  });
  ws.send(
    JSON.stringify({
      id: 1,
      method: "Runtime.evaluate",
      params: { expression: "gc(); gc(); JSON.stringify(process.memoryUsage())", returnByValue: true },
    }),
  );
  const value = await answer;
  ws.close();
  return JSON.parse(value) as Memory;
}
