// The Sudoku engine (9×9 and 16×16) as the host drives it: the Wasm engine (assembly/sudoku/)
// and its pure-TS twin (reference.ts) behind one interface.
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
  /** Room for `count` puzzles of a size (9 or 16; forgets the last batch); false when the memory limit refuses it. */
  alloc(count: number, size: number): boolean;
  /** Where the puzzles go: a byte a cell (81 or 256 a puzzle), 0 empty, else the given. Valid until the next alloc. */
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
  /** Its first solution's digits, a byte a cell (zeros when none). */
  solution(index: number): Uint8Array;
  /** The first solutions of puzzles 0..count-1 as one string, a character a cell ('.' where none). */
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

/** The character code of each digit: '.' for 0, then 1-9 and A-G (grid.ts SYMBOLS). */
const CODES = Uint8Array.from('.123456789ABCDEFG', (ch) => ch.charCodeAt(0));

/** `count` grids of `cells` digits, `stride` bytes apart from `first` in `bytes`, as one string. */
export function gridsText(bytes: Uint8Array, first: number, stride: number, cells: number, count: number): string {
  if (scratch.length < count * cells) scratch = new Uint8Array(count * cells);
  for (let i = 0; i < count; i++) {
    const from = first + i * stride;
    const to = i * cells;
    for (let c = 0; c < cells; c++) scratch[to + c] = CODES[bytes[from + c]];
  }
  return decoder.decode(scratch.subarray(0, count * cells));
}
export function wasmSudokuEngine(exports: EngineExports): SudokuEngine {
  let recordBytes = 0;
  let cells = 81;
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
    alloc(n, size) {
      input = exports.sudokuAlloc(n, size);
      count = input === 0 ? 0 : n;
      cells = size * size;
      recordBytes = exports.sudokuRecordBytes();
      return input !== 0;
    },
    input: () => memory().subarray(input, input + count * cells),
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
      return memory().subarray(at, at + cells);
    },
    solutionsText: (n) => gridsText(memory(), record(0) + RECORD_SOLUTION, recordBytes, cells, n),
    emitted() {
      const at = exports.sudokuEmitPtr();
      return memory().subarray(at, at + cells);
    },
    nodes: () => BigInt.asUintN(64, exports.sudokuNodes()),
    finished: () => exports.sudokuFinished(),
  };
}
