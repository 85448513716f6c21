// Peg solitaire: the count of jump sequences meeting in the middle on one engine, for any
// start and finishes on a big board. Forward from the start and backward from the finishes
// (forward on complements: undoing a jump is a jump on the complement), each side a frontier
// of (canonical position, orbit total) pairs, always expanding the smaller side, until the
// frontiers are one jump apart; then one side's children are streamed against the other:
//   total = sum over the streamed side's pairs (p, F) and children c of p of
//           F · G(~c's orbit) / |c's orbit|
// (F expands one representative with its orbit's total, exact as in COUNT; G(orbit) is
// |orbit| times the count of each member). When the only finish is the start's complement
// (the central games), the backward side is the forward one: one side is expanded to the
// middle and streamed against itself. More generally, when a symmetry h of the board maps the
// finish's complement onto the start (and the start's complement onto the finish: French d3 ->
// d5 and the top-bottom mirror), the sequences from ~finish to q are those from the start to
// h(q): the backward side is the forward one seen through h, and one side serves for both.
//
// Memory is what bounds these counts, so everything stays in linear memory and nothing is
// held twice: a frontier at rest is a dense array of pairs (12 or 16 bytes each); the level being
// built is a hash table sized from the side's last growth ratio (any size, not a power of 2:
// the slot is the hash's top 32 bits times the size), grown as chores only when that guess
// was short; once built it is compacted in place and moved down over the frontier it
// replaces. The last table built is kept as a table for the final lookups. When a table
// would not fit in the memory left, the level is built in parts (the children a hash of the
// canonical form gives to part 0, then to part 1, ...: each part's table compacted right
// after the pairs of the parts before), and the final join goes part by part over the
// smaller side; when even that would not fit for the last level, the last level is skipped
// and the grandchildren of one side stream against the other side's tables.
//
// Levels on disk ("spilled"; the host allows it with pegsMeetStart's `spill`): when a level
// would need parts, both sides' pairs go to the host instead (HAVE_PAIRS: take ioCount pairs at
// ioPtr, pairs ioFrom on of side ioSide's level ioLevel), and from then on memory holds a window
// and tables: every dense side is read through the window, which the host fills (NEED_PAIRS:
// the same fields ask for pairs, then pegsMeetFeed()). A level that fits in one table is built
// in one pass over its parent; a bigger one in parts, still in one pass (the parts of the level
// in memory would cost one pass each): the children go into one buffer per part, a full
// buffer goes to the end of its part's file (HAVE_PAIRS with ioPart), then each part's file
// is read back (NEED_PAIRS with ioPart) and summed in one table, which goes to the host as
// that part of the level, and the host may drop the file (DROP_PART). A part too big for its
// table is summed in more passes over its file. The last level is joined
// part by part; a join's table that would not grow starts the join again in more parts.
// The host says after each write and removal how much more the files may take (free space,
// maxDisk): when the parts' files of a level (or of the join) would not fit at once, they go
// in rounds, each a pass over the parents that keeps the children of the parts that fit.
//
// Pagodas: the first `forwardPagodas` loaded pagoda functions judge the forward side's
// positions (they must reach the finish), the rest the backward side's (their complements
// must be reachable from the start, so they must reach its complement). The sides' counts are
// u64 (a sum that would overflow stops the count with OVERFLOW); the total is 128 bits.
//
// Fewest moves (pegsMeetFewest(1) before pegsMeetStart): the same levels, parts, files and
// joins, but a pair's value is not its paths: it is the fewest moves (chains of jumps by one
// peg) that reach the position, and the marks of the sequences that take that few: forward,
// the holes where their last jump may land (a jump from there goes on with the same move);
// backward, on complements, where their last jump may start (undoing a jump f -> t is the jump
// f -> t on the complement, and undoing a chain is a sequence where each jump lands where the
// one before started: a jump that lands on a mark goes on with the move). value =
// (moves + 1) << holes | marks, the marks in the frame of the stored position and closed under
// the symmetries that fix it. Two values combine to the fewer moves (equal: marks joined).
// Where the sides meet, a position's moves are the two sides' less one when a forward landing
// is a backward mark: the move that reaches the position goes on. The total is the least of
// these (NO_MOVES: none meet). The rules differ by side, so one side never serves for both.
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaAlloc, arenaTop, arenaRewind, arenaRoom } from '../shared/bits';
import { get64, set64 } from '../shared/words';
import {
  holes, jumps, syms, full, start, MAX_SYMS, finishes, finishList, finishPegs, pagodas, jumpFlip, jumpImage, images, OUTPUT,
  keepImages, legal, legalJumps, LEGAL, canonical, imageOf, notePeak, hopefulIn, mode, MODE_MEET,
  OVERFLOW, addChecked, countWrapped, clearWrapped, leastComplement, fixedBy, jumpFrom, jumpLand,
} from './board';
import { GOLDEN } from './tables';
import { beginOther } from './pegs';

// A pair: 16 bytes (u64 position, u64 count), or 12 on boards of up to 41 holes: the
// position's low 32 bits, then a u64 whose top `high` bits are the position's bits from 32
// up and whose other bits are the count (a stored count is at least 1, so 0 is an empty slot).
let width: usize = 16;
let high: u64 = 0;
let countBits: u64 = 64;
let countMax: u64 = <u64>-1;
let tooBig: bool = false; // a count passed countMax
const NARROW_HOLES: i32 = 41;

/** The count stopped (OVERFLOW) on a count too big for 12-byte pairs, not for 64 bits. */
export function pegsMeetNarrow(): bool { return tooBig && !countWrapped(); }

@inline function pairKey(p: usize): u64 {
  if (width == 16) return load<u64>(p);
  const low = <u64>load<u32>(p);
  return high == 0 ? low : low | ((load<u64>(p, 4) >> countBits) << 32);
}

@inline function pairPaths(p: usize): u64 {
  return width == 16 ? load<u64>(p, 8) : load<u64>(p, 4) & countMax;
}

@inline function isEmpty(p: usize): bool {
  return width == 16 ? load<u64>(p) == 0 : load<u64>(p, 4) == 0;
}

@inline function setPair(p: usize, key: u64, paths: u64): void {
  if (width == 16) {
    store<u64>(p, key);
    store<u64>(p, paths, 8);
    return;
  }
  if (paths > countMax) tooBig = true;
  store<u32>(p, <u32>key);
  store<u64>(p, high == 0 ? paths : paths | ((key >> 32) << countBits), 4);
}

/** Copies a pair (the destination is below the source, or is it). */
@inline function copyPair(to: usize, from: usize): void {
  if (width == 16) {
    store<u64>(to, load<u64>(from));
    store<u64>(to, load<u64>(from, 8), 8);
  } else {
    store<u32>(to, load<u32>(from));
    store<u64>(to, load<u64>(from, 4), 4);
  }
}

const P_FILL: i32 = 0;        // clear the new table
const P_EXPAND: i32 = 1;      // expand side x into it
const P_GROW_FILL: i32 = 2;   // the guess was short: clear a bigger table above it,
const P_GROW_REHASH: i32 = 3; // move the pairs into it,
const P_GROW_COPY: i32 = 4;   // and move it down over the old place
const P_COMPACT: i32 = 5;     // the table's pairs to the front, dense
const P_MOVE: i32 = 6;        // the new frontier down over the old one
const P_FINAL: i32 = 7;       // stream the other side against the table
const P_JOIN_FILL: i32 = 8;   // in parts: clear a table for one part of the last level,
const P_JOIN_BUILD: i32 = 9;  // put that part's pairs in it, then stream (P_FINAL)
const P_DONE: i32 = 10;
const P_SPILL: i32 = 11;      // handing the sides in memory to the host
const P_HANDED: i32 = 12;     // a part of the new level handed to the host: the next part
// Spilled, a level in parts is built in one pass over its parent: the children go into one
// buffer per part, and a full buffer goes to the end of its part's file; then each part's file
// is read back and summed in one table (the level's pairs of that part, handed to the host as
// before).
const P_SCATTER: i32 = 13;    // expand side x into the buffers
const P_FLUSHED: i32 = 14;    // the host took a buffer's pairs: on with the parents
const P_GATHER: i32 = 15;     // one part's file into the table
const P_GATHERED: i32 = 16;   // every part summed and handed: the level is built
// Spilled, a join in parts is one pass over the streamed side too: each position's lookups go
// to their part's buffer and file; then for each part, a table of the lookup side's pairs of
// that part (each holding its count per member of its orbit) and the part's file read against it.
const P_JOIN_SCATTER: i32 = 17; // the streamed side's lookups into the buffers
const P_JOIN_SETTLE: i32 = 18;  // one part's file of lookups against its table
// On a disk too small for every part's file at once, the parts go in rounds: each round one
// pass over the parents (or the streamed side) that keeps only the children (lookups) of parts
// roundFrom .. roundTo-1, as many as the disk's room holds, then those parts summed (joined).
const P_DISCARD: i32 = 19;     // the round was cut: the files of the parts dropped from it go
const P_ROUND: i32 = 20;       // the round's parts done and their files gone: the next round
const MAX_PARTS: u32 = 16; // beyond, the passes would cost more than failing early
const MAX_SPILL_PARTS: u32 = 256; // spilled, a part costs one pass over the parent level from disk

/** Statuses of pegsMeetRun when spilled: the host reads a window's pairs, or takes a part's. */
export const NEED_PAIRS: i32 = 4;
export const HAVE_PAIRS: i32 = 5;
/** Spilled: the host may remove the file of part ioPart of side ioSide's level ioLevel. */
export const DROP_PART: i32 = 6;
/** Spilled: the host must remove the file of part ioPart (of side ioSide's level ioLevel): its records come again in a later round. */
export const DISCARD_PART: i32 = 7;

