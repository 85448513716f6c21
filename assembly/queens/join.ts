// N-Queens counting by joining half-boards, for empty boards of 5 <= n <= 22: the same method
// as bench/native/queens-join.c (its C yardstick), step for step but for three things the C
// does not do: the join takes two blocks at once in 128-bit words where the C takes one in 64;
// a row that completes a side writes that side's crossing masks at once (the C writes states
// and takes their masks at the leaf); and big joins find their bucket keys by byte tables.
//
// Cut the board between columns h-1 and h (h = n / 2). A solution puts k = n - h queens in the
// east columns, on some set R of k rows, and h in the west, on the other rows; its two halves
// meet only on the 2(n-1) diagonals that cross the cut. So the count is, over every R, the
// number of pairs (an east half-board on R, a west half-board on the rest) whose crossing
// diagonals are disjoint: two lists of masks joined, with no solution ever built.
//
// The rows are decided in order, each going east or west; a node keeps every partial
// placement of both sides so far (12 bytes each: its diagonals and columns), so a prefix of
// rows is extended once whichever rows follow (a child is its parent ORed with its queen's
// words, from a table by column). At the leaves (every row decided) both lists are masks of
// crossing diagonals: the row that places a side's last queen writes that side's masks at once,
// without states (the rows below it all go to the other side), and a leaf whose partner is
// joined instead is not made at all (see Symmetry below). The disjoint pairs are counted: both
// lists sorted
// into 2^t buckets by t key diagonals (those most often held on both sides), only the 3^t
// bucket pairs whose keys miss each other looked at, and within one the larger list held in
// blocks of 64 bit-sliced (per diagonal, a word of the block's items without it; per group of
// 4 diagonals, the 16 ANDs of those words), two blocks side by side in 128-bit words, so that a
// query ANDs a 128-bit word per group its diagonals touch and counts the bits left: 128 pairs
// in a few operations.
//
// Symmetry: the mirror maps the solutions with row 0's queen east onto those with it west. For
// even n a part counts row 0 east, doubled. For odd n (the middle column is east) a part counts
// row 0 west, doubled, or row 0 in the middle column, once. Within a part a symmetry pairs the
// leaves R with a partner R' of equal count, and only the lesser of the two is joined, counted
// twice: for even n the flip (top to bottom) or the half turn, whichever keeps row 0 east; for
// odd n with row 0 west the flip, when row n-1 is west too; with row 0 in the middle column,
// the mirror, which keeps that queen and swaps the other rows' sides.
//
// A part is the decision of the first rows (the host cuts the work there). run(budget) stops
// after about `budget` units of work (a partial half-board made, or 8 pairs of blocks and
// queries) and resumes: the nodes are frames in memory, and a join resumes at its next block.
import { DONE, MORE, BAD_INPUT, OUT_OF_MEMORY, arenaReset, arenaAlloc, arenaTop } from '../shared/bits';

export const MIN_JOIN_N: i32 = 5;
/** The largest board: a side's diagonals in 32 bits (2n - 1 - h <= 32). */
export const MAX_JOIN_N: i32 = 22;

// One frame per row decided: the lists of both sides so far and what is left to try.
const FRAME: usize = 40;
const F_EAST: usize = 0;      // u32 offset of the east list in the list region (in states)
const F_EAST_LENGTH: usize = 4;
const F_WEST: usize = 8;
const F_WEST_LENGTH: usize = 12;
const F_ROWS: usize = 16;     // the east rows so far (bit r)
const F_EAST_ROWS: usize = 20; // how many
const F_STAGE: usize = 24;    // 0: east next, 1: west next, 2: done
const F_MARK: usize = 28;     // the list region's top when the frame was made (states)
const F_MASKS: usize = 36;    // bit 0: the east list is crossing masks (F_EAST counts 8 bytes), bit 1: the west

const STATE: usize = 12; // anti, main, columns (u32 each)
const MAX_KEY_BITS: i32 = 14;
const BASE: i32 = 96; // items a bucket of the larger list should keep at least

let n: i32 = 0;
let h: i32 = 0;
let k: i32 = 0;
let eastColumns: u32 = 0;
let westColumns: u32 = 0;
let crossMask: u64 = 0;
let symmetric: bool = true;
let multiplier: u64 = 2;
let floor: i32 = 0; // the depth of the part's own frame: the search ends when it is done
let depth: i32 = 0;
let finished: bool = true;
let total: u64 = 0;
let states: u64 = 0;

