// The N-Queens engine as the host drives it: the Wasm engine and its pure-TS twin behind
// one interface, so that every search path can run on either.
import { MemoryView, Status, type EngineExports, type StatusCode } from '../wasm/protocol.js';

/** Search modes, as in assembly/queens/queens.ts. */
export const MODE_ALL = 0;
export const MODE_DISTINCT = 1;
/** The boards the join counts (as assembly/queens/join.ts): a side's diagonals fit 32 bits up to 22. */
export const MIN_JOIN_N = 5;
export const MAX_JOIN_N = 22;
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

/** The count by start constellations (empty boards, 5 ≤ n ≤ 32): a list of them, counted in turn. */
export interface ConstellationEngine {
  /** Starts counting the constellations `list` (codes, see constellations.ts) of an n×n board. */
  init(n: number, list: ArrayLike<number>): StatusCode;
  run(budget: number): StatusCode;
  total(): bigint;
  distinct(): bigint;
  nodes(): bigint;
}

export function wasmConstellationEngine(exports: EngineExports): ConstellationEngine {
  const view = new MemoryView(exports.memory);
  return {
    init(n, list) {
      const pointer = exports.queensConstellationsInputAlloc(list.length);
      if (pointer === 0) return Status.OUT_OF_MEMORY;
      view.u32.set(list, pointer >>> 2);
      return exports.queensConstellationsInit(n, list.length);
    },
    run: (budget) => exports.queensConstellationsRun(budget),
    total: () => BigInt.asUintN(64, exports.queensConstellationsTotal()),
    distinct: () => BigInt.asUintN(64, exports.queensConstellationsDistinct()),
    nodes: () => BigInt.asUintN(64, exports.queensConstellationsNodes()),
  };
}

/**
 * The count by joining half-boards (empty boards, 5 ≤ n ≤ 22): one part, the first rows
 * decided, counted (see assembly/queens/join.ts).
 */
export interface JoinEngine {
  /** Starts the part whose first `prefix` rows go east where `rows` has a bit (bit r: row r). */
  init(n: number, prefix: number, rows: number): StatusCode;
  run(budget: number): StatusCode;
  total(): bigint;
  /** Partial half-boards made (the method's nodes). */
  nodes(): bigint;
}

export function wasmJoinEngine(exports: EngineExports): JoinEngine {
  return {
    init: (n, prefix, rows) => exports.queensJoinInit(n, prefix, rows),
    run: (budget) => exports.queensJoinRun(budget),
    total: () => BigInt.asUintN(64, exports.queensJoinTotal()),
    nodes: () => BigInt.asUintN(64, exports.queensJoinNodes()),
  };
}
