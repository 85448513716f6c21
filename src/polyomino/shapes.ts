// Polyomino geometry: cells as [x, y] (x to the right, y down), the 8 symmetries of the
// square grid, normal forms, orientations and connectivity; and the same for polycubes, cells
// as [x, y, z] (z down through the layers) under the 48 symmetries of the cube.

import { badInput, describeValue, isDenseArray } from '../errors.js';

/** A cell of a plane piece or region. */
export type Cell2 = readonly [number, number];
/** A cell of a piece or region in space: z is the layer, 0 at the top. */
export type Cell3 = readonly [number, number, number];
/** A cell: [x, y] on a plane, [x, y, z] in space. */
export type Cell = Cell2 | Cell3;

/** True when the cells are [x, y, z] triples. */
export function isSpatial(cells: readonly Cell[]): boolean {
  return cells.length > 0 && cells[0].length === 3;
}

/** Checks a list of [x, y] or [x, y, z] cells (integers within ±1024, all of one kind): BAD_INPUT naming `what` otherwise. */
export function checkCells(cells: unknown, what: string): asserts cells is Cell[] {
  if (!isDenseArray(cells)) throw badInput(`${what}: cells must be a list of [x, y] or [x, y, z] integer lists, got ${describeValue(cells)}`);
  if (cells.length > MAX_PIECE_CELLS) throw badInput(`${what}: at most ${MAX_PIECE_CELLS} cells, got ${cells.length}`);
  const size = Array.isArray(cells[0]) && cells[0].length === 3 ? 3 : 2;
  for (const cell of cells) {
    if (!Array.isArray(cell) || cell.length !== size || !cell.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) <= 1024)) {
      throw badInput(`${what}: cells must be ${size === 3 ? '[x, y, z] integer triples' : '[x, y] integer pairs'} (all of one kind), got ${describeValue(cell)}`);
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
export const DIRECTIONS: readonly Cell2[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

export function transformCell(cell: Cell2, t: number): [number, number] {
  const [a, b, c, d] = TRANSFORMS[t];
  return [a * cell[0] + b * cell[1], c * cell[0] + d * cell[1]];
}

/** The direction a transform turns direction `d` into. */
export function transformDirection(d: number, t: number): number {
  const [x, y] = transformCell(DIRECTIONS[d], t);
  return DIRECTIONS.findIndex(([dx, dy]) => dx === x && dy === y);
}

/** Cells moved so that the smallest coordinates are 0, sorted by layer, then row, then column. */
export function normalize<C extends Cell>(cells: readonly C[]): C[] {
  const n = cells.length > 0 ? cells[0].length : 2;
  const mins = [0, 1, 2].slice(0, n).map((i) => Math.min(...cells.map((c) => c[i]!)));
  return cells
    .map((c) => c.map((v, i) => v - mins[i]) as unknown as C)
    .sort((p, q) => (n === 3 ? p[2]! - q[2]! : 0) || p[1] - q[1] || p[0] - q[0]);
}

export function shapeKey(cells: readonly Cell[]): string {
  return normalize(cells)
    .map((c) => c.join(','))
    .join(' ');
}

/**
 * The 48 symmetries of the cube as signed permutations: coordinate i of the image is
 * sign[i] × coordinate perm[i]. The identity first, the 24 rotations (0..23), then the 24
 * rotations combined with a mirror (24..47).
 */
export const TRANSFORMS3: readonly { perm: readonly [number, number, number]; sign: readonly [number, number, number] }[] = (() => {
  const perms: [number, number, number][] = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [1, 0, 2], [0, 2, 1], [2, 1, 0]];
  const all: { perm: [number, number, number]; sign: [number, number, number]; det: number }[] = [];
  perms.forEach((perm, p) => {
    for (let bits = 0; bits < 8; bits++) {
      const sign = [0, 1, 2].map((i) => ((bits >> i) & 1 ? -1 : 1)) as [number, number, number];
      all.push({ perm, sign, det: (p < 3 ? 1 : -1) * sign[0] * sign[1] * sign[2] });
    }
  });
  return [...all.filter((t) => t.det > 0), ...all.filter((t) => t.det < 0)].map(({ perm, sign }) => ({ perm, sign }));
})();
/** Transforms 0..23 are the rotations: what a one-sided piece in space may do. */
export const ROTATIONS3 = 24;

/** Neighbour directions in space, in the order the engines use: up, right, down, left (as on a plane), above, below. */
export const DIRECTIONS3: readonly Cell3[] = [
  [0, -1, 0],
  [1, 0, 0],
  [0, 1, 0],
  [-1, 0, 0],
  [0, 0, -1],
  [0, 0, 1],
];

export function transformCell3(cell: Cell3, t: number): [number, number, number] {
  const { perm, sign } = TRANSFORMS3[t];
  return [sign[0] * cell[perm[0]], sign[1] * cell[perm[1]], sign[2] * cell[perm[2]]];
}

/** How many symmetries the grid of these cells has (8 on a plane, 48 in space), and how many are rotations. */
export function transformCount(spatial: boolean): { all: number; rotations: number } {
  return spatial ? { all: TRANSFORMS3.length, rotations: ROTATIONS3 } : { all: TRANSFORMS.length, rotations: ROTATIONS };
}

/** Transform `t` of a plane cell (TRANSFORMS) or a cell in space (TRANSFORMS3). */
export function transformAny<C extends Cell>(cell: C, t: number): C {
  return (cell.length === 3 ? transformCell3(cell as Cell3, t) : transformCell(cell as Cell2, t)) as unknown as C;
}

/** The neighbour directions of the grid: 4 on a plane, 6 in space. */
export function directionsOf(spatial: boolean): readonly Cell[] {
  return spatial ? DIRECTIONS3 : DIRECTIONS;
}

/** The direction transform `t` turns direction `d` into (on a plane or in space). */
export function transformDirectionAny(d: number, t: number, spatial: boolean): number {
  if (!spatial) return transformDirection(d, t);
  const [x, y, z] = transformCell3(DIRECTIONS3[d], t);
  return DIRECTIONS3.findIndex(([dx, dy, dz]) => dx === x && dy === y && dz === z);
}

/** A plane piece set in space: [x, y] becomes [x, y, 0]. */
export function lift(cells: readonly Cell[]): Cell3[] {
  return cells.map((c) => (c.length === 3 ? c : [c[0], c[1], 0]));
}

/**
 * The distinct fixed shapes a piece takes: under rotations only, or reflections too. On a
 * plane: 4 rotations, 8 with mirror images; in space: 24 rotations, 48 with mirror images.
 */
export function orientations<C extends Cell>(cells: readonly C[], oneSided: boolean): C[][] {
  checkCells(cells, 'orientations');
  if (cells.length === 0) throw badInput('orientations: a piece has at least one cell');
  if (oneSided !== undefined && typeof oneSided !== 'boolean') throw badInput(`oneSided must be true or false, got ${describeValue(oneSided)}`);
  const count = transformCount(isSpatial(cells));
  const seen = new Map<string, C[]>();
  for (let t = 0; t < (oneSided ? count.rotations : count.all); t++) {
    const shape = normalize(cells.map((c) => transformAny(c, t)));
    const key = shapeKey(shape);
    if (!seen.has(key)) seen.set(key, shape);
  }
  return [...seen.values()];
}

/** The key shared by all images of a shape (its smallest image key); rotations only with `oneSided`. */
export function freeKey(cells: readonly Cell[], oneSided = false): string {
  return orientations(cells, oneSided)
    .map(shapeKey)
    .sort()[0];
}

export function isConnected(cells: readonly Cell[]): boolean {
  if (cells.length === 0) return false;
  const keys = new Set(cells.map((c) => c.join(',')));
  const reached = new Set([cells[0].join(',')]);
  const queue: Cell[] = [cells[0]];
  const directions = directionsOf(isSpatial(cells));
  while (queue.length > 0) {
    const cell = queue.pop()!;
    for (const d of directions) {
      const next = cell.map((v, i) => v + d[i]) as unknown as Cell;
      const key = next.join(',');
      if (keys.has(key) && !reached.has(key)) {
        reached.add(key);
        queue.push(next);
      }
    }
  }
  return reached.size === keys.size;
}

/** Every free polyomino of `size` cells, in order of their keys (grown cell by cell). */
export function freePolyominoes(size: number): Cell2[][] {
  return grow([[0, 0]], size, false) as Cell2[][];
}

/** Every polycube of `size` cells up to rotations (mirror images distinct), or up to rotations and mirrors. */
export function polycubes(size: number, rotationsOnly: boolean): Cell3[][] {
  return grow([[0, 0, 0]], size, rotationsOnly) as Cell3[][];
}

function grow(seed: Cell[], size: number, oneSided: boolean): Cell[][] {
  let level = new Map<string, Cell[]>([[shapeKey(seed), seed]]);
  const directions = directionsOf(isSpatial(seed));
  for (let n = 2; n <= size; n++) {
    const next = new Map<string, Cell[]>();
    for (const shape of level.values()) {
      const taken = new Set(shape.map((c) => c.join(',')));
      for (const cell of shape) {
        for (const d of directions) {
          const added = cell.map((v, i) => v + d[i]) as unknown as Cell;
          if (taken.has(added.join(','))) continue;
          const grown = normalize([...shape, added]);
          const key = freeKey(grown, oneSided);
          if (!next.has(key)) next.set(key, grown);
        }
      }
    }
    level = next;
  }
  return [...level.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, shape]) => shape);
}

/** A shape as a small picture, one character per cell (layers in space separated by a line `--`). */
export function shapePicture(cells: readonly Cell[], char: string): string {
  const shape = normalize(cells);
  const width = Math.max(...shape.map((c) => c[0])) + 1;
  const height = Math.max(...shape.map((c) => c[1])) + 1;
  const depth = isSpatial(shape) ? Math.max(...shape.map((c) => c[2]!)) + 1 : 1;
  const layers = Array.from({ length: depth }, () => Array.from({ length: height }, () => new Array<string>(width).fill('.')));
  for (const c of shape) layers[c[2] ?? 0][c[1]][c[0]] = char;
  return layers.map((rows) => rows.map((row) => row.join('')).join('\n')).join('\n--\n');
}
