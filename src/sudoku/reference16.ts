// The pure-TS twin of the 16×16 engine (assembly/sudoku/propagate16.ts): the same method, the
// same order of work, so the same node counts. Each 64-bit band word of the engine is two
// 32-bit halves here (rows 0-1 and rows 2-3 of the band), as JS bit operations are 32-bit.
import type { GridOps } from './reference.js';
import { ctz32 as ctz, popcount32 as popcnt } from '../bits.js';


// ---- tables (assembly/sudoku/tables16.ts) ---------------------------------------------------

let permutations: Uint16Array | undefined;
/**
 * The 4×4 permutation unions as one table, built on first use (65,536 entries, some
 * milliseconds): the same values as the engine's two-halves lookup, read faster in JS.
 */
function permutationTable(): Uint16Array {
  if (permutations) return permutations;
  const perms: number[] = [];
  for (let a = 0; a < 4; a++) {
    for (let b = 0; b < 4; b++) {
      for (let c = 0; c < 4; c++) {
        if (b === a || c === a || c === b) continue;
        perms.push((1 << a) | (1 << (4 + b)) | (1 << (8 + c)) | (1 << (12 + (6 - a - b - c))));
      }
    }
  }
  const table = new Uint16Array(65536);
  for (let x = 0; x < 65536; x++) {
    let union = 0;
    for (const p of perms) if ((x & p) === p) union |= p;
    table[x] = union;
  }
  return (permutations = table);
}

const CELLS_OF_BOXES = new Uint16Array(16);
for (let x = 0; x < 16; x++) for (let k = 0; k < 4; k++) if ((x >> k) & 1) CELLS_OF_BOXES[x] |= 15 << (4 * k);

/** Peers of each cell: band b's low and high halves at (cell · 4 + b) · 2. */
const PEERS = new Uint32Array(256 * 8);
for (let cell = 0; cell < 256; cell++) {
  const row = cell >> 4;
  const col = cell & 15;
  for (let other = 0; other < 256; other++) {
    const r = other >> 4;
    const c = other & 15;
    if (other !== cell && (r === row || c === col || (r >> 2 === row >> 2 && c >> 2 === col >> 2))) {
      const position = 16 * (r & 3) + c;
      PEERS[(cell * 4 + (r >> 2)) * 2 + (position >> 5)] |= 1 << (position & 31);
    }
  }
}

// ---- state: digit d's band b at (16b + d) · 2 (low half, then high); unsolved at 128 + 2b ----

const STATE_WORDS = 136;
const UNSOLVED = 128;
const at = (digit: number, band: number): number => (band * 16 + digit) * 2;

const columnsOf = (lo: number, hi: number): number => (lo | (lo >>> 16) | hi | (hi >>> 16)) & 0xffff;
/** A 16-bit row's boxes (bit k: a cell in box k). */
function boxesOf(row: number): number {
  const t = row | (row >>> 1) | (row >>> 2) | (row >>> 3);
  return (t & 1) | ((t >>> 3) & 2) | ((t >>> 6) & 4) | ((t >>> 9) & 8);
}
const minirows = (lo: number, hi: number): number =>
  boxesOf(lo & 0xffff) | (boxesOf(lo >>> 16) << 4) | (boxesOf(hi & 0xffff) << 8) | (boxesOf(hi >>> 16) << 12);
const stackMatrix = (c: Uint32Array, shift: number): number =>
  ((c[0] >>> shift) & 15) | (((c[1] >>> shift) & 15) << 4) | (((c[2] >>> shift) & 15) << 8) | (((c[3] >>> shift) & 15) << 12);
const bandColumns = (p: Uint32Array, band: number): number =>
  ((p[0] >>> (4 * band)) & 15) | (((p[1] >>> (4 * band)) & 15) << 4) | (((p[2] >>> (4 * band)) & 15) << 8) | (((p[3] >>> (4 * band)) & 15) << 12);
const lone = (row: number): number => ((row & (row - 1)) === 0 ? row : 0);
const rowSingles = (word: number): number => (lone(word & 0xffff) | (lone(word >>> 16) << 16)) >>> 0;

// The filter's working words, kept between calls (no allocation per call).
const w = new Uint32Array(8);
const n = new Uint32Array(8);
const c = new Uint32Array(4);
const p = new Uint32Array(4);

