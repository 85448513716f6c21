// A whole engine instance as data: its memory up to the arena's top and every mutable global
// (the build exports each as `global_<index>`: scripts/export-globals.js). Taken between two
// run(budget) calls, it is everything a search needs to go on, so a checkpoint written to disk
// lets a new process, with a fresh instance of the same module, resume the search.
import { BitpuzzleError } from '../errors.js';
import type { EngineExports } from './protocol.js';

export interface EngineSnapshot {
  /** The memory from address 0 to the arena's top (nothing above it is in use). */
  memory: Uint8Array;
  /** Each global's value by export name: a number, or a decimal string for an i64. */
  globals: Record<string, number | string>;
}

const GLOBAL = /^global_\d+$/;

function globalsOf(exports: EngineExports): [string, WebAssembly.Global][] {
  return Object.entries(exports as unknown as Record<string, unknown>).filter(
    (entry): entry is [string, WebAssembly.Global] => GLOBAL.test(entry[0]) && entry[1] instanceof WebAssembly.Global,
  );
}

/**
 * The instance's state now: its memory up to `top` (a copy, or with `copy` false a view that
 * holds only until the instance runs again) and its globals.
 */
export function takeSnapshot(exports: EngineExports, top: number, copy = true): EngineSnapshot {
  const globals: Record<string, number | string> = {};
  for (const [name, global] of globalsOf(exports)) {
    const value = global.value as number | bigint;
    globals[name] = typeof value === 'bigint' ? value.toString() : value;
  }
  if (Object.keys(globals).length === 0) throw new BitpuzzleError('ENGINE_FAILURE', 'this engine build exports no globals: it cannot be checkpointed');
  const memory = new Uint8Array(exports.memory.buffer, 0, top);
  return { memory: copy ? memory.slice() : memory, globals };
}

/**
 * Puts a snapshot into a fresh instance of the same module: its memory grown to hold it and
 * overwritten, every global set. ENGINE_FAILURE when the globals do not match (another build).
 */
export function restoreSnapshot(exports: EngineExports, snapshot: EngineSnapshot): void {
  const globals = globalsOf(exports);
  if (globals.length !== Object.keys(snapshot.globals).length || globals.some(([name]) => !(name in snapshot.globals))) {
    throw new BitpuzzleError('ENGINE_FAILURE', 'the checkpoint was written by another build of the engine');
  }
  const need = Math.ceil(snapshot.memory.length / 65536) - exports.memory.buffer.byteLength / 65536;
  if (need > 0) exports.memory.grow(need);
  new Uint8Array(exports.memory.buffer).set(snapshot.memory);
  for (const [name, global] of globals) {
    const value = snapshot.globals[name];
    global.value = typeof global.value === 'bigint' ? BigInt(value) : Number(value);
  }
}