// Memory: fixed tables, then the frames, then the list region (grown as needed, always last).
let FRAMES: usize = 0;
let STARTS_A: usize = 0; // (2^MAX_KEY_BITS + 1) u32
let STARTS_B: usize = 0;
let TABLES: usize = 0;   // 16 groups × 16 v128: two blocks' words side by side
let WITH: usize = 0;     // 2 × 64 u64: each block's items by diagonal
let QUEEN: usize = 0;    // 33 u64: the crossing masks of a queen in each column of the row under way
let QUEEN_STATE: usize = 0; // 33 × 16 bytes: a queen's state words in each column of the row under way
let KEY_TABLES: usize = 0;  // 6 × 256 u16: the key bits of each byte value at each byte of a mask
let LISTS: usize = 0;
let listsEnd: usize = 0; // the end of the memory the list region has (bytes)
let listTop: u32 = 0;    // states in use

// The join under way (at the leaf on top of the frames).
let joining: bool = false;
let joinWeight: u64 = 0;
let joinCount: u64 = 0;
let maskA: usize = 0;
let maskB: usize = 0;
let keyBits: i32 = 0;
let bucketAt: i32 = 0; // the bucket of A under way
let blockAt: i32 = 0;  // the item of A its next block starts at
let maskBits: i32 = 0;
let ORDER: usize = 0;    // 64 i32: the key diagonals (keyBits of them), those both sides hold most often first
let ON_A: usize = 0;     // 64 u32 each: how often, in samples of each list
let ON_B: usize = 0;

export function queensJoinTotal(): u64 { return total; }
export function queensJoinNodes(): u64 { return states; }

@inline function frame(d: i32): usize { return FRAMES + <usize>d * FRAME; }
@inline function stateAt(index: u32): usize { return LISTS + <usize>index * STATE; }

/** Room for `bytes` in the list region (from its start), or false. */
@inline function ensure(bytes: u64): bool {
  return <u64>LISTS + bytes <= <u64>listsEnd || grow(bytes);
}

function grow(bytes: u64): bool {
  const need = <u64>LISTS + bytes;
  // The region is the arena's last allocation, so it grows in place.
  let more = need - <u64>listsEnd;
  more = max<u64>(more, <u64>listsEnd - <u64>LISTS); // at least doubles
  more = (more + 0xffff) & ~(<u64>0xffff);
  if (arenaTop() != listsEnd) return false;
  const at = arenaAlloc(more);
  if (at == 0) {
    // Not the doubling: exactly what is needed, if that fits.
    const exact = (need - <u64>listsEnd + 15) & ~(<u64>15);
    if (arenaAlloc(exact) == 0) return false;
    listsEnd += <usize>exact;
    return true;
  }
  listsEnd = at + <usize>more;
  return true;
}

/**
 * The columns of `columns` where a state (at s) may take a queen in the row its diagonal words
 * are read at. A word is shifted right by `shift` (antiShift or mainShift below), which may be
 * negative: moved up 32 bits first as a u64, one right shift by 32 + shift does both (the
 * arguments are those 32 + shift).
 */
@inline function freeColumns(s: usize, columns: u32, antiRight: u64, mainRight: u64): u32 {
  return columns & ~load<u32>(s, 8) & ~<u32>((<u64>load<u32>(s) << 32) >> antiRight) & ~<u32>((<u64>load<u32>(s, 4) << 32) >> mainRight);
}

/**
 * Appends to the list region each state of list [from, from + length) with a queen in row r on
 * `columns` (a side's columns, from `offset`, its first diagonal). Returns the new list's
 * length, or -1 when memory is short.
 */