// Work per unit of budget (a unit is about one position expanded).
const BULK_BYTES: u64 = 8192;
const PROBE_SLOTS: u64 = 64;
const GROUP: u64 = 16; // records summed together (their slots read first)

// Per side (0 forward, 1 backward): where its pairs are, how many, the level (pegs of the
// positions it stands for, in the forward space) and the last ratio of new to old pairs.
let base0: usize = 0;
let base1: usize = 0;
let count0: u64 = 0;
let count1: u64 = 0;
let level0: i32 = 0;
let level1: i32 = 0;
let ratio0: f64 = 0;
let ratio1: f64 = 0;
let lower: i32 = 0;      // the side whose pairs lie lower in memory
let selfDual: bool = false; // the backward side is the forward one (through `dual` when dualOn)
// A symmetry h with h(~finish) = start and h(~start) = finish (the host's, in DUAL_INPUT):
// the backward count of q is the forward count of h(q). Its byte tables, as imageOf's.
const DUAL_INPUT: usize = memory.data(4 * 64);
let dualOn: bool = false;
let dualBytes: usize = 0;
let dualWidth: i32 = 0; // bytes of a position
let forwardEnd: i32 = 0; // pagodas 0 .. forwardEnd-1 judge the forward side, the rest the backward one

let phase: i32 = P_DONE;
let x: i32 = 0;          // the side being expanded
let at: u64 = 0;         // the pair, slot or byte reached in the current phase
let xAt: u64 = 0;        // the pair of side x reached by the expansion
let tBase: usize = 0;    // the table being built (the arena's last allocation)
let tSize: u32 = 0;      // its slots
let tCount: u64 = 0;
let fresh: usize = 0;    // the bigger table while growing
let freshSize: u32 = 0;
let keepTable: bool = false; // the table is the last one: kept for the final lookups
// When a level's table would not fit, the level is built in parts (the children owned by
// part 0, then 1, ...: each part's table compacted where it stands, after the pairs of the
// parts before), and the last level is joined part by part: `parts` passes in all.
let parts: u32 = 1;
let part: u32 = 0;
let nBase: usize = 0;    // the level built in parts: its pairs so far
let nCount: u64 = 0;
let joining: bool = false; // the last level was built in parts: the final stream goes part by part
let lookup: i32 = 0;       // joining: the side whose pairs go into the tables (the smaller), the other streams
let grand: bool = false;   // the last level is skipped: side x's grandchildren stream against the other side
let grown: i32 = P_EXPAND; // the phase a table's growth returns to
let moves: i32 = 0;      // memory moves planned (at most 2), done in order
let moveDst0: usize = 0;
let moveSrc0: usize = 0;
let moveLen0: u64 = 0;
let moveDst1: usize = 0;
let moveSrc1: usize = 0;
let moveLen1: u64 = 0;
let total: u64 = 0;     // the low 64 bits of the total,
let totalHigh: u64 = 0; // and the high 64: a sum of products of u64 counts can pass 2^64
let meetNodes: u64 = 0;
let steps: i32 = 0;      // levels done (expansions, and the final stream)
// Levels on disk: the mode (0 never; 1 when a level would need parts; 2 from the first level,
// the tests' lever), whether the sides are with the host, the window (pairs winFrom on of
// side winSide's level winLevel) and the host's task (the io fields).
let spillMode: i32 = 0;
let spilled: bool = false;
let spillAt: i32 = 0;    // P_SPILL: the side to hand out next
let windowBytes: u64 = 0;
let window: usize = 0;
let windowPairs: u64 = 0;
let winSide: i32 = -1;
let winLevel: i32 = 0;
let winFrom: u64 = 0;
let winCount: u64 = 0;
let ioSide: i32 = 0;
let ioLevel: i32 = 0;
let ioFrom: u64 = 0;
let ioPtr: usize = 0;
let ioCount: u64 = 0;
let leastParts: u32 = 1; // spilled, the fewest parts of a level and the join (the tests' lever)
let sumCap: u32 = 0;     // when not 0, the most slots of a part's summing table (the tests' lever)
let ioPart: i32 = -1;    // the part's file (-1: the level's own)
let winPart: i32 = -1;
let filled: i32 = P_EXPAND; // the phase after P_FILL
// Building a level in one pass (P_SCATTER): the buffers (`parts` of them, bufferPairs each,
// from tBase), their pairs (BUFFER_COUNT, u32 each), the fullest, the pairs each part's file
// holds (PART_RECORDS, u64 each), the buffer being handed out; then the part being summed, in
// `subs` passes over its file when its table would not grow (pass `sub` keeps subOwner's share).
let scattering: bool = false;
let bufferPairs: u32 = 0;
const BUFFER_COUNT: usize = memory.data(4 * 256);
const PART_RECORDS: usize = memory.data(8 * 256);
let fullest: u32 = 0;
let fullestCount: u32 = 0;
let flushing: u32 = 0;
let draining: bool = false; // the parents are done: every buffer left goes to its file
let levelGuess: f64 = 0;
let subs: u32 = 1;
let sub: u32 = 0;
let partStart: u64 = 0;  // the level's pairs before the part being summed
// The parts' files being written or read: side fileSide's, under the label of level fileLevel
// (a level's new children, or the join's lookups: those of the streamed side's children).
let fileSide: i32 = 0;
let fileLevel: i32 = 0;
let joinScatter: bool = false; // the join in parts from the parts' files of lookups (P_JOIN_SCATTER)
let partTotal: u64 = 0;        // the total before the part being joined (a part joined again in
let partTotalHigh: u64 = 0;    // more passes starts from it)
let joinPasses: i32 = 0;       // tables of the join from the parts' files (the tests look)
// Rounds (see P_DISCARD): the bytes the count's files may still grow by (the host's word after
// each write and removal), the round's parts, the bytes their files may take, the records put
// in their buffers so far, when to estimate again, the parts being discarded.
let diskRoom: f64 = Infinity;
let roundFrom: u32 = 0;
let roundTo: u32 = 0;
let roundBudget: f64 = Infinity;
let roundRecords: u64 = 0;
let checkAt: u64 = 0;
let discardAt: u32 = 0;
let discardTo: u32 = 0;
let summedBytes: f64 = 0; // a part's share of the level once summed (0 for a join)
let regroup: u32 = 0;  // when not 0: the parts the level (or join) starts again in, once discarded
let rounds: i32 = 0;   // rounds begun after a level's (or join's) first, and rounds cut (the tests look)

/** The bytes the count's files may still grow by on the disk (free space, maxDisk). */
export function pegsMeetDiskRoom(bytes: f64): void { diskRoom = bytes; }
/** Passes over a level's parents (or the join's streamed side) beyond the first, and cuts, for want of disk. */
export function pegsMeetRounds(): i32 { return rounds; }

/** The join's passes over parts' files of lookups (one per part, more when a part's table was short). */
export function pegsMeetJoinPasses(): i32 { return joinPasses; }

@inline function baseOf(s: i32): usize { return s == 0 ? base0 : base1; }
@inline function countOf(s: i32): u64 { return s == 0 ? count0 : count1; }
@inline function levelOf(s: i32): i32 { return s == 0 ? level0 : level1; }

/** Pair i of side s: in memory, or (spilled) in the window; 0 when the host must fill the window first. */
@inline function densePair(s: i32, i: u64): usize {
  if (!spilled) return baseOf(s) + <usize>i * width;
  if (winPart != -1 || s != winSide || levelOf(s) != winLevel || i < winFrom || i >= winFrom + winCount) return 0;
  return window + <usize>(i - winFrom) * width;
}

/** The level side x is building. */
@inline function newLevel(): i32 { return x == 0 ? level0 - 1 : level1 + 1; }
@inline function partRecords(k: u32): u64 { return load<u64>(PART_RECORDS + (<usize>k << 3)); }

/** Record i of the file of the part being summed, in the window; 0 when the host must fill it. */
@inline function partPair(i: u64): usize {
  if (winPart != <i32>part || winSide != fileSide || winLevel != fileLevel || i < winFrom || i >= winFrom + winCount) return 0;
  return window + <usize>(i - winFrom) * width;
}

/** Asks the host for the window's records of the part being summed from record i on. */
function needPartPairs(i: u64): i32 {
  handOut(fileSide, fileLevel, i, window, min<u64>(windowPairs, partRecords(part) - i), <i32>part);
  return NEED_PAIRS;
}

/** Asks the host for the window's pairs from pair i of side s on. */
function needPairs(s: i32, i: u64): i32 {
  handOut(s, levelOf(s), i, window, min<u64>(windowPairs, countOf(s) - i));
  return NEED_PAIRS;
}

/** Hands the host n pairs at ptr: pairs `from` on of side s's level (pegs), or of its part's file. */
function handOut(s: i32, level: i32, from: u64, ptr: usize, n: u64, filePart: i32 = -1): i32 {
  ioPart = filePart;
  ioSide = s;
  ioLevel = level;
  ioFrom = from;
  ioPtr = ptr;
  ioCount = n;
  return HAVE_PAIRS;
}

/** The host's task after NEED_PAIRS or HAVE_PAIRS: side, level (pegs), first pair, address, pairs. */
export function pegsMeetIoSide(): i32 { return ioSide; }
export function pegsMeetIoLevel(): i32 { return ioLevel; }
export function pegsMeetIoFrom(): f64 { return <f64>ioFrom; }
export function pegsMeetIoPtr(): usize { return ioPtr; }
export function pegsMeetIoCount(): f64 { return <f64>ioCount; }
/** The part whose file the task is about, or -1: the level's own file. */
export function pegsMeetIoPart(): i32 { return ioPart; }
/** Bytes of a pair (12 or 16). */
export function pegsMeetWidth(): i32 { return <i32>width; }
/** The host wrote the pairs NEED_PAIRS asked for into the window. */
export function pegsMeetFeed(): void {
  winSide = ioSide;
  winPart = ioPart;
  winLevel = ioLevel;
  winFrom = ioFrom;
  winCount = ioCount;
}

