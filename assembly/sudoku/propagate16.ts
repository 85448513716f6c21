// The 16×16 engine's state and propagation: the 9×9 method (propagate.ts) on 64-bit band words.
//
// A state is 544 bytes: for each band b its sixteen digit words at 128b (eight v128 of two
// digits), then the unsolved cells of each band at 512. Cell c (row c >> 4, column c & 15) is
// in band c >> 6 at bit c & 63.
import { cellsOfBoxes, peers16, permutations4 } from './tables16';

export const STATE16_BYTES: usize = 544;
const BAND_BYTES: usize = 128;
const UNSOLVED: usize = 512;
export const ALL_DIGITS16: u32 = 0xffff;
const ALL_ROWS: u64 = 0x0001000100010001;

@inline export function candidates16(state: usize, digit: i32, band: i32): u64 {
  return load<u64>(state + <usize>(band * 16 + digit) * 8);
}
@inline function setCandidates16(state: usize, digit: i32, band: i32, word: u64): void {
  store<u64>(state + <usize>(band * 16 + digit) * 8, word);
}
@inline export function unsolved16(state: usize, band: i32): u64 {
  return load<u64>(state + UNSOLVED + <usize>band * 8);
}
@inline function setUnsolved16(state: usize, band: i32, word: u64): void {
  store<u64>(state + UNSOLVED + <usize>band * 8, word);
}

export function clearState16(state: usize): void {
  memory.fill(state, 0xff, STATE16_BYTES);
}

let once: u64 = 0;
let twice: u64 = 0;
let thrice: u64 = 0;
/** Over the sixteen digits of a band: the cells with one digit or more, two or more, three or more. */
@inline function countDigits16(state: usize, band: i32): void {
  const at = state + <usize>band * BAND_BYTES;
  let o = i64x2.splat(0);
  let t = o;
  let h = o;
  for (let k = 0; k < 8; k++) {
    const v = v128.load(at + <usize>k * 16);
    h = v128.or(h, v128.and(t, v));
    t = v128.or(t, v128.and(o, v));
    o = v128.or(o, v);
  }
  const o2 = v128.shuffle<i64>(o, o, 1, 0);
  const t2 = v128.shuffle<i64>(t, t, 1, 0);
  const h2 = v128.shuffle<i64>(h, h, 1, 0);
  thrice = i64x2.extract_lane(v128.or(v128.or(h, h2), v128.or(v128.and(t, o2), v128.and(o, t2))), 0);
  twice = i64x2.extract_lane(v128.or(v128.or(t, t2), v128.and(o, o2)), 0);
  once = i64x2.extract_lane(v128.or(o, o2), 0);
}

/** Clears `cells` of a band from every digit that has any of them; returns those digits. */
@inline function clearCells16(state: usize, band: i32, cells: u64): u32 {
  const at = state + <usize>band * BAND_BYTES;
  const mask = i64x2.splat(cells);
  const zero = i64x2.splat(0);
  let changed: u32 = 0;
  for (let k = 0; k < 8; k++) {
    const v = v128.load(at + <usize>k * 16);
    const hit = i64x2.bitmask(i64x2.ne(v128.and(v, mask), zero));
    if (hit != 0) {
      v128.store(at + <usize>k * 16, v128.andnot(v, mask));
      changed |= <u32>hit << <u32>(2 * k);
    }
  }
  return changed;
}

/** The 16 bits of a band word's column presence. */
@inline function columnsOf16(word: u64): u64 {
  return (word | (word >> 16) | (word >> 32) | (word >> 48)) & 0xffff;
}

/** The minirow matrix of a band word (bit 4r + k: row r has a candidate in box k). */
@inline function minirows16(word: u64): u64 {
  // A bit per minirow at its first cell (bits 4i), gathered into 16 consecutive bits.
  let x = (word | (word >> 1) | (word >> 2) | (word >> 3)) & 0x1111111111111111;
  x = (x | (x >> 3)) & 0x0303030303030303;
  x = (x | (x >> 6)) & 0x000f000f000f000f;
  x = (x | (x >> 12)) & 0x000000ff000000ff;
  return (x | (x >> 24)) & 0xffff;
}

/** The cells of a minirow matrix's minirows. */
@inline function cellsOfMinirows16(matrix: u64): u64 {
  return cellsOfBoxes(matrix & 15) | (cellsOfBoxes((matrix >> 4) & 15) << 16) | (cellsOfBoxes((matrix >> 8) & 15) << 32) | (cellsOfBoxes(matrix >> 12) << 48);
}

