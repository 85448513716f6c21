import { checkColumns } from './format.js';

/** True when `columns` places n mutually non-attacking queens on an n×n board, in O(n). BAD_INPUT when it is not a list. */
export function isSolution(columns: ArrayLike<number>): boolean {
  const n = checkColumns(columns, false).length;
  const cols = new Uint8Array(n);
  const diagonals = new Uint8Array(2 * n);
  const antiDiagonals = new Uint8Array(2 * n);
  for (let row = 0; row < n; row++) {
    const col = columns[row];
    if (!Number.isInteger(col) || col < 0 || col >= n) return false;
    const d = row - col + n;
    const a = row + col;
    if (cols[col] || diagonals[d] || antiDiagonals[a]) return false;
    cols[col] = diagonals[d] = antiDiagonals[a] = 1;
  }
  return n > 0;
}
