// SameGame boards as the host sees them: reading the text format (every check happens here,
// before an engine sees a board), the rules of a click, replaying clicks, and pictures.
import { BitpuzzleError, badInput, describeValue, isDenseArray } from '../errors.js';

/** The largest board side the engines take. */
export const MAX_SIDE = 32;
/** The most colours a board may have. */
export const MAX_COLOURS = 10;

/**
 * A board. Columns run from the left, each listing its colours from the bottom up (1 to
 * the number of colours); a column is as high as its blocks, and emptied columns are gone.
 * `width` and `height` are the frame the board started in.
 */
export interface SameGameBoard {
  /** Columns of the frame, from 1 to MAX_SIDE. */
  width: number;
  /** Rows of the frame, from 1 to MAX_SIDE. */
  height: number;
  /** The non-empty columns from the left, each its colours from the bottom up. */
  columns: number[][];
  /** The character of each colour: symbols[colour - 1]. */
  symbols: string[];
}

/**
 * A click: the column from the left and the row from the bottom, both from 1, on the board
 * as it is at the time of the click (after earlier clicks closed gaps).
 */
export interface Click {
  /** The column, from 1 at the left. */
  column: number;
  /** The row, from 1 at the bottom. */
  row: number;
}

/** What the API accepts: the text (top row first), its lines, or a board. */
export type SameGameInput = string | readonly string[] | SameGameBoard;

const CELL = /[0-9A-Za-z]/;

/**
 * Reads a board: one line per row, top row first, one character per cell: a digit or a
 * letter for a colour, '.' for an empty cell. Cells may be separated by spaces.
 */
export function parseBoard(text: string): SameGameBoard {
  if (typeof text !== 'string') throw badInput(`a board as text is one line per row of digits, letters and ., got ${describeValue(text)}`);
  const lines = text.replace(/\r/g, '').split('\n');
  let first = 0;
  while (first < lines.length && lines[first].trim() === '') first++;
  let last = lines.length - 1;
  while (last >= first && lines[last].trim() === '') last--;
  if (first > last) throw badInput('the board is empty: expected one line per row of digits, letters and .');
  const rows: Array<Array<{ ch: string; column: number }>> = [];
  for (let i = first; i <= last; i++) {
    const cells: Array<{ ch: string; column: number }> = [];
    for (let k = 0; k < lines[i].length; k++) {
      const ch = lines[i][k];
      if (ch === ' ' || ch === '\t') continue;
      if (ch !== '.' && !CELL.test(ch)) {
        throw badInput(`line ${i + 1}, column ${k + 1}: unexpected character ${describeValue(ch)} (expected a digit or letter for a colour, or . for empty)`);
      }
      cells.push({ ch, column: k + 1 });
    }
    if (rows.length > 0 && cells.length !== rows[0].length) {
      throw badInput(`line ${i + 1}: ${cells.length} cells, expected ${rows[0].length} as on line ${first + 1} (rows must be equally long)`);
    }
    rows.push(cells);
  }
  const height = rows.length;
  const width = rows[0].length;
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw badInput(`the board is ${width}×${height}; at most ${MAX_SIDE}×${MAX_SIDE} is supported`);
  }
  const where = (row: number, col: number): string => `line ${first + row + 1}, column ${rows[row][col].column}`;
  // Colours are numbered in the order of their characters, so the numbering is the layout's.
  const symbols: string[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const ch = rows[row][col].ch;
      if (ch === '.' || symbols.includes(ch)) continue;
      if (symbols.length === MAX_COLOURS) {
        throw badInput(`${where(row, col)}: ${describeValue(ch)} is an 11th colour; at most ${MAX_COLOURS} are supported`);
      }
      symbols.push(ch);
    }
  }
  symbols.sort();
  const columns: number[][] = [];
  let emptyColumn = -1;
  for (let col = 0; col < width; col++) {
    const column: number[] = [];
    for (let row = height - 1; row >= 0; row--) {
      const ch = rows[row][col].ch;
      if (ch === '.') continue;
      if (column.length !== height - 1 - row) {
        throw badInput(`${where(row, col)}: a block above an empty cell (blocks fall down, so holes cannot be under them)`);
      }
      column.push(symbols.indexOf(ch) + 1);
    }
    if (column.length === 0) {
      if (emptyColumn < 0) emptyColumn = col;
      continue;
    }
    if (emptyColumn >= 0) {
      throw badInput(`${where(height - 1, emptyColumn)}: an empty column left of blocks (empty columns close up to the left)`);
    }
    columns.push(column);
  }
  return { width, height, columns, symbols };
}

