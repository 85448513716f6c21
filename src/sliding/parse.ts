// Reads sliding-tile boards and goals: text (rows of numbers, 0, _ or . for the blank), flat
// arrays with a size, or arrays of rows. Everything is checked here, before any engine.
import { BitpuzzleError, badInput, describeValue, isDenseArray } from '../errors.js';
import { STEP_CELLS, runSteps, type Steps } from '../wasm/protocol.js';
import { mulberry32 } from '../random.js';

/** A board: `tiles[r * cols + c]` is the tile in row r, column c; 0 is the blank. */
export interface Board {
  /** Rows, from 2. */
  rows: number;
  /** Columns, from 2. */
  cols: number;
  /** The tiles row by row: 0 to rows × cols − 1, each once. */
  tiles: Uint32Array;
}

/** What the API accepts as a board. */
export type BoardInput =
  | string
  | Board
  | {
      /** Rows. */
      rows: number;
      /** Columns. */
      cols: number;
      /** The tiles row by row, 0 the blank. */
      tiles: ArrayLike<number>;
    }
  | ReadonlyArray<ReadonlyArray<number>>;

/** A goal: 1..MN-1 with the blank last (default), Korf's (blank first), or a board. */
export type GoalInput = 'default' | 'korf' | BoardInput;

/**
 * The largest board (4096×4096): memory is linear in the cells (the engine keeps 12 bytes a
 * cell, the host's board, goal and checks about 24), and the host's checks take 0.2-0.4 s a
 * million cells (done in slices by the async API; at once by the synchronous helpers).
 */
export const MAX_CELLS = 1 << 24;

/** Parses "WxH" (or "W×H"): width (columns) first, then height (rows), as every size in bitpuzzle. */
export function parseSize(text: string): {
  /** Rows: the height. */
  rows: number;
  /** Columns: the width. */
  cols: number;
} {
  if (typeof text !== 'string') throw badInput(`a size is WxH (columns x rows), for example 4x3, got ${describeValue(text)}`);
  const match = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(text);
  if (!match) throw badInput(`a size is WxH (columns x rows), for example 4x3, got ${describeValue(text)}`);
  return checkSize(Number(match[2]), Number(match[1]));
}

function checkSize(rows: number, cols: number): { rows: number; cols: number } {
  if (!Number.isSafeInteger(rows) || !Number.isSafeInteger(cols) || rows < 2 || cols < 2) {
    throw badInput(`a board has at least 2 columns and 2 rows, got ${describeValue(cols)}×${describeValue(rows)}`);
  }
  if (rows * cols > MAX_CELLS) throw badInput(`a ${cols}×${rows} board has more than ${MAX_CELLS} cells`);
  return { rows, cols };
}

/** Checks a `size` argument or option: { rows, cols } of a possible board. */
export function checkSizeObject(size: unknown): { rows: number; cols: number } | undefined {
  if (size === undefined) return undefined;
  if (size === null || typeof size !== 'object') throw badInput(`size must be { rows, cols }, got ${describeValue(size)}`);
  const { rows, cols } = size as { rows: number; cols: number };
  return checkSize(rows, cols);
}

/**
 * Parses a board from text: one row per line, tiles separated by spaces (or commas), the
 * blank written 0, _ or . . With `size`, the numbers may be laid out in any lines (one line of
 * MN numbers, say). A # starts a comment, to the end of its line.
 */
export function parseBoard(text: string, size?: { rows: number; cols: number }): Board {
  return runSteps(parseBoardSteps(text, size));
}