function extend(from: u32, length: u32, r: i32, columns: u32, offset: i32): i32 {
  const start = listTop;
  // A state's diagonal words are read at column 0 of row r shifted right by these (see freeColumns).
  const antiShift = r - offset;
  const mainShift = n - 1 - r - offset;
  const antiRight = <u64>(32 + antiShift);
  const mainRight = <u64>(32 + mainShift);
  // A child is its parent ORed with its queen's words: the queens' by column, 16 bytes each
  // (entry 32, for ctz(0), is written but never kept). A child is stored as 16 bytes, the last 4
  // landing on the next slot (written next, or above the list: free).
  for (let c = 0; c <= 32; c++) {
    const on = c < 32 && ((columns >> <u32>c) & 1) != 0;
    const at = QUEEN_STATE + (<usize>c << 4);
    store<u32>(at, on ? <u32>1 << <u32>(c + antiShift) : 0);
    store<u32>(at, on ? <u32>1 << <u32>(c + mainShift) : 0, 4);
    store<u32>(at, on ? <u32>1 << <u32>c : 0, 8);
    store<u32>(at, 0, 12);
  }
  let top = listTop;
  let to = stateAt(top);
  for (let i: u32 = 0; i < length; i++) {
    const s = stateAt(from + i);
    let free = freeColumns(s, columns, antiRight, mainRight);
    const parent = v128.load(s);
    // Room for the next 16 parents' children (at most 11 each, and 2 written ahead).
    if ((i & 15) == 0 && !ensure((<u64>top + 16 * 13) * STATE)) return -1;
    // Most states have 0, 1 or 2 children: the first two are written whether or not they
    // exist (the slot is only kept when they do), so that no branch guesses their number.
    for (let j = 0; j < 2; j++) {
      const kept = <u32>(free != 0);
      v128.store(to, v128.or(parent, v128.load(QUEEN_STATE + (<usize>ctz(free) << 4))));
      free &= free - 1;
      to += STATE * kept;
      top += kept;
    }
    while (free != 0) {
      v128.store(to, v128.or(parent, v128.load(QUEEN_STATE + (<usize>ctz(free) << 4))));
      free &= free - 1;
      to += STATE;
      top++;
    }
  }
  listTop = top;
  states += <u64>(top - start);
  return <i32>(top - start);
}

@inline function reverseRows(rows: u32): u32 {
  return reverseBits32(rows) >> <u32>(32 - n);
}

function reverseBits32(x: u32): u32 {
  x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return (x >> 16) | (x << 16);
}

/** A side's crossing diagonals as one mask: anti-diagonals low, main diagonals from bit n-1. */
@inline function crossingOf(anti: u32, main: u32, offset: i32): u64 {
  const shift = <u32>(h - offset);
  return (<u64>(anti >> shift) & crossMask) | ((<u64>(main >> shift) & crossMask) << <u64>(n - 1));
}

@inline function crossing(s: usize, offset: i32): u64 {
  return crossingOf(load<u32>(s), load<u32>(s, 4), offset);
}

/** Where the masks of a join start: above the states in use. */
@inline function masksBase(): usize {
  return (LISTS + <usize>listTop * STATE + 7) & ~(<usize>7);
}

/**
 * A row that completes a side (the last row, or its side's last queen): the crossing masks of
 * each state of the list with a queen in row r on `columns`, written from `to` (no state is
 * kept). Returns how many, or -1 when memory is short.
 */
function extendMasks(from: u32, length: u32, r: i32, columns: u32, offset: i32, to: usize): i32 {
  const antiShift = r - offset;
  const mainShift = n - 1 - r - offset;
  const antiRight = <u64>(32 + antiShift);
  const mainRight = <u64>(32 + mainShift);
  // A child's masks are its parent's and those of its queen: the queens' by column (entry 32,
  // for ctz(0), is written but never kept).
  for (let c = 0; c <= 32; c++) {
    const queen = c < 32 && ((columns >> <u32>c) & 1) != 0
      ? crossingOf(<u32>1 << <u32>(c + antiShift), <u32>1 << <u32>(c + mainShift), offset)
      : 0;
    store<u64>(QUEEN + (<usize>c << 3), queen);
  }
  const start = to;
  for (let i: u32 = 0; i < length; i++) {
    const s = stateAt(from + i);
    let free = freeColumns(s, columns, antiRight, mainRight);
    const parent = crossing(s, offset);
    // Room for the next 16 parents' children (at most 11 each, and 2 written ahead).
    if ((i & 15) == 0 && !ensure(<u64>(to - LISTS) + 8 * 16 * 13)) return -1;
    // The first two children written whether or not they exist, as in extend.
    for (let j = 0; j < 2; j++) {
      const kept = <usize>(free != 0);
      store<u64>(to, parent | load<u64>(QUEEN + (<usize>ctz(free) << 3)));
      free &= free - 1;
      to += kept << 3;
    }
    while (free != 0) {
      store<u64>(to, parent | load<u64>(QUEEN + (<usize>ctz(free) << 3)));
      free &= free - 1;
      to += 8;
    }
  }
  const count = <i32>((to - start) >> 3);
  states += <u64>count;
  return count;
}

