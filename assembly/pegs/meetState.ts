// Peg solitaire, the count from both ends (meet.ts): its state, in one place. A pair's layout
// (12 or 16 bytes) and the tables of pairs, the phases of pegsMeetRun and the statuses of the
// disk protocol, the sides, the table being built, the parts, the moves down, the levels on
// disk (the window, the host's task, the buffers, the rounds), the total and, for the fewest
// moves, the values' layout and the least meeting. The other parts (meetLevels.ts,
// meetJoin.ts, meetSpill.ts, meetFewest.ts) read and write these globals.
import { MAX_SYMS } from './board';
import { GOLDEN } from './tables';

// A pair: 16 bytes (u64 position, u64 count), or 12 on boards of up to 41 holes: the
// position's low 32 bits, then a u64 whose top `high` bits are the position's bits from 32
// up and whose other bits are the count (a stored count is at least 1, so 0 is an empty slot).
export let width: usize = 16;
export let high: u64 = 0;
export let countBits: u64 = 64;
export let countMax: u64 = <u64>-1;
export let tooBig: bool = false; // a count passed countMax
export const NARROW_HOLES: i32 = 41;

@inline export function pairKey(p: usize): u64 {
  if (width == 16) return load<u64>(p);
  const low = <u64>load<u32>(p);
  return high == 0 ? low : low | ((load<u64>(p, 4) >> countBits) << 32);
}

@inline export function pairPaths(p: usize): u64 {
  return width == 16 ? load<u64>(p, 8) : load<u64>(p, 4) & countMax;
}

@inline export function isEmpty(p: usize): bool {
  return width == 16 ? load<u64>(p) == 0 : load<u64>(p, 4) == 0;
}

