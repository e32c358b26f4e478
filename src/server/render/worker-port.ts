/**
 * The worker side of the pool's wire protocol (render/pool.ts): answers each `{ id, task }` with
 * `{ id, ok, value | error }` (transferring what the handler lists), and hands `{ broadcast }` messages
 * to their handler synchronously, so a broadcast is applied before any task posted after it starts.
 */
import { parentPort, type Transferable } from "node:worker_threads";

export interface TaskHandlers<T> {
  task: (task: T) => Promise<{ value: unknown; transfer: Transferable[] }>;
  broadcast: (message: unknown) => void;
}

export function serveTasks<T>(handlers: TaskHandlers<T>): void {
  const port = parentPort;
  if (!port) throw new Error("serveTasks() runs in a worker thread only");
  port.on("message", (message: { id?: number; task?: T; broadcast?: unknown }) => {
    if (message.broadcast !== undefined) {
      handlers.broadcast(message.broadcast);
      return;
    }
    const id = message.id!;
    handlers.task(message.task as T).then(
      ({ value, transfer }) => port.postMessage({ id, ok: true, value }, transfer),
      (error: unknown) => port.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
