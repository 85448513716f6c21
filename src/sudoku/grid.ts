// Sudoku grids of any box size b (a b²×b² grid): text or rows of numbers in, checked digits
// out, and the grid as text. One loop over the characters, no regular expressions: a 9×9
// puzzle is read and checked in about a microsecond, as a solver's entry should be.
import { badInput, describeValue } from '../errors.js';

/** Digits in text: 1-9, then letters (case-insensitive), so text grids reach 25×25 (b = 5). */
export const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The largest box size; a 64×64 grid has 262,144 candidate rows. */
export const MAX_BOX = 8;

/** Text (one line per grid row; '.' or '0' empty; spaces, '|' and lines of '-+' ignored), or rows of numbers (0 empty). */
export type SudokuGrid = string | ReadonlyArray<ReadonlyArray<number>>;

export interface SudokuProblem {
  box: number;
  size: number;
  /** size² digits, row after row: 0 empty, else 1..size. */
  cells: Uint8Array;
  /** Where a cell was written, for messages ("line 1, column 4" or "grid[0][3]"). */
  place(cell: number): string;
}

const DOT = 46;
const ZERO = 48;
const ONE = 49;
const NINE = 57;

/** The digit of a character code in a grid of `size` (0 empty), or -1 when it is not one. */
function digitOf(code: number, size: number): number {
  if (code === DOT || code === ZERO) return 0;
  let digit = -1;
  if (code >= ONE && code <= NINE) digit = code - ZERO;
  else if (code >= 65 && code <= 90) digit = code - 55; // A = 10
  else if (code >= 97 && code <= 122) digit = code - 87;
  return digit <= size ? digit : -1;
}

/** Characters a text grid may use as decoration: spaces, '|', '+' and '-'. */
const isDecoration = (code: number): boolean => code === 32 || code === 9 || code === 13 || code === 124 || code === 43 || code === 45;

function boxOf(size: number, what: string): number {
  const box = Math.round(Math.sqrt(size));
  if (box * box !== size || box < 1 || box > MAX_BOX) {
    throw badInput(`${what}: a sudoku has b² rows for a box size b from 1 to ${MAX_BOX} (4, 9, 16, 25, …), got ${size}`);
  }
  return box;
}

/** The common case, 81 characters of digits and dots on one line: no position table needed. */
function parseLine81(text: string): SudokuProblem | null {
  const cells = new Uint8Array(81);
  for (let i = 0; i < 81; i++) {
    const code = text.charCodeAt(i);
    if (code === DOT || code === ZERO) continue;
    if (code < ONE || code > NINE) return null;
    cells[i] = code - ZERO;
  }
  return { box: 3, size: 9, cells, place: (cell) => `line 1, column ${cell + 1}` };
}

function parseText(text: string): SudokuProblem {
  if (text.length === 81) {
    const line = parseLine81(text);
    if (line) return line;
  }
  // Each cell's character code and place in the text, line by line.
  const codes: number[] = [];
  const lines: number[] = [];
  const columns: number[] = [];
  const rowStarts: number[] = [];
  let line = 1;
  let column = 0;
  let rowOpen = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    column++;
    if (code === 10) {
      line++;
      column = 0;
      rowOpen = false;
      continue;
    }
    if (isDecoration(code)) continue;
    if (!rowOpen) {
      rowStarts.push(codes.length);
      rowOpen = true;
    }
    codes.push(code);
    lines.push(line);
    columns.push(column);
  }
  if (rowStarts.length === 0) throw badInput('the sudoku is empty: expected a line of cells per row');
  rowStarts.push(codes.length);
  let rows = rowStarts.length - 1;
  // One line of n² cells is the whole grid, row after row.
  if (rows === 1 && codes.length > 1) {
    const n = Math.round(Math.sqrt(codes.length));
    if (n * n !== codes.length) {
      throw badInput(`line ${lines[0]}: a grid on one line has n² cells (16, 81, 256, …), got ${codes.length}`);
    }
    rowStarts.length = 0;
    for (let r = 0; r <= n; r++) rowStarts.push(r * n);
    rows = n;
  }
  const size = rows;
  const box = boxOf(size, 'the grid');
  if (size > SYMBOLS.length) throw badInput(`text grids reach ${SYMBOLS.length}×${SYMBOLS.length}; give larger grids as arrays of numbers`);
  const cells = new Uint8Array(size * size);
  for (let r = 0; r < size; r++) {
    const from = rowStarts[r];
    const length = rowStarts[r + 1] - from;
    if (length !== size) {
      throw badInput(`line ${lines[from]}: ${length} cells, expected ${size} (one per column of a ${size}×${size} sudoku)`);
    }
    for (let c = 0; c < size; c++) {
      const k = from + c;
      const digit = digitOf(codes[k], size);
      if (digit < 0) {
        throw badInput(
          `line ${lines[k]}, column ${columns[k]}: unexpected character ${describeValue(String.fromCharCode(codes[k]))} (expected ${SYMBOLS[0]}-${SYMBOLS[size - 1]}, '.' or '0')`,
        );
      }
      cells[r * size + c] = digit;
    }
  }
  return { box, size, cells, place: (cell) => `line ${lines[cell]}, column ${columns[cell]}` };
}

