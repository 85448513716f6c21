// Sudoku of any box size b (a b²×b² grid) as exact cover: a row per candidate (cell, digit)
// and four primary columns per constraint family (each cell filled; each digit once per row,
// column and box). Givens are forced rows, checked against each other first.
import { badInput, describeValue } from '../errors.js';
import { checkOptions } from '../wasm/options.js';
import type { CoverMatrix } from './engine.js';
import { markPrepared, type PreparedCover } from './problem.js';
import type { Shard } from '../parallel/shard.js';
import { count as countCovers, solutions as coverSolutions, solve as solveCover, type CountOptions, type CoverStats, type SolutionsOptions } from './solve.js';

/** Digits in text: 1-9, then letters (case-insensitive), so text grids reach 25×25 (b = 5). */
const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The largest box size; a 64×64 grid has 262,144 candidate rows. */
export const MAX_BOX = 8;

/** Text (one line per grid row; '.' or '0' empty; spaces, '|' and lines of '-+' ignored), or rows of numbers (0 empty). */
export type SudokuGrid = string | ReadonlyArray<ReadonlyArray<number>>;

export interface SudokuSolution {
  /** The filled grid, digits from 1. */
  grid: number[][];
  /** The grid as text, a line per row. */
  text: string;
}

/** The first completion, with the stats of the search that found it. */
export interface SudokuFirst extends SudokuSolution {
  stats: CoverStats;
}

export interface SudokuCount {
  total: bigint;
  /** Completions are not counted up to symmetry: always null. */
  distinct: null;
  /** Always null: a grid's givens are checked against each other (BAD_INPUT), then searched. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  stats: CoverStats;
}

interface Given {
  row: number;
  col: number;
  digit: number;
  /** Where the user wrote it, for messages. */
  place: string;
}

interface SudokuProblem {
  box: number;
  size: number;
  givens: Given[];
}

function boxOf(size: number, what: string): number {
  const box = Math.round(Math.sqrt(size));
  if (box * box !== size || box < 1 || box > MAX_BOX) {
    throw badInput(`${what}: a sudoku has b² rows for a box size b from 1 to ${MAX_BOX} (4, 9, 16, 25, …), got ${size}`);
  }
  return box;
}

function parseText(text: string): SudokuProblem {
  // Each cell: its character and its place in the text.
  const rows: Array<Array<{ ch: string; line: number; column: number }>> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const cells: Array<{ ch: string; line: number; column: number }> = [];
    for (let i = 0; i < raw.length; i++) {
      if (!/[\s|+-]/.test(raw[i])) cells.push({ ch: raw[i], line: index + 1, column: i + 1 });
    }
    if (cells.length > 0) rows.push(cells);
  });
  if (rows.length === 0) throw badInput('the sudoku is empty: expected a line of cells per row');
  // One line of n² cells is the whole grid, row after row.
  if (rows.length === 1 && rows[0].length > 1) {
    const line = rows.pop()!;
    const n = Math.round(Math.sqrt(line.length));
    if (n * n !== line.length) {
      throw badInput(`line ${line[0].line}: a grid on one line has n² cells (16, 81, 256, …), got ${line.length}`);
    }
    for (let r = 0; r < n; r++) rows.push(line.slice(r * n, (r + 1) * n));
  }
  const size = rows.length;
  const box = boxOf(size, 'the grid');
  if (size > SYMBOLS.length) throw badInput(`text grids reach ${SYMBOLS.length}×${SYMBOLS.length}; give larger grids as arrays of numbers`);
  const givens: Given[] = [];
  rows.forEach((cells, row) => {
    if (cells.length !== size) {
      throw badInput(`line ${cells[0].line}: ${cells.length} cells, expected ${size} (one per column of a ${size}×${size} sudoku)`);
    }
    cells.forEach(({ ch, line, column }, col) => {
      if (ch === '.' || ch === '0') return;
      const digit = SYMBOLS.indexOf(ch.toUpperCase()) + 1;
      if (digit < 1 || digit > size) {
        throw badInput(`line ${line}, column ${column}: unexpected character ${describeValue(ch)} (expected ${SYMBOLS[0]}-${SYMBOLS[size - 1]}, '.' or '0')`);
      }
      givens.push({ row, col, digit, place: `line ${line}, column ${column}` });
    });
  });
  return { box, size, givens };
}

function fromArrays(grid: ReadonlyArray<ReadonlyArray<number>>): SudokuProblem {
  const size = grid.length;
  const box = boxOf(size, 'grid');
  const givens: Given[] = [];
  grid.forEach((cells, row) => {
    if (!Array.isArray(cells) || cells.length !== size) {
      throw badInput(`grid[${row}] must have ${size} cells, got ${Array.isArray(cells) ? cells.length : describeValue(cells)}`);
    }
    cells.forEach((digit, col) => {
      if (!Number.isInteger(digit) || digit < 0 || digit > size) {
        throw badInput(`grid[${row}][${col}] must be an integer from 0 (empty) to ${size}, got ${describeValue(digit)}`);
      }
      if (digit > 0) givens.push({ row, col, digit, place: `grid[${row}][${col}]` });
    });
  });
  return { box, size, givens };
}

