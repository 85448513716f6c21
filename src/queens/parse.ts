// Reads N-Queens problems: a size, a board picture (n lines of '.' and 'Q'), or a size with
// queens given as [row, col] pairs. Everything is checked here, before any engine sees it.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkKeys } from '../wasm/options.js';

/** A queen on the board. */
export interface Queen {
  /** Its row, from 0. */
  row: number;
  /** Its column, from 0. */
  col: number;
}

/** A board of size n with some queens already placed (0-based rows and columns). */
export interface QueensProblem {
  /** The board's size: n rows and n columns. */
  n: number;
  /** The queens placed in advance, checked not to attack each other. */
  queens: Queen[];
}

/** What the API accepts: a size, a board picture, or a size with pre-placed queens. */
export type QueensInput =
  | number
  | string
  | {
      /** The board's size (with `board`, the picture must have n lines). */
      n?: number;
      /** A board picture, instead of `queens`. */
      board?: string;
      /** Queens placed in advance, as [row, col] pairs or Queen objects. */
      queens?: ReadonlyArray<readonly [number, number] | Queen>;
    };

/** How a queen is named in messages: where the user wrote it. */
type Namer = (queen: Queen) => string;
const namePair: Namer = (q) => `[${q.row}, ${q.col}]`;
const nameSquare: Namer = (q) => `line ${q.row + 1} column ${q.col + 1}`;

export function checkSize(n: unknown, what = 'n'): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw badInput(`${what} must be a positive integer, got ${describeValue(n)}`);
  }
  return n;
}

/** Parses a board picture: n lines of n characters, '.' an empty square, 'Q' a queen. */
export function parseBoard(text: string, expectedN?: number): QueensProblem {
  if (typeof text !== 'string') throw badInput(`a board picture is text (n lines of '.' and 'Q'), got ${describeValue(text)}`);
  if (expectedN !== undefined) checkSize(expectedN);
  const lines = text.replace(/\r/g, '').split('\n').map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw badInput('the board is empty: expected n lines of n squares (. or Q)');
  const n = expectedN ?? lines.length;
  if (lines.length !== n) {
    throw badInput(`the board has ${lines.length} lines, expected ${n} (one per row of a ${n}×${n} board)`);
  }
  const queens: Queen[] = [];
  lines.forEach((line, row) => {
    for (let col = 0; col < line.length; col++) {
      const ch = line[col];
      if (ch === 'Q') queens.push({ row, col });
      else if (ch !== '.') {
        throw badInput(`line ${row + 1}, column ${col + 1}: unexpected character ${describeValue(ch)} (expected '.' or 'Q')`);
      }
    }
    if (line.length !== n) {
      throw badInput(`line ${row + 1}: ${line.length} squares, expected ${n} (one per column of a ${n}×${n} board)`);
    }
  });
  checkAttacks(n, queens, nameSquare);
  return { n, queens };
}

/** Normalises any accepted input, rejecting what cannot be a board. */
export function toProblem(input: QueensInput): QueensProblem {
  if (typeof input === 'number') return { n: checkSize(input), queens: [] };
  if (typeof input === 'string') return parseBoard(input);
  if (input === null || typeof input !== 'object') {
    throw badInput(`expected a board size, a board picture or { n, queens }, got ${describeValue(input)}`);
  }
  checkKeys(input, ['n', 'board', 'queens'], 'a queens problem');
  if (input.board !== undefined) {
    if (input.queens !== undefined) throw badInput('give either board or queens, not both');
    return parseBoard(input.board, input.n === undefined ? undefined : checkSize(input.n));
  }
  const n = checkSize(input.n);
  if (input.queens !== undefined && !isDenseArray(input.queens)) {
    throw badInput(`queens must be an array of [row, col] pairs, got ${describeValue(input.queens)}`);
  }
  const queens = (input.queens ?? []).map((queen, index) => toQueen(queen, index, n));
  checkAttacks(n, queens, namePair);
  return { n, queens };
}

function toQueen(queen: readonly [number, number] | Queen, index: number, n: number): Queen {
  const pair = Array.isArray(queen) && queen.length === 2;
  const object = queen !== null && typeof queen === 'object' && !Array.isArray(queen);
  const [row, col] = pair ? queen : object ? [(queen as Queen).row, (queen as Queen).col] : [NaN, NaN];
  if (!Number.isInteger(row) || !Number.isInteger(col)) {
    throw badInput(`queens[${index}] must be [row, col] with integer row and col, got ${describeValue(queen)}`);
  }
  if (row < 0 || row >= n || col < 0 || col >= n) {
    throw badInput(`queen [${row}, ${col}] is off the ${n}×${n} board (rows and columns run from 0 to ${n - 1})`);
  }
  return { row, col };
}

function checkAttacks(n: number, queens: Queen[], name: Namer): void {
  const seen = new Map<string, Queen>();
  for (const queen of queens) {
    const lines: Array<[string, string]> = [
      [`r${queen.row}`, 'the same row'],
      [`c${queen.col}`, 'the same column'],
      [`d${queen.row - queen.col}`, 'a diagonal'],
      [`a${queen.row + queen.col}`, 'a diagonal'],
    ];
    for (const [key, where] of lines) {
      const other = seen.get(key);
      if (other) throw badInput(`queens at ${name(other)} and ${name(queen)} attack each other on ${where}`);
      seen.set(key, queen);
    }
  }
}
