// Polyomino geometry: cells as [x, y] (x to the right, y down), the 8 symmetries of the
// square grid, normal forms, orientations and connectivity.

import { badInput, describeValue, isDenseArray } from '../errors.js';

export type Cell = readonly [number, number];

/** Checks a list of [x, y] cells (integers within ±1024): BAD_INPUT naming `what` otherwise. */
export function checkCells(cells: unknown, what: string): asserts cells is Cell[] {
  if (!isDenseArray(cells)) throw badInput(`${what}: cells must be a list of [x, y] integer pairs, got ${describeValue(cells)}`);
  if (cells.length > MAX_PIECE_CELLS) throw badInput(`${what}: at most ${MAX_PIECE_CELLS} cells, got ${cells.length}`);
  for (const cell of cells) {
    if (!Array.isArray(cell) || cell.length !== 2 || !cell.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) <= 1024)) {
      throw badInput(`${what}: cells must be [x, y] integer pairs, got ${describeValue(cell)}`);
    }
  }
}

/** The most cells a piece has (the engines' region limit). */
export const MAX_PIECE_CELLS = 1024;



/** The 8 symmetries of the square grid as matrices [a, b, c, d]: (x, y) → (ax + by, cx + dy). */
export const TRANSFORMS: readonly (readonly [number, number, number, number])[] = [
  [1, 0, 0, 1], // identity
  [0, -1, 1, 0], // quarter turn
  [-1, 0, 0, -1], // half turn
  [0, 1, -1, 0], // three-quarter turn
  [-1, 0, 0, 1], // mirror left-right
  [1, 0, 0, -1], // mirror top-bottom
  [0, 1, 1, 0], // transpose
  [0, -1, -1, 0], // anti-transpose
];
/** Transforms 0..3 are the rotations: what a one-sided piece may do. */
export const ROTATIONS = 4;

/** Neighbour directions in the order the engines use: up, right, down, left. */
export const DIRECTIONS: readonly Cell[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

export function transformCell(cell: Cell, t: number): [number, number] {
  const [a, b, c, d] = TRANSFORMS[t];
  return [a * cell[0] + b * cell[1], c * cell[0] + d * cell[1]];
}

/** The direction a transform turns direction `d` into. */
export function transformDirection(d: number, t: number): number {
  const [x, y] = transformCell(DIRECTIONS[d], t);
  return DIRECTIONS.findIndex(([dx, dy]) => dx === x && dy === y);
}

/** Cells moved so that the smallest x and y are 0, sorted by row then column. */
export function normalize(cells: readonly Cell[]): Cell[] {
  const minX = Math.min(...cells.map((c) => c[0]));
  const minY = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]): Cell => [x - minX, y - minY]).sort((p, q) => p[1] - q[1] || p[0] - q[0]);
}

export function shapeKey(cells: readonly Cell[]): string {
  return normalize(cells)
    .map(([x, y]) => `${x},${y}`)
    .join(' ');
}

/** The distinct fixed shapes a piece takes: under rotations only, or reflections too. */
export function orientations(cells: readonly Cell[], oneSided: boolean): Cell[][] {
  checkCells(cells, 'orientations');
  if (cells.length === 0) throw badInput('orientations: a piece has at least one cell');
  if (oneSided !== undefined && typeof oneSided !== 'boolean') throw badInput(`oneSided must be true or false, got ${describeValue(oneSided)}`);
  const seen = new Map<string, Cell[]>();
  for (let t = 0; t < (oneSided ? ROTATIONS : TRANSFORMS.length); t++) {
    const shape = normalize(cells.map((c) => transformCell(c, t)));
    const key = shapeKey(shape);
    if (!seen.has(key)) seen.set(key, shape);
  }
  return [...seen.values()];
}

/** The key shared by all 8 images of a shape (its smallest image key). */
export function freeKey(cells: readonly Cell[]): string {
  return orientations(cells, false)
    .map(shapeKey)
    .sort()[0];
}

export function isConnected(cells: readonly Cell[]): boolean {
  if (cells.length === 0) return false;
  const keys = new Set(cells.map(([x, y]) => `${x},${y}`));
  const reached = new Set([`${cells[0][0]},${cells[0][1]}`]);
  const queue: Cell[] = [cells[0]];
  while (queue.length > 0) {
    const [x, y] = queue.pop()!;
    for (const [dx, dy] of DIRECTIONS) {
      const key = `${x + dx},${y + dy}`;
      if (keys.has(key) && !reached.has(key)) {
        reached.add(key);
        queue.push([x + dx, y + dy]);
      }
    }
  }
  return reached.size === keys.size;
}

/** Every free polyomino of `size` cells, in order of their keys (grown cell by cell). */
export function freePolyominoes(size: number): Cell[][] {
  let level = new Map<string, Cell[]>([['0,0', [[0, 0]]]]);
  for (let n = 2; n <= size; n++) {
    const next = new Map<string, Cell[]>();
    for (const shape of level.values()) {
      const taken = new Set(shape.map(([x, y]) => `${x},${y}`));
      for (const [x, y] of shape) {
        for (const [dx, dy] of DIRECTIONS) {
          if (taken.has(`${x + dx},${y + dy}`)) continue;
          const grown = normalize([...shape, [x + dx, y + dy]]);
          const key = freeKey(grown);
          if (!next.has(key)) next.set(key, grown);
        }
      }
    }
    level = next;
  }
  return [...level.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, shape]) => shape);
}

/** A shape as a small picture, one character per cell. */
export function shapePicture(cells: readonly Cell[], char: string): string {
  const shape = normalize(cells);
  const width = Math.max(...shape.map((c) => c[0])) + 1;
  const height = Math.max(...shape.map((c) => c[1])) + 1;
  const rows = Array.from({ length: height }, () => new Array<string>(width).fill('.'));
  for (const [x, y] of shape) rows[y][x] = char;
  return rows.map((row) => row.join('')).join('\n');
}
