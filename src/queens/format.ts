// Pictures and plain data for N-Queens answers.
import { badInput, describeValue } from '../errors.js';

/** The most columns a picture draws (n² characters): larger boards are not pictures. */
export const MAX_PICTURE_N = 10_000;

/**
 * Checks a list of columns: an array or typed array. With `strict`, each entry must be a
 * column of the board (an integer from 0 to n − 1), as a picture needs.
 */
export function checkColumns(columns: unknown, strict: boolean): ArrayLike<number> {
  if (!Array.isArray(columns) && !(ArrayBuffer.isView(columns) && !(columns instanceof DataView))) {
    throw badInput(`expected the column of the queen in each row (an array of integers), got ${describeValue(columns)}`);
  }
  const list = columns as unknown as ArrayLike<unknown>;
  if (strict) {
    if (list.length > MAX_PICTURE_N) throw badInput(`a picture draws boards of up to ${MAX_PICTURE_N} rows, got ${list.length}`);
    for (let row = 0; row < list.length; row++) {
      const col = list[row];
      if (typeof col !== 'number' || !Number.isInteger(col) || col < 0 || col >= list.length) {
        throw badInput(`row ${row}: the column must be an integer from 0 to ${list.length - 1}, got ${describeValue(col)}`);
      }
    }
  }
  return list as ArrayLike<number>;
}

/** The board as n lines of '.' and 'Q', the same format the parser reads. */
export function boardPicture(columns: ArrayLike<number>): string {
  checkColumns(columns, true);
  const n = columns.length;
  const lines: string[] = [];
  for (let row = 0; row < n; row++) {
    lines.push('.'.repeat(columns[row]) + 'Q' + '.'.repeat(n - columns[row] - 1));
  }
  return lines.join('\n');
}
