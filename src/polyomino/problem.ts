// A tiling problem made ready for the engines: cells numbered in scan order, every
// placement of every piece, the symmetries, the root parts, and the engine's input words.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkKeys } from '../wasm/options.js';
import { runSteps, runStepsSliced, type Steps } from '../wasm/protocol.js';
import { checkPiece, checkPieceSet, parsePieces, pieceSet, piecesFromSpecs, PIECE_SETS, type Piece, type PieceSpec } from './pieces.js';
import { parseRegion, regionPicture, type Region, type RegionInput } from './region.js';
import { directionsOf, isSpatial, lift, orientations, type Cell } from './shapes.js';
import { problemSymmetries, rootParts, type Part, type Symmetry } from './symmetry.js';

/** Pieces: a built-in set name, piece-file text, or a list of sets, texts and piece objects. */
export type PiecesInput = string | readonly (string | PieceSpec)[];

/** A tiling problem: a region to fill and the pieces to fill it with. */
export interface PolyominoProblem {
  /**
   * "WxH", a picture ('.' cells, '#' or space outside), or { width, height }; in space
   * "WxHxD", a picture of layers from the top separated by a line `--`, or { width, height, depth }.
   */
  region: RegionInput;
  /** Default: "pentominoes". */
  pieces?: PiecesInput;
}

/** One way to put one piece on the region. */
export interface Placement {
  /** Index into Prepared.pieces. */
  kind: number;
  /** Index into the piece's fixed shapes, as listed by orientations(cells, oneSided). */
  orientation: number;
  /** Cell numbers, ascending. */
  cells: number[];
}

/** A problem made ready for the engines, by prepare(). */
export interface Prepared {
  /** The region to fill. */
  region: Region;
  /** The pieces in search order (fewest placements first). */
  pieces: Piece[];
  /** [x, y] (in space [x, y, z]) of each cell number. */
  cellXY: Cell[];
  /** Every placement of every piece; the engines name them by index. */
  placements: Placement[];
  /** The problem's symmetries other than the identity. */
  symmetries: Symmetry[];
  /** The parts that count every solution once (or weighted). */
  parts: Part[];
  /** Why the problem has no solution, found without searching; null if not known. */
  reason: string | null;
  /** The engines' input (see assembly/polyomino/polyomino.ts). */
  input: Uint32Array;
  /** A plain-data form of the problem, enough to prepare it again in a worker. */
  spec: ProblemSpec;
}

/** The problem as plain data: the region picture and the validated pieces. */
export interface ProblemSpec {
  /** The region as a picture ('.' cells, '#' outside; layers separated by `--`). */
  region: string;
  /** The pieces, checked. */
  pieces: Piece[];
}

/** Components of fewer cells than this next to a new placement are checked for fit. */
function floodLimit(pieces: readonly Piece[]): number {
  const largest = Math.max(...pieces.map((p) => p.cells.length));
  return Math.min(64, Math.max(2, 3 * largest));
}

/** The pieces of any accepted input (default: the pentominoes), checked as a set. */
export function resolvePieces(input: PiecesInput | undefined): Piece[] {
  const items = input === undefined ? ['pentominoes'] : typeof input === 'string' ? [input] : input;
  if (!isDenseArray(items)) throw badInput(`pieces must be a set name, piece text, or a list of them and piece objects, got ${describeValue(input)}`);
  const pieces: Piece[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const name = item.trim();
      // A one-line word of several letters cannot be a picture (one character per piece): a set name.
      const word = /^[a-z][a-z-]*$/.test(name) && new Set(name).size > 1;
      if (PIECE_SETS.includes(name) || word) pieces.push(...pieceSet(name)); // pieceSet names the known sets
      else pieces.push(...parsePieces(item));
    } else {
      pieces.push(...piecesFromSpecs([item]));
    }
  }
  checkPieceSet(pieces);
  return pieces;
}

const cache = new Map<string, Prepared>();
/** Problems made by prepare(): the only ones decode() takes. */
const madeHere = new WeakSet<Prepared>();
/** The problem of each spec prepare() made (frozen), so that a part run on this thread skips the checks. */
const bySpec = new WeakMap<object, Prepared>();

