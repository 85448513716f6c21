// Boards: holes on a square or a triangular lattice, their names, jumps and symmetries.
// A board is drawn as text: `o` a peg, `.` an empty hole, space or `#` off the board. On a
// triangular board the holes of a row stand two characters apart and rows are staggered
// by one, so that the six neighbours of a hole are left, right and the four diagonals.
import { badInput, describeValue } from '../errors.js';
import { checkOptions } from '../wasm/options.js';

/** The lattice of the holes: 'square' (jumps along rows and columns) or 'triangular' (six directions). */
export type Geometry = 'square' | 'triangular';

/** A hole of a board, where the picture draws it. */
export interface Hole {
  /** Line of the picture, from 0. */
  line: number;
  /** Character column of the picture, from 0. */
  column: number;
  /** Column letter and row number: `a1` is the top-left hole. */
  name: string;
}

/** A checked board: its holes, jumps and symmetries. */
export interface Board {
  /** The built-in board's name, or the name given to parseBoard ('custom' when none is). */
  name: string;
  /** The lattice of the holes. */
  geometry: Geometry;
  /** Holes in reading order; a position's bit i is hole i. At most 64. */
  holes: Hole[];
  /** Every jump as [from, over, to] hole indices. */
  jumps: Array<[number, number, number]>;
  /** The permutations of the holes that map the board onto itself (the identity first). */
  symmetries: number[][];
  /** The pegs of the board's own picture (the default start), as a bit mask. */
  picture: bigint;
}

/** Most holes on a board: a position is a 64-bit mask. */
export const MAX_HOLES = 64;

const TRIANGLE_SIDES = [4, 5, 6, 7, 8];

const SQUARE_PICTURES: Record<string, string[]> = {
  english: ['  ooo  ', '  ooo  ', 'ooooooo', 'ooo.ooo', 'ooooooo', '  ooo  ', '  ooo  '],
  french: ['  ooo  ', ' ooooo ', 'ooooooo', 'ooo.ooo', 'ooooooo', ' ooooo ', '  ooo  '],
  wiegleb: [
    '   ooo   ', '   ooo   ', '   ooo   ', 'ooooooooo', 'oooo.oooo', 'ooooooooo', '   ooo   ', '   ooo   ', '   ooo   ',
  ],
  diamond: ['    o    ', '   ooo   ', '  ooooo  ', ' ooooooo ', 'oooo.oooo', ' ooooooo ', '  ooooo  ', '   ooo   ', '    o    '],
};

/** The names of the built-in boards. */
export const BOARD_NAMES: readonly string[] = [...Object.keys(SQUARE_PICTURES), ...TRIANGLE_SIDES.map((n) => `triangle${n}`)];

/** A triangle of side n with its top hole empty. */
function trianglePicture(n: number): string[] {
  const lines: string[] = [];
  for (let row = 0; row < n; row++) {
    const pegs = Array.from({ length: row + 1 }, (_, i) => (row === 0 && i === 0 ? '.' : 'o'));
    lines.push(' '.repeat(n - 1 - row) + pegs.join(' '));
  }
  return lines;
}

/** A built-in board by name, or undefined. */
export function builtinBoard(name: string): Board | undefined {
  if (typeof name !== 'string') throw badInput(`a board name is a string (${BOARD_NAMES.join(', ')}), got ${describeValue(name)}`);
  const key = name.toLowerCase();
  if (Object.hasOwn(SQUARE_PICTURES, key)) return parseBoard(SQUARE_PICTURES[key].join('\n'), { name: key, geometry: 'square' });
  const match = /^triangle(\d+)$/.exec(key);
  if (match && TRIANGLE_SIDES.includes(Number(match[1]))) {
    return parseBoard(trianglePicture(Number(match[1])).join('\n'), { name: key, geometry: 'triangular' });
  }
  return undefined;
}

interface Cell {
  line: number;
  column: number;
  peg: boolean;
}