/** Normalises any accepted input into a checked board. */
export function toBoard(input: SameGameInput): SameGameBoard {
  if (typeof input === 'string') return parseBoard(input);
  if (Array.isArray(input)) {
    if (!isDenseArray(input) || !input.every((line) => typeof line === 'string')) throw badInput(`a board as lines is an array of strings, got ${describeValue(input)}`);
    return parseBoard(input.join('\n'));
  }
  if (input === null || typeof input !== 'object') throw badInput(`expected a board as text, lines or a board object, got ${describeValue(input)}`);
  return parseBoard(picture(input as SameGameBoard));
}

/** Blocks on the board. */
export function blocks(input: SameGameInput): number {
  const board = toBoard(input);
  return board.columns.reduce((sum, column) => sum + column.length, 0);
}

/** The board as text in its frame, top row first ('.' for empty cells). */
export function picture(input: SameGameInput): string {
  if (typeof input === 'string' || Array.isArray(input)) return picture(toBoard(input));
  if (input === null || typeof input !== 'object') throw badInput(`expected a board as text, lines or a board object, got ${describeValue(input)}`);
  const { width, height, columns, symbols } = input as SameGameBoard;
  const side = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= MAX_SIDE;
  if (!side(width) || !side(height) || !isDenseArray(columns) || !isDenseArray(symbols)) {
    throw badInput(`a board object needs width and height from 1 to ${MAX_SIDE}, columns and symbols`);
  }
  if (symbols.length > MAX_COLOURS || !symbols.every((s) => typeof s === 'string' && s.length === 1 && CELL.test(s)) || new Set(symbols).size !== symbols.length) {
    throw badInput(`a board object's symbols are up to ${MAX_COLOURS} distinct digits or letters, got ${describeValue(symbols)}`);
  }
  const colour = (c: unknown): boolean => Number.isInteger(c) && (c as number) >= 1 && (c as number) <= symbols.length;
  if (!columns.every((column) => isDenseArray(column) && column.every(colour))) {
    throw badInput(`a board object's columns are lists of colours from 1 to ${symbols.length}`);
  }
  if (columns.length > width || columns.some((column) => column.length > height)) {
    throw badInput(`a board object's columns do not fit its ${width}×${height} frame`);
  }
  const lines: string[] = [];
  for (let row = height - 1; row >= 0; row--) {
    let line = '';
    for (let col = 0; col < width; col++) {
      const colour = columns[col]?.[row];
      line += colour === undefined ? '.' : symbols[colour - 1] ?? '?';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** The cells of the board for the engines: column-major from the bottom-left, 0 for empty. */
export function engineCells(board: SameGameBoard): Uint8Array {
  const cells = new Uint8Array(board.width * board.height);
  board.columns.forEach((column, c) => column.forEach((colour, r) => (cells[c * board.height + r] = colour)));
  return cells;
}

/** The click an engine names by its cell (column × height + row, from 0). */
export function clickOfCell(cell: number, height: number): Click {
  return { column: Math.floor(cell / height) + 1, row: (cell % height) + 1 };
}

/** The cells (0-based [column, row]) of the group a click hits. */
export function groupAt(board: SameGameBoard, click: Click): Array<[number, number]> {
  const { columns } = board;
  const c0 = click.column - 1;
  const r0 = click.row - 1;
  const colour = columns[c0]?.[r0];
  if (colour === undefined) return [];
  const seen = new Set([c0 * MAX_SIDE + r0]);
  const group: Array<[number, number]> = [[c0, r0]];
  for (let i = 0; i < group.length; i++) {
    const [c, r] = group[i];
    for (const [nc, nr] of [[c, r + 1], [c, r - 1], [c - 1, r], [c + 1, r]]) {
      if (columns[nc]?.[nr] !== colour || seen.has(nc * MAX_SIDE + nr)) continue;
      seen.add(nc * MAX_SIDE + nr);
      group.push([nc, nr]);
    }
  }
  return group;
}

/** Points for removing a group of n blocks; clearing the board adds CLEAR_BONUS once. */
export const groupScore = (n: number): number => {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 2) throw badInput(`a group has an integer number of blocks from 2, got ${describeValue(n)}`);
  return (n - 2) * (n - 2);
};
/** Points for emptying the board. */
export const CLEAR_BONUS = 1000;

/** The board after a click, and what it removed. BAD_INPUT when the click hits no group. */
export function applyClick(
  input: SameGameInput,
  click: Click,
): {
  /** The board after the click, gaps closed. */
  board: SameGameBoard;
  /** Blocks the click removed. */
  removed: number;
  /** Points it scored, with CLEAR_BONUS when it emptied the board. */
  points: number;
} {
  const board = toBoard(input);
  if (!Number.isInteger(click?.column) || !Number.isInteger(click?.row)) {
    throw badInput(`a click is { column, row } with integers from 1, got ${describeValue(click)}`);
  }
  const group = groupAt(board, click);
  const at = `column ${click.column}, row ${click.row}`;
  if (group.length === 0) throw badInput(`the click at ${at} hits no block`);
  if (group.length === 1) throw badInput(`the click at ${at} hits a lone block (a group needs 2 or more)`);
  const gone = new Set(group.map(([c, r]) => c * MAX_SIDE + r));
  const columns = board.columns
    .map((column, c) => column.filter((_, r) => !gone.has(c * MAX_SIDE + r)))
    .filter((column) => column.length > 0);
  const next = { ...board, columns };
  const points = groupScore(group.length) + (columns.length === 0 ? CLEAR_BONUS : 0);
  return { board: next, removed: group.length, points };
}

/** The outcome of a line of clicks. */
export interface Replay {
  /** The board after each click. */
  boards: SameGameBoard[];
  /** The points of every click, with CLEAR_BONUS when the board ends empty. */
  score: number;
  /** Blocks left at the end. */
  left: number;
}

/** Plays the clicks in order; BAD_INPUT names the first that hits no group. */
export function replay(input: SameGameInput, clicks: readonly Click[]): Replay {
  const board = toBoard(input);
  if (!isDenseArray(clicks)) throw badInput(`clicks are an array of { column, row }, got ${describeValue(clicks)}`);
  const boards: SameGameBoard[] = [];
  let score = 0;
  let current = board;
  clicks.forEach((click, i) => {
    let step;
    try {
      step = applyClick(current, click);
    } catch (error) {
      if (!(error instanceof BitpuzzleError)) throw error;
      throw badInput(`click ${i + 1}: ${error.message}`);
    }
    current = step.board;
    score += step.points;
    boards.push(current);
  });
  return { boards, score: blocks(board) === 0 ? CLEAR_BONUS : score, left: blocks(current) };
}

/** One click per group of 2 or more blocks (its lowest block in the leftmost column). */
export function moves(input: SameGameInput): Click[] {
  const board = toBoard(input);
  const seen = new Set<number>();
  const out: Click[] = [];
  board.columns.forEach((column, c) =>
    column.forEach((_, r) => {
      if (seen.has(c * MAX_SIDE + r)) return;
      const group = groupAt(board, { column: c + 1, row: r + 1 });
      for (const [gc, gr] of group) seen.add(gc * MAX_SIDE + gr);
      if (group.length >= 2) out.push({ column: c + 1, row: r + 1 });
    }),
  );
  return out;
}
