// A problem: a board, a start position and a set of finish positions, checked for
// feasibility before any search, with the symmetries, pagoda functions and engine input.
import { BitpuzzleError, badInput, describeValue } from '../errors.js';
import { checkKeys } from '../wasm/options.js';
import { builtinBoard, checkBoard, holeIndex, parseBoard, readPosition, BOARD_NAMES, type Board, type Geometry } from './board.js';

/** A peg solitaire problem as plain data: a board, a start and a finish. */
export interface PegsInput {
  /** A built-in board's name, a picture (its pegs are the default start), or a parsed Board. */
  board?: string | Board;
  /** Geometry of a picture: guessed when not given. */
  geometry?: Geometry;
  /** Holes left empty on the full board (names), or a picture of the start. Default: the board's picture. */
  start?: string | string[];
  /**
   * One peg at this hole, 'any' (one peg anywhere), or a picture. Default: one peg in the
   * hole the start leaves empty when it leaves exactly one, else 'any'.
   */
  finish?: string;
}

/** A checked problem, made by toProblem. */
export interface PegsProblem {
  /** The board. */
  board: Board;
  /** The start position: bit i set when hole i has a peg. */
  start: bigint;
  /** Every position that counts as finished (one when a hole or a picture is given). */
  finishes: bigint[];
  /** The symmetries of the board that keep the start and the set of finishes. */
  symmetries: number[][];
  /** Pagoda functions: weights per hole and the least value a hopeful position has. */
  pagodas: Array<{
    /** A weight per hole (index as in `board.holes`). */
    weights: number[];
    /** The finish's weight: a position worth less cannot reach it. */
    need: number;
  }>;
}

const isPicture = (text: string): boolean => /\n/.test(text) || /^[oO.# \t]+$/.test(text);

/** A board from a built-in name, a picture or a Board (checked); undefined is the English board. */
export function toBoard(input: string | Board | undefined, geometry?: Geometry): Board {
  if (input === undefined) return builtinBoard('english')!;
  if (typeof input === 'object' && input !== null) return checkBoard(input);
  if (typeof input !== 'string') throw badInput(`board must be a built-in name, a picture or a board, got ${describeValue(input)}`);
  const builtin = builtinBoard(input.trim());
  if (builtin) return builtin;
  if (!isPicture(input)) {
    throw badInput(`unknown board ${describeValue(input)}: use one of ${BOARD_NAMES.join(', ')} or draw one`);
  }
  return parseBoard(input, { geometry });
}

const bit = (i: number): bigint => 1n << BigInt(i);
const popcount = (x: bigint): number => x.toString(2).replace(/0/g, '').length;
export const fullMask = (board: Board): bigint => bit(board.holes.length) - 1n;

/** The board and the start of a problem, before its finish is looked at. */
export function boardAndStart(input: PegsInput | string): { board: Board; start: bigint } {
  // A string alone is the board: a built-in name or a picture, with its default start and finish.
  if (typeof input === 'string') input = { board: input };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badInput(`a pegs problem is a board name, a picture, or { board, start, finish }, got ${describeValue(input)}`);
  }
  checkKeys(input, ['board', 'geometry', 'start', 'finish'], 'a pegs problem');
  if (input.start !== undefined && typeof input.start !== 'string' && !Array.isArray(input.start)) {
    throw badInput(`start must be hole names or a picture, got ${describeValue(input.start)}`);
  }
  const board = toBoard(input.board, input.geometry);
  const full = fullMask(board);
  let start: bigint;
  if (input.start === undefined) start = board.picture;
  else if (Array.isArray(input.start) || !isPicture(input.start)) {
    const names = Array.isArray(input.start) ? input.start : input.start.split(/[\s,]+/).filter(Boolean);
    if (names.length === 0) throw badInput('start names no hole');
    start = full;
    for (const name of names) start &= ~bit(holeIndex(board, name));
  } else start = readPosition(board, input.start);
  if (start === 0n) throw badInput('the start has no pegs');
  if (start === full) throw badInput('the start has no empty hole, so no jump is possible');
  return { board, start };
}

/** Problems toProblem made: the only PegsProblem objects passed through unchecked. */
const made = new WeakSet<PegsProblem>();

export function markProblem(problem: PegsProblem): PegsProblem {
  made.add(problem);
  return problem;
}

