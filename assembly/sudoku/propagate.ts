// The 9×9 engine's state and its constraint propagation.
//
// A state is 160 bytes: for each band b its twelve words at 48b (the candidate words of
// digits 0-8 (see tables.ts), then three zeros, so that a band is three v128 of four digits),
// then the unsolved cells of each band at 144. A cell is solved when its digit is known; its
// digit keeps the cell's bit and every other digit loses it. What works across the digits of a
// band (clearing a solved cell's other digits, counting a cell's digits) uses SIMD.
//
// propagate() repeats to a fixpoint:
//  - the digit filter: per digit, each stack's minicolumn matrix and each band's minirow
//    matrix keep only what lies on a permutation (hidden singles in every unit, pointing and
//    claiming); a row left with one cell then holds the digit, and the filter has already
//    cleared that cell's peers for the digit (its box, then its column, have only it left);
//  - a cell solved that way loses its other digits;
//  - naked singles: an unsolved cell with one digit left clears that digit from its peers.
import { ALL_ROWS, cellsOfMinirows, lone, minirowOf, peers, permutationsOf } from './tables';

export const STATE_BYTES: usize = 160;
const BAND_BYTES: usize = 48;
const UNSOLVED: usize = 144;
export const ALL_DIGITS: u32 = 0x1ff;

@inline export function candidates(state: usize, digit: i32, band: i32): u32 {
  return load<u32>(state + <usize>(band * 12 + digit) * 4);
}
@inline function setCandidates(state: usize, digit: i32, band: i32, word: u32): void {
  store<u32>(state + <usize>(band * 12 + digit) * 4, word);
}
@inline export function unsolved(state: usize, band: i32): u32 {
  return load<u32>(state + UNSOLVED + <usize>band * 4);
}
@inline function setUnsolved(state: usize, band: i32, word: u32): void {
  store<u32>(state + UNSOLVED + <usize>band * 4, word);
}

/** Every digit possible everywhere, nothing solved. */
export function clearState(state: usize): void {
  memory.fill(state, 0, STATE_BYTES);
  for (let b = 0; b < 3; b++) {
    for (let d = 0; d < 9; d++) setCandidates(state, d, b, 0x7ffffff);
    setUnsolved(state, b, 0x7ffffff);
  }
}

/**
 * Over the nine digits of a band: the cells with at least one digit, with two or more, and
 * (`withThrice`) with three or more, as lanes 0 of `once`, `twice` and `thrice`.
 */
let once: u32 = 0;
let twice: u32 = 0;
let thrice: u32 = 0;
@inline function countDigits(state: usize, band: i32, withThrice: bool): void {
  const at = state + <usize>band * BAND_BYTES;
  const v0 = v128.load(at);
  const v1 = v128.load(at, 16);
  const v2 = v128.load(at, 32);
  // Lane by lane (digits d, d + 4, d + 8), then the four lanes together.
  let o = v128.or(v128.or(v0, v1), v2);
  let t = v128.or(v128.and(v0, v1), v128.and(v2, v128.or(v0, v1)));
  let h = v128.and(v128.and(v0, v1), v2);
  let o2 = i32x4.shuffle(o, o, 2, 3, 0, 1);
  let t2 = i32x4.shuffle(t, t, 2, 3, 0, 1);
  if (withThrice) {
    const h2 = i32x4.shuffle(h, h, 2, 3, 0, 1);
    h = v128.or(v128.or(h, h2), v128.or(v128.and(t, o2), v128.and(o, t2)));
  }
  t = v128.or(v128.or(t, t2), v128.and(o, o2));
  o = v128.or(o, o2);
  o2 = i32x4.shuffle(o, o, 1, 0, 3, 2);
  t2 = i32x4.shuffle(t, t, 1, 0, 3, 2);
  if (withThrice) {
    const h2 = i32x4.shuffle(h, h, 1, 0, 3, 2);
    thrice = i32x4.extract_lane(v128.or(v128.or(h, h2), v128.or(v128.and(t, o2), v128.and(o, t2))), 0);
  }
  twice = i32x4.extract_lane(v128.or(v128.or(t, t2), v128.and(o, o2)), 0);
  once = i32x4.extract_lane(v128.or(o, o2), 0);
}

