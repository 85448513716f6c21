// Peg solitaire, the count on several threads over one shared memory (build/pegs-shared.wasm,
// from shared.ts; the host is src/pegs/together.ts). The count is meet.ts's: the levels forward
// from the start and backward from the finishes (jumps on their complements), each a dense list
// of (position, paths) pairs built through one hash table that every thread fills at once (a
// key claimed by compare-and-swap, its paths added atomically), and the sum where the two sides
// meet (a central game, whose finish is the start's complement, keeps one side for both). Each
// instance runs the phases the host names in the control block, taking units of work (a chunk
// of parents or of slots) until none is left, so any number of threads, from one up, finishes
// a phase.
//
// Pairs are 16 bytes (key, paths) at 16-byte boundaries, for the atomics; key 0 is empty.
import { DONE, MORE, BAD_INPUT, arenaGeneration } from '../shared/bits';
import {
  MAX_JUMPS, jumps, syms, isFinish, loadedGeneration, images, keepImages, legalJumpsInto, hopefulIn, leastComplement,
  fixedBy, childCanonical, childComplement, total, totalHigh, addPaths, addProduct, countWrapped, clearWrapped, SATURATED,
} from './board';
import { slotIndex } from './tables';

// The control block: u64 words at `ctrl`, written by the host between phases (the host's
// Atomics mirror these offsets in src/pegs/together.ts).
const C_PHASE: usize = 0;     // what the instances do now (PHASE_*)
const C_CLAIM: usize = 1;     // the next unit to take (all phases but EXPAND)
const C_UNITS: usize = 2;     // units in the phase
const C_STOP: usize = 3;      // nonzero: stop at the next unit (the caller aborted)
const C_FLAGS: usize = 4;     // FLAG_GROW | FLAG_OVERFLOW
const C_RESERVED: usize = 5;  // EXPAND: the table's keys plus the most the chunks under way may add (at rest: its keys)
const C_NODES: usize = 6;     // positions expanded or summed over
const C_SOURCE: usize = 7;    // EXPAND: the parents' first pair; GATHER, MOVE: the destination
const C_PARENTS: usize = 8;   // EXPAND: parents in the level
const C_NEXT: usize = 9;      // EXPAND: the next parent to take (kept while the table grows)
const C_TABLE: usize = 10;    // the table's first slot
const C_LOG: usize = 11;      // log2 of its slots
const C_FRESH: usize = 12;    // REHASH: the doubled table; MOVE: the source; CLEAR: the start
const C_BYTES: usize = 13;    // CLEAR, MOVE: bytes
const C_COUNTS: usize = 14;   // COMPACT, GATHER: the chunks' pair counts (u64 each)
const C_THREADS: usize = 15;  // instances that may run at once (for the reservations)
const C_SUMS: usize = 16;     // MEET, EXPAND with C_LAST: where task t puts its 128-bit sum (2 u64 at SUMS + 16 t)
const C_SELVES: usize = 17;   // MEET: 1 when each streamed position's own complement is looked up (not its children's)
const C_PAGODAS: usize = 18;  // EXPAND: the first pagoda the side's positions must pass; C_PAGODAS + 1: the end
const C_STREAM: usize = 20;   // MEET: the dense pairs streamed against the table, or 0 for the table's own slots
const C_STREAMED: usize = 21; // MEET: how many pairs there are
const C_LAST: usize = 22;     // EXPAND: 1 when the children are on the finishes' level of a count forward

const PHASE_CLEAR: u64 = 1;   // zero C_BYTES from C_FRESH, in pieces
const PHASE_EXPAND: u64 = 2;  // parents' children into the table
const PHASE_REHASH: u64 = 3;  // the table's pairs into the doubled one at C_FRESH
const PHASE_MOVE: u64 = 4;    // one unit: C_BYTES from C_FRESH down to C_SOURCE
const PHASE_COMPACT: u64 = 5; // each chunk of slots: its pairs packed at its start, counted
const PHASE_GATHER: u64 = 6;  // one unit: the packed chunks, in order, to C_SOURCE
const PHASE_MEET: u64 = 7;    // the sum where the sides meet

