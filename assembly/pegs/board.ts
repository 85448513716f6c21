// Peg solitaire: the problem as the engines hold it, and the state every search shares.
// A position is a u64 with a bit per peg, on boards of up to 64 holes. The host lists the
// board's jumps (from, over, to), the symmetries of the problem (the permutations of the holes
// that keep the start and the set of finishes; the identity first), pagoda functions and the
// finish positions; pegsLoad builds the tables every search reads: the jumps by hole and by
// group, their images under the symmetries, the pagodas' values by byte, the stacks of SOLVE
// and of MOVES's chains. Here too: canonical forms, the legal jumps in bulk, the pagoda test,
// and the checked u64 arithmetic of the exact counts.
//
// The searches (pegs.ts and the files it names) read and write the state declared here as
// exported globals: an imported global is the same Wasm global, so nothing is copied.
//
// Input (u32 words, written by the host after pegsInputAlloc):
//   header    N holes, J jumps, S symmetries, P pagodas, F finishes
//   jumps     J × (from, over, to)
//   syms      S × N: the image of each hole
//   pagodas   P × (N weights, the least value a position may have), weights ≥ 0
//   start     (lo, hi) words of the start position
//   finishes  F × (lo, hi), all with the same number of pegs
import { DONE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc, arenaGeneration, arenaTop } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';

export const MAX_HOLES: i32 = 64;
export const MAX_SYMS: i32 = 12;
export const MAX_PAGODAS: i32 = 8;
export const MAX_JUMPS: i32 = MAX_HOLES * 6;
const HEADER: i32 = 5;

export const MODE_SOLVE: i32 = 0;
export const MODE_COUNT: i32 = 1;
export const MODE_MOVES: i32 = 2;
export const MODE_SHARD: i32 = 3; // a shard task of a count on threads (pegsShardStart)
export const MODE_MEET: i32 = 4; // the count from both ends on one engine (meet.ts)
export const MODE_FEWEST: i32 = 5; // the fewest moves by iterative deepening (fewest.ts)

// Engine-written: solve: the jumps of a solution (u32 each); moves: the positions along a
// shortest solution (u64 each); count: positions kept per level (u64, index = pegs).
export const OUTPUT: usize = memory.data(8 * 72);
// Host-written: the order in which SOLVE tries the jumps (a permutation of 0..J-1).
export const ORDER: usize = memory.data(4 * MAX_JUMPS);

let input: usize = 0;
export let loadedGeneration: u32 = 0xffffffff;
export let holes: i32 = 0;
export let jumps: i32 = 0;
export let syms: i32 = 0;
export let pagodas: i32 = 0;
export let finishes: i32 = 0;
let bytes: i32 = 0; // bytes of a position that can hold pegs
export let full: u64 = 0;  // every hole
export let start: u64 = 0;
export let finishPegs: i32 = 0;

// Tables built by pegsLoad.
let jumpNeed: usize = 0;   // J × u64: the from and over holes
let jumpTo: usize = 0;     // J × u64: the landing hole
export let jumpFlip: usize = 0;   // J × u64: all three
export let jumpLand: usize = 0;   // J × u32: the landing hole's index
export let jumpImage: usize = 0;  // S × J × u64: jumpFlip under each symmetry
export let fromStart: usize = 0;  // (N + 1) × u32: jumps from hole h are byFrom[fromStart[h] .. fromStart[h+1])
export let byFrom: usize = 0;     // J × u32
export let toStart: usize = 0;    // (N + 1) × u32: jumps landing on hole h are byTo[toStart[h] .. toStart[h+1])
export let byTo: usize = 0;       // J × u32
export let jumpFrom: usize = 0;   // J × u32: the from hole's index
let symBytes: usize = 0;   // S × 8 × 256 × u64: the image of each byte value at each byte position
let pagodaBytes: usize = 0; // P × 8 × 256 × u32: a byte's pagoda value
let pagodaNeed: usize = 0; // P × u32
export let finishList: usize = 0; // F × u64
export let images: usize = 0;     // S × u64: scratch, the images of the position being expanded

// Search state.
export let mode: i32 = -1;
export let nodes: u64 = 0;
export let total: u64 = 0;
export let totalHigh: u64 = 0; // COUNT and SHARD: the total's high 64 bits (a sum of many u64 counts)
export let outputLength: i32 = 0;
let failed: bool = false;
export let finished: bool = false;
export let tablesTop: usize = 0; // the arena's top after the load: searches allocate above it