/** Stack s's minicolumn matrix (bit 4b + j: band b has column 4s + j). */
@inline function stackMatrix16(c0: u64, c1: u64, c2: u64, c3: u64, shift: u64): u64 {
  return ((c0 >> shift) & 15) | (((c1 >> shift) & 15) << 4) | (((c2 >> shift) & 15) << 8) | (((c3 >> shift) & 15) << 12);
}

/** Band b's allowed columns from the four stacks' permutation unions. */
@inline function bandColumns(s0: u64, s1: u64, s2: u64, s3: u64, band: u64): u64 {
  const shift = 4 * band;
  return ((s0 >> shift) & 15) | (((s1 >> shift) & 15) << 4) | (((s2 >> shift) & 15) << 8) | (((s3 >> shift) & 15) << 12);
}

function filterDigit16(state: usize, digit: i32): bool {
  let w0 = candidates16(state, digit, 0);
  let w1 = candidates16(state, digit, 1);
  let w2 = candidates16(state, digit, 2);
  let w3 = candidates16(state, digit, 3);
  while (true) {
    const c0 = columnsOf16(w0);
    const c1 = columnsOf16(w1);
    const c2 = columnsOf16(w2);
    const c3 = columnsOf16(w3);
    const s0 = permutations4(stackMatrix16(c0, c1, c2, c3, 0));
    const s1 = permutations4(stackMatrix16(c0, c1, c2, c3, 4));
    const s2 = permutations4(stackMatrix16(c0, c1, c2, c3, 8));
    const s3 = permutations4(stackMatrix16(c0, c1, c2, c3, 12));
    if (s0 == 0 || s1 == 0 || s2 == 0 || s3 == 0) return false;
    const n0 = w0 & (bandColumns(s0, s1, s2, s3, 0) * ALL_ROWS);
    const n1 = w1 & (bandColumns(s0, s1, s2, s3, 1) * ALL_ROWS);
    const n2 = w2 & (bandColumns(s0, s1, s2, s3, 2) * ALL_ROWS);
    const n3 = w3 & (bandColumns(s0, s1, s2, s3, 3) * ALL_ROWS);
    const b0 = permutations4(minirows16(n0));
    const b1 = permutations4(minirows16(n1));
    const b2 = permutations4(minirows16(n2));
    const b3 = permutations4(minirows16(n3));
    if (b0 == 0 || b1 == 0 || b2 == 0 || b3 == 0) return false;
    const h0 = n0 & cellsOfMinirows16(b0);
    const h1 = n1 & cellsOfMinirows16(b1);
    const h2 = n2 & cellsOfMinirows16(b2);
    const h3 = n3 & cellsOfMinirows16(b3);
    const done = columnsOf16(h0) == columnsOf16(n0) && columnsOf16(h1) == columnsOf16(n1) && columnsOf16(h2) == columnsOf16(n2) && columnsOf16(h3) == columnsOf16(n3);
    w0 = h0;
    w1 = h1;
    w2 = h2;
    w3 = h3;
    if (done) break;
  }
  setCandidates16(state, digit, 0, w0);
  setCandidates16(state, digit, 1, w1);
  setCandidates16(state, digit, 2, w2);
  setCandidates16(state, digit, 3, w3);
  return true;
}

/** A 16-bit row held alone when it has one bit, else 0. */
@inline function lone16(row: u64): u64 {
  return (row & (row - 1)) == 0 ? row : 0;
}
@inline function rowSingles16(word: u64): u64 {
  return lone16(word & 0xffff) | (lone16((word >> 16) & 0xffff) << 16) | (lone16((word >> 32) & 0xffff) << 32) | (lone16(word >> 48) << 48);
}

export function place16(state: usize, cell: i32, digit: i32): u32 {
  const band = cell >> 6;
  const bit = <u64>1 << <u64>(cell & 63);
  const own = candidates16(state, digit, band);
  const changed = clearCells16(state, band, bit) | (<u32>1 << <u32>digit);
  setCandidates16(state, digit, band, own);
  for (let b = 0; b < 4; b++) setCandidates16(state, digit, b, candidates16(state, digit, b) & ~peers16(cell, b));
  setUnsolved16(state, band, unsolved16(state, band) & ~bit);
  return changed;
}

