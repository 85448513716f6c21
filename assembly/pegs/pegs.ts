// Peg solitaire on boards of up to 64 holes: a position is a u64 with a bit per peg.
// The host lists the board's jumps (from, over, to), the symmetries of the problem (the
// permutations of the holes that keep the start and the set of finishes; the identity
// first), pagoda functions and the finish positions. Four resumable searches:
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
//   SHARDS COUNT on several threads: one task per shard of a level.
//
// This file holds the engine's entry points (the host's pegs* calls that start and run a
// search, and its results); the parts are
//   board.ts   the problem as loaded (input, tables, symmetries, legal jumps, pagodas) and the
//              state every search shares
//   tables.ts  the growable hash tables, the chores that do long table work in pieces, and
//              the start of every search
//   solve.ts   SOLVE          count.ts   COUNT
//   moves.ts   MOVES          shards.ts  SHARDS
// and, on the same loaded problem, other engines: optimal.ts (every fewest-move solution,
// after MOVES), meet.ts (the count, or the fewest moves, from both ends for big boards) and
// fewest.ts (the fewest moves by iterative deepening).
import { DONE, BAD_INPUT, arenaGeneration, arenaRewind } from '../shared/bits';
import {
  MODE_SOLVE, MODE_COUNT, MODE_MOVES, MODE_SHARD, OUTPUT, ORDER, loadedGeneration, mode, nodes, total, totalHigh, outputLength, finished,
  tablesTop, peakTop, OVERFLOW, countWrapped,
} from './board';
import { level, beginSearch, chore } from './tables';
import { startSolve, runSolve } from './solve';
import { startCount, runCount } from './count';
import { depthA, depthB, best, startMoves, runMoves } from './moves';
import { runShard } from './shards';

// The other entry points, from the parts (index.ts exports them all from here).
export { pegsInputAlloc, pegsLoad } from './board';
export { pegsRestart } from './solve';
export { pegsMovesBackwardOnly } from './moves';
export {
  pegsShardInput, pegsShardStart, pegsShardOffsets, pegsShardPairs, pegsShardBuckets, pegsShardDistinct,
} from './shards';

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
  // A count whose total met a saturated position stays an error, whatever is asked after it.
  if (finished) return countWrapped() ? OVERFLOW : DONE;
  if (mode == MODE_SOLVE) return runSolve(budget);
  if (mode == MODE_COUNT) return runCount(budget);
  if (mode == MODE_MOVES) return runMoves(budget);
  if (mode == MODE_SHARD) return runShard(budget);
  return BAD_INPUT;
}

export function pegsOutputPtr(): usize { return OUTPUT; }
export function pegsOrderPtr(): usize { return ORDER; }
export function pegsOutputLength(): i32 { return outputLength; }
export function pegsNodes(): u64 { return nodes; }
export function pegsTotal(): u64 { return total; }
/** COUNT and SHARD: the total's high 64 bits. */
export function pegsTotalHigh(): u64 { return totalHigh; }
/** COUNT: pegs of the level being expanded; MOVES: levels searched on both sides. */
export function pegsLevel(): i32 { return mode == MODE_MOVES ? depthA + depthB : level; }
/** COUNT and MOVES: the chore the next run call starts in (0: none); the host keeps a budget for each. */
export function pegsPhase(): i32 { return chore; }
/** MOVES: the fewest moves, once the search is done. */
export function pegsMoves(): i32 { return best == 0x7fffffff ? -1 : best; }
/**
 * The most linear memory the current search has needed (its tables at their largest, growth
 * included). The instance's memory never shrinks, so after other searches it may hold more.
 */
export function pegsMemory(): u64 { return <u64>peakTop; }