@inline function orderAt(i: i32): i32 { return load<i32>(ORDER + (<usize>i << 2)); }
@inline function heldBoth(bit: i32): u64 {
  return <u64>load<u32>(ON_A + (<usize>bit << 2)) * <u64>load<u32>(ON_B + (<usize>bit << 2));
}

@inline function keyOf(x: u64): u32 {
  let key: u32 = 0;
  for (let i = 0; i < keyBits; i++) key |= <u32>((x >> <u64>orderAt(i)) & 1) << <u32>i;
  return key;
}

/** The key bits of each value of each byte of a mask (6 bytes hold the 2(n - 1) <= 42 bits). */
function fillKeyTables(): void {
  // Each byte's table from its single bits: v's entry is (v less its lowest bit)'s and that bit's.
  memory.fill(KEY_TABLES, 0, 6 * 512);
  for (let i = 0; i < keyBits; i++) {
    const bit = orderAt(i);
    const one = <u16>(<u32>1 << <u32>i);
    store<u16>(KEY_TABLES + (<usize>(bit >> 3) << 9) + (<usize>(1 << (bit & 7)) << 1), one);
  }
  for (let p = 0; p < 6; p++) {
    const table = KEY_TABLES + (<usize>p << 9);
    for (let v = 3; v < 256; v++) {
      if ((v & (v - 1)) == 0) continue; // a single bit: set above
      const low = v & -v;
      store<u16>(table + (<usize>v << 1), load<u16>(table + (<usize>(v ^ low) << 1)) | load<u16>(table + (<usize>low << 1)));
    }
  }
}

/** keyOf by the byte tables: six lookups. */
@inline function keyByTables(x: u64): u32 {
  return <u32>load<u16>(KEY_TABLES + (<usize>(x & 255) << 1))
    | <u32>load<u16>(KEY_TABLES + 512 + (<usize>((x >> 8) & 255) << 1))
    | <u32>load<u16>(KEY_TABLES + 1024 + (<usize>((x >> 16) & 255) << 1))
    | <u32>load<u16>(KEY_TABLES + 1536 + (<usize>((x >> 24) & 255) << 1))
    | <u32>load<u16>(KEY_TABLES + 2048 + (<usize>((x >> 32) & 255) << 1))
    | <u32>load<u16>(KEY_TABLES + 2560 + (<usize>((x >> 40) & 255) << 1));
}

/** Lists at least this long (both together) get their keys by the byte tables. */
const KEY_TABLES_FROM: i32 = 256;