// SOLVE: a stack per depth (one jump per level).
export let stackPos: usize = 0;   // u64
export let stackNext: usize = 0;  // u32: the next jump to try
export let stackJump: usize = 0;  // u32: the jump taken to the next depth
export let stackLive: usize = 0;  // u32: a solution was found below, so the position is not dead

// MOVES: a stack per chain depth (one jump of the moving peg per level).
export let chainPos: usize = 0;  // per chain depth: position, next jump index
export let chainNext: usize = 0;
export let chainPeg: usize = 0;
export let chainImages: usize = 0; // per chain depth: MAX_SYMS images of the position

export function pegsInputAlloc(words: u32): usize {
  arenaReset();
  input = arenaAlloc(<u64>words << 2);
  loadedGeneration = 0xffffffff;
  return input;
}

/**
 * The arena's highest top in the current search (pegsMemory): its tables at their largest,
 * growth included.
 */
export let peakTop: usize = 0;
@inline export function notePeak(): void { peakTop = max<usize>(peakTop, arenaTop()); }

// Checked u64 arithmetic for the exact counts of optimal.ts and meet.ts: a sum or
// product that would wrap sets a flag, which those engines report as OVERFLOW.
export const OVERFLOW: i32 = -3;
let wrapped: bool = false;
export function countWrapped(): bool { return wrapped; }
export function clearWrapped(): void { wrapped = false; }

@inline export function addChecked(a: u64, b: u64): u64 {
  const sum = a + b;
  if (sum < a) wrapped = true;
  return sum;
}

// The forward counts (count.ts, shards.ts, together.ts) keep a position's paths saturated:
// min(paths, SATURATED). A child's paths are at least its parent's, so only positions after a
// saturated one saturate; a sum that meets one (a finish, or a position where the two halves
// meet) is an error (OVERFLOW), but positions that saturate and lead nowhere (dead ends, as
// from the English board's centre) leave the total exact.
export const SATURATED: u64 = <u64>-1;
@inline export function addSaturating(a: u64, b: u64): u64 {
  const sum = a + b;
  return sum < a ? SATURATED : sum;
}

/** Adds a finish's paths to the 128-bit total (sets the flag when they saturated). */
@inline export function addPaths(paths: u64): void {
  if (paths == SATURATED) wrapped = true;
  total += paths;
  totalHigh += <u64>(total < paths);
}

/** Adds a · (b / divisor) to the 128-bit total (sets the flag when a or b saturated). */
@inline export function addProduct(a: u64, b: u64, divisor: u64): void {
  if (a == SATURATED || b == SATURATED) wrapped = true;
  const low = multiply128(a, b / divisor);
  total += low;
  totalHigh += productHigh + <u64>(total < low);
}

/** a · b in 128 bits (from 32-bit halves): the low half returned, the high in productHigh. */
export let productHigh: u64 = 0; // a global, not memory: instances that share their memory keep their own
@inline export function multiply128(a: u64, b: u64): u64 {
  const a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
  const low = a0 * b0;
  const mid1 = a1 * b0;
  const mid2 = a0 * b1;
  // The middle terms' low halves go into the product's bits 32-95, with their carries.
  const mid = (low >> 32) + (mid1 & 0xffffffff) + (mid2 & 0xffffffff);
  productHigh = a1 * b1 + (mid1 >> 32) + (mid2 >> 32) + (mid >> 32);
  return (mid << 32) | (low & 0xffffffff);
}

@inline export function mulChecked(a: u64, b: u64): u64 {
  if (a != 0 && b > <u64>-1 / a) wrapped = true;
  return a * b;
}

@inline export function alloc(bytes: u64): usize {
  const p = arenaAlloc(max<u64>(bytes, 8));
  if (p == 0) failed = true;
  return p;
}

