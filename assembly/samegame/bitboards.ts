// SameGame boards as bitboards, for fast playouts on boards of at most 16 columns of at most
// 15 rows (the standard 15×15). A board is a set of cells per colour: four u64 words, column c
// in word c >> 2 at bits 16 × (c & 3) and up, row r (0 at the bottom) at bit r of its column's
// field. Row 15 of every field stays empty, so a shift by one row never carries a block into
// the next column, and a shift by 16 bits moves a column sideways. The words are stored word by
// word (each word of every colour side by side), so that a removal compacts a column of two
// colours in one v128 step and the blocks in groups are found for two colours at once.
//
// A playout here needs no list of moves: the blocks that are in groups (those with a neighbour
// of their colour) come from a few shifts per colour, one of them is picked at random, its
// group grows by shifts until it stops, and each column it touched is compacted. The cells
// this reports are those of the byte boards (samegame.ts: column × H + row), so lines found
// here replay there and on the host.
import { xorshift64 } from '../shared/random';
import { heightOf, columnsOf, colourAt, countOf, height, MAX_COLOURS, scoreOf, blocksOf } from './samegame';

export const BITS_MAX_COLUMNS: i32 = 16;
export const BITS_MAX_ROWS: i32 = 15;

// A word of every colour (index 0: every block), padded to whole v128 pairs.
const PAIRS: i32 = (MAX_COLOURS + 2) >> 1;
const ROW_BYTES: usize = <usize>PAIRS << 4;
// The board played on: the four rows of words, blocks per colour (i32), then blocks, points
// and the highest colour (i32 each), in one region so that a board can be saved and restored
// in one copy.
export const BITS_STATE_BYTES: i32 = <i32>ROW_BYTES * 4 + (MAX_COLOURS + 1) * 4 + 12;
const PLANES: usize = memory.data(BITS_STATE_BYTES, 16);
const COUNTS: usize = PLANES + ROW_BYTES * 4;
const TOTALS: usize = COUNTS + <usize>(MAX_COLOURS + 1) * 4;

const ROW15: u64 = 0x8000800080008000;

let blocks = 0;
let points = 0;
let closedFrom = -1; // the leftmost column the last removal emptied (-1: none)
let colours = 0; // the highest colour on the board at load

/** Saves the board played on (BITS_STATE_BYTES bytes at `to`). */
export function bitsSave(to: usize): void {
  store<i32>(TOTALS, blocks);
  store<i32>(TOTALS, points, 4);
  store<i32>(TOTALS, colours, 8);
  memory.copy(to, PLANES, <usize>BITS_STATE_BYTES);
}

/** Makes the board saved at `from` the board played on. */
export function bitsRestore(from: usize): void {
  memory.copy(PLANES, from, <usize>BITS_STATE_BYTES);
  blocks = load<i32>(TOTALS);
  points = load<i32>(TOTALS, 4);
  colours = load<i32>(TOTALS, 8);
}

/** Plays the group of `cell` (column × H + row, a block in a group). */
export function bitsClick(cell: i32): void {
  const c = cell / height;
  const bit = (c << 4) + cell - c * height;
  const colour = bitsColourAt(bit);
  bitsRemove(colour, bitsGroup(bit, colour));
}
// The candidates of the last candidates() call.
let m0: u64 = 0;
let m1: u64 = 0;
let m2: u64 = 0;
let m3: u64 = 0;

let rng: u64 = 1; // xorshift64 state of the picks

/** Seeds the picks of bitsPick (the same seed, the same picks). */
export function bitsSeed(seed: u64): void { rng = seed | 1; }

/** A random number in [0, n) (n ≥ 1). */
@inline function below(n: i32): i32 {
  rng = xorshift64(rng);
  return <i32>(((rng >> 32) * <u64>n) >> 32);
}

// Word `word` (0-3) of colour `colour`'s cells.
@inline function wordAt(colour: i32, word: i32): usize { return PLANES + <usize>word * ROW_BYTES + (<usize>colour << 3); }
// Word `word` of colours 2 × pair and 2 × pair + 1, as one v128.
@inline function pairAt(pair: i32, word: i32): usize { return wordAt(pair << 1, word); }
@inline function countAt(colour: i32): i32 { return load<i32>(COUNTS + (<usize>colour << 2)); }

/** True when a board of w columns and h rows fits a bitboard. */
export function bitsFit(w: i32, h: i32): bool { return w <= BITS_MAX_COLUMNS && h <= BITS_MAX_ROWS; }