function toProblem(input: SudokuGrid): SudokuProblem {
  if (typeof input === 'string') return parseText(input);
  if (Array.isArray(input)) return fromArrays(input);
  throw badInput(`expected a sudoku as text or as rows of numbers, got ${describeValue(input)}`);
}

/** Givens that break a rule are bad input, named by where they were written. */
function checkGivens({ box, givens }: SudokuProblem): void {
  const seen = new Map<string, Given>();
  for (const given of givens) {
    const { row, col, digit } = given;
    const units: Array<[string, string]> = [
      [`r${row}:${digit}`, `row ${row + 1}`],
      [`c${col}:${digit}`, `column ${col + 1}`],
      [`b${Math.floor(row / box) * box + Math.floor(col / box)}:${digit}`, 'the same box'],
    ];
    for (const [key, unit] of units) {
      const other = seen.get(key);
      if (other) throw badInput(`${other.place} and ${given.place} both hold ${SYMBOLS[digit - 1]} in ${unit}`);
      seen.set(key, given);
    }
  }
}

/** The exact-cover matrix of an empty b²×b² grid; candidate (r, c, d) is row (r·n + c)·n + d. */
function coverOf(problem: SudokuProblem): PreparedCover {
  const { box, size: n, givens } = problem;
  const cells = new Int32Array(4 * n * n * n);
  const rowStarts = new Int32Array(n * n * n + 1);
  let k = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const b = Math.floor(r / box) * box + Math.floor(c / box);
      for (let d = 0; d < n; d++) {
        rowStarts[(r * n + c) * n + d] = k;
        cells[k++] = r * n + c;
        cells[k++] = n * n + r * n + d;
        cells[k++] = 2 * n * n + c * n + d;
        cells[k++] = 3 * n * n + b * n + d;
      }
    }
  }
  rowStarts[n * n * n] = k;
  const matrix: CoverMatrix = { primary: 4 * n * n, secondary: 0, rowStarts, cells };
  return markPrepared({
    matrix,
    columnNames: [],
    rowNames: null,
    given: givens.map(({ row, col, digit }) => (row * n + col) * n + digit - 1),
    reason: null,
  });
}

function prepareSudoku(input: SudokuGrid): { problem: SudokuProblem; cover: PreparedCover } {
  const problem = toProblem(input);
  checkGivens(problem);
  return { problem, cover: coverOf(problem) };
}

function toSolution(size: number, rows: number[]): SudokuSolution {
  const grid = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const row of rows) {
    const digit = row % size;
    const cell = (row - digit) / size;
    grid[Math.floor(cell / size)][cell % size] = digit + 1;
  }
  return { grid, text: picture(grid) };
}

/** The grid as text, a line per row ('.' for an empty cell). */
export function picture(grid: ReadonlyArray<ReadonlyArray<number>>): string {
  const rows = grid as unknown;
  if (!Array.isArray(rows) || !rows.every((cells) => Array.isArray(cells) && cells.every((digit: unknown) => Number.isInteger(digit) && (digit as number) >= 0 && (digit as number) <= SYMBOLS.length))) {
    throw badInput(`a sudoku picture takes rows of digits from 0 (empty) to ${SYMBOLS.length}, got ${describeValue(grid)}`);
  }
  return grid.map((cells) => cells.map((digit) => (digit === 0 ? '.' : SYMBOLS[digit - 1] ?? '?')).join('')).join('\n');
}

/** Counts the completions of a grid. */
export async function count(grid: SudokuGrid, options: CountOptions = {}): Promise<SudokuCount> {
  options = checkOptions(options, ['signal', 'engine', 'maxMemory', 'threads', 'shard', 'onProgress', 'queue'], 'sudoku.count');
  const { cover } = prepareSudoku(grid);
  const { total, reason, shard, stats } = await countCovers(cover, options);
  return { total, distinct: null, reason, shard, stats };
}

/** The completions one by one; the final value (with next()) is the search's stats. */
export async function* solutions(grid: SudokuGrid, options: SolutionsOptions = {}): AsyncGenerator<SudokuSolution, CoverStats, undefined> {
  options = checkOptions(options, ['signal', 'engine', 'maxMemory', 'limit'], 'sudoku.solutions');
  const { problem, cover } = prepareSudoku(grid);
  const found = coverSolutions(cover, options);
  try {
    for (;;) {
      const step = await found.next();
      if (step.done) return step.value;
      yield toSolution(problem.size, step.value.rows);
    }
  } finally {
    await found.return({ nodes: 0n, milliseconds: 0, threads: 1, parts: 1 });
  }
}

/** The first completion found, with its stats, or null when the grid has none. */
export async function solve(grid: SudokuGrid, options: Omit<SolutionsOptions, 'limit'> = {}): Promise<SudokuFirst | null> {
  options = checkOptions(options, ['signal', 'engine', 'maxMemory'], 'sudoku.solve');
  const { problem, cover } = prepareSudoku(grid);
  const found = await solveCover(cover, options);
  return found && { ...toSolution(problem.size, found.rows), stats: found.stats };
}