/**
 * Checks a problem and finds its finishes, symmetries and pagoda functions; a problem made
 * here passes through unchanged. UNSOLVABLE (with the reason) when every finish has more pegs
 * than the start or lies in another position class.
 */
export function toProblem(input: PegsInput | PegsProblem | string): PegsProblem {
  if (typeof input === 'object' && input !== null && made.has(input as PegsProblem)) return input as PegsProblem;
  if (typeof input === 'object' && input !== null && 'finishes' in input) {
    throw badInput('a pegs problem object must come from pegs.toProblem (or give { board, start, finish })');
  }
  if (typeof input === 'string') input = { board: input };
  const { board, start } = boardAndStart(input as PegsInput);
  const full = fullMask(board);

  let finishes: bigint[];
  const finish = (input as PegsInput).finish ?? (popcount(full & ~start) === 1 ? board.holes[bitIndex(full & ~start)].name : 'any');
  if (typeof finish !== 'string') throw badInput('finish must be a hole name, "any" or a picture');
  if (finish.trim().toLowerCase() === 'any') finishes = board.holes.map((_, i) => bit(i));
  else if (isPicture(finish)) finishes = [readPosition(board, finish)];
  else finishes = [bit(holeIndex(board, finish))];
  if (finishes[0] === 0n) throw badInput('the finish has no pegs');

  finishes = feasibleFinishes(board, start, finishes);
  const symmetries = board.symmetries.filter((perm) => permute(perm, start) === start && keepsSet(perm, finishes));
  return markProblem({ board, start, finishes, symmetries, pagodas: pagodasFor(board, finishes) });
}

function bitIndex(x: bigint): number {
  return x.toString(2).length - 1;
}

export function permute(perm: number[], position: bigint): bigint {
  let out = 0n;
  perm.forEach((to, from) => {
    if ((position >> BigInt(from)) & 1n) out |= bit(to);
  });
  return out;
}

function keepsSet(perm: number[], positions: bigint[]): boolean {
  const set = new Set(positions);
  return positions.every((p) => set.has(permute(perm, p)));
}

/**
 * Keeps the finishes in the start's position class and throws UNSOLVABLE with the reason
 * when none is. A jump flips three holes, so over GF(2) every reachable position is the
 * start plus a sum of jump vectors; a set of holes meeting every jump in 0 or 2 holes keeps
 * the parity of its pegs, and one whose parity differs at start and finish proves it.
 */
export function feasibleFinishes(board: Board, start: bigint, finishes: bigint[]): bigint[] {
  const startPegs = popcount(start);
  const fewer = finishes.filter((f) => popcount(f) <= startPegs);
  if (fewer.length === 0) {
    throw new BitpuzzleError('UNSOLVABLE', `the finish has ${popcount(finishes[0])} pegs and the start only ${startPegs}: a jump removes a peg`);
  }
  const basis = jumpBasis(board);
  const ok = fewer.filter((f) => reduce(basis, start ^ f) === 0n);
  if (ok.length > 0) return ok;
  const witness = invariantSet(board, basis, start ^ fewer[0]);
  const names = board.holes.filter((_, i) => (witness >> BigInt(i)) & 1n).map((h) => h.name);
  const parity = (x: bigint): string => (popcount(x & witness) % 2 ? 'odd' : 'even');
  const which = fewer.length === 1 ? 'the finish' : 'any finish with one peg';
  throw new BitpuzzleError(
    'UNSOLVABLE',
    `${which} is in another position class than the start: every jump changes the number of pegs on the holes ${names.join(' ')} by 0 or 2, ` +
      `and that number is ${parity(start)} at the start but ${parity(fewer[0])} at the finish`,
  );
}

/** Row echelon basis of the jump vectors over GF(2), by leading bit. */
function jumpBasis(board: Board): Map<number, bigint> {
  const basis = new Map<number, bigint>();
  for (const [f, o, t] of board.jumps) {
    let v = bit(f) | bit(o) | bit(t);
    while (v !== 0n) {
      const lead = bitIndex(v);
      const row = basis.get(lead);
      if (!row) {
        basis.set(lead, v);
        break;
      }
      v ^= row;
    }
  }
  return basis;
}