/** Loads byte board `b` (samegame.ts) as the bitboard played on. */
export function bitsLoad(b: usize): void {
  memory.fill(PLANES, 0, ROW_BYTES * 4);
  colours = 0;
  for (let colour = 1; colour <= MAX_COLOURS; colour++) {
    const n = countOf(b, colour);
    store<i32>(COUNTS + (<usize>colour << 2), n);
    if (n > 0) colours = colour;
  }
  const cols = columnsOf(b);
  for (let c = 0; c < cols; c++) {
    const h = heightOf(b, c);
    const word = c >> 2;
    const shift = <u64>((c & 3) << 4);
    let all: u64 = 0;
    for (let r = 0; r < h; r++) {
      const bit = (<u64>1 << <u64>r) << shift;
      const at = wordAt(colourAt(b, c * height + r), word);
      store<u64>(at, load<u64>(at) | bit);
      all |= bit;
    }
    store<u64>(wordAt(0, word), load<u64>(wordAt(0, word)) | all);
  }
  blocks = blocksOf(b);
  points = blocks == 0 ? scoreOf(b) - 1000 : scoreOf(b); // the bonus is added back by bitsScore
}

/** The score so far: the start board's, the groups removed since, and 1000 once clear. */
export function bitsScore(): i32 { return blocks == 0 ? points + 1000 : points; }

/** Blocks of `colour` left. */
export function bitsCount(colour: i32): i32 { return countAt(colour); }

/** The colour with the most blocks (the lowest of equals), as mostBlocks on a byte board. */
export function bitsMostBlocks(): i32 {
  let colour = 1;
  for (let c = 2; c <= 10; c++) if (countAt(c) > countAt(colour)) colour = c;
  return colour;
}

// The cells of the set (a0..a3) with a neighbour in it, ORed into m0..m3.
@inline function addPairs(a0: u64, a1: u64, a2: u64, a3: u64): void {
  // Up: a block whose upper neighbour is in the set (row 15 is empty, so no carry).
  const u0 = a0 & (a0 >> 1);
  const u1 = a1 & (a1 >> 1);
  const u2 = a2 & (a2 >> 1);
  const u3 = a3 & (a3 >> 1);
  // Right: a block whose right neighbour (16 bits up, across words) is in the set.
  const r0 = a0 & ((a0 >> 16) | (a1 << 48));
  const r1 = a1 & ((a1 >> 16) | (a2 << 48));
  const r2 = a2 & ((a2 >> 16) | (a3 << 48));
  const r3 = a3 & (a3 >> 16);
  addBoth(u0, u1, u2, u3, r0, r1, r2, r3);
}

// The blocks u0..u3 with their upper neighbour and r0..r3 with their right one, each with that
// neighbour, ORed into m0..m3.
@inline function addBoth(u0: u64, u1: u64, u2: u64, u3: u64, r0: u64, r1: u64, r2: u64, r3: u64): void {
  m0 |= u0 | (u0 << 1) | r0 | (r0 << 16);
  m1 |= u1 | (u1 << 1) | r1 | (r1 << 16) | (r0 >> 48);
  m2 |= u2 | (u2 << 1) | r2 | (r2 << 16) | (r1 >> 48);
  m3 |= u3 | (u3 << 1) | r3 | (r3 << 16) | (r2 >> 48);
}

// The two lanes (colours) of x as one set.
@inline function lanes(x: v128): u64 { return i64x2.extract_lane(x, 0) | i64x2.extract_lane(x, 1); }

// The candidates: none.
@inline function noCandidates(): void {
  m0 = 0;
  m1 = 0;
  m2 = 0;
  m3 = 0;
}

// The blocks in groups of `colour` join the candidates.
@inline function addColour(colour: i32): void {
  addPairs(load<u64>(wordAt(colour, 0)), load<u64>(wordAt(colour, 1)), load<u64>(wordAt(colour, 2)), load<u64>(wordAt(colour, 3)));
}

@inline function candidateCount(): i32 { return <i32>(popcnt(m0) + popcnt(m1) + popcnt(m2) + popcnt(m3)); }

/**
 * The blocks in groups (2 or more) of every colour but `skip` (0: every colour) become the
 * candidates; returns how many there are. Two colours at a time, as v128 pairs of words: as
 * addPairs, the blocks with their upper (u) or right (r) neighbour in their colour, ORed over
 * the colours, then both blocks of each such pair marked.
 */