const FLAG_GROW: u64 = 1;     // the table needs to double before EXPAND goes on
const FLAG_OVERFLOW: u64 = 2; // a sum met a position whose paths saturated (board.ts, SATURATED)

/** Slots of a COMPACT chunk or a REHASH / MEET unit (the host makes tables of this many at least). */
export const CHUNK_SLOTS: u32 = 8192;
/** Bytes of a CLEAR unit. */
const CLEAR_BYTES: u64 = 1 << 20;
/** The most parents of an EXPAND unit. */
const EXPAND_PARENTS: u64 = 256;
/** The table doubles before its keys and reservations pass 3/4 of its slots. */
@inline function fullAt(log: u64): u64 { return (<u64>3 << log) >> 2; }

let ctrl: usize = 0;
let children: usize = 0; // this instance's scratch: a group of positions' children (u64 each)
let values: usize = 0;   // and what each child adds (u64 each)
let legals: usize = 0;   // one position's legal jumps (u32 each)
let divisors: usize = 0; // MEET: each lookup's orbit size (u32 each)
/** Parents expanded (or positions summed) as one group: their children's slots are all read first. */
const GROUP: i32 = 4;

@inline function word(i: usize): u64 { return atomic.load<u64>(ctrl + (i << 3)); }
@inline function wordAt(i: usize): usize { return ctrl + (i << 3); }

/**
 * Ties this instance to the control block at `block` once its board is loaded, with scratch of
 * its own at `scratch` (GROUP × MAX_JUMPS × 20 + MAX_JUMPS × 4 bytes). BAD_INPUT when the board has not been loaded.
 */
export function togetherAttach(block: usize, scratch: usize): i32 {
  if (loadedGeneration != arenaGeneration()) return BAD_INPUT;
  ctrl = block;
  children = scratch;
  values = children + <usize>(GROUP * MAX_JUMPS) * 8;
  legals = values + <usize>(GROUP * MAX_JUMPS) * 8;
  divisors = legals + <usize>MAX_JUMPS * 4;
  return DONE;
}

/** Takes the next unit of the phase, or -1 when none is left or the host asks to stop. */
@inline function claim(): i64 {
  if (word(C_STOP) != 0) return -1;
  const unit = atomic.add<u64>(wordAt(C_CLAIM), 1);
  return unit < word(C_UNITS) ? <i64>unit : -1;
}

/** togetherRun: the host should stop calling (the table must grow, or it asked to stop). */
const STOPPED: i32 = 3;

/**
 * Runs the phase the control block names for at most `budget` units (EXPAND: chunks of
 * parents): DONE when no unit is left, MORE when the budget ran out, STOPPED when EXPAND
 * stopped for the table to grow or the host asked every instance to stop. `task` is this
 * run's index among the phase's tasks (MEET, and EXPAND into the finishes, add their sums at
 * its own place). The host calls again and again rather than once for the whole phase: V8
 * runs a long call in the code it first compiled, and the optimized code only serves the
 * calls after.
 */
export function togetherRun(task: i32, budget: i32): i32 {
  const phase = word(C_PHASE);
  if (phase == PHASE_EXPAND) return expandLevel(task, budget);
  if (phase == PHASE_MEET) return meetLevel(task, budget);
  for (let done = 0; done < budget; done++) {
    const unit = claim();
    if (unit < 0) return word(C_STOP) != 0 ? STOPPED : DONE;
    if (phase == PHASE_CLEAR) {
      const at = <u64>unit * CLEAR_BYTES;
      memory.fill(<usize>(word(C_FRESH) + at), 0, <usize>min<u64>(CLEAR_BYTES, word(C_BYTES) - at));
    } else if (phase == PHASE_REHASH) {
      rehashChunk(<u32>unit);
    } else if (phase == PHASE_MOVE) {
      memory.copy(<usize>word(C_SOURCE), <usize>word(C_FRESH), <usize>word(C_BYTES));
    } else if (phase == PHASE_COMPACT) {
      compactChunk(<u32>unit);
    } else if (phase == PHASE_GATHER) {
      gather();
    } else {
      return BAD_INPUT;
    }
  }
  return MORE;
}

