// Peg solitaire on boards of up to 64 holes: a position is a u64 with a bit per peg.
// The host lists the board's jumps (from, over, to), the symmetries of the problem (the
// permutations of the holes that keep the start and the set of finishes; the identity
// first), pagoda functions and the finish positions. Three resumable searches:
//
//   SOLVE  depth-first search by jumps; positions proved dead go into a bounded hash set
//          keyed by their canonical form (the least image under the symmetries).
//   COUNT  dynamic programming level by level (a jump removes one peg): a hash table maps
//          each canonical position to the number of jump sequences reaching its whole orbit.
//          Summing orbit totals is exact: F(R) = sum over orbits Q of F(Q) · (jumps from one
//          representative of Q into R), because every member of Q has as many. When the
//          finish is the complement of the start (the central games), undoing jumps from the
//          finish is jumping from the start on complements, so the search stops halfway: the
//          solutions through p are paths(p) · paths(~p), summed over the middle level.
//   MOVES  fewest moves (a chain of jumps by one peg is one move) by breadth-first search
//          from both ends. Undoing a jump is jumping on the complement, so the finish side
//          searches from the complements of the finishes; undoing a chain is, on the
//          complement, a chain in which each jump lands where the last one started (a
//          "reverse chain"). A position p meets the other side when ~p is there.
//   SHARDS COUNT on several threads: one task per shard of a level (see the section below).
//
// Input (u32 words, written by the host after pegsInputAlloc):
//   header    N holes, J jumps, S symmetries, P pagodas, F finishes
//   jumps     J × (from, over, to)
//   syms      S × N: the image of each hole
//   pagodas   P × (N weights, the least value a position may have), weights ≥ 0
//   start     (lo, hi) words of the start position
//   finishes  F × (lo, hi), all with the same number of pegs
import { DONE, SOLUTION, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc, arenaGeneration, arenaTop, arenaRewind } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';

export const MAX_HOLES: i32 = 64;
export const MAX_SYMS: i32 = 12;
export const MAX_PAGODAS: i32 = 8;
const MAX_JUMPS: i32 = MAX_HOLES * 6;
const HEADER: i32 = 5;

export const MODE_SOLVE: i32 = 0;
export const MODE_COUNT: i32 = 1;
export const MODE_MOVES: i32 = 2;
const MODE_SHARD: i32 = 3; // a shard task of a count on threads (pegsShardStart)
export const MODE_MEET: i32 = 4; // the count from both ends on one engine (assembly/pegsMeet.ts)
export const MODE_FEWEST: i32 = 5; // the fewest moves by iterative deepening (assembly/pegsFewest.ts)

const GOLDEN: u64 = 0x9e3779b97f4a7c15;
const UNSEEN: u32 = 0xff;
const MAX_LOAD_NUM: u32 = 7; // tables grow beyond 7/10 full
const MAX_LOAD_DEN: u32 = 10;

// Engine-written: solve: the jumps of a solution (u32 each); moves: the positions along a
// shortest solution (u64 each); count: positions kept per level (u64, index = pegs).
export const OUTPUT: usize = memory.data(8 * 72);
// Host-written: the order in which SOLVE tries the jumps (a permutation of 0..J-1).
const ORDER: usize = memory.data(4 * MAX_JUMPS);

let input: usize = 0;
let loadedGeneration: u32 = 0xffffffff;
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
let total: u64 = 0;
let outputLength: i32 = 0;
let failed: bool = false;
export let finished: bool = false;
let tablesTop: usize = 0; // the arena's top after the load: searches allocate above it

// SOLVE: a stack per depth (one jump per level).
let stackPos: usize = 0;   // u64
let stackNext: usize = 0;  // u32: the next jump to try
let stackJump: usize = 0;  // u32: the jump taken to the next depth
let stackLive: usize = 0;  // u32: a solution was found below, so the position is not dead
let depth: i32 = 0;
let deadBase: usize = 0;
let deadLog: u32 = 0;
let deadCount: u32 = 0;
let deadMaxLog: u32 = 0;  // the table grows up to 2^deadMaxLog slots, then stops learning

// Growable hash tables (key u64, value u64; key 0 is empty). The growing table is always
// the arena's last allocation, so growth can move it back down over its old place.
export let tabBase: usize = 0;   // COUNT: the level being expanded; MOVES: every position seen
export let tabLog: u32 = 0;
let tabCount: u32 = 0;
let nextBase: usize = 0;  // COUNT: the level being built
let nextLog: u32 = 0;
let nextCount: u32 = 0;
let scan: u32 = 0;        // the slot reached in the table being expanded
let level: i32 = 0;       // COUNT: pegs of the level being expanded; MOVES: depth expanded
let grewDuringScan: bool = false;
let meetLevel: i32 = -1;  // COUNT: the middle level where the two halves meet, or -1

// MOVES state.
export let depthA: i32 = 0;      // levels completed on each side
export let depthB: i32 = 0;
let frontA: u64 = 0;      // positions at the last completed level of each side
let frontB: u64 = 0;
let frontNew: u64 = 0;
let side: i32 = 0;        // 0: from the start, 1: from the finishes' complements
export let best: i32 = 0x7fffffff;
let meetPos: u64 = 0;     // an actual position of `side` whose complement the other side saw
let meetSide: i32 = 0;
let chainPos: usize = 0;  // per chain depth: position, next jump index
let chainNext: usize = 0;
let chainPeg: usize = 0;
let chainImages: usize = 0; // per chain depth: MAX_SYMS images of the position

export function pegsInputAlloc(words: u32): usize {
  arenaReset();
  input = arenaAlloc(<u64>words << 2);
  loadedGeneration = 0xffffffff;
  return input;
}

export function pegsOutputPtr(): usize { return OUTPUT; }
export function pegsOrderPtr(): usize { return ORDER; }
export function pegsOutputLength(): i32 { return outputLength; }
export function pegsNodes(): u64 { return nodes; }
export function pegsTotal(): u64 { return total; }
/** COUNT: pegs of the level being expanded; MOVES: levels searched on both sides. */
export function pegsLevel(): i32 { return mode == MODE_MOVES ? depthA + depthB : level; }
/** MOVES: the fewest moves, once the search is done. */
export function pegsMoves(): i32 { return best == 0x7fffffff ? -1 : best; }
/**
 * The most linear memory the current search has needed (its tables at their largest, growth
 * included). The instance's memory never shrinks, so after other searches it may hold more.
 */
export function pegsMemory(): u64 { return <u64>peakTop; }
let peakTop: usize = 0;
@inline export function notePeak(): void { peakTop = max<usize>(peakTop, arenaTop()); }

// Checked u64 arithmetic for the exact counts of pegsOptimal.ts and pegsMeet.ts: a sum or
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

/** Stores the images of a position, so that a child's images are one xor each. */
@inline export function keepImages(pos: u64): void {
  store<u64>(images, pos);
  for (let s = 1; s < syms; s++) set64(images, s, imageOf(s, pos));
}

