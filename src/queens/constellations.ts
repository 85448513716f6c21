// Start constellations for counting N-Queens on an empty board (see assembly/queens/constellations.ts):
// the queens of row 0 (column i), row n-1 (column j), column 0 (row k) and column n-1 (row l),
// coded (i << 15) | (j << 10) | (k << 5) | l. The list holds one constellation per class of the
// 8 board symmetries, each in a fixed orientation (see orientationKey), most costly first.
import { runStepsSliced, type Steps } from '../wasm/protocol.js';

/** The smallest board counted by constellations (smaller ones run the row search). */
export const MIN_CONSTELLATION_N = 5;
/** The largest: one u32 per row of the inner board. */
export const MAX_CONSTELLATION_N = 32;

export const codeOf = (i: number, j: number, k: number, l: number): number => (i << 15) | (j << 10) | (k << 5) | l;
const ci = (c: number): number => (c >> 15) & 31;
const cj = (c: number): number => (c >> 10) & 31;
const ck = (c: number): number => (c >> 5) & 31;
const cl = (c: number): number => c & 31;

/** The quarter turn (r, c) → (c, n-1-r) of a constellation. */
export function rot90(n: number, c: number): number {
  return codeOf(n - 1 - ck(c), n - 1 - cl(c), cj(c), ci(c));
}

/** The mirror image left to right. */
function mirror(n: number, c: number): number {
  return codeOf(n - 1 - ci(c), n - 1 - cj(c), cl(c), ck(c));
}

/** Whether c is the smallest code of its 8 images (the one kept of its class). */
function isSmallest(n: number, c: number): boolean {
  let x = c;
  for (let m = 0; m < 2; m++) {
    for (let r = 0; r < 4; r++) {
      if (x < c) return false;
      x = rot90(n, x);
    }
    x = mirror(n, x);
  }
  return true;
}

/** Whether two queens attack each other (the same square, a corner queen named twice, does not). */
function attack(ra: number, ca: number, rb: number, cb: number): boolean {
  if (ra === rb && ca === cb) return false;
  return ra === rb || ca === cb || ra - ca === rb - cb || ra + ca === rb + cb;
}

/** Whether a code names four consistent border queens (a corner queen named twice) on an n×n board. */
export function isConstellation(n: number, c: number): boolean {
  if (!Number.isInteger(c) || c < 0 || c >= 1 << 20) return false;
  const i = ci(c);
  const j = cj(c);
  const k = ck(c);
  const l = cl(c);
  const last = n - 1;
  if (i > last || j > last || k > last || l > last) return false;
  if ((i === 0) !== (k === 0) || (i === last) !== (l === 0) || (j === 0) !== (k === last) || (j === last) !== (l === last)) return false;
  // The queens (0, i), (n-1, j), (k, 0) and (l, n-1), pairwise.
  return !(attack(0, i, last, j) || attack(0, i, k, 0) || attack(0, i, l, last) ||
    attack(last, j, k, 0) || attack(last, j, l, last) || attack(k, 0, l, last));
}

/**
 * The key of the orientation listed: the queen nearest a corner in the last row, then rows k and
 * l low (chosen when the engine searched row by row; searching most constrained line first, the
 * orientation only decides how ties between lines are broken). bench/native/queens.c uses the
 * same rule, so that its node counts equal the engine's.
 */
function orientationKey(n: number, c: number): number {
  const last = n - 1;
  const j = cj(c);
  const k = ck(c);
  const l = cl(c);
  return (Math.min(j, last - j) << 20) | ((last - Math.max(k, l)) << 10) | (last - Math.min(k, l));
}

/** The orientation searched: the smallest key, then the smallest code. */
function orient(n: number, c: number): number {
  let best = c;
  let bestKey = orientationKey(n, c);
  let x = c;
  for (let m = 0; m < 2; m++) {
    for (let r = 0; r < 4; r++) {
      const key = orientationKey(n, x);
      if (key < bestKey || (key === bestKey && x < best)) {
        best = x;
        bestKey = key;
      }
      x = rot90(n, x);
    }
    x = mirror(n, x);
  }
  return best;
}

/**
 * The expected cost of a constellation's search, as log2 of the product of the free squares
 * of its free rows (what the border queens leave): it tracks the real node counts well enough
 * (correlation 0.7 in log at n = 13) to start the costly ones first.
 */
function cost(n: number, c: number): number {
  const i = ci(c);
  const j = cj(c);
  const k = ck(c);
  const l = cl(c);
  const last = n - 1;
  let sum = 0;
  for (let r = 1; r < last; r++) {
    if (r === k || r === l) continue;
    // Distances from the rows of the queens (0, i), (n-1, j), (k, 0), (l, n-1).
    const up = last - r;
    const toK = Math.abs(r - k);
    const toL = Math.abs(r - l);
    let free = 0;
    for (let col = 1; col < last; col++) {
      if (col === i || col === j) continue;
      if (Math.abs(col - i) === r || Math.abs(col - j) === up || col === toK || last - col === toL) continue;
      free++;
    }
    sum += Math.log2(Math.max(free, 1));
  }
  return sum;
}

/** The constellations of an n×n board, most costly first (in steps: n = 32 takes a while). */
function* listSteps(n: number): Steps<number[]> {
  const found: Array<{ code: number; cost: number }> = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < n; k++) {
        for (let l = 0; l < n; l++) {
          const c = codeOf(i, j, k, l);
          if (!isConstellation(n, c)) continue;
          if (!isSmallest(n, c)) continue;
          const searched = orient(n, c);
          found.push({ code: searched, cost: cost(n, searched) });
        }
      }
      yield;
    }
  }
  // Ties keep their code order, so every run lists them alike.
  found.sort((a, b) => b.cost - a.cost || a.code - b.code);
  return found.map((f) => f.code);
}

const cache = new Map<number, number[]>();

/** The constellations of an n×n board (5 ≤ n ≤ 32), most costly first; never holds the thread long. */
export async function constellations(n: number, signal?: AbortSignal): Promise<number[]> {
  let list = cache.get(n);
  if (!list) {
    list = await runStepsSliced(listSteps(n), signal);
    cache.set(n, list);
  }
  return list;
}

/**
 * The constellations (one per class) that the half turn fixes: the only ones whose solutions a
 * turn can fix. A join counts them for the distinct solutions (see queens/solve.ts).
 */
export async function symmetricConstellations(n: number, signal?: AbortSignal): Promise<number[]> {
  return (await constellations(n, signal)).filter((c) => rot90(n, rot90(n, c)) === c);
}
