// Peg solitaire, SOLVE: depth-first search by jumps for one solution; positions proved dead
// go into a bounded hash set keyed by their canonical form (the least image under the
// symmetries). Restarts (pegsRestart) keep the dead positions and try the jumps in the order
// the host wrote. The set doubles as chores (tables.ts), in pieces between run calls: at 2^22
// slots one growth in a piece held the thread about 300 ms.
import { DONE, SOLUTION, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaGeneration, arenaAlloc, arenaRewind } from '../shared/bits';
import { get, set, get64, set64 } from '../shared/words';
import {
  jumps, start, finishPegs, jumpFlip, OUTPUT, ORDER, loadedGeneration, mode, MODE_SOLVE, nodes, outputLength, finished,
  stackPos, stackNext, stackJump, stackLive, canonical, legal, hopeful, isFinish, notePeak,
} from './board';
import {
  findSlot, crowded, newTable, CHORE_NONE, CHORE_GROW_FILL, CHORE_GROW_REHASH, CHORE_GROW_COPY, BULK_CALL_BYTES, chore,
  choreFresh, startChore, bulkPiece, rehashPiece,
} from './tables';

let depth: i32 = 0;
let deadBase: usize = 0;
let deadLog: u32 = 0;
let deadCount: u32 = 0;
let deadMaxLog: u32 = 0;  // the table grows up to 2^deadMaxLog slots, then stops learning

export function startSolve(log: u32): i32 {
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

/** One piece of the dead set's growth, of at most `budget` units. */
function growPiece(budget: i32): void {
  const size: u64 = <u64>16 << (deadLog + 1);
  if (chore == CHORE_GROW_FILL) {
    if (bulkPiece(choreFresh, 0, size, 16, budget)) startChore(CHORE_GROW_REHASH);
  } else if (chore == CHORE_GROW_REHASH) {
    if (rehashPiece(deadBase, deadLog, budget)) startChore(CHORE_GROW_COPY);
  } else if (bulkPiece(deadBase, choreFresh, size, 16, budget)) {
    chore = CHORE_NONE;
    deadLog++;
    arenaRewind(deadBase + <usize>size);
  }
}

export function runSolve(budget: i32): i32 {
  // A call does one piece of a chore (at most BULK_CALL_BYTES cleared or copied), the host
  // keeping a budget for each chore (runSliced).
  if (chore != CHORE_NONE) {
    if (budget > 0) growPiece(budget);
    return MORE;
  }
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
        choreFresh = arenaAlloc(<u64>16 << (deadLog + 1));
        if (choreFresh == 0) {
          deadMaxLog = deadLog; // out of memory: keep the table as it is
        } else {
          // The set grows first; this position comes back here when it has.
          notePeak();
          startChore(CHORE_GROW_FILL);
          set(stackNext, depth, next);
          return MORE;
        }
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