@inline function childCanonical(j: i32): u64 {
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

/** Groups the loaded jumps for legalJumps (the holes are checked already). */
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
      store<u64>(GROUP_FROM + (<usize>g << 3), 0);
      const at = GROUP_SHIFTS + (<usize>g << 4);
      store<i32>(at, max(over, 0));
      store<i32>(at, max(-over, 0), 4);
      store<i32>(at, max(land, 0), 8);
      store<i32>(at, max(-land, 0), 12);
    }
    store<u64>(GROUP_FROM + (<usize>g << 3), load<u64>(GROUP_FROM + (<usize>g << 3)) | (<u64>1 << <u64>f));
    store<u16>(GROUP_OF + (<usize>j << 1), <u16>g);
  }
  let first: u32 = 0;
  for (let g = 0; g < groupCount; g++) {
    store<u32>(GROUP_FIRST + (<usize>g << 2), first);
    first += <u32>popcnt(load<u64>(GROUP_FROM + (<usize>g << 3)));
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
      store<u32>(LEGAL + (<usize>n << 2), <u32>load<u16>(GROUP_JUMPS + ((first + <usize>popcnt(below)) << 1)));
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
function hopeful(pos: u64): bool {
  return hopefulIn(pos, 0, pagodas);
}

/** hopeful() by the pagodas first .. end-1 only (pegsMeet.ts: each side has its own). */
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

function isFinish(pos: u64): bool {
  if (<i32>popcnt(pos) != finishPegs) return false;
  for (let f = 0; f < finishes; f++) if (get64(finishList, f) == pos) return true;
  return false;
}

// ---- hash tables -------------------------------------------------------------------------

@inline export function slotIndex(key: u64, log: u32): u32 {
  return <u32>((key * GOLDEN) >> (64 - <u64>log));
}

/** The slot of `key` in a table of 2^log slots: its own, or the empty one it would take. */
@inline function findSlot(base: usize, log: u32, key: u64): usize {
  const mask: u32 = (<u32>1 << log) - 1;
  let i = slotIndex(key, log);
  for (;;) {
    const slot = base + (<usize>i << 4);
    const k = load<u64>(slot);
    if (k == key || k == 0) return slot;
    i = (i + 1) & mask;
  }
  return 0; // not reached: tables never fill
}

@inline function crowded(count: u32, log: u32): bool {
  return <u64>count * MAX_LOAD_DEN >= (<u64>MAX_LOAD_NUM << <u64>log);
}

/**
 * Doubles a table that is the arena's last allocation: rehashes into fresh space above it,
 * then moves the result down over the old place. Returns the new log, or 0 when out of memory.
 */
function grow(base: usize, log: u32): u32 {
  const newLog = log + 1;
  const size: u64 = <u64>16 << newLog;
  const fresh = arenaAlloc(size);
  if (fresh == 0) return 0;
  notePeak();
  memory.fill(fresh, 0, <usize>size);
  const slots: u32 = <u32>1 << log;
  for (let i: u32 = 0; i < slots; i++) {
    const slot = base + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key == 0) continue;
    const to = findSlot(fresh, newLog, key);
    store<u64>(to, key);
    store<u64>(to, load<u64>(slot, 8), 8);
  }
  memory.copy(base, fresh, <usize>size);
  arenaRewind(base + <usize>size);
  return newLog;
}

/** A fresh table of 2^log empty slots at the top of the arena, or 0. */
function newTable(log: u32): usize {
  const base = arenaAlloc(<u64>16 << log);
  if (base != 0) memory.fill(base, 0, <usize>16 << log);
  notePeak();
  return base;
}

// ---- start -------------------------------------------------------------------------------

/** The state every search starts from: its mode, no nodes, no answer yet. */
function beginSearch(searchMode: i32): void {
  mode = searchMode;
  finished = false;
  chore = CHORE_NONE;
  nodes = 0;
  total = 0;
  outputLength = 0;
}

/**
 * Starts a search. SOLVE: `arg` is log2 of the most slots the dead-position table grows to. COUNT and MOVES:
 * log2 of the first table's slots (tables grow as needed within the memory limit).
 */
export function pegsStart(searchMode: i32, arg: i32): i32 {
  if (loadedGeneration != arenaGeneration()) return BAD_INPUT;
  if (arg < 4 || arg > 30 || searchMode < MODE_SOLVE || searchMode > MODE_MOVES) return BAD_INPUT;
  // Forget the tables of an earlier search on this problem (they sit above the loaded ones).
  arenaRewind(tablesTop);
  peakTop = tablesTop;
  beginSearch(searchMode);
  if (searchMode == MODE_SOLVE) return startSolve(<u32>arg);
  if (searchMode == MODE_COUNT) return startCount(<u32>arg);
  if (searchMode == MODE_MOVES) return startMoves(<u32>arg);
  return BAD_INPUT;
}

/**
 * Starts a search of another file on the loaded problem (MODE_MEET): its tables go above
 * the loaded ones. False when no problem is loaded.
 */
export function beginOther(searchMode: i32): bool {
  if (loadedGeneration != arenaGeneration()) return false;
  arenaRewind(tablesTop);
  peakTop = tablesTop;
  beginSearch(searchMode);
  return true;
}

export function pegsRun(budget: i32): i32 {
  if (loadedGeneration != arenaGeneration()) return BAD_INPUT;
  if (finished) return DONE;
  if (mode == MODE_SOLVE) return runSolve(budget);
  if (mode == MODE_COUNT) return runCount(budget);
  if (mode == MODE_MOVES) return runMoves(budget);
  if (mode == MODE_SHARD) return runShard(budget);
  return BAD_INPUT;
}

// ---- SOLVE -------------------------------------------------------------------------------

function startSolve(log: u32): i32 {
  deadMaxLog = log;
  deadLog = min<u32>(log, 16);
  deadCount = 0;
  deadBase = newTable(deadLog);
  if (deadBase == 0) return OUT_OF_MEMORY;
  return pegsRestart();
}

/**
 * Starts the depth-first search again from the start (in the jump order now in the order
 * region), keeping the positions already proved dead: restarts learn from each other.
 */
export function pegsRestart(): i32 {
  if (mode != MODE_SOLVE || loadedGeneration != arenaGeneration()) return BAD_INPUT;
  for (let k = 0; k < jumps; k++) if (get(ORDER, k) >= <u32>jumps) return BAD_INPUT;
  finished = false;
  depth = 0;
  set64(stackPos, 0, start);
  set(stackNext, 0, 0xffffffff); // not yet entered
  set(stackLive, 0, 0);
  return DONE;
}