/** Builds the tables from the input. DONE, or OUT_OF_MEMORY / BAD_INPUT. */
export function pegsLoad(): i32 {
  if (input == 0) return BAD_INPUT;
  holes = get(input, 0);
  jumps = get(input, 1);
  syms = get(input, 2);
  pagodas = get(input, 3);
  finishes = get(input, 4);
  if (holes < 1 || holes > MAX_HOLES || jumps < 0 || jumps > MAX_JUMPS || syms < 1 || syms > MAX_SYMS) return BAD_INPUT;
  if (pagodas > MAX_PAGODAS || finishes < 1 || finishes > MAX_HOLES * 4) return BAD_INPUT;
  bytes = (holes + 7) >> 3;
  full = holes == 64 ? <u64>-1 : ((<u64>1 << <u64>holes) - 1);
  const jumpWords = input + (<usize>HEADER << 2);
  const symWords = jumpWords + (<usize>(jumps * 3) << 2);
  const pagodaWords = symWords + (<usize>(syms * holes) << 2);
  const posWords = pagodaWords + (<usize>(pagodas * (holes + 1)) << 2);
  start = <u64>get(posWords, 0) | (<u64>get(posWords, 1) << 32);

  failed = false;
  jumpNeed = alloc(<u64>jumps << 3);
  jumpTo = alloc(<u64>jumps << 3);
  jumpFlip = alloc(<u64>jumps << 3);
  jumpLand = alloc(<u64>jumps << 2);
  jumpImage = alloc(<u64>(syms * jumps) << 3);
  fromStart = alloc(<u64>(holes + 1) << 2);
  byFrom = alloc(<u64>jumps << 2);
  toStart = alloc(<u64>(holes + 1) << 2);
  byTo = alloc(<u64>jumps << 2);
  jumpFrom = alloc(<u64>jumps << 2);
  symBytes = alloc(<u64>syms * 8 * 256 * 8);
  pagodaBytes = alloc(<u64>pagodas * 8 * 256 * 4);
  pagodaNeed = alloc(<u64>pagodas << 2);
  finishList = alloc(<u64>finishes << 3);
  images = alloc(<u64>MAX_SYMS << 3);
  stackPos = alloc(8 * 72);
  stackNext = alloc(4 * 72);
  stackJump = alloc(4 * 72);
  stackLive = alloc(4 * 72);
  chainPos = alloc(8 * 72);
  chainNext = alloc(4 * 72);
  chainPeg = alloc(4 * 72);
  chainImages = alloc(<u64>(8 * 72 * MAX_SYMS));
  if (failed) return OUT_OF_MEMORY;

  for (let j = 0; j < jumps; j++) {
    const f = get(jumpWords, 3 * j), o = get(jumpWords, 3 * j + 1), t = get(jumpWords, 3 * j + 2);
    if (f >= <u32>holes || o >= <u32>holes || t >= <u32>holes || f == o || o == t || f == t) return BAD_INPUT;
    set64(jumpNeed, j, (<u64>1 << f) | (<u64>1 << o));
    set64(jumpTo, j, <u64>1 << t);
    set64(jumpFlip, j, (<u64>1 << f) | (<u64>1 << o) | (<u64>1 << t));
    set(jumpLand, j, t);
    set(jumpFrom, j, f);
    set(ORDER, j, j);
  }
  groupJumps();
  // Jumps grouped by their from hole, for chains of jumps by one peg.
  let k = 0;
  for (let h = 0; h < holes; h++) {
    set(fromStart, h, k);
    for (let j = 0; j < jumps; j++) if (get(jumpWords, 3 * j) == <u32>h) set(byFrom, k++, j);
  }
  set(fromStart, holes, k);
  k = 0;
  for (let h = 0; h < holes; h++) {
    set(toStart, h, k);
    for (let j = 0; j < jumps; j++) if (get(jumpWords, 3 * j + 2) == <u32>h) set(byTo, k++, j);
  }
  set(toStart, holes, k);

  memory.fill(symBytes, 0, <usize>syms * 8 * 256 * 8);
  for (let s = 0; s < syms; s++) {
    for (let h = 0; h < holes; h++) {
      const image = get(symWords, s * holes + h);
      if (image >= <u32>holes) return BAD_INPUT;
      const bit: u64 = <u64>1 << image;
      const row = symBytes + ((<usize>(s * 8 + (h >> 3))) << 11);
      for (let v = 0; v < 256; v++) if ((v >> (h & 7)) & 1) store<u64>(row + (<usize>v << 3), load<u64>(row + (<usize>v << 3)) | bit);
    }
    for (let j = 0; j < jumps; j++) set64(jumpImage, s * jumps + j, imageOf(s, get64(jumpFlip, j)));
  }
  memory.fill(pagodaBytes, 0, <usize>pagodas * 8 * 256 * 4);
  for (let p = 0; p < pagodas; p++) {
    const words = pagodaWords + (<usize>(p * (holes + 1)) << 2);
    for (let h = 0; h < holes; h++) {
      const weight = get(words, h);
      const row = pagodaBytes + ((<usize>(p * 8 + (h >> 3))) << 10);
      for (let v = 0; v < 256; v++) if ((v >> (h & 7)) & 1) store<u32>(row + (<usize>v << 2), load<u32>(row + (<usize>v << 2)) + weight);
    }
    set(pagodaNeed, p, get(words, holes));
  }
  finishPegs = -1;
  for (let f = 0; f < finishes; f++) {
    const pos = <u64>get(posWords, 2 + 2 * f) | (<u64>get(posWords, 3 + 2 * f) << 32);
    if ((pos & ~full) != 0 || pos == 0) return BAD_INPUT;
    const pegs = <i32>popcnt(pos);
    if (finishPegs >= 0 && pegs != finishPegs) return BAD_INPUT;
    finishPegs = pegs;
    set64(finishList, f, pos);
  }
  if ((start & ~full) != 0 || start == 0 || start == full) return BAD_INPUT;
  loadedGeneration = arenaGeneration();
  tablesTop = arenaTop();
  mode = -1;
  return DONE;
}

