// The 9×9 Sudoku engine as the host drives it: the Wasm engine (assembly/sudoku/) and its
// pure-TS twin (reference.ts) behind one interface.
import { BitpuzzleError } from '../errors.js';
import type { EngineExports, StatusCode } from '../wasm/protocol.js';

/** The most puzzles one start takes (assembly/sudoku/search.ts BATCH). */
export const BATCH = 4096;
/** Search modes (assembly/sudoku/search.ts). */
export const MODE_COUNT = 0;
export const MODE_EMIT = 1;
export const MODE_SPLIT = 2;
/** A record's flag: two givens share a unit. */
export const FLAG_CLASH = 1;

export interface SudokuEngine {
  /** Room for `count` puzzles (forgets the last batch); false when the memory limit refuses it. */
  alloc(count: number): boolean;
  /** Where the puzzles go: 81 bytes each, 0 empty, 1-9 a given. Valid until the next alloc. */
  input(): Uint8Array;
  /** `maxSolutions` 0: no limit. MODE_SPLIT: one puzzle, stopping `split` branchings deep. */
  start(count: number, maxSolutions: number, mode: number, split: number): StatusCode;
  run(budget: number): StatusCode;
  /**
   * Puzzle `index`'s record, once finished() passed it: solutions found and nodes (numbers,
   * exact: a puzzle would search for decades before either passed 2^53; ENGINE_FAILURE then).
   */
  solutions(index: number): number;
  nodesOf(index: number): number;
  flagsOf(index: number): number;
  /** Its first solution's 81 digits (zeros when none). */
  solution(index: number): Uint8Array;
  /** The first solutions of puzzles 0..count-1 as one string, 81 characters each ('.' where none). */
  solutionsText(count: number): string;
  /** The solution or part of the last SOLUTION stop. */
  emitted(): Uint8Array;
  /** Nodes since start. */
  nodes(): bigint;
  /** Puzzles whose records are written. */
  finished(): number;
}

const RECORD_SOLUTION = 24;

/** A u64 of the engine as a number, exact below 2^53. */
export function exactNumber(low: number, high: number): number {
  if (high >= 0x200000) throw new BitpuzzleError('ENGINE_FAILURE', 'a sudoku count passed 2^53');
  return high * 0x100000000 + low;
}

// Digits to text in bulk: one decode for a whole batch, sliced per puzzle (81 string
// concatenations a solution cost more than the engine's search of an easy puzzle).
const decoder = new TextDecoder('latin1');
let scratch = new Uint8Array(81 * 64);

/** `count` grids of 81 digits, `stride` bytes apart from `first` in `bytes`, as one string ('.' for 0). */
export function gridsText(bytes: Uint8Array, first: number, stride: number, count: number): string {
  if (scratch.length < count * 81) scratch = new Uint8Array(count * 81);
  for (let i = 0; i < count; i++) {
    const from = first + i * stride;
    const to = i * 81;
    for (let c = 0; c < 81; c++) {
      const digit = bytes[from + c];
      scratch[to + c] = digit === 0 ? 46 : 48 + digit;
    }
  }
  return decoder.decode(scratch.subarray(0, count * 81));
}
export function wasmSudokuEngine(exports: EngineExports): SudokuEngine {
  const recordBytes = exports.sudokuRecordBytes();
  let input = 0;
  let count = 0;
  let bytes = new Uint8Array(0);
  let data = new DataView(new ArrayBuffer(0));
  // Views are rebuilt when memory grows (the old buffer is detached).
  const memory = (): Uint8Array => {
    if (bytes.buffer !== exports.memory.buffer) {
      bytes = new Uint8Array(exports.memory.buffer);
      data = new DataView(exports.memory.buffer);
    }
    return bytes;
  };
  const record = (index: number): number => exports.sudokuOutputPtr() + index * recordBytes;
  return {
    alloc(n) {
      input = exports.sudokuAlloc(n);
      count = input === 0 ? 0 : n;
      return input !== 0;
    },
    input: () => memory().subarray(input, input + count * 81),
    start: (n, maxSolutions, mode, split) => exports.sudokuStart(n, maxSolutions, mode, split),
    run: (budget) => exports.sudokuRun(budget),
    solutions(index) {
      memory();
      const at = record(index);
      return exactNumber(data.getUint32(at, true), data.getUint32(at + 4, true));
    },
    nodesOf(index) {
      memory();
      const at = record(index) + 8;
      return exactNumber(data.getUint32(at, true), data.getUint32(at + 4, true));
    },
    flagsOf(index) {
      memory();
      return data.getUint32(record(index) + 16, true);
    },
    solution(index) {
      const at = record(index) + RECORD_SOLUTION;
      return memory().subarray(at, at + 81);
    },
    solutionsText: (n) => gridsText(memory(), record(0) + RECORD_SOLUTION, recordBytes, n),
    emitted() {
      const at = exports.sudokuEmitPtr();
      return memory().subarray(at, at + 81);
    },
    nodes: () => BigInt.asUintN(64, exports.sudokuNodes()),
    finished: () => exports.sudokuFinished(),
  };
}