export function bitsCandidates(skip: i32): i32 {
  let u0 = i64x2.splat(0), u1 = u0, u2 = u0, u3 = u0;
  let r0 = u0, r1 = u0, r2 = u0, r3 = u0;
  for (let pair = 0; pair <= colours >> 1; pair++) {
    // The pair's colours that count (plane 0, every block, never does).
    const first = pair << 1;
    const keepFirst = first != 0 && first != skip && countAt(first) >= 2;
    const keepSecond = first + 1 <= colours && first + 1 != skip && countAt(first + 1) >= 2;
    if (!keepFirst && !keepSecond) continue;
    const keep = i64x2.replace_lane(i64x2.splat(keepFirst ? -1 : 0), 1, keepSecond ? -1 : 0);
    const a0 = v128.and(v128.load(pairAt(pair, 0)), keep);
    const a1 = v128.and(v128.load(pairAt(pair, 1)), keep);
    const a2 = v128.and(v128.load(pairAt(pair, 2)), keep);
    const a3 = v128.and(v128.load(pairAt(pair, 3)), keep);
    u0 = v128.or(u0, v128.and(a0, i64x2.shr_u(a0, 1)));
    u1 = v128.or(u1, v128.and(a1, i64x2.shr_u(a1, 1)));
    u2 = v128.or(u2, v128.and(a2, i64x2.shr_u(a2, 1)));
    u3 = v128.or(u3, v128.and(a3, i64x2.shr_u(a3, 1)));
    r0 = v128.or(r0, v128.and(a0, v128.or(i64x2.shr_u(a0, 16), i64x2.shl(a1, 48))));
    r1 = v128.or(r1, v128.and(a1, v128.or(i64x2.shr_u(a1, 16), i64x2.shl(a2, 48))));
    r2 = v128.or(r2, v128.and(a2, v128.or(i64x2.shr_u(a2, 16), i64x2.shl(a3, 48))));
    r3 = v128.or(r3, v128.and(a3, i64x2.shr_u(a3, 16)));
  }
  noCandidates();
  addBoth(lanes(u0), lanes(u1), lanes(u2), lanes(u3), lanes(r0), lanes(r1), lanes(r2), lanes(r3));
  return candidateCount();
}

/** The blocks in groups of `colour` alone become the candidates; returns how many. */
export function bitsCandidatesOf(colour: i32): i32 {
  noCandidates();
  if (countAt(colour) >= 2) addColour(colour);
  return candidateCount();
}

// The k-th set bit of x (k < popcnt(x)), without branches or tables: the bits set up to each
// byte, summed for all bytes at once, give the byte that holds it; the same with the byte's bits
// spread one to a byte, its place there. (k | 0x80 less a sum below 0x80 keeps its high bit
// exactly when the sum is at most k, and never borrows from the next byte.)
@inline function nthBit(x: u64, k: u64): i32 {
  const ones: u64 = 0x0101010101010101;
  const high: u64 = 0x8080808080808080;
  let s = x - ((x >> 1) & 0x5555555555555555);
  s = (s & 0x3333333333333333) + ((s >> 2) & 0x3333333333333333);
  // Byte i: the bits set in bytes 0 to i (at most 64, so the bytes never carry).
  s = ((s + (s >> 4)) & 0x0f0f0f0f0f0f0f0f) * ones;
  const shift = popcnt((((k * ones) | high) - s) & high) << 3;
  const rank = k - (((s << 8) >> shift) & 0xff);
  // Bit i of the byte alone in byte i (0 or 1), then summed up to each byte.
  const spread = (((x >> shift) & 0xff) * ones) & 0x8040201008040201;
  const sums = ((((spread + 0x7f7f7f7f7f7f7f7f) & high) >> 7) * ones);
  return <i32>(shift + popcnt((((rank * ones) | high) - sums) & high));
}

/** The bit (word × 64 + bit) of candidate `k` (0 to the count less 1). */
export function bitsCandidate(k: i32): i32 {
  const c0 = popcnt(m0);
  const c1 = c0 + popcnt(m1);
  const c2 = c1 + popcnt(m2);
  const left = <u64>k;
  // The word, then the rank within it, chosen without branches.
  const x = select<u64>(m0, select<u64>(m1, select<u64>(m2, m3, left < c2), left < c1), left < c0);
  const before = select<u64>(0, select<u64>(c0, select<u64>(c1, c2, left < c2), left < c1), left < c0);
  const word = select<i32>(0, select<i32>(64, select<i32>(128, 192, left < c2), left < c1), left < c0);
  return word + nthBit(x, left - before);
}