function reduce(basis: Map<number, bigint>, v: bigint): bigint {
  while (v !== 0n) {
    const row = basis.get(bitIndex(v));
    if (!row) return v;
    v ^= row;
  }
  return 0n;
}

/** A set of holes meeting every jump in an even number of holes and `diff` in an odd number. */
function invariantSet(board: Board, basis: Map<number, bigint>, diff: bigint): bigint {
  // Fully reduce the basis, then each free hole gives a vector orthogonal to every jump.
  const rows = [...basis.entries()].sort((a, b) => b[0] - a[0]);
  for (let i = 0; i < rows.length; i++) {
    for (let k = 0; k < rows.length; k++) {
      if (k !== i && (rows[k][1] >> BigInt(rows[i][0])) & 1n) rows[k][1] ^= rows[i][1];
    }
  }
  let best = 0n;
  for (let free = 0; free < board.holes.length; free++) {
    if (basis.has(free)) continue;
    let w = bit(free);
    for (const [lead, row] of rows) if ((row >> BigInt(free)) & 1n) w |= bit(lead);
    if (popcount(w & diff) % 2 === 1 && (best === 0n || popcount(w) < popcount(best))) best = w;
  }
  return best;
}

/**
 * Pagoda functions: a weight per hole with w(from) + w(over) ≥ w(to) for every jump, so that
 * the weighted sum of a position's pegs never grows. Weights Fib(D − d(h, t)) for the graph distance d to a finish peg t (D = the
 * largest distance + 2) are one: along a jump line distances change by at most one, and
 * Fib(n−2) + Fib(n−1) = Fib(n). Summed over the finish pegs, a position worth less than
 * the finish cannot reach it. Only defined for a single finish position.
 */
export function pagodasFor(board: Board, finishes: bigint[]): Array<{ weights: number[]; need: number }> {
  if (finishes.length !== 1) return [];
  const n = board.holes.length;
  const near: number[][] = Array.from({ length: n }, () => []);
  for (const [f, o, t] of board.jumps) {
    near[f].push(o);
    near[o].push(t);
  }
  const weights = new Array<number>(n).fill(0);
  for (let t = 0; t < n; t++) {
    if (!((finishes[0] >> BigInt(t)) & 1n)) continue;
    const dist = new Array<number>(n).fill(-1);
    dist[t] = 0;
    const queue = [t];
    for (let q = 0; q < queue.length; q++) {
      for (const m of near[queue[q]]) if (dist[m] < 0) ((dist[m] = dist[queue[q]] + 1), queue.push(m));
    }
    const D = Math.max(...dist) + 2;
    const fib = [0, 1];
    while (fib.length <= D) fib.push(fib[fib.length - 1] + fib[fib.length - 2]);
    dist.forEach((d, h) => {
      if (d >= 0) weights[h] += fib[D - d];
    });
  }
  let need = 0;
  for (let h = 0; h < n; h++) if ((finishes[0] >> BigInt(h)) & 1n) need += weights[h];
  if (need > 2 ** 24) return [];
  return [{ weights, need }];
}

/** The engine's input words (see assembly/pegs/board.ts), with the jumps in the given order. */
export function engineInput(problem: PegsProblem, jumpOrder: number[] = problem.board.jumps.map((_, i) => i)): Uint32Array {
  const { board, symmetries, pagodas, finishes } = problem;
  const n = board.holes.length;
  const words: number[] = [n, jumpOrder.length, symmetries.length, pagodas.length, finishes.length];
  for (const j of jumpOrder) words.push(...board.jumps[j]);
  for (const perm of symmetries) words.push(...perm);
  for (const p of pagodas) words.push(...p.weights, p.need);
  const half = (x: bigint): number[] => [Number(x & 0xffffffffn), Number(x >> 32n)];
  words.push(...half(problem.start));
  for (const f of finishes) words.push(...half(f));
  return Uint32Array.from(words);
}

/** The problem played backwards: start at the finish's complement, finish at the start's. */
export function reversedProblem(problem: PegsProblem): PegsProblem | null {
  if (problem.finishes.length !== 1) return null;
  const full = fullMask(problem.board);
  return {
    ...problem,
    start: full & ~problem.finishes[0],
    finishes: [full & ~problem.start],
    pagodas: pagodasFor(problem.board, [full & ~problem.start]),
  };
}

export { popcount };