@inline export function setPair(p: usize, key: u64, paths: u64): void {
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
@inline export function copyPair(to: usize, from: usize): void {
  if (width == 16) {
    store<u64>(to, load<u64>(from));
    store<u64>(to, load<u64>(from, 8), 8);
  } else {
    store<u32>(to, load<u32>(from));
    store<u64>(to, load<u64>(from, 4), 4);
  }
}

// The phases of pegsMeetRun.
export const P_FILL: i32 = 0;        // clear the new table
export const P_EXPAND: i32 = 1;      // expand side x into it
export const P_GROW_FILL: i32 = 2;   // the guess was short: clear a bigger table above it,
export const P_GROW_REHASH: i32 = 3; // move the pairs into it,
export const P_GROW_COPY: i32 = 4;   // and move it down over the old place
export const P_COMPACT: i32 = 5;     // the table's pairs to the front, dense
export const P_MOVE: i32 = 6;        // the new frontier down over the old one
export const P_FINAL: i32 = 7;       // stream the other side against the table
export const P_JOIN_FILL: i32 = 8;   // in parts: clear a table for one part of the last level,
export const P_JOIN_BUILD: i32 = 9;  // put that part's pairs in it, then stream (P_FINAL)
export const P_DONE: i32 = 10;
export const P_SPILL: i32 = 11;      // handing the sides in memory to the host
export const P_HANDED: i32 = 12;     // a part of the new level handed to the host: the next part
// Spilled, a level in parts is built in one pass over its parent: the children go into one
// buffer per part, and a full buffer goes to the end of its part's file; then each part's file
// is read back and summed in one table (the level's pairs of that part, handed to the host as
// before).
export const P_SCATTER: i32 = 13;    // expand side x into the buffers
export const P_FLUSHED: i32 = 14;    // the host took a buffer's pairs: on with the parents
export const P_GATHER: i32 = 15;     // one part's file into the table
export const P_GATHERED: i32 = 16;   // every part summed and handed: the level is built
// Spilled, a join in parts is one pass over the streamed side too: each position's lookups go
// to their part's buffer and file; then for each part, a table of the lookup side's pairs of
// that part (each holding its count per member of its orbit) and the part's file read against it.
export const P_JOIN_SCATTER: i32 = 17; // the streamed side's lookups into the buffers
export const P_JOIN_SETTLE: i32 = 18;  // one part's file of lookups against its table
// On a disk too small for every part's file at once, the parts go in rounds: each round one
// pass over the parents (or the streamed side) that keeps only the children (lookups) of parts
// roundFrom .. roundTo-1, as many as the disk's room holds, then those parts summed (joined).
export const P_DISCARD: i32 = 19;     // the round was cut: the files of the parts dropped from it go
export const P_ROUND: i32 = 20;       // the round's parts done and their files gone: the next round
export const MAX_PARTS: u32 = 16; // beyond, the passes would cost more than failing early
export const MAX_SPILL_PARTS: u32 = 256; // spilled, a part costs one pass over the parent level from disk

/** Statuses of pegsMeetRun when spilled: the host reads a window's pairs, or takes a part's. */
export const NEED_PAIRS: i32 = 4;
export const HAVE_PAIRS: i32 = 5;
/** Spilled: the host may remove the file of part ioPart of side ioSide's level ioLevel. */
export const DROP_PART: i32 = 6;
/** Spilled: the host must remove the file of part ioPart (of side ioSide's level ioLevel): its records come again in a later round. */
export const DISCARD_PART: i32 = 7;

// Work per unit of budget (a unit is about one position expanded).
export const BULK_BYTES: u64 = 8192;
export const PROBE_SLOTS: u64 = 64;
export const GROUP: u64 = 16; // records summed together (their slots read first)

// Per side (0 forward, 1 backward): where its pairs are, how many, the level (pegs of the
// positions it stands for, in the forward space) and the last ratio of new to old pairs.
export let base0: usize = 0;
export let base1: usize = 0;
export let count0: u64 = 0;
export let count1: u64 = 0;
export let level0: i32 = 0;
export let level1: i32 = 0;
export let ratio0: f64 = 0;
export let ratio1: f64 = 0;
export let lower: i32 = 0;      // the side whose pairs lie lower in memory
export let selfDual: bool = false; // the backward side is the forward one (through `dual` when dualOn)
// A symmetry h with h(~finish) = start and h(~start) = finish (the host's, in DUAL_INPUT):
// the backward count of q is the forward count of h(q). Its byte tables, as imageOf's.
export const DUAL_INPUT: usize = memory.data(4 * 64);
export let dualOn: bool = false;
export let dualBytes: usize = 0;
export let dualWidth: i32 = 0; // bytes of a position
export let forwardEnd: i32 = 0; // pagodas 0 .. forwardEnd-1 judge the forward side, the rest the backward one

export let phase: i32 = P_DONE;
export let x: i32 = 0;          // the side being expanded
export let at: u64 = 0;         // the pair, slot or byte reached in the current phase
export let xAt: u64 = 0;        // the pair of side x reached by the expansion
export let tBase: usize = 0;    // the table being built (the arena's last allocation)
export let tSize: u32 = 0;      // its slots
export let tCount: u64 = 0;
export let fresh: usize = 0;    // the bigger table while growing
export let freshSize: u32 = 0;
export let keepTable: bool = false; // the table is the last one: kept for the final lookups
// When a level's table would not fit, the level is built in parts (the children owned by
// part 0, then 1, ...: each part's table compacted where it stands, after the pairs of the
// parts before), and the last level is joined part by part: `parts` passes in all.
export let parts: u32 = 1;
export let part: u32 = 0;
export let nBase: usize = 0;    // the level built in parts: its pairs so far
export let nCount: u64 = 0;
export let joining: bool = false; // the last level was built in parts: the final stream goes part by part
export let lookup: i32 = 0;       // joining: the side whose pairs go into the tables (the smaller), the other streams
export let grand: bool = false;   // the last level is skipped: side x's grandchildren stream against the other side
export let grown: i32 = P_EXPAND; // the phase a table's growth returns to
export let moves: i32 = 0;      // memory moves planned (at most 2), done in order
export let moveDst0: usize = 0;
export let moveSrc0: usize = 0;
export let moveLen0: u64 = 0;
export let moveDst1: usize = 0;
export let moveSrc1: usize = 0;
export let moveLen1: u64 = 0;
export let total: u64 = 0;     // the low 64 bits of the total,
export let totalHigh: u64 = 0; // and the high 64: a sum of products of u64 counts can pass 2^64
export let meetNodes: u64 = 0;
export let steps: i32 = 0;      // levels done (expansions, and the final stream)
// Levels on disk: the mode (0 never; 1 when a level would need parts; 2 from the first level,
// the tests' lever), whether the sides are with the host, the window (pairs winFrom on of
// side winSide's level winLevel) and the host's task (the io fields).
export let spillMode: i32 = 0;
export let spilled: bool = false;
export let spillAt: i32 = 0;    // P_SPILL: the side to hand out next
export let windowBytes: u64 = 0;
export let window: usize = 0;
export let windowPairs: u64 = 0;
export let winSide: i32 = -1;
export let winLevel: i32 = 0;
export let winFrom: u64 = 0;
export let winCount: u64 = 0;
export let ioSide: i32 = 0;
export let ioLevel: i32 = 0;
export let ioFrom: u64 = 0;
export let ioPtr: usize = 0;
export let ioCount: u64 = 0;
export let leastParts: u32 = 1; // spilled, the fewest parts of a level and the join (the tests' lever)
export let sumCap: u32 = 0;     // when not 0, the most slots of a part's summing table (the tests' lever)
export let ioPart: i32 = -1;    // the part's file (-1: the level's own)
export let winPart: i32 = -1;
export let filled: i32 = P_EXPAND; // the phase after P_FILL
// Building a level in one pass (P_SCATTER): the buffers (`parts` of them, bufferPairs each,
// from tBase), their pairs (BUFFER_COUNT, u32 each), the fullest, the pairs each part's file
// holds (PART_RECORDS, u64 each), the buffer being handed out; then the part being summed, in
// `subs` passes over its file when its table would not grow (pass `sub` keeps subOwner's share).
export let scattering: bool = false;
export let bufferPairs: u32 = 0;
export const BUFFER_COUNT: usize = memory.data(4 * 256);
export const PART_RECORDS: usize = memory.data(8 * 256);
export let fullest: u32 = 0;
export let fullestCount: u32 = 0;
export let flushing: u32 = 0;
export let draining: bool = false; // the parents are done: every buffer left goes to its file
export let levelGuess: f64 = 0;
export let subs: u32 = 1;
export let sub: u32 = 0;
export let partStart: u64 = 0;  // the level's pairs before the part being summed
// The parts' files being written or read: side fileSide's, under the label of level fileLevel
// (a level's new children, or the join's lookups: those of the streamed side's children).
export let fileSide: i32 = 0;
export let fileLevel: i32 = 0;
export let joinScatter: bool = false; // the join in parts from the parts' files of lookups (P_JOIN_SCATTER)
export let partTotal: u64 = 0;        // the total before the part being joined (a part joined again in
export let partTotalHigh: u64 = 0;    // more passes starts from it)
export let joinPasses: i32 = 0;       // tables of the join from the parts' files (the tests look)
// Rounds (see P_DISCARD): the bytes the count's files may still grow by (the host's word after
// each write and removal), the round's parts, the bytes their files may take, the records put
// in their buffers so far, when to estimate again, the parts being discarded.
export let diskRoom: f64 = Infinity;
export let roundFrom: u32 = 0;
export let roundTo: u32 = 0;
export let roundBudget: f64 = Infinity;
export let roundRecords: u64 = 0;
export let checkAt: u64 = 0;
export let discardAt: u32 = 0;
export let discardTo: u32 = 0;
export let summedBytes: f64 = 0; // a part's share of the level once summed (0 for a join)
export let regroup: u32 = 0;  // when not 0: the parts the level (or join) starts again in, once discarded
export let rounds: i32 = 0;   // rounds begun after a level's (or join's) first, and rounds cut (the tests look)

@inline export function baseOf(s: i32): usize { return s == 0 ? base0 : base1; }
@inline export function countOf(s: i32): u64 { return s == 0 ? count0 : count1; }
@inline export function levelOf(s: i32): i32 { return s == 0 ? level0 : level1; }

/** The level side x is building. */
@inline export function newLevel(): i32 { return x == 0 ? level0 - 1 : level1 + 1; }
@inline export function partRecords(k: u32): u64 { return load<u64>(PART_RECORDS + (<usize>k << 3)); }

@inline export function home(key: u64, size: u32): u32 {
  return <u32>((((key * GOLDEN) >> 32) * <u64>size) >> 32);
}

/** The slot of `key`: its own, or the empty one it would take. */
@inline export function findIn(base: usize, size: u32, key: u64): usize {
  let i = home(key, size);
  for (;;) {
    const slot = base + <usize>i * width;
    if (isEmpty(slot) || pairKey(slot) == key) return slot;
    i++;
    if (i == size) i = 0;
  }
  return 0; // not reached: tables never fill
}

@inline export function crowded(n: u64, size: u32): bool {
  return n * 5 >= <u64>size * 4;
}

/**
 * Slots for n pairs at a load of 0.8 (memory bounds these counts; linear probing still finds a
 * pair in a few probes there, and the guesses' margins keep most tables nearer 0.7).
 */
export function slotsFor(n: f64): u32 {
  return <u32>min<f64>(<f64>0x40000000, max<f64>(16, Math.ceil(n / 0.8) + 1));
}

// Fewest moves (see meet.ts): the values' layout, and the value of the child or lookup just made.
export let fewest: bool = false;
export let landBits: u64 = 0;
export let landMask: u64 = 0;
export let valueOut: u64 = 0;
export const NO_MOVES: u64 = <u64>-1;
// The from hole of each jump under each symmetry (a bit), for the backward marks.
export const FROM_IMAGES: usize = memory.data(8 * MAX_SYMS * 64 * 6);
// The least meeting so far: the lookup's key, the streamed side's value and the table's, and
// the side streamed (0: the key is a complement, of the forward position; 1: it is that position).
export let meetKey: u64 = 0;
export let meetStreamed: u64 = 0;
export let meetTable: u64 = 0;
export let meetSide: i32 = 0;

/** The pass of a part's summing a position belongs to: a hash unrelated to ownerOf's and the slots'. */
@inline export function subOwner(key: u64): u32 {
  return <u32>((((key ^ (key >> 31)) * 0x94d049bb133111eb) >> 40) % <u64>subs);
}

/** The part of the level (of `parts`) a canonical position belongs to: a hash unrelated to the slots'. */
@inline export function ownerOf(key: u64): u32 {
  return parts == 1 ? 0 : <u32>((((key ^ (key >> 29)) * 0xbf58476d1ce4e5b9) >> 40) % <u64>parts);
}

/**
 * Parents expanded (or streamed positions looked up) as one group: their children's slots are
 * all read before any is used. A group ends sooner when one more parent's children (at most the
 * board's jumps) might not fit in GROUP_ROOM.
 */
export const EXPAND_GROUP: i32 = 4;
export const GROUP_ROOM: i32 = 64 * 6; // MAX_JUMPS in board.ts: the English board's groups of 4 fit (76 jumps)
export const CHILDREN: usize = memory.data(8 * GROUP_ROOM); // a group's children
export const VALUES: usize = memory.data(8 * GROUP_ROOM);   // their values (paths, or fewest moves), or the lookups'

/** The side streamed in the join (the other side's pairs, or its own, are in the table). */
@inline export function streamSide(): i32 {
  return grand || selfDual ? x : joining ? 1 - lookup : 1 - x;
}