/** Clears `cells` of a band from every digit that has any of them; returns those digits. */
@inline function clearCells(state: usize, band: i32, cells: u32): u32 {
  const at = state + <usize>band * BAND_BYTES;
  const mask = i32x4.splat(cells);
  const zero = i32x4.splat(0);
  let changed: u32 = 0;
  for (let k = 0; k < 3; k++) {
    const v = v128.load(at + <usize>k * 16);
    const hit = i32x4.bitmask(i32x4.ne(v128.and(v, mask), zero));
    if (hit != 0) {
      v128.store(at + <usize>k * 16, v128.andnot(v, mask));
      changed |= hit << <u32>(4 * k);
    }
  }
  return changed;
}

/** The 9 bits of a band word's column presence: which columns hold a candidate. */
@inline function columnsOf(word: u32): u32 {
  return (word | (word >> 9) | (word >> 18)) & 0x1ff;
}

/** The minirow matrix of a band word (bit 3r + k). */
@inline function minirows(word: u32): u32 {
  return minirowOf(word & 0x1ff) | (minirowOf((word >> 9) & 0x1ff) << 3) | (minirowOf(word >> 18) << 6);
}

/** Stack s's minicolumn matrix (bit 3b + j: band b has column 3s + j) from the bands' column masks. */
@inline function stackMatrix(c0: u32, c1: u32, c2: u32, shift: u32): u32 {
  return ((c0 >> shift) & 7) | (((c1 >> shift) & 7) << 3) | (((c2 >> shift) & 7) << 6);
}

/** Runs the digit filter to its fixpoint; false on a contradiction. */
function filterDigit(state: usize, digit: i32): bool {
  let w0 = candidates(state, digit, 0);
  let w1 = candidates(state, digit, 1);
  let w2 = candidates(state, digit, 2);
  for (;;) {
    // Stacks: the columns each band may still use.
    const c0 = columnsOf(w0);
    const c1 = columnsOf(w1);
    const c2 = columnsOf(w2);
    const s0 = permutationsOf(stackMatrix(c0, c1, c2, 0));
    const s1 = permutationsOf(stackMatrix(c0, c1, c2, 3));
    const s2 = permutationsOf(stackMatrix(c0, c1, c2, 6));
    if (s0 == 0 || s1 == 0 || s2 == 0) return false;
    let n0 = w0 & (((s0 & 7) | ((s1 & 7) << 3) | ((s2 & 7) << 6)) * ALL_ROWS);
    let n1 = w1 & ((((s0 >> 3) & 7) | (s1 & 0x38) | ((s2 & 0x38) << 3)) * ALL_ROWS);
    let n2 = w2 & (((s0 >> 6) | ((s1 >> 3) & 0x38) | (s2 & 0x1c0)) * ALL_ROWS);
    // Bands: the minirows each row may still use.
    const b0 = permutationsOf(minirows(n0));
    const b1 = permutationsOf(minirows(n1));
    const b2 = permutationsOf(minirows(n2));
    if (b0 == 0 || b1 == 0 || b2 == 0) return false;
    const h0 = n0 & cellsOfMinirows(b0);
    const h1 = n1 & cellsOfMinirows(b1);
    const h2 = n2 & cellsOfMinirows(b2);
    // The stack filter reads only the columns each band uses: if the band filter left them
    // as they were, another round would change nothing.
    const done = columnsOf(h0) == columnsOf(n0) && columnsOf(h1) == columnsOf(n1) && columnsOf(h2) == columnsOf(n2);
    w0 = h0;
    w1 = h1;
    w2 = h2;
    if (done) break;
  }
  setCandidates(state, digit, 0, w0);
  setCandidates(state, digit, 1, w1);
  setCandidates(state, digit, 2, w2);
  return true;
}

/** The cells of a band word that are alone in their row. */
@inline function rowSingles(word: u32): u32 {
  return lone(word & 0x1ff) | (lone((word >> 9) & 0x1ff) << 9) | (lone(word >> 18) << 18);
}

/** Puts a digit in a cell: clears the cell's other digits and the digit's peers. Returns the digits changed. */
export function place(state: usize, cell: i32, digit: i32): u32 {
  const band = cell / 27;
  const bit = <u32>1 << <u32>(cell % 27);
  const own = candidates(state, digit, band);
  const changed = clearCells(state, band, bit) | (<u32>1 << <u32>digit);
  setCandidates(state, digit, band, own);
  for (let b = 0; b < 3; b++) setCandidates(state, digit, b, candidates(state, digit, b) & ~peers(cell, b));
  setUnsolved(state, band, unsolved(state, band) & ~bit);
  return changed;
}