function filterDigit(s: Uint32Array, digit: number): boolean {
  const table = permutationTable();
  for (let b = 0; b < 4; b++) {
    w[2 * b] = s[at(digit, b)];
    w[2 * b + 1] = s[at(digit, b) + 1];
  }
  for (;;) {
    for (let b = 0; b < 4; b++) c[b] = columnsOf(w[2 * b], w[2 * b + 1]);
    for (let k = 0; k < 4; k++) {
      p[k] = table[stackMatrix(c, 4 * k)];
      if (p[k] === 0) return false;
    }
    let done = true;
    for (let b = 0; b < 4; b++) {
      const allowed = bandColumns(p, b);
      const spread = (allowed | (allowed << 16)) >>> 0;
      const lo = w[2 * b] & spread;
      const hi = w[2 * b + 1] & spread;
      n[2 * b] = lo;
      n[2 * b + 1] = hi;
    }
    for (let b = 0; b < 4; b++) {
      const lo = n[2 * b];
      const hi = n[2 * b + 1];
      const kept = table[minirows(lo, hi)];
      if (kept === 0) return false;
      const h0 = lo & (CELLS_OF_BOXES[kept & 15] | (CELLS_OF_BOXES[(kept >>> 4) & 15] << 16));
      const h1 = hi & (CELLS_OF_BOXES[(kept >>> 8) & 15] | (CELLS_OF_BOXES[kept >>> 12] << 16));
      if (columnsOf(h0, h1) !== columnsOf(lo, hi)) done = false;
      w[2 * b] = h0 >>> 0;
      w[2 * b + 1] = h1 >>> 0;
    }
    if (done) break;
  }
  for (let b = 0; b < 4; b++) {
    s[at(digit, b)] = w[2 * b];
    s[at(digit, b) + 1] = w[2 * b + 1];
  }
  return true;
}

/** Clears cells (a band's halves) from every digit that has any of them; returns those digits. */
function clearCells(s: Uint32Array, band: number, lo: number, hi: number): number {
  let changed = 0;
  for (let d = 0; d < 16; d++) {
    const i = at(d, band);
    if ((s[i] & lo) !== 0 || (s[i + 1] & hi) !== 0) {
      s[i] &= ~lo;
      s[i + 1] &= ~hi;
      changed |= 1 << d;
    }
  }
  return changed;
}

function place(s: Uint32Array, cell: number, digit: number): number {
  const band = cell >> 6;
  const position = cell & 63;
  const lo = position < 32 ? 1 << position : 0;
  const hi = position < 32 ? 0 : 1 << (position - 32);
  const i = at(digit, band);
  const ownLo = s[i];
  const ownHi = s[i + 1];
  const changed = clearCells(s, band, lo, hi) | (1 << digit);
  s[i] = ownLo;
  s[i + 1] = ownHi;
  for (let b = 0; b < 4; b++) {
    s[at(digit, b)] &= ~PEERS[(cell * 4 + b) * 2];
    s[at(digit, b) + 1] &= ~PEERS[(cell * 4 + b) * 2 + 1];
  }
  s[UNSOLVED + 2 * band] &= ~lo;
  s[UNSOLVED + 2 * band + 1] &= ~hi;
  return changed;
}

/** Over the sixteen digits of a band half: cells with one digit or more, two or more, three or more. */
function countDigits(s: Uint32Array, band: number, half: number): [number, number, number] {
  let once = 0;
  let twice = 0;
  let thrice = 0;
  for (let d = 0; d < 16; d++) {
    const word = s[at(d, band) + half];
    thrice |= twice & word;
    twice |= once & word;
    once |= word;
  }
  return [once, twice, thrice];
}