function runSolve(budget: i32): i32 {
  while (depth >= 0) {
    const pos = get64(stackPos, depth);
    let next = get(stackNext, depth);
    if (next == 0xffffffff) {
      // Entering a position.
      if (isFinish(pos)) {
        for (let d = 0; d < depth; d++) { set(OUTPUT, d, get(stackJump, d)); set(stackLive, d, 1); }
        outputLength = depth;
        set(stackNext, depth, <u32>jumps); // resuming backtracks from here
        set(stackLive, depth, 1);
        return SOLUTION;
      }
      if (<i32>popcnt(pos) <= finishPegs || !hopeful(pos) || load<u64>(findSlot(deadBase, deadLog, canonical(pos))) != 0) {
        depth--;
        continue;
      }
      next = 0;
    }
    if (budget <= 0) { set(stackNext, depth, next); return MORE; }
    let k = <i32>next;
    while (k < jumps && !legal(pos, <i32>get(ORDER, k))) k++;
    if (k >= jumps) {
      // Exhausted: dead unless a solution was found below (the table is a cache: when it is
      // full it simply stops learning).
      if (get(stackLive, depth) == 0 && crowded(deadCount + 1, deadLog) && deadLog < deadMaxLog) {
        const grown = grow(deadBase, deadLog);
        if (grown == 0) deadMaxLog = deadLog; // out of memory: keep the table as it is
        else deadLog = grown;
      }
      if (get(stackLive, depth) == 0 && !crowded(deadCount + 1, deadLog)) {
        const slot = findSlot(deadBase, deadLog, canonical(pos));
        if (load<u64>(slot) == 0) { store<u64>(slot, canonical(pos)); deadCount++; }
      }
      depth--;
      continue;
    }
    budget--;
    nodes++;
    const j = <i32>get(ORDER, k);
    set(stackNext, depth, <u32>(k + 1));
    set(stackJump, depth, <u32>j);
    depth++;
    set64(stackPos, depth, pos ^ get64(jumpFlip, j));
    set(stackNext, depth, 0xffffffff);
    set(stackLive, depth, 0);
  }
  return DONE;
}

// ---- COUNT -------------------------------------------------------------------------------

function startCount(log: u32): i32 {
  tabLog = 4;
  tabBase = newTable(tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  store<u64>(findSlot(tabBase, tabLog, canonical(start)), canonical(start));
  store<u64>(findSlot(tabBase, tabLog, canonical(start)), 1, 8);
  tabCount = 1;
  nextLog = log;
  nextBase = newTable(nextLog);
  if (nextBase == 0) return OUT_OF_MEMORY;
  nextCount = 0;
  pregrowFailed = false;
  level = <i32>popcnt(start);
  scan = 0;
  const selfDual = finishes == 1 && get64(finishList, 0) == (~start & full);
  meetLevel = selfDual && level > (holes >> 1) ? holes >> 1 : -1;
  for (let i = 0; i < 72; i++) set64(OUTPUT, i, 0);
  outputLength = 65;
  set64(OUTPUT, level, 1);
  return level == finishPegs ? finishCount() : DONE;
}

/** The orbit totals of the finish positions in the current level's table. */
function finishTotal(): u64 {
  let sum: u64 = 0;
  const slots: u32 = <u32>1 << tabLog;
  for (let i: u32 = 0; i < slots; i++) {
    const slot = tabBase + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key != 0 && isFinish(key)) sum += load<u64>(slot, 8);
  }
  return sum;
}

/** Sums the orbit totals of the finish positions in the current level. */
function finishCount(): i32 {
  total = finishTotal();
  level = finishPegs;
  finished = true;
  return DONE;
}

/**
 * Solutions = the sum over positions p of the middle level of paths(p) · paths(~p). Per orbit
 * R: F(R) · F(~R) / |R|, and F(~R) / |R| is exact because |~R| = |R|. With an odd number
 * of holes ~p is one level up (the table just expanded), with an even number on the same level.
 */
function meetTotal(upper: usize, upperLog: u32): u64 {
  return meetSum(upper, upperLog, 0, <u32>1 << nextLog);
}

/** meetTotal over the slots from `first` up to `end` of the middle level's table. */
function meetSum(upper: usize, upperLog: u32, first: u32, end: u32): u64 {
  let sum: u64 = 0;
  for (let i: u32 = first; i < end; i++) {
    const slot = nextBase + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key == 0) continue;
    const other = findSlot(upper, upperLog, canonical(~key & full));
    if (load<u64>(other) == 0) continue;
    let fixed: u32 = 1;
    for (let s = 1; s < syms; s++) if (imageOf(s, key) == key) fixed++;
    sum += load<u64>(slot, 8) * (load<u64>(other, 8) / <u64>(<u32>syms / fixed));
  }
  return sum;
}

/**
 * Adds the children of a position reached by `paths` jump sequences to the next level's table
 * (the arena's last allocation, grown as needed). False when out of memory.
 */
function expand(key: u64, paths: u64): bool {
  keepImages(key);
  for (let j = 0; j < jumps; j++) {
    if (!legal(key, j)) continue;
    const child = childCanonical(j);
    let to = findSlot(nextBase, nextLog, child);
    if (load<u64>(to) == 0) {
      // Children the pagodas rule out are never stored.
      if (!hopeful(child)) continue;
      if (crowded(nextCount + 1, nextLog)) {
        const grown = grow(nextBase, nextLog);
        if (grown == 0) return false;
        nextLog = grown;
        to = findSlot(nextBase, nextLog, child);
      }
      store<u64>(to, child);
      nextCount++;
    }
    store<u64>(to, load<u64>(to, 8) + paths, 8);
  }
  return true;
}

// COUNT's long table work (a table's growth, a finished level moving down, the final sums)
// runs as chores in pieces between nodes, so that no pegsRun call does more than its budget:
// a unit of budget is CHORE_SLOTS slots of such work.
const CHORE_NONE: i32 = 0;
const CHORE_GROW_FILL: i32 = 1;   // clear the doubled table above the next level's
const CHORE_GROW_REHASH: i32 = 2; // move the next level's pairs into it
const CHORE_GROW_COPY: i32 = 3;   // move it down over the old place
const CHORE_LEVEL_COPY: i32 = 4;  // the finished next level moves down over the expanded one
const CHORE_LEVEL_FILL: i32 = 5;  // clear the following level's table
const CHORE_FINISH_SUM: i32 = 6;  // sum the paths of the finish positions
const CHORE_MEET_SUM: i32 = 7;    // sum over the middle level (meetTotal)
// Slots of chore work per unit of budget, about a node's time each: copies and fills are
// sequential, rehashing and summing probe at random, the middle sum also finds canonical forms.
const BULK_SLOTS: u64 = 512;
const PROBE_SLOTS: u64 = 64;
const MEET_SLOTS: u64 = 8;
let chore: i32 = CHORE_NONE;
let choreAt: u64 = 0;       // slots (or bytes, for fills and copies) done
let choreFresh: usize = 0;  // the doubled table
let choreSum: u64 = 0;
let choreUsed: i32 = 0;     // budget the last piece used
let pregrowFailed: bool = false; // no room to grow ahead: expand() grows if it must (and fails then)

/** Units of budget for `work` slots at `perUnit` slots a unit (at least 1). */
@inline function unitsFor(work: u64, perUnit: u64): i32 {
  return <i32>max<u64>(1, (work + perUnit - 1) / perUnit);
}

/**
 * One piece of the current chore, of at most `budget` units (choreUsed tells how many it
 * took). True when the chore is done.
 */
