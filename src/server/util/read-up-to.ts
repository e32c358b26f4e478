/**
 * A web stream read to its end as UTF-8 text, or null as soon as it passes `limit` bytes. What happens to the
 * rest is the caller's: a fetch response's own stream is cancelled (the connection is released), a stream
 * made from a Node request is left unread (cancelling one crashes Node 20).
 */
export async function readUpTo(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString("utf8");
    size += value.byteLength;
    if (size > limit) return null;
    chunks.push(value);
  }
}
