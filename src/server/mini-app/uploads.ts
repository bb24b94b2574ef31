/**
 * Uploads are limited before their bodies are kept: a body is read with a hard cap (reading stops
 * at the first byte past it), and the process holds at most a few at a time, one per request.
 */

/** A body, read up to `cap` bytes: the bytes, or `too-large` as soon as one more byte came. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<Buffer | "too-large"> {
  if (body === null) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      // The body is refused either way; a cancel that fails only means the stream already ended.
      await reader.cancel().catch(() => undefined);
      return "too-large";
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * At most `max` uploads at a time in this process, and one at a time per `key` (a request's
 * proof): `take` answers a release, or undefined when the upload must wait (429).
 */
export function createUploadSlots(max: number) {
  const busy = new Set<string>();
  return {
    take(key: string): (() => void) | undefined {
      if (busy.size >= max || busy.has(key)) return undefined;
      busy.add(key);
      return () => void busy.delete(key);
    },
    /** How many uploads are being read now. */
    inUse: () => busy.size,
  };
}