// ---- EXPAND ------------------------------------------------------------------------------

/**
 * Expands parents a chunk at a time. Before it takes a chunk, an instance reserves room in the
 * table for the most children the chunk can have, so that the table never fills past 3/4 while
 * others insert; when the room left is too small for one parent of each thread, it flags the
 * growth and stops (the host doubles the table, and every instance goes on from C_NEXT). With
 * C_LAST, each jump into a finish adds its parent's paths to the task's sum: a count forward's
 * total, exact in 128 bits while no parent of a finish saturates (as count.ts sums it).
 */
function expandLevel(task: i32, budget: i32): i32 {
  startSum();
  const status = expandChunks(budget);
  addSum(task);
  return status;
}

function expandChunks(budget: i32): i32 {
  const reserved = wordAt(C_RESERVED);
  const most = fullAt(word(C_LOG));
  const perParent = <u64>jumps;
  const share = perParent * max<u64>(word(C_THREADS), 1) * 2;
  const parents = word(C_PARENTS);
  const source = <usize>word(C_SOURCE);
  for (let done = 0; done < budget; done++) {
    if (word(C_STOP) != 0 || (word(C_FLAGS) & FLAG_GROW) != 0) return STOPPED;
    const held = atomic.load<u64>(reserved);
    const chunk = min<u64>(EXPAND_PARENTS, (most > held ? most - held : 0) / share);
    if (chunk == 0) {
      atomic.or<u64>(wordAt(C_FLAGS), FLAG_GROW);
      return STOPPED;
    }
    if (atomic.cmpxchg<u64>(reserved, held, held + chunk * perParent) != held) {
      done--; // another instance reserved first: try again
      continue;
    }
    const first = atomic.add<u64>(wordAt(C_NEXT), chunk);
    const end = min<u64>(first + chunk, parents);
    let added: u64 = 0;
    for (let i = first; i < end; i += <u64>GROUP) added += expandGroup(source + (<usize>i << 4), <i32>min<u64>(<u64>GROUP, end - i));
    // What the chunk did not add goes back to the room.
    atomic.sub<u64>(reserved, chunk * perParent - added);
    if (end > first) atomic.add<u64>(wordAt(C_NODES), end - first);
    if (first + chunk >= parents) return DONE;
  }
  return MORE;
}

/**
 * Adds the children of `count` parents (the pairs from `pairs` on: a position and the paths to
 * its orbit) to the table; the keys it added.
 */
function expandGroup(pairs: usize, count: i32): u64 {
  const base = <usize>word(C_TABLE);
  const log = <u32>word(C_LOG);
  const last = word(C_LAST) != 0;
  let m = 0;
  for (let p = 0; p < count; p++) {
    const key = load<u64>(pairs + (<usize>p << 4));
    const paths = load<u64>(pairs + (<usize>p << 4), 8);
    keepImages(key);
    const n = legalJumpsInto(key, legals);
    for (let i = 0; i < n; i++) {
      const j = <i32>load<u32>(legals + (<usize>i << 2));
      const child = childCanonical(j);
      if (last && isFinish(child)) addPaths(paths);
      store<u64>(children + (<usize>m << 3), child);
      store<u64>(values + (<usize>m << 3), paths);
      m++;
    }
  }
  readAhead(base, log, m);
  let added: u64 = 0;
  for (let i = 0; i < m; i++) added += insert(base, log, load<u64>(children + (<usize>i << 3)), load<u64>(values + (<usize>i << 3)), true);
  return added;
}

/**
 * Reads the slots of the first n keys at `children` before any is used, in a loop of their
 * own: the reads do not wait on one another, so their cache misses overlap (read where the
 * keys are computed, they stall behind that work).
 */