/** The holes of a picture, with errors that name the line and column. */
function readCells(text: string): Cell[] {
  const cells: Cell[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((line, l) => {
    for (let c = 0; c < line.length; c++) {
      const ch = line[c];
      if (ch === 'o' || ch === 'O') cells.push({ line: l, column: c, peg: true });
      else if (ch === '.') cells.push({ line: l, column: c, peg: false });
      else if (ch !== ' ' && ch !== '#' && ch !== '\t') {
        throw badInput(`line ${l + 1}, column ${c + 1}: unexpected ${describeValue(ch)} (use o for a peg, . for an empty hole, space or # off the board)`);
      }
    }
  });
  if (cells.length === 0) throw badInput('the board has no holes');
  if (cells.length > MAX_HOLES) {
    const last = cells[MAX_HOLES];
    throw badInput(`line ${last.line + 1}, column ${last.column + 1}: more than ${MAX_HOLES} holes`);
  }
  return cells;
}

/** Triangular when the holes sit on a checkerboard with no two side by side. */
function guessGeometry(cells: Cell[]): Geometry {
  const parity = (cell: Cell): number => (cell.line + cell.column) & 1;
  const taken = new Set(cells.map((cell) => `${cell.line},${cell.column}`));
  const spaced = cells.every((cell) => parity(cell) === parity(cells[0]) && !taken.has(`${cell.line},${cell.column + 1}`));
  const rowsWithTwo = cells.some((a) => taken.has(`${a.line},${a.column + 2}`));
  return spaced && rowsWithTwo ? 'triangular' : 'square';
}

/** Lattice coordinates: (row, col) on squares; axial (r, q) on the triangular lattice. */
function latticeOf(cell: Cell, geometry: Geometry): [number, number] {
  return geometry === 'square' ? [cell.line, cell.column] : [cell.line, (cell.column - cell.line) / 2];
}

const SQUARE_STEPS: Array<[number, number]> = [[0, 1], [1, 0], [0, -1], [-1, 0]];
// Axial steps (dr, dq): right, left, down-right, down-left, up-left, up-right.
const TRIANGLE_STEPS: Array<[number, number]> = [[0, 1], [0, -1], [1, 0], [1, -1], [-1, 0], [-1, 1]];

/** The lattice's point symmetries: 8 on squares, 12 on the triangular lattice. */
function latticeMaps(geometry: Geometry): Array<(r: number, c: number) => [number, number]> {
  if (geometry === 'square') {
    return [
      (r, c) => [r, c], (r, c) => [c, -r], (r, c) => [-r, -c], (r, c) => [-c, r],
      (r, c) => [r, -c], (r, c) => [-r, c], (r, c) => [c, r], (r, c) => [-c, -r],
    ];
  }
  // Cube coordinates (x, y, z) = (q, -q-r, r): every permutation, with or without negation.
  const perms = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];
  const maps: Array<(r: number, c: number) => [number, number]> = [];
  for (const sign of [1, -1]) {
    for (const p of perms) {
      maps.push((r, q) => {
        const cube = [q, -q - r, r];
        return [sign * cube[p[2]], sign * cube[p[0]]];
      });
    }
  }
  return maps;
}

/** Options of parseBoard. */
export interface ParseOptions {
  /** The board's name (default 'custom'). */
  name?: string;
  /** The lattice: guessed from the picture when not given. */
  geometry?: Geometry;
}

/**
 * A board from its picture. The pegs drawn are the board's default start. Errors name the
 * line and column.
 */
export function parseBoard(text: string, options: ParseOptions = {}): Board {
  if (typeof text !== 'string') throw badInput(`a board picture must be a string, got ${describeValue(text)}`);
  options = checkOptions(options, ['name', 'geometry'], 'pegs.parseBoard');
  if (options.name !== undefined && typeof options.name !== 'string') throw badInput(`name must be a string, got ${describeValue(options.name)}`);
  const cells = readCells(text);
  const geometry = options.geometry ?? guessGeometry(cells);
  if (geometry !== 'square' && geometry !== 'triangular') {
    throw badInput(`geometry must be 'square' or 'triangular', got ${describeValue(geometry)}`);
  }
  if (geometry === 'triangular') {
    const bad = cells.find((cell) => ((cell.line + cell.column - cells[0].line - cells[0].column) & 1) !== 0);
    if (bad) {
      throw badInput(`line ${bad.line + 1}, column ${bad.column + 1}: on a triangular board the holes of a row stand two columns apart and rows are staggered by one`);
    }
  }
  const shift = geometry === 'triangular' ? (cells[0].line + cells[0].column) & 1 : 0;
  const points = cells.map((cell) => latticeOf({ ...cell, column: cell.column - shift }, geometry));
  const index = new Map(points.map(([r, c], i) => [`${r},${c}`, i]));
  const at = (r: number, c: number): number | undefined => index.get(`${r},${c}`);

  const holes = cells.map((cell, i) => ({ line: cell.line, column: cell.column, name: holeName(cells, i, geometry) }));
  const jumps: Array<[number, number, number]> = [];
  const steps = geometry === 'square' ? SQUARE_STEPS : TRIANGLE_STEPS;
  points.forEach(([r, c], from) => {
    for (const [dr, dc] of steps) {
      const over = at(r + dr, c + dc);
      const to = at(r + 2 * dr, c + 2 * dc);
      if (over !== undefined && to !== undefined) jumps.push([from, over, to]);
    }
  });

  // Symmetries: lattice maps that carry the set of holes onto itself after a translation.
  const least = (pts: Array<[number, number]>): [number, number] =>
    pts.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  const [r0, c0] = least(points);
  const symmetries: number[][] = [];
  const seen = new Set<string>();
  for (const map of latticeMaps(geometry)) {
    const mapped = points.map(([r, c]) => map(r, c));
    const [r1, c1] = least(mapped);
    const perm = mapped.map(([r, c]) => at(r - r1 + r0, c - c1 + c0));
    if (perm.some((p) => p === undefined)) continue;
    const key = perm.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    symmetries.push(perm as number[]);
  }
  let picture = 0n;
  cells.forEach((cell, i) => {
    if (cell.peg) picture |= 1n << BigInt(i);
  });
  const board = { name: options.name ?? 'custom', geometry, holes, jumps, symmetries, picture };
  parsed.add(board);
  return board;
}