@inline function home(key: u64, size: u32): u32 {
  return <u32>((((key * GOLDEN) >> 32) * <u64>size) >> 32);
}

/** The slot of `key`: its own, or the empty one it would take. */
@inline function findIn(base: usize, size: u32, key: u64): usize {
  let i = home(key, size);
  for (;;) {
    const slot = base + <usize>i * width;
    if (isEmpty(slot) || pairKey(slot) == key) return slot;
    i++;
    if (i == size) i = 0;
  }
  return 0; // not reached: tables never fill
}

@inline function crowded(n: u64, size: u32): bool {
  return n * 5 >= <u64>size * 4;
}

/**
 * Slots for n pairs at a load of 0.8 (memory bounds these counts; linear probing still finds a
 * pair in a few probes there, and the guesses' margins keep most tables nearer 0.7).
 */
function slotsFor(n: f64): u32 {
  return <u32>min<f64>(<f64>0x40000000, max<f64>(16, Math.ceil(n / 0.8) + 1));
}

/**
 * Starts the count on the loaded problem. The start's and the finishes' pegs must differ by
 * 2 or more. `spill`: 0 keeps every level in memory; 1 hands the levels to the host when one
 * would need parts; 2 from the first level on. `windowSize`: the window's bytes when spilled;
 * `fewestParts`: spilled, every level and the join in at least that many parts; `mostSumSlots`:
 * when not 0, the most slots of a table summing a part's file (both the tests' levers).
 * DONE, OUT_OF_MEMORY or BAD_INPUT.
 */
export function pegsMeetStart(forwardPagodas: i32, dual: i32, narrowBits: i32, spill: i32, windowSize: i32, fewestParts: i32, mostSumSlots: i32): i32 {
  if (!beginOther(MODE_MEET)) return BAD_INPUT;
  leastParts = <u32>min(max(fewestParts, 1), <i32>MAX_SPILL_PARTS);
  sumCap = <u32>max(mostSumSlots, 0);
  phase = P_DONE;
  spillMode = spill;
  spilled = false;
  scattering = false;
  joinScatter = false;
  joinPasses = 0;
  rounds = 0;
  diskRoom = Infinity;
  regroup = 0;
  subs = 1;
  sub = 0;
  winSide = -1;
  winPart = -1;
  ioPart = -1;
  windowBytes = <u64>max(windowSize, 1);
  const startPegs = <i32>popcnt(start);
  if (startPegs < finishPegs + 2 || forwardPagodas < 0 || forwardPagodas > pagodas) return BAD_INPUT;
  forwardEnd = forwardPagodas;
  grand = false;
  joining = false;
  clearTotal();
  clearWrapped();
  meetNodes = 0;
  steps = 0;
  for (let i = 0; i < 72; i++) set64(OUTPUT, i, 0);
  // The dual symmetry's tables go below the sides (which move about above them).
  dualOn = false;
  if (dual != 0 && !fewest && finishes == 1 && get64(finishList, 0) != (~start & full)) {
    const status = loadDual();
    if (status != DONE) return status;
    dualOn = true;
  }
  // The forward side: the start alone.
  // Pairs of 12 bytes where the count keeps 55 bits or more (a count that would not fit
  // stops with OVERFLOW and pegsMeetNarrow() true: the host counts again with narrowBits 0,
  // 16-byte pairs). narrowBits caps the counts' bits in 12-byte pairs (the tests' lever).
  width = narrowBits > 0 && holes <= NARROW_HOLES ? 12 : 16;
  high = holes > 32 ? <u64>(holes - 32) : 0;
  countBits = 64 - high;
  countMax = high == 0 ? <u64>-1 : (<u64>1 << countBits) - 1;
  if (width == 12 && narrowBits < <i32>countBits && !fewest) countMax = (<u64>1 << <u64>narrowBits) - 1;
  tooBig = false;
  landBits = <u64>holes;
  landMask = (<u64>1 << landBits) - 1;
  if (fewest) {
    for (let j = 0; j < jumps; j++) {
      const from = <u64>1 << <u64>load<u32>(jumpFrom + (<usize>j << 2));
      set64(FROM_IMAGES, j, from);
      for (let s = 1; s < syms; s++) set64(FROM_IMAGES, s * jumps + j, imageOf(s, from));
    }
  }
  const seed: u64 = fewest ? valueOf(0, 0) : 1;
  base0 = arenaAlloc(<u64>width);
  if (base0 == 0) return OUT_OF_MEMORY;
  setPair(base0, canonical(start), seed);
  count0 = 1;
  level0 = startPegs;
  ratio0 = 0;
  set64(OUTPUT, level0, 1);
  // The backward side: the finishes' complements, each orbit with its number of finishes.
  // When the only finish is the start's complement, playing backwards from it is playing
  // forwards from the start (on complements): one side does for both, and the other stays empty.
  selfDual = dualOn || (!fewest && finishes == 1 && get64(finishList, 0) == (~start & full));
  const size = slotsFor(<f64>finishes);
  base1 = arenaAlloc(<u64>size * <u64>width);
  notePeak();
  if (base1 == 0) return OUT_OF_MEMORY;
  memory.fill(base1, 0, <usize>size * width);
  const seeds = selfDual ? 0 : finishes;
  for (let f = 0; f < seeds; f++) {
    const key = canonical(~get64(finishList, f) & full);
    const slot = findIn(base1, size, key);
    setPair(slot, key, isEmpty(slot) ? seed : combine(pairPaths(slot), seed));
  }
  count1 = 0;
  for (let i: u32 = 0; i < size; i++) {
    const slot = base1 + <usize>i * width;
    if (isEmpty(slot)) continue;
    const to = base1 + <usize>count1 * width;
    if (to != slot) copyPair(to, slot);
    count1++;
  }
  arenaRewind(base1 + <usize>count1 * width);
  level1 = selfDual ? holes - startPegs : finishPegs;
  ratio1 = 0;
  if (!selfDual) set64(OUTPUT, level1, count1);
  lower = 0;
  return beginStep();
}

/** Where the host writes the dual symmetry h (a hole's image per hole) before pegsMeetStart(_, 1). */
export function pegsMeetDualPtr(): usize { return DUAL_INPUT; }

/** Builds h's byte tables (in the arena, below the sides) and checks h against the problem. */
function loadDual(): i32 {
  dualWidth = (holes + 7) >> 3;
  dualBytes = arenaAlloc(<u64>8 * 256 * 8);
  if (dualBytes == 0) return OUT_OF_MEMORY;
  memory.fill(dualBytes, 0, 8 * 256 * 8);
  for (let h = 0; h < holes; h++) {
    const image = load<u32>(DUAL_INPUT + (<usize>h << 2));
    if (image >= <u32>holes) return BAD_INPUT;
    const row = dualBytes + (<usize>(h >> 3) << 11);
    for (let v = 0; v < 256; v++) if ((v >> (h & 7)) & 1) store<u64>(row + (<usize>v << 3), load<u64>(row + (<usize>v << 3)) | (<u64>1 << image));
  }
  const finish = get64(finishList, 0);
  if (dualImage(~finish & full) != start || dualImage(~start & full) != finish || popcnt(dualImage(full)) != <u64>holes) return BAD_INPUT;
  return DONE;
}

@inline function dualImage(pos: u64): u64 {
  let out: u64 = 0;
  for (let b = 0; b < dualWidth; b++) out |= load<u64>(dualBytes + (<usize>b << 11) + (<usize>((pos >> (<u64>b << 3)) & 255) << 3));
  return out;
}

/**
 * The stored forward position that stands for the backward position ~pos (its complement,
 * through h when dualOn): its least image, and how many symmetries fix it (`fixedOut`).
 */
@inline function partnerOf(pos: u64): u64 {
  const q = dualImage(~pos & full);
  let least = q;
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) {
    const image = imageOf(s, q);
    if (image == q) fixed++;
    least = min<u64>(least, image);
  }
  fixedOut = fixed;
  return least;
}
let fixedOut: u32 = 1;

// Fewest moves (see the top): the values' layout, and the value of the child or lookup just made.
let fewest: bool = false;
let landBits: u64 = 0;
let landMask: u64 = 0;
let valueOut: u64 = 0;
const NO_MOVES: u64 = <u64>-1;

/** Before pegsMeetStart: 1 for the fewest moves through the levels (the total: the moves, or -1 for none), 0 for the count. */
export function pegsMeetFewest(on: i32): void { fewest = on != 0; }

@inline function movesOf(value: u64): u64 { return (value >> landBits) - 1; }
@inline function valueOf(moves: u64, landings: u64): u64 { return ((moves + 1) << landBits) | landings; }

/** Two values of one position: paths added, or the fewer moves (their landings joined when equal). */
@inline function combine(a: u64, b: u64): u64 {
  if (!fewest) return addChecked(a, b);
  const movesA = a >> landBits, movesB = b >> landBits;
  return movesA < movesB ? a : movesB < movesA ? b : a | b;
}

/**
 * The moves after jump j from a position of this value on `side`: forward, a jump from a mark
 * (a landing) goes on with the move; backward, a jump onto a mark (a start).
 */
@inline function movesAfter(value: u64, j: i32, side: i32): u64 {
  const hole = load<u32>((side == 0 ? jumpFrom : jumpLand) + (<usize>j << 2));
  return movesOf(value) + (((value >> <u64>hole) & 1) ^ 1);
}