function chorePiece(budget: i32): bool {
  const allowed: u64 = <u64>max(budget, 1);
  if (chore == CHORE_GROW_FILL || chore == CHORE_LEVEL_FILL || chore == CHORE_GROW_COPY || chore == CHORE_LEVEL_COPY) {
    const fill = chore == CHORE_GROW_FILL || chore == CHORE_LEVEL_FILL;
    const doubled = chore == CHORE_GROW_FILL || chore == CHORE_GROW_COPY;
    const size: u64 = <u64>16 << (doubled ? nextLog + 1 : nextLog);
    const bytes = min<u64>(size - choreAt, (allowed * BULK_SLOTS) << 4);
    if (fill) {
      memory.fill((chore == CHORE_GROW_FILL ? choreFresh : nextBase) + <usize>choreAt, 0, <usize>bytes);
    } else {
      // Forward, in pieces: the source lies above the destination, so nothing is overwritten unread.
      const to = chore == CHORE_GROW_COPY ? nextBase : tabBase;
      const from = chore == CHORE_GROW_COPY ? choreFresh : nextBase;
      memory.copy(to + <usize>choreAt, from + <usize>choreAt, <usize>bytes);
    }
    choreAt += bytes;
    choreUsed = unitsFor(bytes >> 4, BULK_SLOTS);
    return choreAt >= size;
  }
  if (chore == CHORE_GROW_REHASH) {
    const slots: u64 = <u64>1 << nextLog;
    const end = min<u64>(slots, choreAt + allowed * PROBE_SLOTS);
    for (let i = choreAt; i < end; i++) {
      const slot = nextBase + (<usize>i << 4);
      const key = load<u64>(slot);
      if (key == 0) continue;
      const to = findSlot(choreFresh, nextLog + 1, key);
      store<u64>(to, key);
      store<u64>(to, load<u64>(slot, 8), 8);
    }
    choreUsed = unitsFor(end - choreAt, PROBE_SLOTS);
    choreAt = end;
    return end >= slots;
  }
  // The sums: finish positions of the current level, or the middle level against its complements.
  const meet = chore == CHORE_MEET_SUM;
  const perUnit = meet ? MEET_SLOTS : PROBE_SLOTS;
  const slots: u64 = <u64>1 << (meet ? nextLog : tabLog);
  const end = min<u64>(slots, choreAt + allowed * perUnit);
  if (meet) {
    const upper = holes - level == level ? nextBase : tabBase;
    const upperLog = holes - level == level ? nextLog : tabLog;
    choreSum += meetSum(upper, upperLog, <u32>choreAt, <u32>end);
  } else {
    for (let i = choreAt; i < end; i++) {
      const slot = tabBase + (<usize>i << 4);
      const key = load<u64>(slot);
      if (key != 0 && isFinish(key)) choreSum += load<u64>(slot, 8);
    }
  }
  choreUsed = unitsFor(end - choreAt, perUnit);
  choreAt = end;
  return end >= slots;
}

@inline function startChore(kind: i32): void {
  chore = kind;
  choreAt = 0;
}

/** What follows a finished chore: MORE to go on, or the search's end. */
function afterChore(): i32 {
  const done = chore;
  chore = CHORE_NONE;
  if (done == CHORE_GROW_FILL) {
    startChore(CHORE_GROW_REHASH);
  } else if (done == CHORE_GROW_REHASH) {
    startChore(CHORE_GROW_COPY);
  } else if (done == CHORE_GROW_COPY) {
    nextLog++;
    arenaRewind(nextBase + (<usize>16 << nextLog));
  } else if (done == CHORE_LEVEL_COPY) {
    const size: usize = <usize>16 << nextLog;
    tabLog = nextLog;
    tabCount = nextCount;
    arenaRewind(tabBase + size);
    if (level == finishPegs || tabCount == 0) {
      choreSum = 0;
      startChore(CHORE_FINISH_SUM);
      return MORE;
    }
    // Start the following level's table at the size of this one.
    nextBase = arenaAlloc(<u64>size);
    notePeak();
    if (nextBase == 0) return OUT_OF_MEMORY;
    nextCount = 0;
    scan = 0;
    pregrowFailed = false;
    startChore(CHORE_LEVEL_FILL);
  } else if (done == CHORE_FINISH_SUM) {
    total = choreSum;
    level = finishPegs;
    finished = true;
    return DONE;
  } else if (done == CHORE_MEET_SUM) {
    total = choreSum;
    finished = true;
    return DONE;
  }
  return MORE;
}

function runCount(budget: i32): i32 {
  for (;;) {
    if (chore != CHORE_NONE) {
      if (budget <= 0) return MORE;
      const finishedChore = chorePiece(budget);
      budget -= choreUsed;
      if (!finishedChore) return MORE;
      const status = afterChore();
      if (status != MORE) return status;
      continue;
    }
    if (level <= finishPegs) return DONE;
    const slots: u32 = <u32>1 << tabLog;
    while (scan < slots) {
      if (budget <= 0) return MORE;
      const slot = tabBase + (<usize>scan << 4);
      const key = load<u64>(slot);
      if (key != 0 && !pregrowFailed && crowded(nextCount + <u32>jumps, nextLog)) {
        // This position's children could crowd the table: grow it first, as chores.
        choreFresh = arenaAlloc(<u64>16 << (nextLog + 1));
        if (choreFresh != 0) {
          notePeak();
          startChore(CHORE_GROW_FILL);
          break;
        }
        pregrowFailed = true;
      }
      scan++;
      if (key == 0) continue;
      budget--;
      nodes++;
      if (!expand(key, load<u64>(slot, 8))) return OUT_OF_MEMORY;
    }
    if (chore != CHORE_NONE) continue;
    // The level is done: the next level moves down into the place of this one.
    level--;
    set64(OUTPUT, level, <u64>nextCount);
    choreSum = 0;
    startChore(level == meetLevel ? CHORE_MEET_SUM : CHORE_LEVEL_COPY);
  }
  return DONE;
}

// ---- MOVES -------------------------------------------------------------------------------

// The MOVES table packs a slot into one u64: the position in the low 48 bits (boards of up
// to 48 holes), its distance from each side in the top two bytes (0xff: not reached).
export const MAX_MOVES_HOLES: i32 = 48;
const POSITION_BITS: u64 = (<u64>1 << 48) - 1;

@inline export function distance(slot: usize, s: i32): u32 {
  return <u32>((load<u64>(slot) >> (48 + (<u64>s << 3))) & 0xff);
}

/** The slot of a position in the MOVES table: its own, or the empty one it would take. */
@inline export function movesSlot(key: u64): usize {
  const mask: u32 = (<u32>1 << tabLog) - 1;
  let i = slotIndex(key, tabLog);
  for (;;) {
    const slot = tabBase + (<usize>i << 3);
    const k = load<u64>(slot);
    if (k == 0 || (k & POSITION_BITS) == key) return slot;
    i = (i + 1) & mask;
  }
  return 0; // not reached: tables never fill
}