/** parseBoard() in steps (see runSteps). */
function* parseBoardSteps(text: string, size?: { rows: number; cols: number }): Steps<Board> {
  if (typeof text !== 'string') throw badInput(`a board as text is rows of tile numbers, got ${describeValue(text)}`);
  size = checkSizeObject(size);
  const lines = text.replace(/\r/g, '').split('\n');
  const rowsOfTiles: Array<{ line: number; values: number[]; columns: number[] }> = [];
  let read = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].replace(/#.*$/, '');
    if (line.trim() === '') continue;
    const values: number[] = [];
    const columns: number[] = [];
    const token = /[^\s,]+/g;
    let match: RegExpExecArray | null;
    while ((match = token.exec(line)) !== null) {
      const word = match[0];
      if (word === '_' || word === '.') values.push(0);
      else if (/^\d+$/.test(word)) values.push(Number(word));
      else {
        throw badInput(
          `line ${index + 1}, column ${match.index + 1}: ${describeValue(word)} is not a tile (tiles are numbers, the blank 0, _ or .)`,
        );
      }
      columns.push(match.index + 1);
      if (++read % STEP_CELLS === 0) yield;
    }
    rowsOfTiles.push({ line: index + 1, values, columns });
  }
  if (rowsOfTiles.length === 0) throw badInput('the board is empty: expected rows of tile numbers');
  // Where each tile was written, for messages: found from the rows' first tiles when asked.
  const starts: number[] = [];
  let total = 0;
  for (const r of rowsOfTiles) {
    starts.push(total);
    total += r.values.length;
  }
  const place = (i: number): string => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return `line ${rowsOfTiles[lo].line}, column ${rowsOfTiles[lo].columns[i - starts[lo]]}`;
  };
  const flat: number[] = new Array(total);
  let at = 0;
  for (const r of rowsOfTiles) {
    for (const value of r.values) flat[at++] = value;
    yield;
  }
  if (size) {
    const { rows, cols } = checkSize(size.rows, size.cols);
    if (flat.length !== rows * cols) {
      throw badInput(`a ${cols}×${rows} board has ${rows * cols} cells, the text gives ${flat.length} tiles`);
    }
    return yield* checkTilesSteps(rows, cols, flat, place);
  }
  const cols = rowsOfTiles[0].values.length;
  for (const row of rowsOfTiles) {
    if (row.values.length !== cols) {
      throw badInput(`line ${row.line}: ${row.values.length} tiles, expected ${cols} like the first row`);
    }
  }
  const { rows } = checkSize(rowsOfTiles.length, cols);
  return yield* checkTilesSteps(rows, cols, flat, place);
}

/**
 * Checks that the tiles are 0..MN-1 each once; BAD_INPUT names the duplicated, missing and
 * out-of-range ones. `where(i)` names the place of cell i in the user's input.
 */
export function checkTiles(
  rows: number,
  cols: number,
  tiles: ArrayLike<number>,
  where: (index: number) => string = (i) => `cell ${i} (row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1})`,
): Board {
  return runSteps(checkTilesSteps(rows, cols, tiles, where));
}

/** checkTiles() in steps (see runSteps). */
function* checkTilesSteps(
  rows: number,
  cols: number,
  tiles: ArrayLike<number>,
  where: (index: number) => string = (i) => `cell ${i} (row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1})`,
): Steps<Board> {
  const n = rows * cols;
  if (tiles.length !== n) throw badInput(`a ${cols}×${rows} board has ${n} cells, got ${describeValue(tiles.length)} tiles`);
  const out = new Uint32Array(n);
  // 1 + the first cell holding each tile, 0 for none yet.
  const firstAt = yield* zeroed(Int32Array, n);
  const problems: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % STEP_CELLS === 0) yield;
    const t = tiles[i];
    if (!Number.isSafeInteger(t) || t < 0 || t >= n) {
      if (problems.length < 5) problems.push(`${where(i)}: tile ${describeValue(t)} is out of range (0..${n - 1}, 0 the blank)`);
      continue;
    }
    if (firstAt[t] > 0) {
      if (problems.length < 5) problems.push(`duplicated tile ${nameTile(t)} at ${where(firstAt[t] - 1)} and ${where(i)}`);
    } else firstAt[t] = i + 1;
    out[i] = t;
  }
  const missing: number[] = [];
  for (let t = 0; t < n; t++) {
    if (t % STEP_CELLS === 0) yield;
    if (firstAt[t] === 0) missing.push(t);
  }
  if (missing.length) {
    const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
    problems.push(`missing ${plural(missing.length, 'tile')} ${missing.slice(0, 10).map(nameTile).join(', ')}${more}`);
  }
  if (problems.length) throw badInput(`not a ${cols}×${rows} board: ${problems.join('; ')}`);
  return { rows, cols, tiles: out };
}