/** The mark jump j leaves on `side` in the frame of image s (`parent`: the position's image s). */
@inline function markOf(s: i32, j: i32, side: i32, parent: u64): u64 {
  return side == 0 ? get64(jumpImage, s * jumps + j) & ~parent : get64(FROM_IMAGES, s * jumps + j);
}
// The from hole of each jump under each symmetry (a bit), for the backward marks.
const FROM_IMAGES: usize = memory.data(8 * MAX_SYMS * 64 * 6);

/**
 * Fewest moves: the two sides' values where they meet at lookup `key` (a, the streamed side's
 * value; b, the table's: both in key's frame); the total keeps the least, and where it was
 * met, for the host to find a solution through it.
 */
@inline function meetValues(a: u64, b: u64, key: u64): void {
  const moves = movesOf(a) + movesOf(b) - <u64>((a & b & landMask) != 0);
  if (moves >= total) return;
  total = moves;
  meetKey = key;
  meetStreamed = a;
  meetTable = b;
  meetSide = streamSide();
}
// The least meeting so far: the lookup's key, the streamed side's value and the table's, and
// the side streamed (0: the key is a complement, of the forward position; 1: it is that position).
let meetKey: u64 = 0;
let meetStreamed: u64 = 0;
let meetTable: u64 = 0;
let meetSide: i32 = 0;
// The same before the part being joined (a part joined again starts from it, as partTotal).
let partMeetKey: u64 = 0;
let partMeetStreamed: u64 = 0;
let partMeetTable: u64 = 0;
let partMeetSide: i32 = 0;

/** Fewest moves: the forward position where the least total was met (0 before any meeting). */
export function pegsMeetMeetPosition(): u64 {
  return total == NO_MOVES ? 0 : meetSide == 0 ? meetKey ^ full : meetKey;
}
/** Fewest moves: the moves from the start to that position (side 0) or from it to a finish (1). */
export function pegsMeetMeetMoves(side: i32): i32 {
  if (total == NO_MOVES) return -1;
  return <i32>movesOf((side == meetSide) ? meetStreamed : meetTable);
}
/** Fewest moves: the holes where a fewest move into the position may land and one on from it start (the move goes on through it). */
export function pegsMeetMeetShared(): u64 {
  return total == NO_MOVES ? 0 : meetStreamed & meetTable & landMask;
}

/** Keeps the total and its meeting before a part is joined, or restores them for a part joined again. */
@inline function keepPartTotal(restore: bool): void {
  if (restore) {
    total = partTotal;
    totalHigh = partTotalHigh;
    meetKey = partMeetKey;
    meetStreamed = partMeetStreamed;
    meetTable = partMeetTable;
    meetSide = partMeetSide;
  } else {
    partTotal = total;
    partTotalHigh = totalHigh;
    partMeetKey = meetKey;
    partMeetStreamed = meetStreamed;
    partMeetTable = meetTable;
    partMeetSide = meetSide;
  }
}

/** The total before anything met: no paths, or no moves. */
@inline function clearTotal(): void {
  total = fewest ? NO_MOVES : 0;
  totalHigh = 0;
}

/**
 * Fewest moves: the least image of the child by jump j of `pos` (its images from 1 up at
 * `imagesOf`), each image xor `flipAll` (0: the child's key; full: its complement's, for a
 * lookup), and in valueOut its value by `side`'s rule from `value`, the parent's, with the
 * marks of every image that is the least.
 */
@inline function fewestChild(imagesOf: usize, pos: u64, j: i32, value: u64, side: i32, flipAll: u64): u64 {
  let least = pos ^ get64(jumpFlip, j) ^ flipAll;
  let marks = markOf(0, j, side, pos);
  for (let s = 1; s < syms; s++) {
    const parent = get64(imagesOf, s);
    const image = parent ^ get64(jumpImage, s * jumps + j) ^ flipAll;
    if (image < least) {
      least = image;
      marks = markOf(s, j, side, parent);
    } else if (image == least) marks |= markOf(s, j, side, parent);
  }
  valueOut = valueOf(movesAfter(value, j, side), marks);
  return least;
}

export function pegsMeetTotal(): u64 { return total; }
export function pegsMeetTotalHigh(): u64 { return totalHigh; }

/** total += a · b, in 128 bits (the product from 32-bit halves). */
function addProduct(a: u64, b: u64): void {
  const a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
  const low = a0 * b0;
  const mid1 = a1 * b0;
  const mid2 = a0 * b1;
  let high = a1 * b1;
  // The middle terms' low halves go into the product's bits 32-95, with their carries.
  const mid = (low >> 32) + (mid1 & 0xffffffff) + (mid2 & 0xffffffff);
  high += (mid1 >> 32) + (mid2 >> 32) + (mid >> 32);
  const productLow = (mid << 32) | (low & 0xffffffff);
  const sum = total + productLow;
  totalHigh += high + <u64>(sum < total);
  total = sum;
}
export function pegsMeetNodes(): u64 { return meetNodes; }
/** Levels done: each expansion, then the final stream. */
export function pegsMeetStep(): i32 { return steps; }
/**
 * The levels the sides stand at (pegs, forward space: forward in bits 0-7, backward in 8-15)
 * and the parts of the level in progress (bits 16 up).
 */
export function pegsMeetLevels(): i32 { return level0 | (level1 << 8) | (<i32>parts << 16); }
/** The levels done when the count is over: on one side only when the start and finish are dual. */
export function pegsMeetSteps(): i32 {
  const startPegs = <i32>popcnt(start);
  return selfDual ? startPegs - ((holes + 1) >> 1) + 1 : startPegs - finishPegs;
}

/** Starts expanding the smaller side, in as many parts as the memory left asks for. */
function beginStep(): i32 {
  x = selfDual || count0 <= count1 ? 0 : 1;
  const n = countOf(x);
  const ratio = x == 0 ? ratio0 : ratio1;
  // The first levels grow by the number of jumps at most; later, by the side's last ratio
  // (and a margin: growth later costs more than slack now).
  const guess = max<f64>(ratio == 0 ? <f64>n * 4 : <f64>n * ratio * 1.15, <f64>(n + <u64>jumps));
  part = 0;
  nCount = 0;
  if (spilled) {
    // The window and one part's table: the level goes to the host part by part.
    parts = max<u32>(leastParts, partsFor(guess, MAX_SPILL_PARTS));
    return beginLevel(guess);
  }
  // One table for the level if it fits; else parts, the level's pairs (dense) and one part's table.
  const room = <f64>arenaRoom();
  parts = 1;
  if (<f64>slotsFor(guess) * <f64>width > room) {
    parts = 2;
    while (parts < MAX_PARTS && (guess + <f64>slotsFor(guess / <f64>parts)) * <f64>width > room) parts++;
  }
  if ((parts > 1 && spillMode != 0) || spillMode == 2) {
    // The levels go to disk: first the sides in memory, one HAVE_PAIRS each (pegsMeetRun).
    phase = P_SPILL;
    spillAt = 0;
    return DONE;
  }
  nBase = arenaTop();
  if (parts > 1 && !selfDual && level0 - level1 == 2) {
    // The last level would not fit in one table: skip it. The other side goes into tables (in
    // parts) and side x's grandchildren stream against them.
    grand = true;
    joining = true;
    lookup = 1 - x;
    parts = partsFor(<f64>countOf(lookup), MAX_PARTS);
    const status = beginJoin(0);
    return status == MORE ? DONE : status;
  }
  return beginPart(guess);
}

/**
 * Spilled, memory holds little but the table: up to half again the slots for n pairs, as the
 * room allows, so that a part seldom has to start again for want of growing.
 */
function roomier(size: u32, n: f64): u32 {
  if (!spilled) return size;
  const most = <f64>arenaRoom() / <f64>width * 0.98;
  return max<u32>(size, <u32>min<f64>(<f64>slotsFor(n * 1.5), most));
}

/** Parts (at most `most`) for tables of n pairs in the memory left. */
function partsFor(n: f64, most: u32): u32 {
  const room = <f64>arenaRoom();
  let k: u32 = 1;
  while (k < most && <f64>slotsFor(n / <f64>k * (k == 1 ? 1 : 1.1)) * <f64>width > room) k++;
  return k;
}

/** Hands the sides in memory to the host (one HAVE_PAIRS each), then makes room for the window. */
function spillOut(): i32 {
  while (spillAt < 2) {
    const s = spillAt++;
    if (countOf(s) > 0) return handOut(s, levelOf(s), 0, baseOf(s), countOf(s));
  }
  // The host has both sides: the arena from the lower one up is free.
  arenaRewind(baseOf(lower));
  spilled = true;
  winSide = -1;
  windowPairs = max<u64>(1, windowBytes / <u64>width);
  window = arenaAlloc(windowPairs * <u64>width);
  notePeak();
  if (window == 0) return OUT_OF_MEMORY;
  const status = beginStep();
  return status == DONE ? MORE : status;
}

/**
 * Spilled, a part's table would not grow: its level again from the first part, in more parts
 * (the host overwrites the pairs handed so far).
 */
function moreParts(): i32 {
  const n = <f64>countOf(x);
  const seen = <f64>tCount * n / <f64>max<u64>(xAt, 1) * <f64>parts;
  const guess = max<f64>(seen, part > 0 ? <f64>nCount / <f64>part * <f64>parts : 0) * 1.1;
  arenaRewind(tBase);
  const k = max<u32>(parts + 1, partsFor(guess, MAX_SPILL_PARTS));
  if (k > MAX_SPILL_PARTS) return OUT_OF_MEMORY;
  parts = k;
  part = 0;
  nCount = 0;
  const status = beginLevel(guess);
  return status == DONE ? MORE : status;
}

/** Spilled, the join's one table would not grow: the join again, in parts. */
function moreJoinParts(): i32 {
  arenaRewind(tBase);
  clearTotal();
  parts = max<u32>(2, partsFor(<f64>countOf(lookup) * 1.1, MAX_SPILL_PARTS));
  return beginJoinScatter();
}