/** Doubles the MOVES table (the arena's last allocation), as grow() does for wide slots. */
function growMoves(): bool {
  const newLog = tabLog + 1;
  const size: u64 = <u64>8 << newLog;
  const fresh = arenaAlloc(size);
  if (fresh == 0) return false;
  notePeak();
  memory.fill(fresh, 0, <usize>size);
  const slots: u32 = <u32>1 << tabLog;
  const newMask: u32 = (<u32>1 << newLog) - 1;
  for (let i: u32 = 0; i < slots; i++) {
    const entry = load<u64>(tabBase + (<usize>i << 3));
    if (entry == 0) continue;
    let j = slotIndex(entry & POSITION_BITS, newLog);
    while (load<u64>(fresh + (<usize>j << 3)) != 0) j = (j + 1) & newMask;
    store<u64>(fresh + (<usize>j << 3), entry);
  }
  memory.copy(tabBase, fresh, <usize>size);
  arenaRewind(tabBase + <usize>size);
  tabLog = newLog;
  return true;
}

/** Records `pos` (canonical) at distance d on side s; false when out of memory. */
function visit(key: u64, s: i32, d: u32): bool {
  let slot = movesSlot(key);
  if (load<u64>(slot) == 0) {
    if (crowded(tabCount + 1, tabLog)) {
      // In a search's walk the table grows as chores (runMoves), and the walk resumes here.
      if (deferGrowth) { needGrowth = true; return false; }
      if (!growMoves()) return false;
      grewDuringScan = true;
      slot = movesSlot(key);
    }
    store<u64>(slot, key | (<u64>0xffff << 48));
    tabCount++;
  }
  if (d < distance(slot, s)) {
    const shift = 48 + (<u64>s << 3);
    store<u64>(slot, (load<u64>(slot) & ~(<u64>0xff << shift)) | (<u64>d << shift));
  }
  return true;
}

/** The distance of a position (any image) from side s, or UNSEEN. */
function seen(pos: u64, s: i32): u32 {
  const slot = movesSlot(canonical(pos));
  return load<u64>(slot) == 0 ? UNSEEN : distance(slot, s);
}

// MOVES from the finishes' side only (the perimeter of assembly/pegsFewest.ts), for the
// next MOVES search only.
let backwardOnly: bool = false;
let backwardNext: bool = false;
/** The next MOVES search grows the finishes' side only (exact distances to the finish). */
export function pegsMovesBackwardOnly(): void { backwardNext = true; }