/** The cell (column × H + row, as on the byte boards) of bit `bit`. */
@inline export function bitsCell(bit: i32): i32 { return (bit >> 4) * height + (bit & 15); }

// The group being removed.
let g0: u64 = 0;
let g1: u64 = 0;
let g2: u64 = 0;
let g3: u64 = 0;

/** The colour of the block at `bit` (0 when there is none). */
export function bitsColourAt(bit: i32): i32 {
  const word = bit >> 6;
  const mask = <u64>1 << <u64>(bit & 63);
  for (let colour = 1; colour <= colours; colour++) if ((load<u64>(wordAt(colour, word)) & mask) != 0) return colour;
  return 0;
}

/** Marks the group of the block at `bit` (of `colour`); returns its size. */
export function bitsGroup(bit: i32, colour: i32): i32 {
  // The four words as two v128 (words 0-1 and 2-3), grown a step in every direction until
  // nothing is added: a step up or down is a shift by one bit, sideways by 16 (the columns at
  // a word's ends take their neighbours from the next word's low field or the last's high one).
  const aLo = i64x2.replace_lane(i64x2.splat(load<u64>(wordAt(colour, 0))), 1, load<u64>(wordAt(colour, 1)));
  const aHi = i64x2.replace_lane(i64x2.splat(load<u64>(wordAt(colour, 2))), 1, load<u64>(wordAt(colour, 3)));
  const seed = <u64>1 << <u64>(bit & 63);
  const word = bit >> 6;
  let lo = i64x2.replace_lane(i64x2.splat(word == 0 ? seed : 0), 1, word == 1 ? seed : 0);
  let hi = i64x2.replace_lane(i64x2.splat(word == 2 ? seed : 0), 1, word == 3 ? seed : 0);
  const zero = i64x2.splat(0);
  for (;;) {
    // (word 1, word 2), (0, word 0) and (word 3, 0).
    const mid = i8x16.shuffle(lo, hi, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
    const before = i8x16.shuffle(zero, lo, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    const after = i8x16.shuffle(hi, zero, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
    const nLo = v128.and(v128.or(v128.or(v128.or(lo, i64x2.shl(lo, 1)), v128.or(i64x2.shr_u(lo, 1), i64x2.shl(lo, 16))),
      v128.or(i64x2.shr_u(lo, 16), v128.or(i64x2.shl(mid, 48), i64x2.shr_u(before, 48)))), aLo);
    const nHi = v128.and(v128.or(v128.or(v128.or(hi, i64x2.shl(hi, 1)), v128.or(i64x2.shr_u(hi, 1), i64x2.shl(hi, 16))),
      v128.or(i64x2.shr_u(hi, 16), v128.or(i64x2.shl(after, 48), i64x2.shr_u(mid, 48)))), aHi);
    if (!v128.any_true(v128.or(v128.xor(nLo, lo), v128.xor(nHi, hi)))) break;
    lo = nLo;
    hi = nHi;
  }
  g0 = i64x2.extract_lane(lo, 0);
  g1 = i64x2.extract_lane(lo, 1);
  g2 = i64x2.extract_lane(hi, 0);
  g3 = i64x2.extract_lane(hi, 1);
  return <i32>(popcnt(g0) + popcnt(g1) + popcnt(g2) + popcnt(g3));
}

/** The highest colour on the board loaded. */
export function bitsColours(): i32 { return colours; }

// Bits lo to hi − 1 of a word (each clipped to 0..64).
@inline function bitSpan(lo: i32, hi: i32): u64 {
  if (lo < 0) lo = 0;
  if (hi > 64) hi = 64;
  if (hi <= lo) return 0;
  const upper = hi == 64 ? <u64>-1 : (<u64>1 << <u64>hi) - 1;
  return upper & (<u64>-1 << <u64>lo);
}

/**
 * Prepares bitsNextGroup to find, in turn, the groups of `colour` with a cell in BITS_CHANGED.
 */
@inline export function bitsGroupsChanged(colour: i32): void {
  noCandidates();
  if (countAt(colour) < 2) return;
  addColour(colour);
  m0 &= load<u64>(BITS_CHANGED);
  m1 &= load<u64>(BITS_CHANGED, 8);
  m2 &= load<u64>(BITS_CHANGED, 16);
  m3 &= load<u64>(BITS_CHANGED, 24);
}

/** Marks the next group bitsGroupsChanged prepared; returns its lowest bit (its name), or -1 when none is left. */
@inline export function bitsNextGroup(colour: i32): i32 {
  let bit: i32;
  if (m0 != 0) bit = <i32>ctz(m0);
  else if (m1 != 0) bit = 64 + <i32>ctz(m1);
  else if (m2 != 0) bit = 128 + <i32>ctz(m2);
  else if (m3 != 0) bit = 192 + <i32>ctz(m3);
  else return -1;
  bitsGroup(bit, colour);
  m0 &= ~g0;
  m1 &= ~g1;
  m2 &= ~g2;
  m3 &= ~g3;
  return bitsGroupFirstBit();
}

/** The lowest bit of the group marked last: the bit that names it. */
@inline export function bitsGroupFirstBit(): i32 {
  if (g0 != 0) return <i32>ctz(g0);
  if (g1 != 0) return 64 + <i32>ctz(g1);
  if (g2 != 0) return 128 + <i32>ctz(g2);
  return 192 + <i32>ctz(g3);
}

/** The rightmost column of the group marked last. */
@inline export function bitsGroupLastColumn(): i32 {
  if (g3 != 0) return (255 - <i32>clz(g3)) >> 4;
  if (g2 != 0) return (191 - <i32>clz(g2)) >> 4;
  if (g1 != 0) return (127 - <i32>clz(g1)) >> 4;
  return (63 - <i32>clz(g0)) >> 4;
}

/** The group marked last as a 64-bit hash (the same group of cells and colour, the same hash). */
@inline export function bitsGroupHash(colour: i32): u64 {
  let h = (g0 ^ <u64>colour) * 0x9e3779b97f4a7c15;
  h = (h ^ (h >> 29) ^ g1) * 0xbf58476d1ce4e5b9;
  h = (h ^ (h >> 31) ^ g2) * 0x94d049bb133111eb;
  h = (h ^ (h >> 30) ^ g3) * 0x9e3779b97f4a7c15;
  return h ^ (h >> 32);
}

// Removes the rows set in `gone` (a 16-bit field) from the field at `shift` of word `word` of
// every colour, the blocks above them falling down.
function compact(word: i32, shift: u64, gone: u32): void {
  const low = ctz(gone);
  const run = ctz(~(gone >> low));
  if ((gone >> (low + run)) == 0) {
    // One run of rows (the usual case): the bits above it move down by its length in one step
    // (the run ends by row 14, so the shifts stay below 64), two colours at a time.
    const from = shift + <u64>low;
    const above = i64x2.splat((<u64>0xffff << shift) & (<u64>-1 << (from + <u64>run)));
    const keep = i64x2.splat(~((<u64>0xffff << shift) & (<u64>-1 << from)));
    for (let pair = 0; pair <= colours >> 1; pair++) {
      const at = pairAt(pair, word);
      const w = v128.load(at);
      v128.store(at, v128.or(v128.and(w, keep), i64x2.shr_u(v128.and(w, above), <i32>run)));
    }
    return;
  }
  for (let colour = 0; colour <= colours; colour++) {
    const at = wordAt(colour, word);
    const w = load<u64>(at);
    let v = <u32>(w >> shift) & 0xffff;
    if ((v >> low) == 0) continue; // nothing at or above the lowest removed row
    let m = gone;
    while (m != 0) {
      const p = ctz(m);
      const length = ctz(~(m >> p));
      v = (v & ((<u32>1 << p) - 1)) | ((v >> (p + length)) << p);
      m = (m >> (p + length)) << p;
    }
    store<u64>(at, (w & ~(<u64>0xffff << shift)) | (<u64>v << shift));
  }
}

// Removes column `c` (empty) from every colour: the columns right of it move one left.
function closeColumn(c: i32): void {
  const word = c >> 2;
  const shift = <u64>((c & 3) << 4);
  const low = i64x2.splat((<u64>1 << shift) - 1);
  for (let i = word; i < 4; i++) {
    for (let pair = 0; pair <= colours >> 1; pair++) {
      const at = pairAt(pair, i);
      const w = v128.load(at);
      const next = i < 3 ? v128.load(pairAt(pair, i + 1)) : i64x2.splat(0);
      const moved = i == word
        ? v128.or(v128.and(w, low), i64x2.shl(i64x2.shr_u(i64x2.shr_u(w, <i32>shift), 16), <i32>shift))
        : i64x2.shr_u(w, 16);
      v128.store(at, v128.or(moved, i64x2.shl(next, 48)));
    }
  }
}

/** Removes the group marked last (of `colour`, `size` blocks): the blocks above fall, empty columns close. */
export function bitsRemove(colour: i32, size: i32): void {
  const at = COUNTS + (<usize>colour << 2);
  store<i32>(at, load<i32>(at) - size);
  blocks -= size;
  points += (size - 2) * (size - 2);
  // Every column the group touched falls; then the columns left empty close, right to left.
  let emptied: u32 = 0;
  for (let i = 0; i < 4; i++) {
    let g = i == 0 ? g0 : i == 1 ? g1 : i == 2 ? g2 : g3;
    while (g != 0) {
      const shift = ctz(g) & ~<u64>15;
      compact(i, shift, <u32>(g >> shift) & 0xffff);
      g &= ~(<u64>0xffff << shift);
      if (((load<u64>(wordAt(0, i)) >> shift) & 0xffff) == 0) emptied |= <u32>1 << ((<u32>i << 2) + (<u32>shift >> 4));
    }
  }
  closedFrom = emptied != 0 ? <i32>ctz(emptied) : -1;
  while (emptied != 0) {
    const c = 31 - <i32>clz(emptied);
    closeColumn(c);
    emptied ^= <u32>1 << c;
  }
}

/**
 * The cells whose group may have changed with the last removal (4 u64 words, as a plane): the
 * cells that fell (each column the group touched, from its lowest removed row up), every
 * column from the leftmost emptied one on (they moved), and their neighbours. A group with no
 * cell here is as it was, with the same cells. Set by bitsNoteChanged, or bitsChangeAll.
 */
export const BITS_CHANGED: usize = memory.data(32);

/** Every cell changed (a board just loaded or restored). */
export function bitsChangeAll(): void {
  memory.fill(BITS_CHANGED, 0xff, 32);
}

// Each column field of x that holds a bit: its rows from its lowest bit up.
@inline function fallen(x: u64): u64 {
  let r: u64 = 0;
  while (x != 0) {
    const low = ctz(x);
    const shift = low & ~<u64>15;
    r |= (<u64>0x7fff << shift) & (<u64>-1 << low);
    x &= ~(<u64>0xffff << shift);
  }
  return r;
}

/** Notes in BITS_CHANGED what the last bitsRemove changed (its group is still the one marked). */
export function bitsNoteChanged(): void {
  let r0 = fallen(g0);
  let r1 = fallen(g1);
  let r2 = fallen(g2);
  let r3 = fallen(g3);
  if (closedFrom >= 0) {
    const lo = closedFrom << 4;
    r0 |= bitSpan(lo, 64);
    r1 |= bitSpan(lo - 64, 64);
    r2 |= bitSpan(lo - 128, 64);
    r3 |= bitSpan(lo - 192, 64);
  }
  // With their neighbours: below (the fallen rows reach the top) and to either side.
  store<u64>(BITS_CHANGED, r0 | (r0 >> 1) | (r0 << 16) | (r0 >> 16) | (r1 << 48));
  store<u64>(BITS_CHANGED, r1 | (r1 >> 1) | (r1 << 16) | (r1 >> 16) | (r0 >> 48) | (r2 << 48), 8);
  store<u64>(BITS_CHANGED, r2 | (r2 >> 1) | (r2 << 16) | (r2 >> 16) | (r1 >> 48) | (r3 << 48), 16);
  store<u64>(BITS_CHANGED, r3 | (r3 >> 1) | (r3 << 16) | (r3 >> 16) | (r2 >> 48), 24);
}

/** Marks the group saved at `from` by bitsGroupSave (the same board); returns its size. */
export function bitsGroupLoad(from: usize): i32 {
  g0 = load<u64>(from);
  g1 = load<u64>(from, 8);
  g2 = load<u64>(from, 16);
  g3 = load<u64>(from, 24);
  return <i32>(popcnt(g0) + popcnt(g1) + popcnt(g2) + popcnt(g3));
}

/** Saves the group marked last (4 u64 words) at `to`. */
@inline export function bitsGroupSave(to: usize): void {
  store<u64>(to, g0);
  store<u64>(to, g1, 8);
  store<u64>(to, g2, 16);
  store<u64>(to, g3, 24);
}

/**
 * A block picked uniformly among those in groups of any colour but `skip` (of `skip` alone when
 * there are none): its bit, or -1 when no group is left.
 */
export function bitsPick(skip: i32): i32 {
  let n = bitsCandidates(skip);
  if (n == 0) {
    n = bitsCandidatesOf(skip);
    if (n == 0) return -1;
  }
  return bitsCandidate(below(n));
}
