// Digests of large buffers (Node), computed in pieces with a turn of the event loop between
// them: a table or an engine's memory of hundreds of MB is more hashing than a call may hold the
// thread for (SHA-256: about 140 ms for 260 MB here; CRC-32 about a third of that).
import { yieldToEventLoop } from './wasm/protocol.js';

const PIECE = 8 << 20;

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += PIECE) {
    if (at > 0) await yieldToEventLoop();
    hash.update(bytes.subarray(at, at + PIECE));
  }
  return hash.digest();
}

/** The CRC-32 of `bytes` (zlib's), or null on a Node without zlib.crc32 (before 20.15). */
export async function crc32(bytes: Uint8Array): Promise<number | null> {
  const zlib: { crc32?: (data: Uint8Array, value?: number) => number } = await import('node:zlib');
  if (typeof zlib.crc32 !== 'function') return null;
  let crc = 0;
  for (let at = 0; at < bytes.length; at += PIECE) {
    if (at > 0) await yieldToEventLoop();
    crc = zlib.crc32(bytes.subarray(at, at + PIECE), crc);
  }
  return crc;
}