function startMoves(log: u32): i32 {
  backwardOnly = backwardNext;
  backwardNext = false;
  if (holes > MAX_MOVES_HOLES) return BAD_INPUT;
  tabLog = log;
  tabBase = arenaAlloc(<u64>8 << tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  notePeak();
  memory.fill(tabBase, 0, <usize>8 << tabLog);
  tabCount = 0;
  best = 0x7fffffff;
  depthA = 0;
  depthB = 0;
  if (!visit(canonical(start), 0, 0)) return OUT_OF_MEMORY;
  frontA = 1;
  frontB = <u64>finishes;
  for (let f = 0; f < finishes; f++) if (!visit(canonical(~get64(finishList, f) & full), 1, 0)) return OUT_OF_MEMORY;
  if (isFinish(start)) {
    best = 0;
    meetPos = start;
    meetSide = 0;
    return finishMoves();
  }
  beginLevel();
  return DONE;
}

function beginLevel(): void {
  side = backwardOnly || frontA > frontB ? 1 : 0;
  scan = 0;
  frontNew = 0;
  grewDuringScan = false;
}

// What walkMoves does with each position a move reaches.
const REACH: i32 = 0;  // record it at distance target on `side` (arrive)
const FIND: i32 = 1;   // stop at the first whose complement is at distance target on findSide
let target: u32 = 0;
let findSide: i32 = 0;
let found: u64 = 0;

/**
 * Every position one move (a chain of jumps by one peg) after `pos`, by an explicit stack of
 * (position, the moving peg's hole, its next jump). False when REACH ran out of memory or
 * FIND found its position.
 */
function walkMoves(pos: u64, purpose: i32, reverse: bool): bool {
  chainReverse = reverse;
  keepImages(pos);
  return walkFrom(pos, purpose, 0, -1);
}

// A REACH walk stopped for the table to grow: where to resume it.
let deferGrowth: bool = false; // visit() asks for growth (needGrowth) instead of growing
let needGrowth: bool = false;
let walkPos: u64 = 0;
let walkJump: i32 = 0;
let walkTop: i32 = -1;

/**
 * walkMoves from the first jump `first`; with `resumeTop` >= 0 it resumes a walk stopped at
 * that chain depth (whose arrival is made again: it stopped before changing anything).
 */
function walkFrom(pos: u64, purpose: i32, first: i32, resumeTop: i32): bool {
  const starts = chainReverse ? toStart : fromStart;
  const list = chainReverse ? byTo : byFrom;
  for (let j = first; j < jumps; j++) {
    let top = 0;
    if (resumeTop >= 0) {
      top = resumeTop;
      resumeTop = -1;
      const images = chainImages + (<usize>(top * MAX_SYMS) << 3);
      if (!arrive(get64(chainPos, top), target, 1 - side, images)) return stopWalk(pos, j, top);
    } else {
      if (!legal(pos, j)) continue;
      if (!pushChain(0, pos ^ get64(jumpFlip, j), j, purpose)) return stopWalk(pos, j, 0);
    }
    while (top >= 0) {
      const here = get64(chainPos, top);
      const end = get(starts, get(chainPeg, top) + 1);
      let k = get(chainNext, top);
      while (k < end && !legal(here, <i32>get(list, <i32>k))) k++;
      if (k >= end) { top--; continue; }
      set(chainNext, top, k + 1);
      const next = <i32>get(list, <i32>k);
      top++;
      if (!pushChain(top, here ^ get64(jumpFlip, next), next, purpose)) return stopWalk(pos, j, top);
    }
  }
  return true;
}

/** Keeps where a walk stopped (for growth; FIND's stops and running out of memory never resume). */
function stopWalk(pos: u64, j: i32, top: i32): bool {
  walkPos = pos;
  walkJump = j;
  walkTop = top;
  return false;
}

// The hole the next jump of the chain is anchored at: where the peg landed (forward), or
// where the jump started (reverse).
let chainReverse: bool = false;

@inline function pushChain(top: i32, pos: u64, j: i32, purpose: i32): bool {
  const peg = chainReverse ? get(jumpFrom, j) : get(jumpLand, j);
  set64(chainPos, top, pos);
  set(chainPeg, top, peg);
  set(chainNext, top, get(chainReverse ? toStart : fromStart, peg));
  // The images of the new position: those of the last one, each with the jump's image flipped.
  const before = top == 0 ? images : chainImages + (<usize>((top - 1) * MAX_SYMS) << 3);
  const after = chainImages + (<usize>(top * MAX_SYMS) << 3);
  for (let s = 0; s < syms; s++) set64(after, s, get64(before, s) ^ get64(jumpImage, s * jumps + j));
  if (purpose == REACH) return arrive(pos, target, 1 - side, after);
  const back = ~pos & full;
  if (seen(back, findSide) == target) { found = back; return false; }
  return true;
}

/** A position reached at distance d: record it and look for the other side. */
function arrive(child: u64, d: u32, other: i32, imagesOfChild: usize): bool {
  if (!hopefulFor(child)) return true;
  // Its least image and its complement's (the complement of an image is the image of the complement).
  let key = child;
  let complement = ~child & full;
  for (let s = 1; s < syms; s++) {
    const image = get64(imagesOfChild, s);
    key = min<u64>(key, image);
    complement = min<u64>(complement, ~image & full);
  }
  const before = movesSlot(key);
  const known = load<u64>(before) != 0 && distance(before, side) <= d;
  if (!known) {
    if (!visit(key, side, d)) return false;
    frontNew++;
  }
  const slot = movesSlot(complement);
  const there = load<u64>(slot) == 0 ? UNSEEN : distance(slot, other);
  if (there != UNSEEN && <i32>(d + there) < best) {
    best = <i32>(d + there);
    meetPos = child;
    meetSide = side;
  }
  return true;
}

/** Pagodas judge positions of the start's side; the finish side plays on complements. */
@inline function hopefulFor(pos: u64): bool {
  return side == 0 ? hopeful(pos) : true;
}

// The MOVES table grows as chores too: clear the doubled table, rehash, move it down.
const CHORE_MOVES_FILL: i32 = 8;
const CHORE_MOVES_REHASH: i32 = 9;
const CHORE_MOVES_COPY: i32 = 10;

/** One piece of the MOVES table's growth (choreUsed: the budget it took). True when done. */
function movesChorePiece(budget: i32): bool {
  const allowed: u64 = <u64>max(budget, 1);
  const size: u64 = <u64>8 << (tabLog + 1);
  if (chore == CHORE_MOVES_REHASH) {
    const slots: u64 = <u64>1 << tabLog;
    const end = min<u64>(slots, choreAt + allowed * PROBE_SLOTS);
    const newLog = tabLog + 1;
    const newMask: u32 = (<u32>1 << newLog) - 1;
    for (let i = choreAt; i < end; i++) {
      const entry = load<u64>(tabBase + (<usize>i << 3));
      if (entry == 0) continue;
      let j = slotIndex(entry & POSITION_BITS, newLog);
      while (load<u64>(choreFresh + (<usize>j << 3)) != 0) j = (j + 1) & newMask;
      store<u64>(choreFresh + (<usize>j << 3), entry);
    }
    choreUsed = unitsFor(end - choreAt, PROBE_SLOTS);
    choreAt = end;
    return end >= slots;
  }
  const bytes = min<u64>(size - choreAt, (allowed * BULK_SLOTS) << 3);
  if (chore == CHORE_MOVES_FILL) memory.fill(choreFresh + <usize>choreAt, 0, <usize>bytes);
  // Forward, in pieces: the source lies above the destination, so nothing is overwritten unread.
  else memory.copy(tabBase + <usize>choreAt, choreFresh + <usize>choreAt, <usize>bytes);
  choreAt += bytes;
  choreUsed = unitsFor(bytes >> 3, BULK_SLOTS);
  return choreAt >= size;
}

/** Starts growing the MOVES table for a walk that stopped; false when out of memory. */
function startMovesGrowth(): bool {
  choreFresh = arenaAlloc(<u64>8 << (tabLog + 1));
  if (choreFresh == 0) return false;
  notePeak();
  startChore(CHORE_MOVES_FILL);
  return true;
}

/** A REACH walk of the search: growth is deferred to chores. 1 done, 0 out of memory, -1 stopped to grow. */
function searchWalk(resume: bool, key: u64): i32 {
  deferGrowth = true;
  needGrowth = false;
  let ok: bool;
  if (resume) {
    chainReverse = side == 1;
    keepImages(walkPos);
    ok = walkFrom(walkPos, REACH, walkJump, walkTop);
  } else {
    ok = walkMoves(key, REACH, side == 1);
  }
  deferGrowth = false;
  if (ok) return 1;
  if (!needGrowth) return 0;
  return startMovesGrowth() ? -1 : 0;
}

function runMoves(budget: i32): i32 {
  for (;;) {
    if (chore != CHORE_NONE) {
      if (budget <= 0) return MORE;
      const finishedChore = movesChorePiece(budget);
      budget -= choreUsed;
      if (!finishedChore) return MORE;
      if (chore == CHORE_MOVES_FILL) { startChore(CHORE_MOVES_REHASH); continue; }
      if (chore == CHORE_MOVES_REHASH) { startChore(CHORE_MOVES_COPY); continue; }
      chore = CHORE_NONE;
      tabLog++;
      arenaRewind(tabBase + (<usize>8 << tabLog));
      grewDuringScan = true;
      // The walk that stopped goes on where it stopped.
      const walked = searchWalk(true, 0);
      if (walked == 0) return OUT_OF_MEMORY;
      if (walked < 0) continue;
      if (grewDuringScan) {
        // Growth moved every slot: scan again (positions done are found again, harmlessly).
        grewDuringScan = false;
        scan = 0;
      }
    }
    const slots: u32 = <u32>1 << tabLog;
    const d: u32 = <u32>(side == 0 ? depthA : depthB);
    let skipped = 0;
    while (scan < slots) {
      if (budget <= 0) return MORE;
      const slot = tabBase + (<usize>scan << 3);
      scan++;
      const entry = load<u64>(slot);
      if (entry == 0 || distance(slot, side) != d) {
        // Slots of other levels cost budget too, or a scan of a large table overruns its slice.
        if (++skipped == <i32>PROBE_SLOTS) { skipped = 0; budget--; }
        continue;
      }
      const key = entry & POSITION_BITS;
      budget--;
      nodes++;
      target = d + 1;
      const walked = searchWalk(false, key);
      if (walked == 0) return OUT_OF_MEMORY;
      if (walked < 0) break;
      if (grewDuringScan) {
        // Growth moved every slot: scan again (positions done are found again, harmlessly).
        grewDuringScan = false;
        scan = 0;
        break;
      }
    }
    if (chore != CHORE_NONE) continue;
    if (scan < (<u32>1 << tabLog)) continue;
    if (side == 0) { depthA++; frontA = frontNew; } else { depthB++; frontB = frontNew; }
    if (best != 0x7fffffff) return finishMoves();
    if (frontNew == 0) { finished = true; return DONE; } // a side ran dry: no solution
    beginLevel();
  }
  return DONE;
}

/** Writes the positions of a shortest solution to the output region. */
function finishMoves(): i32 {
  // Walk back from the meeting position to each side's root.
  const a = meetSide == 0 ? meetPos : (~meetPos & full); // in the start's space
  const b = ~a & full;                                     // in the finishes' complement space
  const sideB = 1;
  const da = <i32>seen(a, 0);
  const db = <i32>seen(b, sideB);
  // Start side: a, then predecessors back to the start, stored reversed.
  let pos = a;
  set64(OUTPUT, da, pos);
  for (let d = da; d > 0; d--) {
    pos = predecessor(pos, <u32>(d - 1), 0);
    set64(OUTPUT, d - 1, pos);
  }
  // Finish side: b back to a complement of a finish; complements run forwards to the finish.
  pos = b;
  for (let d = db; d > 0; d--) {
    pos = predecessor(pos, <u32>(d - 1), sideB);
    set64(OUTPUT, da + db - d + 1, ~pos & full);
  }
  outputLength = da + db + 1;
  best = da + db;
  finished = true;
  return DONE;
}

/**
 * A position one move before `pos` at distance d on side s. Moves backwards are moves
 * forwards on the complement, so the candidates are the complements of ~pos's children.
 */
function predecessor(pos: u64, d: u32, s: i32): u64 {
  target = d;
  findSide = s;
  found = 0;
  // Undoing a start-side move is a reverse chain on the complement; undoing a finish-side
  // move (itself a reverse chain on complements) is a forward chain.
  walkMoves(~pos & full, FIND, s == 0);
  return found; // never 0: every recorded position has a predecessor one level nearer
}

// ---- SHARDS: counting on several threads -------------------------------------------------
//
// The same dynamic programming as COUNT, cut by a hash of the canonical position into
// `shards` parts per level. A task owns one part of one level: it merges the (position,
// paths) pairs other tasks sent it into a table (summing the paths of equal positions),
// expands every position, and writes the children's pairs bucketed by the shard that owns
// them (each bucket deduplicated, sums exact). Each thread holds only its part of a level.
// The host writes the pairs into the staging region (pegsShardInput), then pegsShardStart
// and pegsRun(budget) until DONE; the buckets are at pegsShardPairs, delimited by
// pegsShardOffsets. Kinds:
//   EXPAND  merge A, expand into the next level, write buckets (what they hold: `route`)
//   MEET    merge A (the upper level of the middle) and B (the middle level, routed by the
//           owner of the complement): total = sum over B of paths(q) · paths(~q) / |orbit|
//   FINISH  merge A (the finish level): total = the paths of the finish positions
export const SHARD_EXPAND: i32 = 0;
export const SHARD_MEET: i32 = 1;
export const SHARD_FINISH: i32 = 2;
// JOIN  merge A (one side's middle level), then stream B (the other side's middle level,
//       routed by the owner of the complement): total = sum over B's pairs of
//       paths(q) · paths(~q) / |orbit| (duplicates in B simply add up: no table for B)
export const SHARD_JOIN: i32 = 3;
// Route bits: which buckets an EXPAND writes, in this order, `shards` buckets each.
export const ROUTE_CHILDREN: i32 = 1;   // the children, by the owner of their canonical form
export const ROUTE_COMPLEMENT: i32 = 2; // the children, by the owner of their complement's
export const ROUTE_TABLE: i32 = 4;      // the merged level itself, by owner
const MAX_SHARDS: i32 = 1024;

let shardKind: i32 = 0;
let shardCount: i32 = 1;
let shardRoute: i32 = 0;
let staging: usize = 0;
let stagedA: u32 = 0;
let stagedB: u32 = 0;
let mergeAt: u32 = 0;
let shardPhase: i32 = 0; // 0: merging A, 1: expanding, 2: merging B
let bucketOffsets: usize = 0; // (buckets + 1) × u32, in pairs
let bucketPairs: usize = 0;   // pairs × (u64 position, u64 paths)
let distinct: u32 = 0;

/** The shard that owns a canonical position (a hash unrelated to the tables' slot hash). */
@inline function ownerOf(key: u64): i32 {
  const h = (key ^ (key >> 31)) * 0xbf58476d1ce4e5b9;
  return <i32>(<u32>(h >> 32) % <u32>shardCount);
}

/** Staging room for `a` + `b` pairs after a load: a pointer the host writes them at, or 0. */
export function pegsShardInput(a: u32, b: u32): usize {
  if (loadedGeneration != arenaGeneration()) return 0;
  arenaRewind(tablesTop);
  peakTop = tablesTop;
  mode = -1;
  stagedA = a;
  stagedB = b;
  staging = alloc((<u64>a + <u64>b) << 4);
  notePeak();
  return staging;
}

/** The log of a table that holds n positions without growing. */
function logFor(n: u32): u32 {
  let log: u32 = 4;
  while (crowded(n + 1, log)) log++;
  return log;
}

/**
 * Starts a shard task on the staged pairs: `level` the pegs of the positions in A, `seed` 1 to
 * add the start position (paths 1) to A; `hintA` and `hintB` size the first tables (the
 * largest piece of each: a lower bound of the positions). DONE, or OUT_OF_MEMORY / BAD_INPUT.
 * The tables grow as they fill; once A is merged, an EXPAND moves its table down over the
 * staged pairs, so the staging room is given back before the expansion.
 */
export function pegsShardStart(kind: i32, level_: i32, shards: i32, route: i32, seed: i32, hintA: u32, hintB: u32, capLog_: i32): i32 {
  if (loadedGeneration != arenaGeneration() || staging == 0) return BAD_INPUT;
  if (kind < SHARD_EXPAND || kind > SHARD_JOIN || shards < 1 || shards > MAX_SHARDS || route < 0 || route > 7) return BAD_INPUT;
  if (hintA > stagedA || hintB > stagedB || capLog_ < 8 || capLog_ > 30) return BAD_INPUT;
  capLog = <u32>capLog_;
  flushed = false;
  beginSearch(MODE_SHARD);
  shardKind = kind;
  shardCount = shards;
  shardRoute = route;
  level = level_;
  distinct = 0;
  bucketOffsets = 0;
  bucketPairs = 0;
  hintMiddle = hintB;
  tabLog = logFor(hintA + 1);
  tabBase = newTable(tabLog);
  if (tabBase == 0) return OUT_OF_MEMORY;
  tabCount = 0;
  nextCount = 0;
  if (seed != 0) {
    const key = canonical(start);
    const slot = findSlot(tabBase, tabLog, key);
    store<u64>(slot, key);
    store<u64>(slot, 1, 8);
    tabCount = 1;
  }
  mergeAt = 0;
  shardPhase = 0;
  scan = 0;
  return DONE;
}
let hintMiddle: u32 = 0;
let capLog: u32 = 30;   // the expansion's table stops growing here: its pairs are sent (SOLUTION) and it starts empty
let flushed: bool = false;

export function pegsShardOffsets(): usize { return bucketOffsets; }
export function pegsShardPairs(): usize { return bucketPairs; }
/** Buckets written by the last EXPAND. */
export function pegsShardBuckets(): i32 { return outputLength; }
/** Positions in the merged level (MEET: in the middle level). */
export function pegsShardDistinct(): u32 { return distinct; }

/**
 * Merges staged pairs up to `end` into the table of the arena's top (tabBase or nextBase, by
 * `intoNext`), growing it. False when out of memory.
 */
function mergeInto(intoNext: bool, end: u32, budget: i32): bool {
  let base = intoNext ? nextBase : tabBase;
  let log = intoNext ? nextLog : tabLog;
  let count = intoNext ? nextCount : tabCount;
  let i = mergeAt;
  let left = budget;
  let ok = true;
  while (i < end && left > 0) {
    const pair = staging + (<usize>i << 4);
    const key = load<u64>(pair);
    let slot = findSlot(base, log, key);
    if (load<u64>(slot) == 0) {
      if (crowded(count + 1, log)) {
        const grown = grow(base, log);
        if (grown == 0) { ok = false; break; }
        log = grown;
        slot = findSlot(base, log, key);
      }
      store<u64>(slot, key);
      count++;
    }
    store<u64>(slot, load<u64>(slot, 8) + load<u64>(pair, 8), 8);
    i++;
    left--;
  }
  mergeAt = i;
  if (intoNext) { nextLog = log; nextCount = count; } else { tabLog = log; tabCount = count; }
  return ok;
}

function runShard(budget: i32): i32 {
  if (shardPhase == 0) {
    if (!mergeInto(false, stagedA, budget)) return OUT_OF_MEMORY;
    if (mergeAt < stagedA) return MORE;
    distinct = tabCount;
    if (shardKind == SHARD_JOIN) {
      shardPhase = 3;
      return MORE;
    }
    if (shardKind == SHARD_FINISH || level <= finishPegs) {
      total = finishTotal();
      finished = true;
      return DONE;
    }
    if (shardKind == SHARD_MEET) {
      nextLog = logFor(hintMiddle + 1);
      nextBase = newTable(nextLog);
      if (nextBase == 0) return OUT_OF_MEMORY;
      nextCount = 0;
      shardPhase = 2;
      return MORE;
    }
    // The staged pairs are merged: the table moves down over them.
    const size: usize = <usize>16 << tabLog;
    memory.copy(staging, tabBase, size);
    tabBase = staging;
    arenaRewind(tabBase + size);
    nextLog = tabLog;
    nextBase = newTable(nextLog);
    if (nextBase == 0) return OUT_OF_MEMORY;
    nextCount = 0;
    shardPhase = 1;
    return MORE;
  }
  if (shardPhase == 2) {
    if (!mergeInto(true, stagedA + stagedB, budget)) return OUT_OF_MEMORY;
    if (mergeAt < stagedA + stagedB) return MORE;
    distinct = nextCount;
    // The middle level (B) against the level above it or beside it (A).
    total = meetTotal(tabBase, tabLog);
    finished = true;
    return DONE;
  }
  if (shardPhase == 3) {
    // JOIN: B's pairs against the merged A, a piece of the budget at a time.
    const end = stagedA + stagedB;
    let i = mergeAt;
    for (let left = budget; i < end && left > 0; i++, left--) {
      const pair = staging + (<usize>i << 4);
      const key = load<u64>(pair);
      const other = findSlot(tabBase, tabLog, canonical(~key & full));
      if (load<u64>(other) == 0) continue;
      let fixed: u32 = 1;
      for (let s = 1; s < syms; s++) if (imageOf(s, key) == key) fixed++;
      total += load<u64>(pair, 8) * (load<u64>(other, 8) / <u64>(<u32>syms / fixed));
      nodes++;
    }
    mergeAt = i;
    if (i < end) return MORE;
    finished = true;
    return DONE;
  }
  // Phase 1: expand, as runCount does.
  if (flushed) {
    // The host has read the last batch: empty the table and go on.
    const size: usize = <usize>16 << nextLog;
    arenaRewind(nextBase + size);
    memory.fill(nextBase, 0, size);
    nextCount = 0;
    outputLength = 0;
    flushed = false;
  }
  const slots: u32 = <u32>1 << tabLog;
  while (scan < slots) {
    if (budget <= 0) return MORE;
    const slot = tabBase + (<usize>scan << 4);
    const key = load<u64>(slot);
    if (key != 0 && nextCount > 0 && nextLog >= capLog && crowded(nextCount + <u32>jumps, nextLog)) {
      // At the cap: send this batch (the owners sum equal positions anyway).
      flushed = true;
      const status = writeBuckets(false);
      return status == DONE ? SOLUTION : status;
    }
    scan++;
    if (key == 0) continue;
    budget--;
    nodes++;
    if (!expand(key, load<u64>(slot, 8))) return OUT_OF_MEMORY;
  }
  const status = writeBuckets(true);
  if (status == DONE) finished = true;
  return status;
}

/**
 * Writes the buckets the route asks for: counts first, then the pairs in place. The merged
 * level's group (ROUTE_TABLE) is written with the last batch only.
 */
function writeBuckets(last: bool): i32 {
  let groups = 0;
  for (let r = 0; r < 3; r++) if ((shardRoute >> r) & 1) groups++;
  const buckets = groups * shardCount;
  let pairs: u64 = 0;
  if (shardRoute & ROUTE_CHILDREN) pairs += nextCount;
  if (shardRoute & ROUTE_COMPLEMENT) pairs += nextCount;
  if ((shardRoute & ROUTE_TABLE) && last) pairs += tabCount;
  bucketOffsets = alloc(<u64>(buckets + 1) << 2);
  bucketPairs = alloc(pairs << 4);
  notePeak();
  if (bucketOffsets == 0 || bucketPairs == 0) return OUT_OF_MEMORY;
  memory.fill(bucketOffsets, 0, <usize>(buckets + 1) << 2);
  // Pass 0 counts into offsets[b + 1]; pass 1 places each pair at offsets[b]++ (then the
  // offsets are restored by shifting).
  for (let pass = 0; pass < 2; pass++) {
    let group = 0;
    for (let r = 0; r < 3; r++) {
      if (((shardRoute >> r) & 1) == 0) continue;
      if (r == 2 && !last) { group++; continue; }
      const base = r == 2 ? tabBase : nextBase;
      const slots: u32 = <u32>1 << (r == 2 ? tabLog : nextLog);
      for (let i: u32 = 0; i < slots; i++) {
        const slot = base + (<usize>i << 4);
        const key = load<u64>(slot);
        if (key == 0) continue;
        const b = group * shardCount + ownerOf(r == 1 ? canonical(~key & full) : key);
        if (pass == 0) { set(bucketOffsets, b + 1, get(bucketOffsets, b + 1) + 1); continue; }
        const at = get(bucketOffsets, b);
        set(bucketOffsets, b, at + 1);
        const out = bucketPairs + (<usize>at << 4);
        store<u64>(out, key);
        store<u64>(out, load<u64>(slot, 8), 8);
      }
      group++;
    }
    if (pass == 0) {
      for (let b = 0; b < buckets; b++) set(bucketOffsets, b + 1, get(bucketOffsets, b + 1) + get(bucketOffsets, b));
    } else {
      for (let b = buckets; b > 0; b--) set(bucketOffsets, b, get(bucketOffsets, b - 1));
      set(bucketOffsets, 0, 0);
    }
  }
  outputLength = buckets;
  return DONE;
}