/** Spilled, the join in parts: first the streamed side's lookups to the parts' files. */
function beginJoinScatter(): i32 {
  joinScatter = true;
  const y = streamSide();
  fileSide = y;
  fileLevel = y == 0 ? level0 - 1 : level1 + 1;
  at = 0;
  const status = openBuffers();
  if (status != DONE) return status;
  beginRound(0);
  phase = P_JOIN_SCATTER;
  return MORE;
}

/** The join of part k and the parts after it with lookups (the last one done: the count is). */
function joinPart(k: u32): i32 {
  while (k < roundTo && partRecords(k) == 0) k++;
  if (k >= roundTo && roundTo < parts) {
    phase = P_ROUND;
    return MORE;
  }
  if (k >= roundTo) {
    steps++;
    phase = P_DONE;
    return MORE;
  }
  subs = 1;
  sub = 0;
  keepPartTotal(false);
  return beginJoin(k);
}

/** A pass of a part's join is done: the next pass, or the next part (the host drops the file). */
function joinSubDone(): i32 {
  arenaRewind(tBase);
  if (++sub < subs) return beginJoin(part);
  const done = part;
  const status = joinPart(part + 1);
  if (status != MORE) return status;
  handOut(fileSide, fileLevel, 0, 0, 0, <i32>done);
  return DROP_PART;
}

/** Spilled: the level in one table, or in parts from one pass over its parent. */
function beginLevel(guess: f64): i32 {
  scattering = parts > 1;
  return scattering ? beginScatter(guess) : beginPart(guess);
}

/**
 * The buffers, one per part, in all the memory left (the parts' tables come after them). A
 * child goes to its part's buffer as it comes, unsummed: a table would cost a random access per
 * child here and again when the file is summed, and hold too few of its part's children at
 * once to sum many.
 */
function beginScatter(guess: f64): i32 {
  levelGuess = guess;
  fileSide = x;
  fileLevel = newLevel();
  xAt = 0;
  const status = openBuffers();
  if (status != DONE) return status;
  beginRound(0);
  phase = P_SCATTER;
  return DONE;
}

/** The parents a scatter goes over (a level's, or the join's streamed side), and how many it has read. */
@inline function scatterParents(): u64 { return countOf(joinScatter ? streamSide() : x); }
@inline function scatterDone(): u64 { return joinScatter ? at : xAt; }

/**
 * A round from part `from` on: every part left, unless the disk's room says fewer (checkRound
 * cuts it then). Each part of the round takes its file's bytes and then its share of the
 * level once summed (`summedBytes`: the parts summed so far say, or the level's guess; a join
 * sums into nothing). The parts of later rounds need no room yet: their files come once this
 * round's are gone.
 */
function beginRound(from: u32): void {
  if (from > 0) rounds++;
  roundFrom = from;
  roundTo = parts;
  roundRecords = 0;
  summedBytes = joinScatter ? 0 : (from > 0 ? <f64>nCount / <f64>from : levelGuess / <f64>parts) * <f64>width * 1.1;
  roundBudget = diskRoom;
  checkAt = max<u64>(1, scatterParents() >> 6);
}

/** Whether `done` parents in, the round had to be estimated again and was cut or started again (phase P_DISCARD). */
@inline function roundCut(done: u64): bool {
  return (done >= checkAt || <f64>roundRecords * <f64>width > roundBudget) && checkRound() != -1;
}

/** The round's parts' files so far, as records (those in the buffers too). */
function roundRecordsNow(): u64 {
  let n: u64 = 0;
  for (let r = roundFrom; r < roundTo; r++) n += partRecords(r) + <u64>load<u32>(BUFFER_COUNT + (<usize>r << 2));
  return n;
}

/**
 * Whether the round's files, estimated from the parents read so far, fit the disk's room;
 * when not, the round keeps fewer parts (their files, DISCARD_PART each, go), or if not even
 * one part fits and none of the level is summed yet, the level starts again in more parts.
 * -1 when nothing changed, else the status to return.
 */
function checkRound(): i32 {
  const n = scatterParents();
  const done = scatterDone();
  checkAt = done + max<u64>(1, n >> 6);
  const span = roundTo - roundFrom;
  const estimate = <f64>roundRecords * <f64>n / <f64>max<u64>(done, 1) * <f64>width * 1.1;
  if (estimate + summedBytes * <f64>span <= roundBudget || span == 0) return -1;
  const perPart = estimate / <f64>span + summedBytes;
  const fit = roundBudget > 0 ? <u32>min<f64>(<f64>span, Math.floor(roundBudget / perPart)) : 0;
  // The last round has the room less every other part's share of the level: a part's file
  // must fit there. Until a part is summed, the level may start again in more, smaller parts,
  // each file half that room.
  const lastRoom = max<f64>(roundBudget - summedBytes * <f64>parts, roundBudget * 0.25);
  if (roundFrom == 0 && estimate / <f64>span > lastRoom && roundBudget > 0 && parts < MAX_SPILL_PARTS) {
    rounds++;
    regroup = <u32>min<f64>(<f64>MAX_SPILL_PARTS, max<f64>(<f64>(parts + 1), Math.ceil(<f64>parts * estimate / <f64>span * 2 / lastRoom)));
    discardAt = 0;
    discardTo = roundTo;
  } else if (span > 1) {
    // The parts that fit, one at least (the estimate has a margin: one part may just fit).
    rounds++;
    discardAt = roundFrom + max<u32>(fit, 1);
    discardTo = roundTo;
    roundTo = discardAt;
    regroup = 0;
  } else {
    // One part left in the round: on, and OUT_OF_DISK if its file does not fit.
    roundBudget = Infinity;
    return -1;
  }
  phase = P_DISCARD;
  return MORE;
}

/** The next file of the parts dropped from the round (DISCARD_PART), or on with the round. */
function discardNext(): i32 {
  while (discardAt < discardTo) {
    const r = discardAt++;
    store<u32>(BUFFER_COUNT + (<usize>r << 2), 0);
    if (partRecords(r) == 0) continue;
    store<u64>(PART_RECORDS + (<usize>r << 3), 0);
    handOut(fileSide, fileLevel, 0, 0, 0, <i32>r);
    return DISCARD_PART;
  }
  if (regroup != 0) {
    // The level (or join) from its first parent again, in more parts.
    parts = regroup;
    regroup = 0;
    arenaRewind(tBase);
    return roundFromStart(0);
  }
  roundRecords = roundRecordsNow();
  findFullest();
  phase = scatterPhase();
  return MORE;
}

@inline function scatterPhase(): i32 { return joinScatter ? P_JOIN_SCATTER : P_SCATTER; }

/** A round from part `from` on, from the first parent: new buffers, and on with the scatter. */
function roundFromStart(from: u32): i32 {
  const status = openBuffers();
  if (status != DONE) return status;
  if (joinScatter) at = 0;
  else xAt = 0;
  beginRound(from);
  phase = scatterPhase();
  return MORE;
}

/** The buffers, one per part, in all the memory left; DONE or OUT_OF_MEMORY. */
function openBuffers(): i32 {
  bufferPairs = <u32>min<f64>(<f64>0x40000000, Math.floor(<f64>arenaRoom() * 0.98 / <f64>width / <f64>parts));
  // Buffers of a few pairs would go to disk every few parents.
  if (bufferPairs < <u32>max(64, jumps * 4)) return OUT_OF_MEMORY;
  tBase = arenaAlloc(<u64>bufferPairs * <u64>parts * <u64>width);
  notePeak();
  if (tBase == 0) return OUT_OF_MEMORY;
  memory.fill(BUFFER_COUNT, 0, 4 * 256);
  memory.fill(PART_RECORDS, 0, 8 * 256);
  fullest = 0;
  fullestCount = 0;
  draining = false;
  return DONE;
}

@inline function bufferOf(r: u32): usize { return tBase + <usize>r * <usize>bufferPairs * width; }

/** A child to its part's buffer (the buffers have room: P_SCATTER hands the fullest out in time). */
@inline function toBuffer(r: u32, child: u64, paths: u64): void {
  if (r < roundFrom || r >= roundTo) return;
  roundRecords++;
  const cell = BUFFER_COUNT + (<usize>r << 2);
  const n = load<u32>(cell);
  setPair(bufferOf(r) + <usize>n * width, child, paths);
  store<u32>(cell, n + 1);
  if (n + 1 > fullestCount) {
    fullestCount = n + 1;
    fullest = r;
  }
}

/** Buffer r's pairs to the end of its part's file. */
function flush(r: u32): i32 {
  flushing = r;
  const n = <u64>load<u32>(BUFFER_COUNT + (<usize>r << 2));
  const records = PART_RECORDS + (<usize>r << 3);
  const from = load<u64>(records);
  store<u64>(records, from + n);
  phase = P_FLUSHED;
  return handOut(fileSide, fileLevel, from, bufferOf(r), n, <i32>r);
}

/** The fullest buffer, and its pairs. */
function findFullest(): void {
  fullest = 0;
  fullestCount = 0;
  for (let r: u32 = 0; r < parts; r++) {
    const n = load<u32>(BUFFER_COUNT + (<usize>r << 2));
    if (n > fullestCount) {
      fullestCount = n;
      fullest = r;
    }
  }
}

/** Buffer `flushing` is with the host: empty again; the fullest again, then on with the parents or the buffers left. */
function flushed(): i32 {
  store<u32>(BUFFER_COUNT + (<usize>flushing << 2), 0);
  findFullest();
  if (!draining) {
    phase = scatterPhase();
    return MORE;
  }
  return drainNext();
}