/** Checks that a value is a problem prepare() made. */
export function checkPrepared(value: unknown): Prepared {
  if (typeof value !== 'object' || value === null || !madeHere.has(value as Prepared)) {
    throw badInput(`expected a problem made by prepare(), got ${describeValue(value)}`);
  }
  return value as Prepared;
}

/** Prepares a problem (cached: the last few problems are kept). */
export function prepare(problem: PolyominoProblem | ProblemSpec): Prepared {
  return runSteps(prepareSteps(problem));
}

/** prepare() in slices of a few milliseconds (a large region's placements take a while), stopped by `signal`. */
export function prepareSliced(problem: PolyominoProblem | ProblemSpec, signal?: AbortSignal): Promise<Prepared> {
  return runStepsSliced(prepareSteps(problem), signal);
}

function* prepareSteps(problem: PolyominoProblem | ProblemSpec): Steps<Prepared> {
  if (typeof problem !== 'object' || problem === null || Array.isArray(problem)) {
    throw badInput(`a problem is { region, pieces }, got ${describeValue(problem)}`);
  }
  const known = bySpec.get(problem);
  if (known) return known;
  checkKeys(problem, ['region', 'pieces'], 'a polyomino problem');
  const spec = toSpec(problem);
  const key = JSON.stringify(spec);
  let prepared = cache.get(key);
  if (!prepared) {
    prepared = yield* buildSteps(spec);
    madeHere.add(prepared);
    for (const piece of spec.pieces) {
      piece.cells.forEach((cell) => Object.freeze(cell));
      Object.freeze(piece.cells);
      Object.freeze(piece);
    }
    Object.freeze(spec.pieces);
    bySpec.set(Object.freeze(spec), prepared);
    if (cache.size >= 8) cache.delete(cache.keys().next().value!);
    cache.set(key, prepared);
  }
  return prepared;
}

function toSpec(problem: PolyominoProblem | ProblemSpec): ProblemSpec {
  const region = parseRegion(problem.region);
  let pieces: Piece[];
  if (isDenseArray(problem.pieces) && problem.pieces.length > 0 && problem.pieces.every(isPiece)) {
    // Pieces as pieceSet() returns them (or a spec sent to a worker): checked all the same.
    pieces = (problem.pieces as Piece[]).map(checkPiece);
    checkPieceSet(pieces);
  } else pieces = resolvePieces(problem.pieces as PiecesInput);
  if (region.depth !== undefined) {
    // In space every piece is a polycube: plane pieces lie flat and may turn over.
    if (!pieces.every((p) => isSpatial(p.cells))) {
      pieces = pieces.map((p) => ({ ...p, cells: lift(p.cells) }));
      checkPieceSet(pieces);
    }
  } else {
    const spatial = pieces.find((p) => isSpatial(p.cells));
    if (spatial) {
      throw badInput(`piece "${spatial.name}" is a piece in space; the region is flat (give a box like 3x4x5, or layers separated by a line --)`);
    }
  }
  return { region: regionPicture(region), pieces };
}

function isPiece(value: unknown): value is Piece {
  return typeof value === 'object' && value !== null && Array.isArray((value as Piece).cells) && typeof (value as Piece).atMost === 'boolean';
}

