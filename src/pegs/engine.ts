// The peg solitaire engine as the host drives it: the Wasm engine and its pure-TS twin
// behind one interface (the twin has the solution search and the counting).
import { BitpuzzleError } from '../errors.js';
import { MemoryView, type EngineExports, type PhaseBudgets, type StatusCode } from '../wasm/protocol.js';

/** Search modes, as in assembly/pegs/board.ts. */
export const MODE_SOLVE = 0;
export const MODE_COUNT = 1;
export const MODE_MOVES = 2;

/** A count's status when its total would need a position's paths past 2^64 − 1 (OVERFLOW in assembly/pegs/board.ts). */
export const OVERFLOW = -3;

/**
 * The error of a count whose total needs a position's paths past 2^64 − 1 (the engine keeps 64
 * bits a position): an error, not a wrong total. The forward counts name a finish or a
 * position where the count's halves meet (others may pass it and leave the total exact); the
 * count from both ends (meet.ts) stops at any position.
 */
export function pathsOverflow(where = '', position = 'a finish (or a position where the two halves of the count meet)'): BitpuzzleError {
  return new BitpuzzleError(
    'ENGINE_FAILURE',
    `counting: ${position} is reached by 2^64 - 1 jump sequences or more, more than the engine keeps for a position (64 bits; the total is summed in 128)${where && `; ${where}`}`,
  );
}

/** The 128-bit total of a count (COUNT and SHARD) from its two 64-bit halves. */
export const total128 = (exports: EngineExports): bigint => (BigInt.asUintN(64, exports.pegsTotalHigh()) << 64n) | BigInt.asUintN(64, exports.pegsTotal());

/** The search by moves keeps a position in 48 bits (assembly/pegs/moves.ts). */
export const MAX_MOVES_HOLES = 48;

/** What the host process itself holds (Node, the module, the caller's data): kept out of the engine's share. */
const HOST_BYTES = 64 << 20;

/** The engine's share of a process-wide maxMemory (all of it when that is too small to split). */
export function engineShare(maxMemory: number): number {
  return maxMemory >= 4 * HOST_BYTES ? maxMemory - HOST_BYTES : maxMemory;
}

export interface PegsEngine {
  /** Loads a problem's input words (see assembly/pegs/board.ts). */
  load(input: Uint32Array): StatusCode;
  /** Starts a search; `log` is log2 of the first hash table's slots. */
  start(mode: number, log: number): StatusCode;
  run(budget: number): StatusCode;
  /** SOLVE: restarts from the start trying jumps in this order, keeping the dead positions. */
  restart(order: readonly number[]): StatusCode;
  /** SOLVE: the jumps of the solution just reported (indices into the loaded jumps). */
  jumps(): number[];
  /** MOVES: the positions along a shortest solution. */
  positions(): bigint[];
  /** COUNT: positions kept per number of pegs (index = pegs). */
  levels(): bigint[];
  nodes(): bigint;
  total(): bigint;
  /** COUNT: pegs of the level in progress; MOVES: levels searched. */
  level(): number;
  /** COUNT and MOVES: the chore the next run call starts in (runSliced keeps a budget for each). */
  phase(): number;
  /** MOVES: the fewest moves, or -1. */
  moves(): number;
  /** Bytes of memory the current search has needed at most (Wasm: linear memory; twin: its tables). */
  memory(): number;
}

/** A search's budgets by the engine's phase (a chore: a table's growth, a level moving down), for runSliced. */
export const phaseBudgets = (engine: PegsEngine): PhaseBudgets => ({ of: () => engine.phase(), budgets: new Map() });

const u64 = (lo: number, hi: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

export function wasmPegsEngine(exports: EngineExports): PegsEngine {
  const view = new MemoryView(exports.memory);
  const output = exports.pegsOutputPtr() >>> 2;
  const pairs = (count: number): bigint[] => {
    const u32 = view.u32;
    return Array.from({ length: count }, (_, i) => u64(u32[output + 2 * i], u32[output + 2 * i + 1]));
  };
  return {
    load(input) {
      const pointer = exports.pegsInputAlloc(input.length);
      if (pointer === 0) return -1;
      view.u32.set(input, pointer >>> 2);
      return exports.pegsLoad();
    },
    start: (mode, log) => exports.pegsStart(mode, log),
    run: (budget) => exports.pegsRun(budget),
    restart(order) {
      view.u32.set(order, exports.pegsOrderPtr() >>> 2);
      return exports.pegsRestart();
    },
    jumps: () => Array.from(view.u32.subarray(output, output + exports.pegsOutputLength())),
    positions: () => pairs(exports.pegsOutputLength()),
    levels: () => pairs(exports.pegsOutputLength()),
    nodes: () => BigInt.asUintN(64, exports.pegsNodes()),
    total: () => total128(exports),
    level: () => exports.pegsLevel(),
    phase: () => exports.pegsPhase(),
    moves: () => exports.pegsMoves(),
    memory: () => Number(exports.pegsMemory()),
  };
}