/** Sorts `length` masks from `from` into `to` by key (counting sort; `keys` holds each item's); the key bits are cleared. */
function bucketSort(from: usize, length: i32, to: usize, starts: usize, keyMask: u64, keys: usize, tables: bool): void {
  const size = 1 << keyBits;
  for (let b = 0; b <= size; b++) store<u32>(starts + (<usize>b << 2), 0);
  for (let i = 0; i < length; i++) {
    const x = load<u64>(from + (<usize>i << 3));
    const key = tables ? keyByTables(x) : keyOf(x);
    store<u32>(keys + (<usize>i << 2), key);
    const at = starts + ((<usize>key + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let b = 0; b < size; b++) {
    const at = starts + (<usize>(b + 1) << 2);
    store<u32>(at, load<u32>(at) + load<u32>(at - 4));
  }
  for (let i = 0; i < length; i++) {
    const at = starts + (<usize>load<u32>(keys + (<usize>i << 2)) << 2);
    const slot = load<u32>(at);
    store<u32>(at, slot + 1);
    store<u64>(to + (<usize>slot << 3), load<u64>(from + (<usize>i << 3)) & ~keyMask);
  }
  for (let b = size; b > 0; b--) store<u32>(starts + (<usize>b << 2), load<u32>(starts + (<usize>(b - 1) << 2)));
  store<u32>(starts, 0);
}

/** The crossing masks of a list's states, written from `to`. */
function listMasks(from: u32, length: i32, offset: i32, to: usize): void {
  for (let i = 0; i < length; i++) store<u64>(to + (<usize>i << 3), crossing(stateAt(from + <u32>i), offset));
}

/**
 * Sets up the join of two lists of masks (at `a` and `b`, anywhere below the list region's
 * top): sorted into buckets above both. Returns false when memory is short.
 */
function startJoin(a: usize, na: i32, b: usize, nb: i32): bool {
  // Their sorted copies and their keys (4 bytes each) go above them.
  const after = max<usize>(a + (<usize>na << 3), b + (<usize>nb << 3));
  if (!ensure(<u64>(after - LISTS) + <u64>(na + nb) * 12 + 16)) return false;
  const eastLength = na;
  const westLength = nb;
  if (na < nb) {
    const t = a; a = b; b = t;
    na = westLength; nb = eastLength;
  }
  // As many key bits as keep the larger list's buckets at BASE items or more; none for small
  // lists, which then need no samples.
  let wanted = 0;
  while (wanted < MAX_KEY_BITS && (na >> (wanted + 1)) >= BASE) wanted++;
  keyBits = 0;
  if (wanted > 0) {
    // The key diagonals: those both sides hold most often (from samples of at most 512 each),
    // picked one by one (the lowest of equals first).
    memory.fill(ON_A, 0, 64 << 3);
    sampleBits(a, na, ON_A);
    sampleBits(b, nb, ON_B);
    let taken: u64 = 0;
    while (keyBits < wanted) {
      let best = -1;
      let bestScore: u64 = 0;
      for (let bit = 0; bit < maskBits; bit++) {
        const score = heldBoth(bit);
        if (score > bestScore && ((taken >> <u64>bit) & 1) == 0) {
          best = bit;
          bestScore = score;
        }
      }
      if (best < 0) break;
      taken |= <u64>1 << <u64>best;
      store<i32>(ORDER + (<usize>keyBits << 2), best);
      keyBits++;
    }
  }
  let keyMask: u64 = 0;
  for (let i = 0; i < keyBits; i++) keyMask |= <u64>1 << <u64>orderAt(i);
  maskA = after;
  maskB = maskA + (<usize>na << 3);
  const keys = maskB + (<usize>nb << 3);
  const tables = na + nb >= KEY_TABLES_FROM;
  if (tables) fillKeyTables();
  bucketSort(a, na, maskA, STARTS_A, keyMask, keys, tables);
  bucketSort(b, nb, maskB, STARTS_B, keyMask, keys, tables);
  bucketAt = 0;
  blockAt = load<u32>(STARTS_A);
  joinCount = 0;
  joining = true;
  return true;
}

function sampleBits(list: usize, length: i32, on: usize): void {
  const step = 1 + length / 512;
  for (let i = 0; i < length; i += step) {
    let x = load<u64>(list + (<usize>i << 3));
    while (x != 0) {
      const at = on + (<usize>ctz(x) << 2);
      store<u32>(at, load<u32>(at) + 1);
      x &= x - 1;
    }
  }
}

/**
 * Transposes the 64 × 64 bit matrix of the 64 words at `a` in place (row i, bit j to row j,
 * bit i): six rounds of swapping blocks of half the size across the diagonal.
 */
@inline function transpose64(a: usize): void {
  let m: u64 = 0x00000000ffffffff;
  for (let j = 32; j != 0; ) {
    for (let k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const p = a + (<usize>k << 3);
      const q = a + (<usize>(k | j) << 3);
      const x = load<u64>(p);
      const y = load<u64>(q);
      const t = ((x >> <u64>j) ^ y) & m;
      store<u64>(p, x ^ (t << <u64>j));
      store<u64>(q, y ^ t);
    }
    j >>= 1;
    m ^= m << <u64>j;
  }
}

/** Goes on with the join; returns the work done, and sets joining = false when it is over. */
function runJoin(budget: i64): i64 {
  const size = 1 << keyBits;
  const all = size - 1;
  const chunks = (maskBits + 3) >> 2;
  let work: i64 = 0;
  while (bucketAt < size) {
    const end = <i32>load<u32>(STARTS_A + (<usize>(bucketAt + 1) << 2));
    if (blockAt >= end) {
      bucketAt++;
      if (bucketAt < size) blockAt = <i32>load<u32>(STARTS_A + (<usize>bucketAt << 2));
      continue;
    }
    if (work >= budget) return work;
    // Two blocks of up to 64 items at once, side by side in 128-bit words.
    const items = min<i32>(128, end - blockAt);
    const first = min<i32>(64, items);
    const second = items - first;
    const valid1: u64 = first == 64 ? <u64>-1 : (<u64>1 << <u64>first) - 1;
    const valid2: u64 = second == 64 ? <u64>-1 : (<u64>1 << <u64>second) - 1;
    // Each block bit-sliced, WITH[j] = the items that hold diagonal j: the items' masks as the
    // rows of a 64 × 64 bit matrix (missing items as empty rows), transposed.
    memory.copy(WITH, maskA + (<usize>blockAt << 3), <usize>items << 3);
    memory.fill(WITH + (<usize>items << 3), 0, <usize>(128 - items) << 3);
    transpose64(WITH);
    if (second > 0) transpose64(WITH + 512);
    for (let c = 0; c < ((chunks + 1) & ~1); c++) {
      const table = TABLES + (<usize>c << 8);
      store<u64>(table, valid1);
      store<u64>(table, valid2, 8);
      for (let v = 1; v < 16; v++) {
        const diagonal = <usize>((c << 2) + ctz(v)) << 3;
        const from = table + (<usize>(v & (v - 1)) << 4);
        const to = table + (<usize>v << 4);
        store<u64>(to, load<u64>(from) & ~load<u64>(WITH + diagonal));
        store<u64>(to, load<u64>(from, 8) & ~load<u64>(WITH + 512 + diagonal), 8);
      }
    }
    // Every bucket of B whose key misses this bucket's.
    const free = all & ~bucketAt;
    let queries: i64 = 0;
    let count: u64 = 0;
    let jb = free;
    const start = v128.load(TABLES);
    const tablesEnd = TABLES + (<usize>chunks << 8);
    for (;;) {
      const qEnd = <i32>load<u32>(STARTS_B + (<usize>(jb + 1) << 2));
      for (let q = <i32>load<u32>(STARTS_B + (<usize>jb << 2)); q < qEnd; q++) {
        let acc = start;
        let x = load<u64>(maskB + (<usize>q << 3));
        // Two groups a step: the loop runs ceil(groups / 2) times, without a test of x.
        for (let table = TABLES; table < tablesEnd; table += 512) {
          acc = v128.and(acc, v128.and(v128.load(table + (<usize>(x & 15) << 4)), v128.load(table + 256 + (<usize>((x >> 4) & 15) << 4))));
          x >>= 8;
        }
        count += popcnt(i64x2.extract_lane(acc, 0)) + popcnt(i64x2.extract_lane(acc, 1));
        queries++;
      }
      if (jb == 0) break;
      jb = (jb - 1) & free;
    }
    joinCount += count;
    work += 1 + (queries >> 3) + <i64>(items >> 2);
    blockAt += items;
  }
  joining = false;
  return work;
}

/**
 * Starts a part: the first `prefix` rows decided as `rows` says (bit r: row r east). For even
 * n row 0 must be east; for odd n, row 0 west, or east in the middle column.
 */
export function queensJoinInit(size: i32, prefix: i32, rows: u32): i32 {
  if (size < MIN_JOIN_N || size > MAX_JOIN_N || prefix < 1 || prefix > size) return BAD_INPUT;
  if (prefix < 32 && (rows >> <u32>prefix) != 0) return BAD_INPUT;
  n = size;
  h = n >> 1;
  k = n - h;
  westColumns = (<u32>1 << <u32>h) - 1;
  eastColumns = ((<u32>1 << <u32>n) - 1) & ~westColumns;
  crossMask = (<u64>1 << <u64>(n - 1)) - 1;
  maskBits = 2 * (n - 1);
  const rowZeroEast = (rows & 1) != 0;
  if ((n & 1) == 0 && !rowZeroEast) return BAD_INPUT;
  if (popcnt(rows) > <u32>k || prefix - <i32>popcnt(rows) > h) return BAD_INPUT;
  symmetric = (n & 1) == 0 || !rowZeroEast;
  multiplier = symmetric ? 2 : 1;
  total = 0;
  states = 0;
  joining = false;
  arenaReset();
  const fixed = <u64>(MAX_JOIN_N + 2) * FRAME + (<u64>(1 << MAX_KEY_BITS) + 1) * 8 + 16 + 16 * 256 + 2 * 64 * 8 + 3 * 64 * 4 + 33 * 8 + 33 * 16 + 16 + 6 * 512;
  const base = arenaAlloc(fixed);
  if (base == 0) return OUT_OF_MEMORY;
  FRAMES = base;
  STARTS_A = FRAMES + <usize>(MAX_JOIN_N + 2) * FRAME;
  STARTS_B = STARTS_A + ((<usize>(1 << MAX_KEY_BITS) + 1) << 2);
  TABLES = (STARTS_B + ((<usize>(1 << MAX_KEY_BITS) + 1) << 2) + 15) & ~15;
  WITH = TABLES + 16 * 256;
  ORDER = WITH + 2 * 64 * 8;
  ON_A = ORDER + 64 * 4;
  ON_B = ON_A + 64 * 4;
  QUEEN = ON_B + 64 * 4;
  QUEEN_STATE = (QUEEN + 33 * 8 + 15) & ~15;
  KEY_TABLES = QUEEN_STATE + 33 * 16;
  const first = arenaAlloc(1 << 16);
  if (first == 0) return OUT_OF_MEMORY;
  LISTS = first;
  listsEnd = first + (1 << 16);
  // The empty half-board is both sides' list at the root.
  store<u32>(LISTS, 0);
  store<u32>(LISTS, 0, 4);
  store<u32>(LISTS, 0, 8);
  listTop = 1;
  let east: u32 = 0;
  let eastLength: i32 = 1;
  let west: u32 = 0;
  let westLength: i32 = 1;
  finished = false;
  // Every part at this depth rebuilds the prefix's lists; each row's states count as nodes in
  // one part only (the one whose later prefix rows take the search's first choice, east while
  // it may), so that the nodes of a count are the same however it is cut.
  let owned: u32 = 0;
  for (let r = prefix - 1, firstAfter = true; r >= 0; r--) {
    if (firstAfter) owned |= <u32>1 << <u32>r;
    const eastBefore = <i32>popcnt(rows & ((<u32>1 << <u32>r) - 1));
    firstAfter = firstAfter && ((rows >> <u32>r) & 1) == (eastBefore < k ? 1 : 0);
  }
  for (let r = 0; r < prefix; r++) {
    const start = listTop;
    const before = states;
    let length: i32;
    if ((rows >> <u32>r) & 1) {
      const columns = r == 0 && !symmetric ? <u32>1 << <u32>h : eastColumns;
      length = extend(east, eastLength, r, columns, h);
      east = start;
      eastLength = length;
    } else {
      length = extend(west, westLength, r, westColumns, 0);
      west = start;
      westLength = length;
    }
    if (length < 0) return OUT_OF_MEMORY;
    if (((owned >> <u32>r) & 1) == 0) states = before;
    if (length == 0) {
      finished = true;
      return DONE;
    }
  }
  floor = prefix;
  depth = prefix;
  const f = frame(depth);
  store<u32>(f + F_EAST, east);
  store<u32>(f + F_EAST_LENGTH, eastLength);
  store<u32>(f + F_WEST, west);
  store<u32>(f + F_WEST_LENGTH, westLength);
  store<u32>(f + F_ROWS, rows);
  store<u32>(f + F_EAST_ROWS, popcnt(rows));
  store<u32>(f + F_STAGE, 0);
  store<u32>(f + F_MARK, listTop);
  store<u32>(f + F_MASKS, 0);
  return DONE;
}

/** Leaves the frame on top; false when it was the part's own (the part is counted). */
@inline function pop(): bool {
  if (depth == floor) {
    finished = true;
    return false;
  }
  depth--;
  return true;
}

/** The partner of a leaf's east rows under the part's symmetry (see the top of this file). */
@inline function partnerOf(rows: u32): u32 {
  const all = (<u32>1 << <u32>n) - 1;
  if ((n & 1) == 0) return (rows >> <u32>(n - 1)) & 1 ? reverseRows(rows) : reverseRows(all & ~rows);
  if (symmetric) return (rows >> <u32>(n - 1)) & 1 ? rows : reverseRows(rows);
  return 1 | (all & ~rows); // row 0 in the middle column: the mirror keeps it there
}

/** Counts on for about `budget` units of work: DONE when the part is counted, else MORE. */
export function queensJoinRun(budget: i32): i32 {
  if (finished) return DONE;
  let work: i64 = 0;
  for (;;) {
    if (work >= <i64>budget) return MORE;
    if (joining) {
      work += runJoin(<i64>budget - work);
      if (joining) return MORE;
      total += joinWeight * joinCount;
      listTop = load<u32>(frame(depth) + F_MARK);
      // A join started by the last row's frame goes on with its next side; a leaf frame is left.
      if (depth < n) continue;
      if (!pop()) return DONE;
      continue;
    }
    const f = frame(depth);
    if (depth == n) {
      // A leaf (a part whose prefix is every row): of it and its partner, the lesser is joined.
      const rows = load<u32>(f + F_ROWS);
      const partner = partnerOf(rows);
      work += 1;
      if (partner < rows) {
        if (!pop()) return DONE;
        continue;
      }
      joinWeight = multiplier * (partner == rows ? 1 : 2);
      const eastLength = <i32>load<u32>(f + F_EAST_LENGTH);
      const westLength = <i32>load<u32>(f + F_WEST_LENGTH);
      const a = masksBase();
      const b = a + (<usize>eastLength << 3);
      if (!ensure(<u64>(b - LISTS) + (<u64>westLength << 3))) return OUT_OF_MEMORY;
      listMasks(load<u32>(f + F_EAST), eastLength, h, a);
      listMasks(load<u32>(f + F_WEST), westLength, 0, b);
      if (!startJoin(a, eastLength, b, westLength)) return OUT_OF_MEMORY;
      continue;
    }
    const stage = load<u32>(f + F_STAGE);
    if (stage == 2) {
      if (!pop()) return DONE;
      continue;
    }
    store<u32>(f + F_STAGE, stage + 1);
    listTop = load<u32>(f + F_MARK);
    const eastRows = <i32>load<u32>(f + F_EAST_ROWS);
    const westRows = depth - eastRows;
    const toEast = stage == 0;
    if (toEast ? eastRows >= k : westRows >= h) continue;
    const from = load<u32>(f + (toEast ? F_EAST : F_WEST));
    const fromLength = load<u32>(f + (toEast ? F_EAST_LENGTH : F_WEST_LENGTH));
    const columns = toEast ? eastColumns : westColumns;
    const offset = toEast ? h : 0;
    if (depth == n - 1) {
      // The last row makes a leaf: its side's masks are written at once, without states.
      const rows = load<u32>(f + F_ROWS) | (toEast ? <u32>1 << <u32>depth : 0);
      const partner = partnerOf(rows);
      if (partner < rows) continue; // its partner is joined instead: nothing to make
      const a = masksBase();
      const length = extendMasks(from, fromLength, depth, columns, offset, a);
      if (length < 0) return OUT_OF_MEMORY;
      work += <i64>length + 1;
      if (length == 0) continue;
      const other = load<u32>(f + (toEast ? F_WEST : F_EAST));
      const otherLength = <i32>load<u32>(f + (toEast ? F_WEST_LENGTH : F_EAST_LENGTH));
      let b = a + (<usize>length << 3);
      if ((load<u32>(f + F_MASKS) >> <u32>(toEast ? 1 : 0)) & 1) {
        b = LISTS + (<usize>other << 3); // the other side was completed as masks
      } else {
        if (!ensure(<u64>(b - LISTS) + (<u64>otherLength << 3))) return OUT_OF_MEMORY;
        listMasks(other, otherLength, toEast ? 0 : h, b);
      }
      joinWeight = multiplier * (partner == rows ? 1 : 2);
      if (!startJoin(a, length, b, otherLength)) return OUT_OF_MEMORY;
      continue;
    }
    // A row that completes its side (all its queens placed) writes that side's crossing masks
    // at once: the rows below all go to the other side, and the leaf reads only the masks.
    const completes = toEast ? eastRows + 1 == k : westRows + 1 == h;
    let start = listTop;
    let length: i32;
    if (completes) {
      const at = masksBase();
      length = extendMasks(from, fromLength, depth, columns, offset, at);
      if (length < 0) return OUT_OF_MEMORY;
      start = <u32>((at - LISTS) >> 3);
      listTop = <u32>((at + (<usize>length << 3) - LISTS + STATE - 1) / STATE);
    } else {
      length = extend(from, fromLength, depth, columns, offset);
    }
    if (length < 0) return OUT_OF_MEMORY;
    work += <i64>length + 1;
    if (length == 0) continue;
    const child = frame(depth + 1);
    store<u32>(child + F_MASKS, load<u32>(f + F_MASKS) | (completes ? (toEast ? 1 : 2) : 0));
    store<u32>(child + F_EAST, toEast ? start : load<u32>(f + F_EAST));
    store<u32>(child + F_EAST_LENGTH, toEast ? <u32>length : load<u32>(f + F_EAST_LENGTH));
    store<u32>(child + F_WEST, toEast ? load<u32>(f + F_WEST) : start);
    store<u32>(child + F_WEST_LENGTH, toEast ? load<u32>(f + F_WEST_LENGTH) : <u32>length);
    store<u32>(child + F_ROWS, load<u32>(f + F_ROWS) | (toEast ? <u32>1 << <u32>depth : 0));
    store<u32>(child + F_EAST_ROWS, <u32>(eastRows + (toEast ? 1 : 0)));
    store<u32>(child + F_STAGE, 0);
    store<u32>(child + F_MARK, listTop);
    depth++;
  }
  return MORE; // not reached: the loop returns
}
