/**
 * A web stream read until its end or until it passes `limit` bytes. What happens to the rest is the caller's:
 * a fetch response's own stream is cancelled (the connection is released), a stream made from a Node request
 * is left unread (cancelling one crashes Node 20).
 */

/** The chunks read, the one that passed the limit included; `complete` when the stream ended within it. */
export async function readChunksUpTo(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<{ chunks: Uint8Array[]; complete: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, complete: true };
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) return { chunks, complete: false };
  }
}

/** The stream as UTF-8 text, or null as soon as it passes `limit` bytes. */
export async function readUpTo(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<string | null> {
  const { chunks, complete } = await readChunksUpTo(reader, limit);
  return complete ? Buffer.concat(chunks).toString("utf8") : null;
}
