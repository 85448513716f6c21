// Options every family's API takes, checked the same way everywhere.
import { badInput } from '../errors.js';

/** 'wasm': the WebAssembly engine; 'js': its pure-TS twin. */
export type EngineKind = 'wasm' | 'js';

export function checkEngine(engine: unknown): EngineKind {
  if (engine === undefined || engine === 'wasm' || engine === 'js') return engine ?? 'wasm';
  throw badInput(`engine must be 'wasm' or 'js', got ${String(engine)}`);
}

/** A solution limit: a non-negative integer, or Infinity when none is given. */
export function checkLimit(limit: unknown): number {
  if (limit === undefined || limit === Infinity) return Infinity;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw badInput(`limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}