function propagate(s: Uint32Array, dirty: number): boolean {
  for (;;) {
    while (dirty !== 0) {
      const digit = ctz(dirty);
      dirty &= dirty - 1;
      if (!filterDigit(s, digit)) return false;
      for (let band = 0; band < 4; band++) {
        const i = at(digit, band);
        const lo = rowSingles(s[i]) & s[UNSOLVED + 2 * band];
        const hi = rowSingles(s[i + 1]) & s[UNSOLVED + 2 * band + 1];
        if (lo === 0 && hi === 0) continue;
        s[UNSOLVED + 2 * band] &= ~lo;
        s[UNSOLVED + 2 * band + 1] &= ~hi;
        const ownLo = s[i];
        const ownHi = s[i + 1];
        dirty |= clearCells(s, band, lo, hi) & ~(1 << digit);
        s[i] = ownLo;
        s[i + 1] = ownHi;
      }
    }
    for (let band = 0; band < 4; band++) {
      if ((s[UNSOLVED + 2 * band] | s[UNSOLVED + 2 * band + 1]) === 0) continue;
      // Both halves counted before any single is placed, as the engine counts its 64-bit word.
      const singles = [0, 0];
      for (let half = 0; half < 2; half++) {
        const open = s[UNSOLVED + 2 * band + half];
        const [once, twice] = countDigits(s, band, half);
        if ((open & ~once) !== 0) return false;
        singles[half] = open & ~twice;
      }
      for (let half = 0; half < 2; half++) {
        let single = singles[half];
        while (single !== 0) {
          const bit = ctz(single);
          single &= single - 1;
          let digit = 0;
          while (digit < 16 && ((s[at(digit, band) + half] >>> bit) & 1) === 0) digit++;
          if (digit === 16) return false;
          const cell = band * 64 + half * 32 + bit;
          for (let b = 0; b < 4; b++) {
            for (let h = 0; h < 2; h++) {
              const i = at(digit, b) + h;
              const cleared = (s[i] & ~PEERS[(cell * 4 + b) * 2 + h]) >>> 0;
              if (cleared !== s[i]) {
                s[i] = cleared;
                dirty |= 1 << digit;
              }
            }
          }
          s[UNSOLVED + 2 * band + half] &= ~(1 << bit);
        }
      }
    }
    if (dirty === 0) return true;
  }
}

function digitsOf(s: Uint32Array, cell: number): number {
  const band = cell >> 6;
  const position = cell & 63;
  const half = position >> 5;
  const bit = position & 31;
  let digits = 0;
  for (let d = 0; d < 16; d++) digits |= ((s[at(d, band) + half] >>> bit) & 1) << d;
  return digits;
}

function chooseCell(s: Uint32Array): number {
  let best = -1;
  let bestScore = -1;
  // Two-digit cells, a band's halves in turn (the engine's 64-bit words, low bits first).
  const pairs = new Array<number>(8);
  for (let band = 0; band < 4; band++) {
    for (let half = 0; half < 2; half++) {
      const [, twice, thrice] = countDigits(s, band, half);
      pairs[2 * band + half] = (s[UNSOLVED + 2 * band + half] & twice & ~thrice) >>> 0;
    }
  }
  if (pairs.some((p) => p !== 0)) {
    for (let k = 0; k < 8; k++) {
      let left = pairs[k];
      while (left !== 0) {
        const bit = ctz(left);
        left &= left - 1;
        const cell = (k >> 1) * 64 + (k & 1) * 32 + bit;
        const peers = PEERS.subarray(cell * 8, cell * 8 + 8);
        let score = 0;
        for (let j = 0; j < 8; j++) score += 2 * popcnt(pairs[j] & peers[j]);
        let digits = digitsOf(s, cell);
        while (digits !== 0) {
          const d = ctz(digits);
          digits &= digits - 1;
          for (let b = 0; b < 4; b++) score += popcnt(s[at(d, b)] & peers[2 * b]) + popcnt(s[at(d, b) + 1] & peers[2 * b + 1]);
        }
        if (score > bestScore) {
          bestScore = score;
          best = cell;
        }
      }
    }
    return best;
  }
  let fewest = 17;
  for (let k = 0; k < 8; k++) {
    let open = s[UNSOLVED + k];
    while (open !== 0) {
      const bit = ctz(open);
      open &= open - 1;
      const cell = (k >> 1) * 64 + (k & 1) * 32 + bit;
      const count = popcnt(digitsOf(s, cell));
      if (count < fewest) {
        fewest = count;
        best = cell;
      }
    }
  }
  return best;
}

export const ops16: GridOps = {
  size: 16,
  stateWords: STATE_WORDS,
  allDigits: 0xffff,
  clear: (s) => s.fill(0xffffffff, 0, STATE_WORDS),
  place,
  propagate,
  solved: (s) => s.subarray(UNSOLVED, UNSOLVED + 8).every((w) => w === 0),
  chooseCell,
  digitsOf,
  writeGrid(s, to) {
    to.fill(0);
    for (let d = 0; d < 16; d++) {
      for (let band = 0; band < 4; band++) {
        for (let half = 0; half < 2; half++) {
          let word = s[at(d, band) + half] & ~s[UNSOLVED + 2 * band + half];
          while (word !== 0) {
            to[band * 64 + half * 32 + ctz(word)] = d + 1;
            word &= word - 1;
          }
        }
      }
    }
  },
};