function* buildSteps(spec: ProblemSpec): Steps<Prepared> {
  const region = parseRegion(spec.region);
  const { width, height } = region;
  const depth = region.depth ?? 1;
  const spatial = region.depth !== undefined;
  const directions = directionsOf(spatial);
  const extents = [width, height, depth];
  // Scan along the short sides: the search fills the first empty cell, and a short frontier
  // isolates small pockets early. On a plane, column by column when the region is wide; in
  // space, the shortest side fastest, the longest slowest.
  let scan: Cell[];
  if (!spatial) scan = width > height ? [...region.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]) : region.cells;
  else {
    const axes = [0, 1, 2].sort((a, b) => extents[b] - extents[a] || b - a);
    scan = [...region.cells].sort((a, b) => a[axes[0]]! - b[axes[0]]! || a[axes[1]]! - b[axes[1]]! || a[axes[2]]! - b[axes[2]]!);
  }
  const cellIndex = new Int32Array(width * height * depth).fill(-1);
  const inside = (c: Cell): boolean => c[0] >= 0 && c[1] >= 0 && c[0] < width && c[1] < height && (c[2] ?? 0) >= 0 && (c[2] ?? 0) < depth;
  const slot = (c: Cell): number => ((c[2] ?? 0) * height + c[1]) * width + c[0];
  scan.forEach((c, i) => (cellIndex[slot(c)] = i));
  const at = (c: Cell): number => (inside(c) ? cellIndex[slot(c)] : -1);
  const D = directions.length;
  const neighbours = new Int32Array(scan.length * D);
  scan.forEach((c, i) => directions.forEach((d, k) => (neighbours[i * D + k] = at(c.map((v, j) => v + d[j]) as unknown as Cell))));

  // Placements of each piece; then the pieces with fewest placements first.
  const usable = spec.pieces.filter((p) => p.count > 0);
  const found: { piece: Piece; list: { orientation: number; cells: number[] }[] }[] = [];
  for (const piece of usable) {
    const shapes = orientations(piece.cells, piece.oneSided);
    const list: { orientation: number; cells: number[] }[] = [];
    for (const [orientation, shape] of shapes.entries()) {
      yield; // an orientation's placements: on a large region, a step
      // Each cell's slot in the box at offset 0: an offset inside the box adds to every slot alike.
      const slots = shape.map(slot);
      const size = [0, 1, 2].map((i) => Math.max(...shape.map((c) => c[i] ?? 0)) + 1);
      for (let z = 0; z + size[2] <= depth; z++) {
        for (let y = 0; y + size[1] <= height; y++) {
          for (let x = 0; x + size[0] <= width; x++) {
            const shift = slot([x, y, z]);
            const cells = slots.map((s) => cellIndex[s + shift]);
            if (cells.every((c) => c >= 0)) list.push({ orientation, cells: cells.sort((a, b) => a - b) });
          }
        }
      }
    }
    found.push({ piece, list });
  }
  const order = found.map((_, i) => i).sort((a, b) => found[a].list.length - found[b].list.length || a - b);
  const pieces = order.map((i) => found[i].piece);
  const placements: Placement[] = order.flatMap((i, kind) => found[i].list.map((p) => ({ kind, ...p })));
  yield;

  const symmetries = yield* problemSymmetries(scan, at, pieces);
  yield;
  const reason = impossibility(scan, neighbours, D, pieces, order.map((i) => found[i].list.length));
  yield;
  const parts = reason ? [] : rootParts(pieces, placements, symmetries);
  const input = yield* engineInput(scan.length, pieces, neighbours, D, placements, symmetries);
  return {
    region,
    pieces,
    cellXY: scan,
    placements,
    symmetries,
    parts,
    reason,
    input,
    spec,
  };
}

/** Sums of piece areas reachable with each piece used from `min` to `count` times. */
function areaSums(pieces: readonly Piece[], limit: number, mandatory: boolean): Uint8Array {
  const sums = new Uint8Array(limit + 1);
  sums[0] = 1;
  for (const piece of pieces) {
    const area = piece.cells.length;
    const least = mandatory && !piece.atMost ? piece.count : 0;
    for (let use = 0; use < piece.count; use++) {
      const next = new Uint8Array(limit + 1);
      for (let s = 0; s + area <= limit; s++) if (sums[s]) next[s + area] = 1;
      if (use >= least) for (let s = 0; s <= limit; s++) next[s] |= sums[s];
      sums.set(next);
    }
  }
  return sums;
}