@inline function readAhead(base: usize, log: u32, n: i32): void {
  let touched: u64 = 0;
  for (let i = 0; i < n; i++) touched |= load<u64>(base + (<usize>slotIndex(load<u64>(children + (<usize>i << 3)), log) << 4));
  sink ^= touched;
}
let sink: u64 = 0; // keeps the reads ahead from being optimized away

/**
 * Adds `paths` to `key`'s pair in the table, claiming an empty slot for it when it has none
 * (unless `judge` and the pagodas rule it out); 1 when it claimed one.
 */
@inline function insert(base: usize, log: u32, key: u64, paths: u64, judge: bool): u64 {
  const mask: u32 = (<u32>1 << log) - 1;
  let i = slotIndex(key, log);
  for (;;) {
    const slot = base + (<usize>i << 4);
    let found = atomic.load<u64>(slot);
    let added: u64 = 0;
    if (found == 0) {
      if (judge && !hopefulIn(key, <i32>word(C_PAGODAS), <i32>word(C_PAGODAS + 1))) return 0;
      found = atomic.cmpxchg<u64>(slot, 0, key);
      if (found == 0) {
        found = key;
        added = 1;
      }
    }
    if (found == key) {
      // Saturated (board.ts): an add that wraps stores SATURATED; adds before that store are
      // overwritten by it, and any after it wrap again.
      const before = atomic.add<u64>(slot + 8, paths);
      if (before + paths < before) atomic.store<u64>(slot + 8, SATURATED);
      return added;
    }
    i = (i + 1) & mask;
  }
  return 0;
}

/** Moves one chunk of the table's pairs into the doubled table. */
function rehashChunk(unit: u32): void {
  const base = <usize>word(C_TABLE);
  const fresh = <usize>word(C_FRESH);
  const log = <u32>word(C_LOG) + 1;
  const first = unit * CHUNK_SLOTS;
  const end = min<u32>(first + CHUNK_SLOTS, <u32>1 << <u32>word(C_LOG));
  for (let i = first; i < end; i++) {
    const slot = base + (<usize>i << 4);
    const key = load<u64>(slot);
    if (key != 0) insert(fresh, log, key, load<u64>(slot, 8), false);
  }
}

// ---- a built level made dense --------------------------------------------------------------

/** Packs one chunk's pairs at the chunk's start, and records how many. */
function compactChunk(unit: u32): void {
  const from = <usize>word(C_TABLE) + (<usize>(unit * CHUNK_SLOTS) << 4);
  const end = from + (<usize>CHUNK_SLOTS << 4);
  let to = from;
  for (let slot = from; slot < end; slot += 16) {
    const key = load<u64>(slot);
    if (key == 0) continue;
    if (to != slot) {
      store<u64>(to, key);
      store<u64>(to, load<u64>(slot, 8), 8);
    }
    to += 16;
  }
  store<u64>(<usize>word(C_COUNTS) + (<usize>unit << 3), <u64>((to - from) >> 4));
}

/**
 * The packed chunks, in order, to C_SOURCE (below the table): each run goes no higher than
 * its own place, so a run never overwrites one not yet moved.
 */
function gather(): void {
  let to = <usize>word(C_SOURCE);
  const base = <usize>word(C_TABLE);
  const counts = <usize>word(C_COUNTS);
  const chunks = (<u32>1 << <u32>word(C_LOG)) / CHUNK_SLOTS;
  for (let c: u32 = 0; c < chunks; c++) {
    const bytes = <usize>load<u64>(counts + (<usize>c << 3)) << 4;
    memory.copy(to, base + (<usize>(c * CHUNK_SLOTS) << 4), bytes);
    to += bytes;
  }
}

// ---- MEET --------------------------------------------------------------------------------

/**
 * The sum where the two sides meet: each streamed position (the dense pairs at C_STREAM, or
 * the table's own slots when one side serves for both) against the table, by its children's
 * complements (the table's positions have one peg more than those children's complements) or,
 * with C_SELVES, its own complement. Adds its 128-bit sum to its task's place.
 */