export function propagate16(state: usize, dirty: u32): bool {
  while (true) {
    while (dirty != 0) {
      const digit = <i32>ctz(dirty);
      dirty &= dirty - 1;
      if (!filterDigit16(state, digit)) return false;
      for (let band = 0; band < 4; band++) {
        const solved = rowSingles16(candidates16(state, digit, band)) & unsolved16(state, band);
        if (solved == 0) continue;
        setUnsolved16(state, band, unsolved16(state, band) & ~solved);
        const own = candidates16(state, digit, band);
        dirty |= clearCells16(state, band, solved) & ~(<u32>1 << <u32>digit);
        setCandidates16(state, digit, band, own);
      }
    }
    for (let band = 0; band < 4; band++) {
      const open = unsolved16(state, band);
      if (open == 0) continue;
      countDigits16(state, band);
      if ((open & ~once) != 0) return false;
      let single = open & ~twice;
      while (single != 0) {
        const bit = ctz(single);
        single &= single - 1;
        let digit = 0;
        while (digit < 16 && ((candidates16(state, digit, band) >> bit) & 1) == 0) digit++;
        if (digit == 16) return false;
        const cell = band * 64 + <i32>bit;
        for (let b = 0; b < 4; b++) {
          const word = candidates16(state, digit, b);
          const cleared = word & ~peers16(cell, b);
          if (cleared != word) {
            setCandidates16(state, digit, b, cleared);
            dirty |= <u32>1 << <u32>digit;
          }
        }
        setUnsolved16(state, band, unsolved16(state, band) & ~(<u64>1 << bit));
      }
    }
    if (dirty == 0) return true;
  }
}

@inline export function solved16(state: usize): bool {
  return (unsolved16(state, 0) | unsolved16(state, 1) | unsolved16(state, 2) | unsolved16(state, 3)) == 0;
}

export function digitsOf16(state: usize, cell: i32): u32 {
  const at = state + <usize>(cell >> 6) * BAND_BYTES;
  const bit = i64x2.splat(<i64>1 << <i64>(cell & 63));
  const zero = i64x2.splat(0);
  let digits: u32 = 0;
  for (let k = 0; k < 8; k++) digits |= <u32>i64x2.bitmask(i64x2.ne(v128.and(v128.load(at + <usize>k * 16), bit), zero)) << <u32>(2 * k);
  return digits;
}

/** The cell to branch on, chosen as in 9×9 (propagate.ts chooseCell). */
export function chooseCell16(state: usize): i32 {
  let best = -1;
  let bestScore = -1;
  let pairs0: u64 = 0;
  let pairs1: u64 = 0;
  let pairs2: u64 = 0;
  let pairs3: u64 = 0;
  for (let band = 0; band < 4; band++) {
    countDigits16(state, band);
    const pairs = unsolved16(state, band) & twice & ~thrice;
    if (band == 0) pairs0 = pairs;
    else if (band == 1) pairs1 = pairs;
    else if (band == 2) pairs2 = pairs;
    else pairs3 = pairs;
  }
  if ((pairs0 | pairs1 | pairs2 | pairs3) != 0) {
    for (let band = 0; band < 4; band++) {
      let pairs = band == 0 ? pairs0 : band == 1 ? pairs1 : band == 2 ? pairs2 : pairs3;
      while (pairs != 0) {
        const bit = ctz(pairs);
        pairs &= pairs - 1;
        const cell = band * 64 + <i32>bit;
        const p0 = peers16(cell, 0);
        const p1 = peers16(cell, 1);
        const p2 = peers16(cell, 2);
        const p3 = peers16(cell, 3);
        let score = <i32>(2 * (popcnt(pairs0 & p0) + popcnt(pairs1 & p1) + popcnt(pairs2 & p2) + popcnt(pairs3 & p3)));
        let digits = digitsOf16(state, cell);
        while (digits != 0) {
          const d = <i32>ctz(digits);
          digits &= digits - 1;
          score += <i32>(
            popcnt(candidates16(state, d, 0) & p0) + popcnt(candidates16(state, d, 1) & p1) + popcnt(candidates16(state, d, 2) & p2) + popcnt(candidates16(state, d, 3) & p3)
          );
        }
        if (score > bestScore) {
          bestScore = score;
          best = cell;
        }
      }
    }
    return best;
  }
  let fewest: u32 = 17;
  for (let band = 0; band < 4; band++) {
    let open = unsolved16(state, band);
    while (open != 0) {
      const bit = <i32>ctz(open);
      open &= open - 1;
      const cell = band * 64 + bit;
      const count = popcnt(digitsOf16(state, cell));
      if (count < fewest) {
        fewest = count;
        best = cell;
      }
    }
  }
  return best;
}