/**
 * A new array of zeros, written through in pieces: the first write to each page of a big
 * array costs a page fault, which random writes would otherwise pay all at once (a 16
 * million-cell board's table has 16,384 pages, over 100 ms of faults).
 */
function* zeroed<T extends Uint8Array | Int32Array | Uint32Array>(Kind: new (n: number) => T, n: number): Steps<T> {
  const array = new Kind(n);
  const piece = STEP_CELLS * 16;
  for (let from = 0; from < n; from += piece) {
    array.fill(0, from, Math.min(n, from + piece));
    yield;
  }
  return array;
}

const nameTile = (t: number): string => (t === 0 ? 'the blank (0)' : String(t));
const plural = (count: number, word: string): string => (count === 1 ? word : `${word}s`);

/**
 * Normalises any accepted board input. `size` lays out flat number lists and text. Checking
 * takes about 170 ms a million cells: the async API does it in slices (toBoardSteps).
 */
export function toBoard(input: BoardInput, size?: { rows: number; cols: number }): Board {
  return runSteps(toBoardSteps(input, size));
}

/** toBoard() in steps (see runSteps). */
export function* toBoardSteps(input: BoardInput, size?: { rows: number; cols: number }): Steps<Board> {
  size = checkSizeObject(size);
  if (typeof input === 'string') return yield* parseBoardSteps(input, size);
  if (Array.isArray(input)) {
    const rows = input as ReadonlyArray<ReadonlyArray<number>>;
    if (!isDenseArray(input) || !input.every((row) => isDenseArray(row))) throw badInput('a board given as an array is an array of rows (arrays of tiles)');
    const cols = rows[0]?.length ?? 0;
    rows.forEach((row, r) => {
      if (row.length !== cols) throw badInput(`row ${r + 1} has ${row.length} tiles, expected ${cols} like the first row`);
    });
    checkSize(rows.length, cols);
    const flat: number[] = new Array(rows.length * cols);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      for (let c = 0; c < cols; c++) flat[r * cols + c] = row[c];
      yield;
    }
    return yield* checkTilesSteps(rows.length, cols, flat, (i) => `row ${Math.floor(i / cols) + 1}, column ${(i % cols) + 1}`);
  }
  if (input === null || typeof input !== 'object' || !('tiles' in input)) {
    throw badInput(`a board is text, an array of rows, or { rows, cols, tiles }, got ${describeValue(input)}`);
  }
  const { rows, cols } = checkSize(input.rows, input.cols);
  const { tiles } = input as { tiles: unknown };
  if (!isDenseArray(tiles) && !(ArrayBuffer.isView(tiles) && !(tiles instanceof DataView))) {
    throw badInput(`tiles must be an array of tile numbers, got ${describeValue(tiles)}`);
  }
  return yield* checkTilesSteps(rows, cols, tiles as ArrayLike<number>);
}

/** The goal board for a size: 'default' (blank last), 'korf' (blank first) or a board of that size. */
export function toGoal(goal: GoalInput | undefined, rows: number, cols: number): Board {
  return runSteps(toGoalSteps(goal, rows, cols));
}