function fromArrays(grid: ReadonlyArray<ReadonlyArray<number>>): SudokuProblem {
  const size = grid.length;
  const box = boxOf(size, 'grid');
  const cells = new Uint8Array(size * size);
  grid.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== size) {
      throw badInput(`grid[${r}] must have ${size} cells, got ${Array.isArray(row) ? row.length : describeValue(row)}`);
    }
    row.forEach((digit, c) => {
      if (!Number.isInteger(digit) || digit < 0 || digit > size) {
        throw badInput(`grid[${r}][${c}] must be an integer from 0 (empty) to ${size}, got ${describeValue(digit)}`);
      }
      cells[r * size + c] = digit;
    });
  });
  return { box, size, cells, place: (cell) => `grid[${Math.floor(cell / size)}][${cell % size}]` };
}

/** Reads a grid and checks its givens against each other (BAD_INPUT naming both cells of a clash). */
export function parseGrid(input: SudokuGrid): SudokuProblem {
  let problem: SudokuProblem;
  if (typeof input === 'string') problem = parseText(input);
  else if (Array.isArray(input)) problem = fromArrays(input);
  else throw badInput(`expected a sudoku as text or as rows of numbers, got ${describeValue(input)}`);
  checkGivens(problem);
  return problem;
}

/**
 * The first clash of two givens in a row, column or box, as [earlier cell, later cell, unit],
 * or null. Cells in row order; for each, its row, then its column, then its box.
 */
export function findClash(cells: Uint8Array, box: number): [number, number, string] | null {
  const size = box * box;
  if (size <= 31 && !clashes(cells, box)) return null;
  // seen[(unit kind · size + unit) · size + digit - 1]: the cell holding that digit there, + 1.
  const seen = new Int32Array(3 * size * size);
  for (let cell = 0; cell < size * size; cell++) {
    const digit = cells[cell];
    if (digit === 0) continue;
    const row = Math.floor(cell / size);
    const col = cell % size;
    const units = [row, size + col, 2 * size + Math.floor(row / box) * box + Math.floor(col / box)];
    for (let kind = 0; kind < 3; kind++) {
      const at = units[kind] * size + digit - 1;
      if (seen[at] !== 0) {
        const unit = kind === 0 ? `row ${row + 1}` : kind === 1 ? `column ${col + 1}` : 'the same box';
        return [seen[at] - 1, cell, unit];
      }
      seen[at] = cell + 1;
    }
  }
  return null;
}

/** Whether two givens clash, by a bit per digit in each unit (grids up to 25×25; no allocation per cell). */
function clashes(cells: Uint8Array, box: number): boolean {
  const size = box * box;
  const seen = new Int32Array(3 * size);
  for (let cell = 0; cell < size * size; cell++) {
    const digit = cells[cell];
    if (digit === 0) continue;
    const bit = 1 << digit;
    const row = Math.floor(cell / size);
    const col = cell - row * size;
    const boxIndex = 2 * size + Math.floor(row / box) * box + Math.floor(col / box);
    if ((seen[row] & bit) !== 0 || (seen[size + col] & bit) !== 0 || (seen[boxIndex] & bit) !== 0) return true;
    seen[row] |= bit;
    seen[size + col] |= bit;
    seen[boxIndex] |= bit;
  }
  return false;
}

function checkGivens(problem: SudokuProblem): void {
  const clash = findClash(problem.cells, problem.box);
  if (clash) {
    const [first, second, unit] = clash;
    throw badInput(`${problem.place(first)} and ${problem.place(second)} both hold ${SYMBOLS[problem.cells[second] - 1]} in ${unit}`);
  }
}

/** The grid as text, a line per row ('.' for an empty cell). */
export function picture(grid: ReadonlyArray<ReadonlyArray<number>>): string {
  const rows = grid as unknown;
  if (
    !Array.isArray(rows) ||
    !rows.every((cells) => Array.isArray(cells) && cells.every((digit: unknown) => Number.isInteger(digit) && (digit as number) >= 0 && (digit as number) <= SYMBOLS.length))
  ) {
    throw badInput(`a sudoku picture takes rows of digits from 0 (empty) to ${SYMBOLS.length}, got ${describeValue(grid)}`);
  }
  return grid.map((cells) => cells.map((digit) => (digit === 0 ? '.' : SYMBOLS[digit - 1] ?? '?')).join('')).join('\n');
}

/** Rows of digits from size² cells. */
export function rowsOf(cells: ArrayLike<number>, size: number): number[][] {
  const grid: number[][] = [];
  for (let r = 0; r < size; r++) {
    const row = new Array<number>(size);
    for (let c = 0; c < size; c++) row[c] = cells[r * size + c];
    grid.push(row);
  }
  return grid;
}

/** 81 digits (0 empty) as one line of the batch format. */
export function lineOf(cells: ArrayLike<number>): string {
  let text = '';
  for (let i = 0; i < cells.length; i++) text += cells[i] === 0 ? '.' : SYMBOLS[cells[i] - 1];
  return text;
}