/** The parents are done: the next buffer with pairs to its file, or the parts summed, from part 0. */
function drainNext(): i32 {
  draining = true;
  for (let r: u32 = 0; r < parts; r++) {
    if (load<u32>(BUFFER_COUNT + (<usize>r << 2)) != 0) return flush(r);
  }
  arenaRewind(tBase);
  if (joinScatter) return joinPart(roundFrom);
  // The round's parts summed, after the parts of the rounds before.
  part = roundFrom;
  if (roundFrom == 0) nCount = 0;
  partStart = nCount;
  subs = 1;
  sub = 0;
  return beginGather();
}

/** The pass of a part's summing a position belongs to: a hash unrelated to ownerOf's and the slots'. */
@inline function subOwner(key: u64): u32 {
  return <u32>((((key ^ (key >> 31)) * 0x94d049bb133111eb) >> 40) % <u64>subs);
}

/** A table for (one pass of) the part being summed: its distinct pairs are at most its records. */
function beginGather(): i32 {
  const guess = min<f64>(<f64>partRecords(part), levelGuess / <f64>parts * 1.1) / <f64>subs;
  let size = roomier(slotsFor(guess), guess);
  if (sumCap != 0) size = min<u32>(size, max<u32>(sumCap, 16));
  return newTable(size, P_GATHER) ? MORE : OUT_OF_MEMORY;
}

/**
 * A table of `size` slots (fewer when memory is short: it grows later if it must), cleared
 * (P_FILL) before phase `next`; false when not even a small one fits.
 */
function newTable(size: u32, next: i32): bool {
  const least = slotsFor(<f64>(<u64>jumps * 2));
  for (;;) {
    tBase = arenaAlloc(<u64>size * <u64>width);
    if (tBase != 0 || size <= least) break;
    size = max<u32>(least, size - (size >> 2));
  }
  notePeak();
  if (tBase == 0) return false;
  tSize = size;
  tCount = 0;
  xAt = 0;
  at = 0;
  filled = next;
  phase = P_FILL;
  return true;
}

/**
 * A part's table would not grow, `xAt` of its `n` records (or, joining, lookup pairs) read:
 * the part again from its first, in as many passes as those read so far say it needs (one
 * more at least).
 */
function moreSubs(n: u64): i32 {
  if (subs >= MAX_SPILL_PARTS) return OUT_OF_MEMORY;
  const distinct = <f64>tCount * <f64>n / <f64>max<u64>(xAt, 1);
  const want = Math.ceil(<f64>subs * distinct / (<f64>tSize * 0.8) * 1.2);
  arenaRewind(tBase);
  subs = <u32>min<f64>(<f64>MAX_SPILL_PARTS, max<f64>(<f64>(subs + 1), want));
  sub = 0;
  if (!joinScatter) {
    nCount = partStart;
    return beginGather();
  }
  keepPartTotal(true);
  return beginJoin(part);
}

/** A pass of a part is summed and handed to the host: the next pass, or part (the host drops the file). */
function gatherDone(): i32 {
  nCount += tCount;
  arenaRewind(tBase);
  if (++sub < subs) return beginGather();
  const done = part;
  part++;
  sub = 0;
  subs = 1;
  partStart = nCount;
  if (part < roundTo) {
    const status = beginGather();
    if (status != MORE) return status;
  } else phase = roundTo < parts ? P_ROUND : P_GATHERED;
  handOut(x, newLevel(), 0, 0, 0, <i32>done);
  return DROP_PART;
}

/** A table for one part of the level side x is building. */
function beginPart(guess: f64): i32 {
  return newTable(roomier(slotsFor(guess / <f64>parts), guess / <f64>parts), P_EXPAND) ? DONE : OUT_OF_MEMORY;
}

/** The part of the level (of `parts`) a canonical position belongs to: a hash unrelated to the slots'. */
@inline function ownerOf(key: u64): u32 {
  return parts == 1 ? 0 : <u32>((((key ^ (key >> 29)) * 0xbf58476d1ce4e5b9) >> 40) % <u64>parts);
}

/** Advances by about `budget` units. DONE when the total is ready; OUT_OF_MEMORY; OVERFLOW. */
export function pegsMeetRun(budget: i32): i32 {
  if (mode != MODE_MEET) return BAD_INPUT;
  let left: u64 = <u64>max(budget, 1);
  while (phase != P_DONE) {
    if (countWrapped() || tooBig) return OVERFLOW;
    if (left == 0) return MORE;
    if (phase == P_FILL || phase == P_GROW_FILL || phase == P_JOIN_FILL) {
      const into = phase == P_GROW_FILL ? fresh : tBase;
      const size: u64 = <u64>(phase == P_GROW_FILL ? freshSize : tSize) * <u64>width;
      const bytes = min<u64>(size - at, left * BULK_BYTES);
      memory.fill(into + <usize>at, 0, <usize>bytes);
      at += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= size) {
        phase = phase == P_FILL ? filled : phase == P_JOIN_FILL ? P_JOIN_BUILD : P_GROW_REHASH;
        at = 0;
      }
    } else if (phase == P_EXPAND || phase == P_SCATTER) {
      // P_EXPAND into the table, or P_SCATTER into the buffers.
      const n = countOf(x);
      const into = phase;
      while (xAt < n && left > 0) {
        // A parent adds at most `jumps` pairs to a buffer.
        if (scattering && fullestCount + <u32>jumps > bufferPairs) return flush(fullest);
        if (scattering && roundCut(xAt)) break;
        if (!scattering && crowded(tCount + <u64>jumps, tSize)) {
          if (beginGrowth(P_EXPAND)) break;
          if (!spilled) return OUT_OF_MEMORY;
          const status = moreParts();
          if (status != MORE) return status;
          break;
        }
        const pair = densePair(x, xAt);
        if (pair == 0) return needPairs(x, xAt);
        expand(pairKey(pair), pairPaths(pair));
        xAt++;
        left--;
        meetNodes++;
      }
      if (phase == into && xAt >= n) {
        const status = scattering ? drainNext() : parts == 1 && !spilled ? levelBuilt() : compactPart();
        if (status != MORE) return status;
      }
    } else if (phase == P_DISCARD) {
      const status = discardNext();
      if (status != MORE) return status;
    } else if (phase == P_ROUND) {
      // The round's parts are done and their files gone: the next round.
      const status = roundFromStart(roundTo);
      if (status != MORE) return status;
    } else if (phase == P_FLUSHED) {
      const status = flushed();
      if (status != MORE) return status;
    } else if (phase == P_GATHER) {
      // The part's records (children, one per jump from the parent level) into its table.
      const n = partRecords(part);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        if (crowded(tCount + GROUP, tSize)) {
          if (beginGrowth(P_GATHER)) break;
          const status = moreSubs(partRecords(part));
          if (status != MORE) return status;
          break;
        }
        const pair = partPair(xAt);
        if (pair == 0) return needPartPairs(xAt);
        const group = readGroup(pair, end);
        for (let i = 0; i < group; i++) {
          const record = pair + <usize>i * width;
          const key = get64(CHILDREN, i);
          if (subs > 1 && subOwner(key) != sub) continue;
          const slot = findIn(tBase, tSize, key);
          if (isEmpty(slot)) {
            setPair(slot, key, pairPaths(record));
            tCount++;
          } else setPair(slot, key, combine(pairPaths(slot), pairPaths(record)));
        }
        xAt += <u64>group;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_GATHER && xAt >= n) compactPart();
    } else if (phase == P_JOIN_SETTLE) {
      // The part's lookups against its table, whose pairs hold their count per member.
      const n = partRecords(part);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        const pair = partPair(xAt);
        if (pair == 0) return needPartPairs(xAt);
        const group = readGroup(pair, end);
        for (let i = 0; i < group; i++) {
          const key = get64(CHILDREN, i);
          if (subs > 1 && subOwner(key) != sub) continue;
          const slot = findIn(tBase, tSize, key);
          if (isEmpty(slot)) continue;
          if (fewest) meetValues(pairPaths(pair + <usize>i * width), pairPaths(slot), key);
          else addProduct(pairPaths(pair + <usize>i * width), pairPaths(slot));
        }
        xAt += <u64>group;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_JOIN_SETTLE && xAt >= n) {
        const status = joinSubDone();
        if (status != MORE) return status;
      }
    } else if (phase == P_JOIN_SCATTER) {
      // Every lookup of the streamed side's positions to its part's buffer.
      const y = streamSide();
      const n = countOf(y);
      const children = !selfDual || level0 != level1;
      while (at < n && left > 0) {
        if (fullestCount + <u32>jumps > bufferPairs) return flush(fullest);
        if (roundCut(at)) break;
        const pair = densePair(y, at);
        if (pair == 0) return needPairs(y, at);
        at++;
        const key = pairKey(pair);
        const paths = pairPaths(pair);
        if (children) {
          keepImages(key);
          const legalCount = legalJumps(key);
          for (let i = 0; i < legalCount; i++) {
            const j = <i32>load<u32>(LEGAL + (<usize>i << 2));
            const least = lookupOf(images, key, j, paths);
            toBuffer(ownerOf(least), least, fewest ? valueOut : paths);
          }
        } else {
          const least = selfLookupOf(key);
          toBuffer(ownerOf(least), least, paths);
        }
        left--;
        meetNodes++;
      }
      if (phase == P_JOIN_SCATTER && at >= n) {
        const status = drainNext();
        if (status != MORE) return status;
      }
    } else if (phase == P_GATHERED) {
      scattering = false;
      tCount = nCount;
      const status = levelBuilt();
      if (status != MORE) return status;
    } else if (phase == P_JOIN_BUILD) {
      // One part of the smaller side (dense) into the table.
      const n = countOf(lookup);
      const end = min<u64>(n, xAt + left * PROBE_SLOTS);
      const begin = xAt;
      while (xAt < end) {
        if (crowded(tCount + 1, tSize)) {
          if (beginGrowth(P_JOIN_BUILD)) break;
          if (!spilled) return OUT_OF_MEMORY;
          const status = joinScatter ? moreSubs(n) : moreJoinParts();
          if (status != MORE) return status;
          break;
        }
        const pair = densePair(lookup, xAt);
        if (pair == 0) return needPairs(lookup, xAt);
        const key = pairKey(pair);
        xAt++;
        if (ownerOf(key) != part) continue;
        if (!joinScatter) copyPair(findIn(tBase, tSize, key), pair);
        else if (subs > 1 && subOwner(key) != sub) continue;
        // The lookups come without their orbit's size: the pair holds its count per member.
        else setPair(findIn(tBase, tSize, key), key, fewest ? pairPaths(pair) : pairPaths(pair) / <u64>orbitSize(key));
        tCount++;
      }
      left -= min<u64>(left, 1 + (xAt - begin) / PROBE_SLOTS);
      if (phase == P_JOIN_BUILD && xAt >= n) {
        phase = joinScatter ? P_JOIN_SETTLE : P_FINAL;
        at = 0;
        xAt = 0;
      }
    } else if (phase == P_GROW_REHASH) {
      const end = min<u64>(<u64>tSize, at + left * PROBE_SLOTS);
      for (let i = at; i < end; i++) {
        const slot = tBase + <usize>i * width;
        if (isEmpty(slot)) continue;
        copyPair(findIn(fresh, freshSize, pairKey(slot)), slot);
      }
      left -= min<u64>(left, (end - at + PROBE_SLOTS - 1) / PROBE_SLOTS);
      at = end;
      if (at >= <u64>tSize) { phase = P_GROW_COPY; at = 0; }
    } else if (phase == P_GROW_COPY) {
      // Forward, in pieces: the source lies above the destination, so nothing is overwritten unread.
      const size: u64 = <u64>freshSize * <u64>width;
      const bytes = min<u64>(size - at, left * BULK_BYTES);
      memory.copy(tBase + <usize>at, fresh + <usize>at, <usize>bytes);
      at += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= size) {
        tSize = freshSize;
        arenaRewind(tBase + <usize>size);
        phase = grown;
      }
    } else if (phase == P_COMPACT) {
      const end = min<u64>(<u64>tSize, at + left * PROBE_SLOTS);
      for (let i = at; i < end; i++) {
        const slot = tBase + <usize>i * width;
        if (isEmpty(slot)) continue;
        // Summed from the parts' files, the children are judged by the side's pagodas here,
        // once each.
        if (scattering && !hopeful(pairKey(slot))) continue;
        // A part's pairs go right after the parts before (its table may start a little above
        // their end, the arena aligning it): never above the slot being read.
        // Spilled, a part's pairs go to the table's front, for the host.
        const to = (parts == 1 || spilled ? tBase : nBase + <usize>nCount * width) + <usize>xAt * width;
        if (to != slot) copyPair(to, slot);
        xAt++;
      }
      left -= min<u64>(left, (end - at + PROBE_SLOTS - 1) / PROBE_SLOTS);
      at = end;
      if (at >= <u64>tSize) {
        if (spilled) {
          phase = P_HANDED;
          tCount = xAt; // less the children the pagodas ruled out, when summed from files
          return handOut(x, newLevel(), nCount, tBase, tCount);
        }
        if (parts == 1) planMoves();
        else {
          const status = partDone();
          if (status != MORE) return status;
        }
      }
    } else if (phase == P_HANDED) {
      const status = partDone();
      if (status != MORE) return status;
    } else if (phase == P_SPILL) {
      const status = spillOut();
      if (status != MORE) return status;
    } else if (phase == P_MOVE) {
      const dst = moves == 2 ? moveDst0 : moveDst1;
      const src = moves == 2 ? moveSrc0 : moveSrc1;
      const len = moves == 2 ? moveLen0 : moveLen1;
      const bytes = min<u64>(len - at, left * BULK_BYTES);
      // Forward, in pieces: every source lies above its destination.
      memory.copy(dst + <usize>at, src + <usize>at, <usize>bytes);
      at += bytes;
      left -= min<u64>(left, (bytes + BULK_BYTES - 1) / BULK_BYTES);
      if (at >= len) {
        at = 0;
        moves--;
        if (moves == 0) {
          const status = moved();
          if (status != MORE) return status;
        }
      }
    } else {
      // P_FINAL: the dense side's children against the table (side x's last level, or one
      // part of it); self-dual, the last level's own pairs (children, or themselves on the
      // middle level) against it.
      const y = streamSide();
      const dense = joining || !selfDual;
      const n = dense ? countOf(y) : <u64>tSize;
      const children = !selfDual || level0 != level1;
      while (at < n && left > 0) {
        const pair = dense ? densePair(y, at) : tBase + <usize>at * width;
        if (pair == 0) return needPairs(y, at);
        at++;
        if (isEmpty(pair)) continue;
        const key = pairKey(pair);
        if (grand) meetGrand(key, pairPaths(pair));
        else if (children) meet(key, pairPaths(pair));
        else meetSelf(key, pairPaths(pair));
        left--;
        meetNodes++;
      }
      if (at >= n) {
        const status = streamed();
        if (status != MORE) return status;
      }
    }
  }
  return countWrapped() || tooBig ? OVERFLOW : DONE;
}