/** A reason the problem cannot be solved that needs no search, or null. */
function impossibility(
  cells: readonly Cell[],
  neighbours: Int32Array,
  directions: number,
  pieces: readonly Piece[],
  placementCounts: readonly number[],
): string | null {
  const area = cells.length;
  const needed = pieces.reduce((sum, p) => sum + (p.atMost ? 0 : p.count * p.cells.length), 0);
  const most = pieces.reduce((sum, p) => sum + p.count * p.cells.length, 0);
  if (!areaSums(pieces, area, true)[area]) {
    const cover = needed === most ? `${needed} cells` : `from ${needed} to ${most} cells, but never exactly ${area}`;
    return `the pieces cover ${cover}; the region has ${area}`;
  }
  const missing = pieces.findIndex((p, k) => !p.atMost && placementCounts[k] === 0);
  if (missing >= 0) return `piece "${pieces[missing].name}" fits nowhere in the region`;
  // Each connected part of the region needs pieces whose areas add up to its size.
  const any = areaSums(pieces, area, false);
  const seen = new Uint8Array(area);
  for (let start = 0; start < area; start++) {
    if (seen[start]) continue;
    let size = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const c = stack.pop()!;
      size++;
      for (let d = 0; d < directions; d++) {
        const n = neighbours[c * directions + d];
        if (n >= 0 && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    if (!any[size]) {
      const [x, y, z] = cells[start];
      const layer = z === undefined ? '' : `, layer ${z + 1}`;
      return `the part of the region at column ${x + 1}, row ${y + 1}${layer} has ${size} cells, which no choice of the pieces covers`;
    }
  }
  return null;
}

function* engineInput(
  cellCount: number,
  pieces: readonly Piece[],
  neighbours: Int32Array,
  directions: number,
  placements: readonly Placement[],
  symmetries: readonly Symmetry[],
): Steps<Uint32Array> {
  const perPlacement = Math.max(1, ...pieces.map((p) => p.cells.length));
  const symWords = cellCount + pieces.length + directions;
  const header = 7;
  const words = header + pieces.length * 3 + cellCount * directions + placements.length * (perPlacement + 1) + symmetries.length * symWords;
  const input = new Uint32Array(words);
  input.set([cellCount, pieces.length, placements.length, symmetries.length, perPlacement, floodLimit(pieces), directions]);
  let at = header;
  for (const p of pieces) {
    input.set([p.cells.length, p.count, p.atMost ? 0 : 1], at);
    at += 3;
  }
  input.set(neighbours, at); // -1 becomes 0xffffffff, read back as -1 by the engine
  at += cellCount * directions;
  for (const [i, p] of placements.entries()) {
    if ((i & 0x3fff) === 0) yield; // hundreds of thousands in space: steps
    input[at] = p.kind;
    input.fill(0xffffffff, at + 1, at + 1 + perPlacement);
    for (let k = 0; k < p.cells.length; k++) input[at + 1 + k] = p.cells[k];
    at += perPlacement + 1;
  }
  for (const s of symmetries) {
    input.set(s.cellImage, at);
    input.set(s.pieceImage, at + cellCount);
    input.set(s.directionImage, at + cellCount + pieces.length);
    at += symWords;
  }
  return input;
}

/** The problem as an exact-cover matrix, for general solvers. */
export interface ExactCoverMatrix {
  /** Primary columns: each covered exactly once (the cells, then the pieces used exactly once). */
  columns: string[];
  /** Secondary columns: covered at most once (pieces used at most once). */
  secondary: string[];
  /** One row per placement: the names of the columns it covers. */
  rows: string[][];
}

/**
 * The exact-cover matrix of a problem whose pieces are each used once (or at most once):
 * a column per cell (`x,y`) and per piece (its name), a row per placement.
 */
export function toExactCover(problem: PolyominoProblem): ExactCoverMatrix {
  const prepared = prepare(problem);
  const multiple = prepared.pieces.find((p) => p.count !== 1);
  if (multiple) throw badInput(`exact cover needs each piece once; "${multiple.name}" has count ${multiple.count}`);
  const cellName = (c: number): string => prepared.cellXY[c].join(',');
  return {
    columns: [...prepared.cellXY.map((_, c) => cellName(c)), ...prepared.pieces.filter((p) => !p.atMost).map((p) => p.name)],
    secondary: prepared.pieces.filter((p) => p.atMost).map((p) => p.name),
    rows: prepared.placements.map((p) => [prepared.pieces[p.kind].name, ...p.cells.map(cellName)]),
  };
}