@inline export function imageOf(s: i32, pos: u64): u64 {
  let out: u64 = 0;
  const base = symBytes + (<usize>(s * 8) << 11);
  for (let b = 0; b < bytes; b++) {
    out |= load<u64>(base + (<usize>b << 11) + (<usize>((pos >> (<u64>b << 3)) & 255) << 3));
  }
  return out;
}

/** The least image of a position under the problem's symmetries. */
export function canonical(pos: u64): u64 {
  let least = pos;
  for (let s = 1; s < syms; s++) least = min<u64>(least, imageOf(s, pos));
  return least;
}

/**
 * The least complement of a position's images (the key of the orbit of ~pos, where a meet in
 * the middle looks it up); how many symmetries fix pos goes to `fixedBy`.
 */
export let fixedBy: u32 = 1;
export function leastComplement(pos: u64): u64 {
  let least = ~pos & full;
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) {
    const image = imageOf(s, pos);
    if (image == pos) fixed++;
    least = min<u64>(least, ~image & full);
  }
  fixedBy = fixed;
  return least;
}

/**
 * The least complement of the images of the child c of `pos` by jump j (the key of ~c's orbit,
 * where a meet in the middle looks it up), from pos's images (from 1 up) at `imagesOf`; how many
 * symmetries fix c goes to `fixedBy`.
 */
@inline export function childComplement(imagesOf: usize, pos: u64, j: i32): u64 {
  const child = pos ^ get64(jumpFlip, j);
  let least = ~child & full;
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) {
    const image = get64(imagesOf, s) ^ get64(jumpImage, s * jumps + j);
    if (image == child) fixed++;
    least = min<u64>(least, ~image & full);
  }
  fixedBy = fixed;
  return least;
}

/** Stores the images of a position, so that a child's images are one xor each. */
@inline export function keepImages(pos: u64): void {
  store<u64>(images, pos);
  for (let s = 1; s < syms; s++) set64(images, s, imageOf(s, pos));
}

@inline export function childCanonical(j: i32): u64 {
  let least = load<u64>(images) ^ get64(jumpFlip, j);
  for (let s = 1; s < syms; s++) least = min<u64>(least, get64(images, s) ^ get64(jumpImage, s * jumps + j));
  return least;
}

// The legal jumps in bulk (legalJumps): the jumps grouped by where their over and landing
// holes lie from their from hole (o - f and t - f in hole numbers), so that a group's legal
// from holes are a few word operations, pos & (pos seen at o - f) & ~(pos seen at t - f),
// in place of a test per jump (100 on the diamond board, in 16 groups).
const MAX_GROUPS: i32 = MAX_JUMPS;
const GROUP_FROM: usize = memory.data(8 * MAX_GROUPS);    // u64: the group's from holes
const GROUP_SHIFTS: usize = memory.data(16 * MAX_GROUPS); // 4 × u32: right and left shifts to the over hole, then to the landing hole
const GROUP_FIRST: usize = memory.data(4 * MAX_GROUPS);   // u32: where its jumps start in GROUP_JUMPS
const GROUP_JUMPS: usize = memory.data(2 * MAX_JUMPS);    // u16: the jumps by group, then from hole
const GROUP_OF: usize = memory.data(2 * MAX_JUMPS);       // u16: each jump's group
let groupCount: i32 = 0;
/** The legal jumps of the last legalJumps (u32 each), by group and then from hole. */
export const LEGAL: usize = memory.data(4 * MAX_JUMPS);

/**
 * Groups the loaded jumps for legalJumps (the holes are checked already). Every word is written
 * once, with its final value: instances that share their memory (shared.ts) load the same board
 * into these tables while others read them, and must never show them a word half built.
 */
