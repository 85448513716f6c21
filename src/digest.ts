// SHA-256 of large buffers (Node), hashed in pieces with a turn of the event loop between them:
// a table or an engine's memory of hundreds of MB is more hashing than a call may hold the
// thread for (about 140 ms for 260 MB here).
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
