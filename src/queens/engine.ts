// The N-Queens engine as the host drives it: the Wasm engine and its pure-TS twin behind
// one interface, so that every search path can run on either.
import { MemoryView, type EngineExports, type StatusCode } from '../wasm/protocol.js';

/** Search modes, as in assembly/queens.ts. */
export const MODE_ALL = 0;
export const MODE_DISTINCT = 1;
/** The widest board the bitmask search handles (one u32 per row). */
export const MAX_SEARCH_N = 32;
/**
 * The largest n construct() builds: its Int32Array of 400 MB still converts to an array
 * (V8 arrays stop near 134 million elements) and fits the default maxMemory with its copy.
 */
export const MAX_CONSTRUCT_N = 100_000_000;

export interface QueensEngine {
  /** Sets the allowed columns of each row (a bit per column) for the next init. */
  setAllowed(masks: ArrayLike<number>): void;
  init(n: number, mode: number, emit: boolean, split: number): StatusCode;
  run(budget: number): StatusCode;
  /** The first `rows` columns of the solution or split prefix just reported. */
  output(rows: number): number[];
  total(): bigint;
  distinct(): bigint;
  nodes(): bigint;
}

export function wasmQueensEngine(exports: EngineExports): QueensEngine {
  const view = new MemoryView(exports.memory);
  const input = exports.queensInputPtr() >>> 2;
  const output = exports.queensOutputPtr() >>> 2;
  return {
    setAllowed(masks) {
      const u32 = view.u32;
      for (let r = 0; r < masks.length; r++) u32[input + r] = masks[r];
    },
    init: (n, mode, emit, split) => exports.queensInit(n, mode, emit ? 1 : 0, split),
    run: (budget) => exports.queensRun(budget),
    output(rows) {
      return Array.from(view.i32.subarray(output, output + rows));
    },
    total: () => BigInt.asUintN(64, exports.queensTotal()),
    distinct: () => BigInt.asUintN(64, exports.queensDistinct()),
    nodes: () => BigInt.asUintN(64, exports.queensNodes()),
  };
}