function meetLevel(task: i32, budget: i32): i32 {
  const base = <usize>word(C_TABLE);
  const log = <u32>word(C_LOG);
  const selves = word(C_SELVES) != 0;
  const stream = <usize>word(C_STREAM);
  const pairs = stream == 0 ? <u64>1 << log : word(C_STREAMED);
  const from = stream == 0 ? base : stream;
  startSum();
  let streamed: u64 = 0;
  let status = MORE;
  for (let done = 0; done < budget; done++) {
    const unit = claim();
    if (unit < 0) {
      status = word(C_STOP) != 0 ? STOPPED : DONE;
      break;
    }
    const first = <u64>unit * CHUNK_SLOTS;
    const end = min<u64>(first + CHUNK_SLOTS, pairs);
    // The lookups of a group of positions (each a complement's key, the paths it multiplies,
    // and the orbit's size that divides the table's total), their slots read before any is used.
    let m = 0;
    let group = 0;
    for (let i = first; i < end; i++) {
      const slot = from + (<usize>i << 4);
      const key = load<u64>(slot);
      if (key == 0) continue;
      const paths = load<u64>(slot, 8);
      streamed++;
      if (selves) {
        store<u64>(children + (<usize>m << 3), leastComplement(key));
        store<u64>(values + (<usize>m << 3), paths);
        store<u32>(divisors + (<usize>m << 2), <u32>syms / fixedBy);
        m++;
      } else {
        keepImages(key);
        const n = legalJumpsInto(key, legals);
        for (let k = 0; k < n; k++) {
          store<u64>(children + (<usize>m << 3), childComplement(images, key, <i32>load<u32>(legals + (<usize>k << 2))));
          store<u64>(values + (<usize>m << 3), paths);
          store<u32>(divisors + (<usize>m << 2), <u32>syms / fixedBy);
          m++;
        }
      }
      if (++group == GROUP) {
        settle(base, log, m);
        m = 0;
        group = 0;
      }
    }
    settle(base, log, m);
  }
  addSum(task);
  atomic.add<u64>(wordAt(C_NODES), streamed);
  return status;
}

// This call's sum (meetLevel, expandLevel) is board.ts's 128-bit total (total, totalHigh),
// added with addPaths and addProduct, whose saturation flag addSum passes on to C_FLAGS: these
// are globals, which the instances keep their own of (they share their memory only).
function startSum(): void {
  total = 0;
  totalHigh = 0;
  clearWrapped();
}

/** Adds this call's sum to what the task's earlier calls summed (the host zeroes the sums first). */
function addSum(task: i32): void {
  if (countWrapped()) atomic.or<u64>(wordAt(C_FLAGS), FLAG_OVERFLOW);
  const sums = <usize>word(C_SUMS) + (<usize>task << 4);
  const before = load<u64>(sums);
  store<u64>(sums, before + total);
  store<u64>(sums, load<u64>(sums, 8) + totalHigh + <u64>(before + total < before), 8);
}

/** Adds paths · (the table's total for the key) / divisor for the first m lookups of the group. */
function settle(base: usize, log: u32, m: i32): void {
  readAhead(base, log, m);
  for (let i = 0; i < m; i++) {
    const other = find(base, log, load<u64>(children + (<usize>i << 3)));
    if (other == 0) continue;
    addProduct(load<u64>(values + (<usize>i << 3)), load<u64>(other, 8), <u64>load<u32>(divisors + (<usize>i << 2)));
  }
}

/** The slot holding `key`, or 0. */
@inline function find(base: usize, log: u32, key: u64): usize {
  const mask: u32 = (<u32>1 << log) - 1;
  let i = slotIndex(key, log);
  for (;;) {
    const slot = base + (<usize>i << 4);
    const found = load<u64>(slot);
    if (found == key) return slot;
    if (found == 0) return 0;
    i = (i + 1) & mask;
  }
  return 0;
}


