// Pictures and plain data for N-Queens answers.

/** The board as n lines of '.' and 'Q', the same format the parser reads. */
export function boardPicture(columns: ArrayLike<number>): string {
  const n = columns.length;
  const lines: string[] = [];
  for (let row = 0; row < n; row++) {
    lines.push('.'.repeat(columns[row]) + 'Q' + '.'.repeat(n - columns[row] - 1));
  }
  return lines.join('\n');
}