/** Adds the children of a position reached by `paths` sequences (orbit total) to the table. */
function expand(key: u64, paths: u64): void {
  keepImages(key);
  let n = 0;
  const legalCount = legalJumps(key);
  for (let i = 0; i < legalCount; i++) {
    const j = <i32>load<u32>(LEGAL + (<usize>i << 2));
    let child: u64;
    let value = paths;
    if (fewest) {
      child = fewestChild(images, key, j, paths, x, 0);
      value = valueOut;
    } else {
      child = load<u64>(images) ^ get64(jumpFlip, j);
      for (let s = 1; s < syms; s++) child = min<u64>(child, get64(images, s) ^ get64(jumpImage, s * jumps + j));
    }
    const owner = ownerOf(child);
    if (scattering) {
      // Judged by the pagodas once summed (P_COMPACT): once a child, not once a jump.
      toBuffer(owner, child, value);
      continue;
    }
    if (owner != part) continue;
    set64(VALUES, n, value);
    set64(CHILDREN, n++, child);
  }
  readAhead(n);
  for (let i = 0; i < n; i++) {
    const child = get64(CHILDREN, i);
    const value = get64(VALUES, i);
    const slot = findIn(tBase, tSize, child);
    if (isEmpty(slot)) {
      // Children the side's pagodas rule out are never stored.
      if (!hopeful(child)) continue;
      setPair(slot, child, value);
      tCount++;
    } else setPair(slot, child, combine(pairPaths(slot), value));
  }
}
const CHILDREN: usize = memory.data(8 * 64 * 6); // a position's children (MAX_JUMPS in pegs.ts)
const VALUES: usize = memory.data(8 * 64 * 6);   // their values (paths, or fewest moves), or the lookups'

/**
 * Reads the table slot of each of the first n keys in CHILDREN before any is used: the reads
 * do not wait on one another, so their cache misses (the table is most of memory) overlap.
 */
@inline function readAhead(n: i32): void {
  let touched: u64 = 0;
  for (let i = 0; i < n; i++) touched |= load<u64>(tBase + <usize>home(get64(CHILDREN, i), tSize) * width);
  touchedSink ^= touched;
}
let touchedSink: u64 = 0; // keeps the reads above from being optimized away

/** Whether side x's pagodas leave the finish (forward) or the start's complement (backward) in reach. */
@inline function hopeful(pos: u64): bool {
  return x == 0 ? hopefulIn(pos, 0, forwardEnd) : hopefulIn(pos, forwardEnd, pagodas);
}

/** The final sum over the children of one position of the streamed side (the lookups of this part). */
function meet(key: u64, paths: u64): void {
  keepImages(key);
  let n = 0;
  const legalCount = legalJumps(key);
  for (let i = 0; i < legalCount; i++) n = meetChild(images, key, <i32>load<u32>(LEGAL + (<usize>i << 2)), n, paths);
  settle(n, paths);
}

/** The final sum over the grandchildren of one position of side x (the level between is skipped). */
function meetGrand(key: u64, paths: u64): void {
  keepImages(key);
  for (let j = 0; j < jumps; j++) {
    if (!legal(key, j)) continue;
    const flip = get64(jumpFlip, j);
    const child = key ^ flip;
    // The child's images, for the grandchildren's; its value (not its orbit's: in key's frame).
    for (let s = 1; s < syms; s++) set64(childImages, s, get64(images, s) ^ get64(jumpImage, s * jumps + j));
    const value = fewest ? valueOf(movesAfter(paths, j, x), markOf(0, j, x, key)) : paths;
    let n = 0;
    for (let k = 0; k < jumps; k++) if (legal(child, k)) n = meetChild(childImages, child, k, n, value);
    settle(n, paths);
  }
}

/**
 * For the child c of `pos` (of this value) by jump j, given pos's images (from 1 up) at
 * `imagesOf`: the key of ~c's orbit and |c's orbit| (fewest moves: c's value in that key's
 * frame) as lookup n (the first n are taken), when this part owns it; the lookups taken.
 */
@inline function meetChild(imagesOf: usize, pos: u64, j: i32, n: i32, value: u64): i32 {
  const least = lookupOf(imagesOf, pos, j, value);
  if (ownerOf(least) != part) return n;
  set64(CHILDREN, n, least);
  if (fewest) set64(VALUES, n, valueOut);
  else store<u32>(ORBITS + (<usize>n << 2), <u32>syms / fixedOut);
  return n + 1;
}

