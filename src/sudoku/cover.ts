// Sudoku of box sizes other than 3 (4×4, 16×16, 25×25, …) as exact cover, solved by the
// cover family: a row per candidate (cell, digit) and four primary columns per constraint
// family (each cell filled; each digit once per row, column and box). The one place where
// this family uses another's engine: the matrix is built here, correct by construction, and
// marked prepared so that a 262,144-row matrix is not checked entry by entry.
import type { PreparedCover } from '../cover/problem.js';
import { markPrepared } from '../cover/problem.js';
import type { SudokuProblem } from './grid.js';

/** The exact-cover problem of a grid; candidate (r, c, d) is row (r·n + c)·n + d. */
export function coverOf({ box, size: n, cells }: SudokuProblem): PreparedCover {
  const columns = new Int32Array(4 * n * n * n);
  const rowStarts = new Int32Array(n * n * n + 1);
  let k = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const b = Math.floor(r / box) * box + Math.floor(c / box);
      for (let d = 0; d < n; d++) {
        rowStarts[(r * n + c) * n + d] = k;
        columns[k++] = r * n + c;
        columns[k++] = n * n + r * n + d;
        columns[k++] = 2 * n * n + c * n + d;
        columns[k++] = 3 * n * n + b * n + d;
      }
    }
  }
  rowStarts[n * n * n] = k;
  const given: number[] = [];
  cells.forEach((digit, cell) => {
    if (digit > 0) given.push(cell * n + digit - 1);
  });
  return markPrepared({
    matrix: { primary: 4 * n * n, secondary: 0, rowStarts, cells: columns },
    columnNames: [],
    rowNames: null,
    given,
    reason: null,
  });
}

/** The digits of an exact-cover solution's rows, cell by cell. */
export function cellsOfRows(size: number, rows: readonly number[]): Uint8Array {
  const cells = new Uint8Array(size * size);
  for (const row of rows) cells[Math.floor(row / size)] = (row % size) + 1;
  return cells;
}