function groupJumps(): void {
  groupCount = 0;
  for (let j = 0; j < jumps; j++) {
    const f = <i32>get(jumpFrom, j);
    const over = <i32>ctz(get64(jumpNeed, j) & ~(<u64>1 << <u64>f)) - f, land = <i32>get(jumpLand, j) - f;
    let g = 0;
    for (; g < groupCount; g++) {
      const at = GROUP_SHIFTS + (<usize>g << 4);
      if (load<i32>(at) - load<i32>(at, 4) == over && load<i32>(at, 8) - load<i32>(at, 12) == land) break;
    }
    if (g == groupCount) {
      groupCount++;
      const at = GROUP_SHIFTS + (<usize>g << 4);
      store<i32>(at, max(over, 0));
      store<i32>(at, max(-over, 0), 4);
      store<i32>(at, max(land, 0), 8);
      store<i32>(at, max(-land, 0), 12);
    }
    store<u16>(GROUP_OF + (<usize>j << 1), <u16>g);
  }
  let first: u32 = 0;
  for (let g = 0; g < groupCount; g++) {
    let from: u64 = 0;
    for (let j = 0; j < jumps; j++) if (<i32>load<u16>(GROUP_OF + (<usize>j << 1)) == g) from |= <u64>1 << <u64>get(jumpFrom, j);
    store<u64>(GROUP_FROM + (<usize>g << 3), from);
    store<u32>(GROUP_FIRST + (<usize>g << 2), first);
    first += <u32>popcnt(from);
  }
  // A jump's place in its group: how many of the group's from holes lie below its own.
  for (let j = 0; j < jumps; j++) {
    const g = <usize>load<u16>(GROUP_OF + (<usize>j << 1));
    const below = load<u64>(GROUP_FROM + (g << 3)) & ((<u64>1 << <u64>get(jumpFrom, j)) - 1);
    store<u16>(GROUP_JUMPS + ((<usize>load<u32>(GROUP_FIRST + (g << 2)) + <usize>popcnt(below)) << 1), <u16>j);
  }
}

/** The legal jumps of `pos` into LEGAL; how many. */
@inline export function legalJumps(pos: u64): i32 {
  return legalJumpsInto(pos, LEGAL);
}

/** The legal jumps of `pos` into `out` (u32 each; an instance sharing its memory has its own); how many. */
@inline export function legalJumpsInto(pos: u64, out: usize): i32 {
  let n = 0;
  for (let g = 0; g < groupCount; g++) {
    const at = GROUP_SHIFTS + (<usize>g << 4);
    const over = (pos >> <u64>load<u32>(at)) << <u64>load<u32>(at, 4);
    const land = (pos >> <u64>load<u32>(at, 8)) << <u64>load<u32>(at, 12);
    const mask = load<u64>(GROUP_FROM + (<usize>g << 3));
    let from = mask & pos & over & ~land;
    const first = <usize>load<u32>(GROUP_FIRST + (<usize>g << 2));
    while (from != 0) {
      const below = mask & ((from & (~from + 1)) - 1); // the group's from holes under the lowest legal one
      from &= from - 1;
      store<u32>(out + (<usize>n << 2), <u32>load<u16>(GROUP_JUMPS + ((first + <usize>popcnt(below)) << 1)));
      n++;
    }
  }
  return n;
}

@inline export function legal(pos: u64, j: i32): bool {
  const need = get64(jumpNeed, j);
  return (pos & need) == need && (pos & get64(jumpTo, j)) == 0;
}

/** False when a pagoda function shows the finish out of reach. */
export function hopeful(pos: u64): bool {
  return hopefulIn(pos, 0, pagodas);
}

/** hopeful() by the pagodas first .. end-1 only (meet.ts: each side has its own). */
export function hopefulIn(pos: u64, first: i32, end: i32): bool {
  for (let p = first; p < end; p++) {
    let value: u32 = 0;
    const base = pagodaBytes + (<usize>(p * 8) << 10);
    for (let b = 0; b < bytes; b++) {
      value += load<u32>(base + (<usize>b << 10) + (<usize>((pos >> (<u64>b << 3)) & 255) << 2));
    }
    if (value < get(pagodaNeed, p)) return false;
  }
  return true;
}

export function isFinish(pos: u64): bool {
  if (<i32>popcnt(pos) != finishPegs) return false;
  for (let f = 0; f < finishes; f++) if (get64(finishList, f) == pos) return true;
  return false;
}
