// The exact-cover engine as the host drives it: the Wasm engine (assembly/dlx.ts) and its
// pure-TS twin behind one interface, so that every search path can run on either.
import { MemoryView, Status, type EngineExports, type StatusCode } from '../wasm/protocol.js';

/** A 0/1 matrix as the engines read it: column indices per row, primary columns first. */
export interface CoverMatrix {
  primary: number;
  secondary: number;
  /** Row r uses the columns cells[rowStarts[r]] .. cells[rowStarts[r + 1] - 1]. */
  rowStarts: Int32Array;
  cells: Int32Array;
}

export interface CoverEngine {
  /** Builds the links; forgets any earlier search. */
  load(matrix: CoverMatrix): StatusCode;
  /** Puts a row into every solution before the search (after load, before start). */
  force(row: number): StatusCode;
  /** `emit`: stop at each solution. `split` (> 0): stop at each node with that many rows chosen. */
  start(emit: boolean, split: number): StatusCode;
  run(budget: number): StatusCode;
  /** The rows of the solution or split prefix just reported: the forced ones, then the chosen ones. */
  output(): number[];
  solutions(): bigint;
  nodes(): bigint;
}

export const rowCountOf = (matrix: CoverMatrix): number => matrix.rowStarts.length - 1;

/**
 * Bytes the engine's arena needs for a matrix: the input words, a 32-byte record per node
 * and the per-row and per-level stacks (mirrors dlxInputAlloc and dlxLoad).
 */
export function coverMemoryBytes(matrix: CoverMatrix): number {
  const rows = rowCountOf(matrix);
  const entries = matrix.cells.length;
  const columns = matrix.primary + matrix.secondary;
  return 4 * (rows + entries) + 32 * (columns + 2 + entries) + 4 * rows + 8 * (matrix.primary + 1) + 8 * columns;
}

export function wasmCoverEngine(exports: EngineExports): CoverEngine {
  const view = new MemoryView(exports.memory);
  return {
    load(matrix) {
      const rows = rowCountOf(matrix);
      const entries = matrix.cells.length;
      const pointer = exports.dlxInputAlloc(rows + entries);
      if (pointer === 0) return Status.OUT_OF_MEMORY;
      const u32 = view.u32;
      let at = pointer >>> 2;
      for (let r = 0; r < rows; r++) {
        const from = matrix.rowStarts[r];
        const to = matrix.rowStarts[r + 1];
        u32[at++] = to - from;
        u32.set(matrix.cells.subarray(from, to), at);
        at += to - from;
      }
      return exports.dlxLoad(matrix.primary, matrix.secondary, rows, entries);
    },
    force: (row) => exports.dlxForce(row),
    start: (emit, split) => exports.dlxStart(emit ? 1 : 0, split),
    run: (budget) => exports.dlxRun(budget),
    output() {
      const from = exports.dlxOutputPtr() >>> 2;
      return Array.from(view.i32.subarray(from, from + exports.dlxOutputLength()));
    },
    solutions: () => BigInt.asUintN(64, exports.dlxSolutions()),
    nodes: () => BigInt.asUintN(64, exports.dlxNodes()),
  };
}
