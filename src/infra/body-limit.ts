/**
 * Reading a request body within a byte cap: the one way every body is read (JSON API bodies,
 * console forms), declared length or chunked.
 */

/**
 * The body's bytes if it has at most `maxBytes`, else undefined. A declared Content-Length above
 * the cap is refused unread; otherwise chunks are counted as they arrive and the stream is
 * cancelled at the first byte past the cap, so nothing beyond it is ever buffered.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return undefined;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