/** Boards made by parseBoard (and so by builtinBoard): the only board objects the API takes. */
const parsed = new WeakSet<Board>();

/** Checks that a value is a board parseBoard or builtinBoard made. */
export function checkBoard(value: unknown): Board {
  if (typeof value !== 'object' || value === null || !parsed.has(value as Board)) {
    throw badInput(`expected a board made by pegs.parseBoard or pegs.builtinBoard, got ${describeValue(value)}`);
  }
  return value as Board;
}

/** Checks a position on a board: a BigInt with a bit per hole. */
export function checkPosition(board: Board, position: unknown, what = 'a position'): bigint {
  if (typeof position !== 'bigint' || position < 0n || position >> BigInt(board.holes.length) !== 0n) {
    throw badInput(`${what} is a BigInt with one bit per hole of the board (${board.holes.length} holes), got ${describeValue(position)}`);
  }
  return position;
}

/**
 * `a1` is the top-left hole. On squares the letter is the column of the picture (from its
 * leftmost hole) and the number the line (from its top hole); on triangles the letter
 * counts the holes of the row from its left.
 */
function holeName(cells: Cell[], i: number, geometry: Geometry): string {
  const top = Math.min(...cells.map((c) => c.line));
  const row = cells[i].line - top + 1;
  let col: number;
  if (geometry === 'square') col = cells[i].column - Math.min(...cells.map((c) => c.column));
  else col = cells.filter((c) => c.line === cells[i].line && c.column < cells[i].column).length;
  return columnLetters(col) + row;
}

/** a..z, then aa, ab, … (boards up to 64 holes never need more). */
function columnLetters(col: number): string {
  const letter = String.fromCharCode(97 + (col % 26));
  return col < 26 ? letter : columnLetters(Math.floor(col / 26) - 1) + letter;
}

/** The hole called `name`, or BAD_INPUT. */
export function holeIndex(board: Board, name: string): number {
  checkBoard(board);
  if (typeof name !== 'string') throw badInput(`a hole name is a string like ${board.holes[0].name}, got ${describeValue(name)}`);
  const key = name.trim().toLowerCase();
  const i = board.holes.findIndex((hole) => hole.name === key);
  if (i < 0) throw badInput(`there is no hole ${describeValue(name)} on the ${board.name} board (holes are named like ${board.holes[0].name})`);
  return i;
}

/** A position as a picture of the board: `o` pegs, `.` empty holes. */
export function positionPicture(board: Board, position: bigint): string {
  checkBoard(board);
  checkPosition(board, position);
  const lines: string[][] = [];
  board.holes.forEach((hole, i) => {
    const line = (lines[hole.line] ??= []);
    while (line.length < hole.column) line.push(' ');
    line[hole.column] = (position >> BigInt(i)) & 1n ? 'o' : '.';
  });
  const text = Array.from(lines, (line) => (line ?? []).join(''));
  while (text.length && text[0] === '') text.shift();
  return text.join('\n');
}

/** A position drawn on this board's holes: every hole drawn, nothing else. */
export function readPosition(board: Board, text: string): bigint {
  checkBoard(board);
  if (typeof text !== 'string') throw badInput(`a position picture must be a string, got ${describeValue(text)}`);
  const cells = readCells(text);
  const key = (line: number, column: number): string => `${line},${column}`;
  const top = Math.min(...cells.map((c) => c.line));
  const left = Math.min(...cells.map((c) => c.column));
  const boardTop = Math.min(...board.holes.map((h) => h.line));
  const boardLeft = Math.min(...board.holes.map((h) => h.column));
  const holeAt = new Map(board.holes.map((h, i) => [key(h.line - boardTop, h.column - boardLeft), i]));
  let position = 0n;
  for (const cell of cells) {
    const i = holeAt.get(key(cell.line - top, cell.column - left));
    if (i === undefined) {
      throw badInput(`line ${cell.line + 1}, column ${cell.column + 1}: there is no hole of the ${board.name} board here`);
    }
    if (cell.peg) position |= 1n << BigInt(i);
  }
  if (cells.length !== board.holes.length) {
    throw badInput(`the picture draws ${cells.length} holes; the ${board.name} board has ${board.holes.length}`);
  }
  return position;
}

export function isBoard(value: unknown): value is Board {
  return typeof value === 'object' && value !== null && Array.isArray((value as Board).holes) && Array.isArray((value as Board).jumps);
}

