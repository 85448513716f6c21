// The exact-cover engine as the host drives it: the Wasm engine (assembly/cover/dlx.ts) and its
// pure-TS twin behind one interface, so that every search path can run on either.
import { MemoryView, Status, type EngineExports, type StatusCode } from '../wasm/protocol.js';

/** A 0/1 matrix as the engines read it: column indices per row, primary columns first. */
export interface CoverMatrix {
  /** The number of primary columns (indices 0 to primary - 1). */
  primary: number;
  /** The number of secondary columns (indices after the primary ones). */
  secondary: number;
  /** Row r uses the columns cells[rowStarts[r]] .. cells[rowStarts[r + 1] - 1]. */
  rowStarts: Int32Array;
  /** The column indices of every row, row after row. */
  cells: Int32Array;
}

export interface CoverEngine {
  /** Builds the links; forgets any earlier search. */
  load(matrix: CoverMatrix): StatusCode;
  /**
   * load() in slices, for big matrices: MORE, then `loadRun(budget)` (a row a unit) until
   * DONE. An engine without it loads at once.
   */
  loadStart?(matrix: CoverMatrix): StatusCode;
  loadRun?(budget: number): StatusCode;
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
  // A load in slices: the rows are copied into the input region, then linked by the engine.
  let loading: { matrix: CoverMatrix; at: number; row: number } | null = null;
  const loadRun = (budget: number): StatusCode => {
    if (!loading) return exports.dlxLoadRun(budget);
    const { matrix } = loading;
    const rows = rowCountOf(matrix);
    const u32 = view.u32;
    const end = Math.min(rows, loading.row + budget);
    let at = loading.at;
    for (let r = loading.row; r < end; r++) {
      const from = matrix.rowStarts[r];
      const to = matrix.rowStarts[r + 1];
      u32[at++] = to - from;
      for (let k = from; k < to; k++) u32[at++] = matrix.cells[k];
    }
    loading.at = at;
    loading.row = end;
    if (end < rows) return Status.MORE;
    loading = null;
    return exports.dlxLoadStart(matrix.primary, matrix.secondary, rows, matrix.cells.length);
  };
  const loadStart = (matrix: CoverMatrix): StatusCode => {
    const pointer = exports.dlxInputAlloc(rowCountOf(matrix) + matrix.cells.length);
    if (pointer === 0) return Status.OUT_OF_MEMORY;
    loading = { matrix, at: pointer >>> 2, row: 0 };
    return Status.MORE;
  };
  return {
    load(matrix) {
      let status = loadStart(matrix);
      while (status === Status.MORE) status = loadRun(1 << 30);
      return status;
    },
    loadStart,
    loadRun,
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