/** toGoal() in steps (see runSteps). */
export function* toGoalSteps(goal: GoalInput | undefined, rows: number, cols: number): Steps<Board> {
  checkSize(rows, cols);
  const n = rows * cols;
  if (goal === undefined || goal === 'default' || goal === 'korf') {
    // Blank last: 1, 2, …, MN-1, 0; blank first (Korf's): 0, 1, …, MN-1.
    const first = goal === 'korf' ? 0 : 1;
    const tiles = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      if (i % STEP_CELLS === 0) yield;
      tiles[i] = (i + first) % n;
    }
    return { rows, cols, tiles };
  }
  // A goal in one line is laid out in the board's size; in rows, it is checked against it.
  const oneLine = typeof goal === 'string' && goal.trim().split(/\n/).filter((l) => l.replace(/#.*$/, '').trim()).length === 1;
  const board = yield* toBoardSteps(goal, oneLine ? { rows, cols } : undefined);
  if (board.rows !== rows || board.cols !== cols) {
    throw badInput(`the goal is ${board.cols}×${board.rows}, the board ${cols}×${rows}`);
  }
  return board;
}

/** Labels each cell of the board with the goal cell of its tile, so that the goal reads 0, 1, 2, … */
export function goalLabels(board: Board, goal: Board): Uint32Array {
  return runSteps(goalLabelsSteps(board, goal));
}

/** goalLabels() in steps (see runSteps). */
export function* goalLabelsSteps(board: Board, goal: Board): Steps<Uint32Array> {
  const n = board.tiles.length;
  const goalCell = yield* zeroed(Uint32Array, n);
  for (let c = 0; c < n; c++) {
    if (c % STEP_CELLS === 0) yield;
    goalCell[goal.tiles[c]] = c;
  }
  const labels = new Uint32Array(n);
  for (let c = 0; c < n; c++) {
    if (c % STEP_CELLS === 0) yield;
    labels[c] = goalCell[board.tiles[c]];
  }
  return labels;
}

/**
 * Whether the board can reach the goal. Every move swaps the blank with a tile: it flips
 * the parity of the permutation from board to goal and of the blank's grid distance to its
 * goal cell, so the two parities must agree; on boards of at least 2×2 that is also enough.
 * (For odd widths this is the usual inversion-count rule; for even widths the inversion count
 * plus the blank's row distance.) Synchronous: it holds the thread about 0.2-0.3 s a million
 * cells (the async solve and moves check big boards in slices).
 */
export function solvability(
  boardInput: BoardInput,
  goalInput: GoalInput = 'default',
): {
  /** True when the board can reach the goal. */
  solvable: boolean;
  /** Why it cannot (the two parities), else null. */
  reason: string | null;
} {
  const board = toBoard(boardInput);
  return runSteps(paritySteps(board, toGoal(goalInput, board.rows, board.cols)));
}

type Solvability = { solvable: boolean; reason: string | null };

/** solvability() of checked boards, in steps (see runSteps): the permutation's cycles, exactly. */
function* paritySteps(board: Board, goal: Board): Steps<Solvability> {
  const labels = yield* goalLabelsSteps(board, goal);
  const n = labels.length;
  const seen = yield* zeroed(Uint8Array, n);
  let odd = 0;
  // Every cell is visited once, by the outer loop or along its cycle: a step every STEP_CELLS visits.
  let visits = 0;
  for (let i = 0; i < n; i++) {
    if (++visits % STEP_CELLS === 0) yield;
    if (seen[i]) continue;
    let length = 0;
    for (let j = i; !seen[j]; j = labels[j]) {
      seen[j] = 1;
      length++;
      if (++visits % STEP_CELLS === 0) yield;
    }
    odd ^= (length - 1) & 1;
  }
  const blankAt = board.tiles.indexOf(0);
  const blankGoal = goal.tiles.indexOf(0);
  const distance =
    Math.abs(Math.floor(blankAt / board.cols) - Math.floor(blankGoal / board.cols)) +
    Math.abs((blankAt % board.cols) - (blankGoal % board.cols));
  if (odd === (distance & 1)) return { solvable: true, reason: null };
  const parity = (x: number): string => (x ? 'odd' : 'even');
  return {
    solvable: false,
    reason:
      `the tiles are an ${parity(odd)} permutation of the goal but the blank is ${distance} moves from its goal cell ` +
      `(${parity(distance & 1)}): each move swaps the blank with a tile, so the two parities must agree`,
  };
}

/** Throws UNSOLVABLE with the reason when the board cannot reach the goal. */
export function checkSolvable(board: Board, goal: Board): void {
  runSteps(checkSolvableSteps(board, goal));
}

/** checkSolvable() in steps (see runSteps). */
export function* checkSolvableSteps(board: Board, goal: Board): Steps<void> {
  const { solvable, reason } = yield* paritySteps(board, goal);
  if (!solvable) throw new BitpuzzleError('UNSOLVABLE', `this board cannot reach the goal: ${reason}`);
}

/** Parses a batch: one instance per line (MN tiles, optionally an expected length, as in korf100.txt). */
export function parseBatch(
  text: string,
  size?: { rows: number; cols: number },
): Array<{
  /** The instance's board. */
  board: Board;
  /** Its line in the text, from 1. */
  line: number;
  /** The length given after the tiles (an optimal solution's, as in korf100.txt), else null. */
  expected: number | null;
}> {
  if (typeof text !== 'string') throw badInput(`a batch is text, one board per line, got ${describeValue(text)}`);
  size = checkSizeObject(size);
  const out: Array<{ board: Board; line: number; expected: number | null }> = [];
  text
    .replace(/\r/g, '')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.replace(/#.*$/, '');
      if (line.trim() === '') return;
      // Each number and the column it starts at, for messages.
      const words = [...line.matchAll(/[^\s,]+/g)];
      const at = (k: number): string => `line ${index + 1}, column ${words[k].index + 1}`;
      const values = words.map(([w]) => (w === '_' || w === '.' ? 0 : /^\d+$/.test(w) ? Number(w) : NaN));
      const bad = values.findIndex((v) => Number.isNaN(v));
      if (bad >= 0) throw badInput(`${at(bad)}: ${describeValue(words[bad][0])} is not a tile (tiles are numbers, the blank 0, _ or .)`);
      let rows: number;
      let cols: number;
      if (size) ({ rows, cols } = size);
      else {
        // MN tiles, or MN tiles and a length: MN is a square.
        const side = Math.round(Math.sqrt(values.length));
        const sideLess = Math.round(Math.sqrt(values.length - 1));
        if (side * side === values.length) rows = cols = side;
        else if (sideLess * sideLess === values.length - 1) rows = cols = sideLess;
        else throw badInput(`line ${index + 1}: ${values.length} numbers are not a square board (give the size for others)`);
      }
      const n = rows * cols;
      if (values.length !== n && values.length !== n + 1) {
        throw badInput(`line ${index + 1}: ${values.length} numbers, expected ${n} tiles (and optionally a length)`);
      }
      const board = checkTiles(rows, cols, values.slice(0, n), at);
      out.push({ board, line: index + 1, expected: values.length > n ? values[n] : null });
    });
  if (out.length === 0) throw badInput('the batch has no instances');
  return out;
}

/**
 * A random board that can reach the goal: a uniformly shuffled board (seeded, so that it
 * repeats), with two tiles swapped when its parity is wrong. Synchronous: it holds the
 * thread about 0.2-0.3 s a million cells (seconds for the largest boards).
 */
export function randomBoard(rows: number, cols: number, seed = 1, goal: GoalInput = 'default'): Board {
  checkSize(rows, cols);
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) throw badInput(`seed must be an integer, got ${describeValue(seed)}`);
  const target = toGoal(goal, rows, cols);
  const next = mulberry32(seed);
  const tiles = target.tiles.slice();
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const t = tiles[i];
    tiles[i] = tiles[j];
    tiles[j] = t;
  }
  const board = { rows, cols, tiles };
  if (!runSteps(paritySteps(board, target)).solvable) {
    // Swapping two tiles (not the blank) flips the permutation's parity only.
    const [a, b] = tiles[0] !== 0 && tiles[1] !== 0 ? [0, 1] : [2, 3];
    [tiles[a], tiles[b]] = [tiles[b], tiles[a]];
  }
  return board;
}