/**
 * The key of ~c's orbit for the child c of `pos` by jump j (pos's images from 1 up at
 * `imagesOf`): the least complement of c's images; `fixedOut`: how many images are c itself.
 * Fewest moves: c's value (from pos's `value`) in the key's frame goes to valueOut.
 */
@inline function lookupOf(imagesOf: usize, pos: u64, j: i32, value: u64): u64 {
  // Fewest moves: never dual, as the rules differ by side.
  if (fewest) return fewestChild(imagesOf, pos, j, value, streamSide(), full);
  const child = pos ^ get64(jumpFlip, j);
  if (dualOn) return partnerOf(child);
  let least = ~child & full;
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) {
    const image = get64(imagesOf, s) ^ get64(jumpImage, s * jumps + j);
    if (image == child) fixed++;
    least = min<u64>(least, ~image & full);
  }
  fixedOut = fixed;
  return least;
}

/** The key of ~pos's orbit (self-dual, on the middle level: never for fewest moves), with `fixedOut` as in lookupOf. */
@inline function selfLookupOf(pos: u64): u64 {
  if (dualOn) return partnerOf(pos);
  const least = leastComplement(pos);
  fixedOut = fixedBy;
  return least;
}

/** The size of a position's orbit under the board's symmetries. */
function orbitSize(pos: u64): u32 {
  let fixed: u32 = 1;
  for (let s = 1; s < syms; s++) if (imageOf(s, pos) == pos) fixed++;
  return <u32>syms / fixed;
}

/** The side streamed in the join (the other side's pairs, or its own, are in the table). */
@inline function streamSide(): i32 {
  return grand || selfDual ? x : joining ? 1 - lookup : 1 - x;
}

/**
 * The keys of the records from `pair` (in the window) on, up to record `end`, into CHILDREN,
 * and their slots read first, as in expand; how many.
 */
@inline function readGroup(pair: usize, end: u64): i32 {
  const group = <i32>min<u64>(min<u64>(GROUP, end - xAt), winFrom + winCount - xAt);
  for (let i = 0; i < group; i++) set64(CHILDREN, i, pairKey(pair + <usize>i * width));
  readAhead(group);
  return group;
}
const childImages: usize = memory.data(8 * MAX_SYMS);
const ORBITS: usize = memory.data(4 * 64 * 6); // the lookups' orbit sizes, by CHILDREN's

/** paths · (the table's total of each lookup's orbit) / its orbit's size, for the first n lookups. */
function settle(n: i32, paths: u64): void {
  readAhead(n);
  for (let i = 0; i < n; i++) {
    const slot = findIn(tBase, tSize, get64(CHILDREN, i));
    if (isEmpty(slot)) continue;
    if (fewest) meetValues(get64(VALUES, i), pairPaths(slot), get64(CHILDREN, i));
    else addProduct(paths, pairPaths(slot) / <u64>load<u32>(ORBITS + (<usize>i << 2)));
  }
}

/** The self-dual middle level: a position's total times its complement's, per member. */
function meetSelf(key: u64, paths: u64): void {
  const least = selfLookupOf(key);
  if (ownerOf(least) != part) return;
  const slot = findIn(tBase, tSize, least);
  if (isEmpty(slot)) return;
  addProduct(paths, pairPaths(slot) / <u64>(<u32>syms / fixedOut));
}

/** The table is about to crowd: starts growing it, by the guess the pairs done so far give. */
function beginGrowth(resume: i32): bool {
  const n = resume == P_GATHER ? partRecords(part) : countOf(resume == P_JOIN_BUILD ? lookup : x);
  const guess = <f64>tCount * (<f64>n / <f64>max<u64>(xAt, 1)) * 1.1;
  const least = tSize + (tSize >> 2);
  let size = <u32>min<f64>(<f64>tSize * 2, max<f64>(<f64>least, <f64>slotsFor(guess)));
  if ((resume == P_GATHER || joinScatter) && sumCap != 0 && size > sumCap) return false;
  for (;;) {
    fresh = arenaAlloc(<u64>size * <u64>width);
    if (fresh != 0 || size <= least) break;
    size = max<u32>(least, size - ((size - tSize) >> 1));
  }
  notePeak();
  if (fresh == 0) return false;
  freshSize = size;
  grown = resume;
  phase = P_GROW_FILL;
  at = 0;
  return true;
}

/** One part's table is built: compact it where it stands (right after the parts before). */
function compactPart(): i32 {
  at = 0;
  xAt = 0;
  phase = P_COMPACT;
  return MORE;
}

/** One part's pairs are dense after the parts before: the next part, or the level is built. */
function partDone(): i32 {
  if (scattering) return gatherDone();
  nCount += tCount;
  // Spilled, the part is with the host: its table's memory is free.
  arenaRewind(spilled ? tBase : nBase + <usize>nCount * width);
  part++;
  if (part < parts) {
    const n = countOf(x);
    const ratio = x == 0 ? ratio0 : ratio1;
    // The parts so far tell the level's size better than the last ratio.
    const guess = max<f64>(<f64>nCount / <f64>part * <f64>parts * 1.05, ratio == 0 ? <f64>n * 4 : 0);
    const status = beginPart(guess);
    return status == DONE ? MORE : status;
  }
  tBase = nBase;
  tCount = nCount;
  return levelBuilt();
}

/** Side x's new level is built (a table, or dense when in parts): record it, compact or keep it. */
function levelBuilt(): i32 {
  steps++;
  const n = countOf(x);
  if (x == 0) { level0--; ratio0 = <f64>tCount / <f64>n; } else { level1++; ratio1 = <f64>tCount / <f64>n; }
  if (selfDual) level1 = holes - level0; // the complements of the forward side
  set64(OUTPUT, x == 0 ? level0 : level1, tCount);
  if (tCount == 0) {
    // Nothing left on this side: no solution.
    clearTotal();
    phase = P_DONE;
    return DONE;
  }
  // The last level: one jump from the other side (self-dual: from its own complements, or
  // on them when the middle level is its own complement level).
  const last = level0 - level1 <= 1;
  if (spilled) {
    // The level is with the host: the next step, or the join part by part, from disk.
    if (x == 0) count0 = tCount; else count1 = tCount;
    if (!last) {
      const status = beginStep();
      return status == DONE ? MORE : status;
    }
    joining = true;
    lookup = selfDual || count0 <= count1 ? 0 : 1;
    parts = max<u32>(leastParts, partsFor(<f64>countOf(lookup), MAX_SPILL_PARTS));
    return parts > 1 ? beginJoinScatter() : beginJoin(0);
  }
  keepTable = last && parts == 1;
  joining = last && parts > 1;
  at = 0;
  xAt = 0;
  if (parts > 1 || keepTable) planMoves();
  else phase = P_COMPACT;
  return MORE;
}

/**
 * Plans moving the new level (dense, or the whole table when kept) down over side x's old
 * pairs: [y][x][new] moves the new level down; [x][y][new] moves y down, then the new level.
 */
function planMoves(): void {
  const y = 1 - x;
  const bytes: u64 = (keepTable ? <u64>tSize : tCount) * <u64>width;
  const xBase = baseOf(x);
  if (lower == y) {
    moves = 1;
    moveDst1 = xBase; moveSrc1 = tBase; moveLen1 = bytes;
  } else {
    const yBytes = countOf(y) * <u64>width;
    moves = 2;
    moveDst0 = xBase; moveSrc0 = baseOf(y); moveLen0 = yBytes;
    moveDst1 = xBase + <usize>yBytes; moveSrc1 = tBase; moveLen1 = bytes;
    if (y == 0) base0 = xBase; else base1 = xBase;
    lower = y;
  }
  if (x == 0) { base0 = moveDst1; count0 = keepTable ? <u64>tSize : tCount; } else { base1 = moveDst1; count1 = keepTable ? <u64>tSize : tCount; }
  at = 0;
  phase = P_MOVE;
}

/** The moves are done: the next step, or the final stream (against the table, or part by part). */
function moved(): i32 {
  const xBase = baseOf(x);
  arenaRewind(xBase + <usize>countOf(x) * width);
  if (keepTable) {
    // Side x is now a table of countOf(x) slots; the other side streams against it.
    tBase = xBase;
    tSize = <u32>countOf(x);
    part = 0;
    parts = 1;
    at = 0;
    phase = P_FINAL;
    return MORE;
  }
  if (joining) {
    // The smaller side goes into the tables, in as few parts as the memory left allows.
    lookup = selfDual || count0 <= count1 ? 0 : 1;
    parts = partsFor(<f64>countOf(lookup), MAX_PARTS);
    return beginJoin(0);
  }
  const status = beginStep();
  return status == DONE ? MORE : status;
}

/** The last level built in parts: a table for part k of the smaller side. */
function beginJoin(k: u32): i32 {
  part = k;
  const share = <f64>countOf(lookup) / <f64>parts / <f64>(joinScatter ? subs : 1);
  tSize = roomier(slotsFor(share * (parts == 1 ? 1 : 1.1)), share);
  if (joinScatter) {
    if (sumCap != 0) tSize = min<u32>(tSize, max<u32>(sumCap, 16));
    joinPasses++;
  }
  tBase = arenaAlloc(<u64>tSize * <u64>width);
  notePeak();
  if (tBase == 0) return OUT_OF_MEMORY;
  tCount = 0;
  xAt = 0;
  at = 0;
  phase = P_JOIN_FILL;
  return MORE;
}

/** The stream is over: the next part, or the end. */
function streamed(): i32 {
  if (joining && part + 1 < parts) {
    arenaRewind(tBase);
    return beginJoin(part + 1);
  }
  steps = grand ? steps + 2 : steps + 1;
  phase = P_DONE;
  return DONE;
}