/** Propagates after the digits in `dirty` changed; false on a contradiction. */
export function propagate(state: usize, dirty: u32): bool {
  while (true) {
    while (dirty != 0) {
      const digit = <i32>ctz(dirty);
      dirty &= dirty - 1;
      if (!filterDigit(state, digit)) return false;
      for (let band = 0; band < 3; band++) {
        const solved = rowSingles(candidates(state, digit, band)) & unsolved(state, band);
        if (solved == 0) continue;
        setUnsolved(state, band, unsolved(state, band) & ~solved);
        const own = candidates(state, digit, band);
        dirty |= clearCells(state, band, solved) & ~(<u32>1 << <u32>digit);
        setCandidates(state, digit, band, own);
      }
    }
    // Naked singles, band by band.
    for (let band = 0; band < 3; band++) {
      const open = unsolved(state, band);
      if (open == 0) continue;
      countDigits(state, band, false);
      if ((open & ~once) != 0) return false; // a cell with no digit left
      let single = open & ~twice;
      while (single != 0) {
        const bit = ctz(single);
        single &= single - 1;
        let digit = 0;
        while (digit < 9 && ((candidates(state, digit, band) >> bit) & 1) == 0) digit++;
        if (digit == 9) return false; // a single cleared by an earlier one in this loop
        const cell = band * 27 + <i32>bit;
        for (let b = 0; b < 3; b++) {
          const word = candidates(state, digit, b);
          const cleared = word & ~peers(cell, b);
          if (cleared != word) {
            setCandidates(state, digit, b, cleared);
            dirty |= <u32>1 << <u32>digit;
          }
        }
        setUnsolved(state, band, unsolved(state, band) & ~(<u32>1 << bit));
      }
    }
    if (dirty == 0) return true;
  }
}

/** Whether every cell is solved. */
@inline export function solved(state: usize): bool {
  return (unsolved(state, 0) | unsolved(state, 1) | unsolved(state, 2)) == 0;
}

/** The digits still possible in a cell (bit d). */
export function digitsOf(state: usize, cell: i32): u32 {
  const band = cell / 27;
  const at = state + <usize>band * BAND_BYTES;
  const bit = i32x4.splat(<i32>(1 << (cell % 27)));
  const zero = i32x4.splat(0);
  return (
    i32x4.bitmask(i32x4.ne(v128.and(v128.load(at), bit), zero)) |
    (i32x4.bitmask(i32x4.ne(v128.and(v128.load(at, 16), bit), zero)) << 4) |
    (i32x4.bitmask(i32x4.ne(v128.and(v128.load(at, 32), bit), zero)) << 8)
  );
}

/**
 * The cell to branch on. Among cells with two digits left, the one whose digits have most
 * candidates among its peers, plus two for each such cell among its peers: either branch
 * then removes most. With none, the first cell with fewest digits.
 */
export function chooseCell(state: usize): i32 {
  let best = -1;
  let bestScore = -1;
  let pairs0: u32 = 0;
  let pairs1: u32 = 0;
  let pairs2: u32 = 0;
  for (let band = 0; band < 3; band++) {
    countDigits(state, band, true);
    const pairs = unsolved(state, band) & twice & ~thrice;
    if (band == 0) pairs0 = pairs;
    else if (band == 1) pairs1 = pairs;
    else pairs2 = pairs;
  }
  if ((pairs0 | pairs1 | pairs2) != 0) {
    for (let band = 0; band < 3; band++) {
      let pairs = band == 0 ? pairs0 : band == 1 ? pairs1 : pairs2;
      while (pairs != 0) {
        const bit = ctz(pairs);
        pairs &= pairs - 1;
        const cell = band * 27 + <i32>bit;
        const p0 = peers(cell, 0);
        const p1 = peers(cell, 1);
        const p2 = peers(cell, 2);
        let score = <i32>(2 * (popcnt(pairs0 & p0) + popcnt(pairs1 & p1) + popcnt(pairs2 & p2)));
        let digits = digitsOf(state, cell);
        while (digits != 0) {
          const d = <i32>ctz(digits);
          digits &= digits - 1;
          score += <i32>(popcnt(candidates(state, d, 0) & p0) + popcnt(candidates(state, d, 1) & p1) + popcnt(candidates(state, d, 2) & p2));
        }
        if (score > bestScore) {
          bestScore = score;
          best = cell;
        }
      }
    }
    return best;
  }
  let fewest: u32 = 10;
  for (let band = 0; band < 3; band++) {
    let open = unsolved(state, band);
    while (open != 0) {
      const bit = <i32>ctz(open);
      open &= open - 1;
      const cell = band * 27 + bit;
      const count = popcnt(digitsOf(state, cell));
      if (count < fewest) {
        fewest = count;
        best = cell;
      }
    }
  }
  return best;
}
