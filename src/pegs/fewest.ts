// The fewest moves by iterative deepening on the calling thread's engine
// (assembly/pegs/fewest.ts): memory holds only a stack and a transposition table that is a
// cache, so boards past 33 holes, where the search from both ends keeps too many positions,
// are searched within maxMemory; time is what bounds them, and every finished iteration
// proves one more move (`proved`).
import { BitpuzzleError } from '../errors.js';
import type { Progress } from '../parallel/pool.js';
import { acquireEngine, releaseEngine } from '../wasm/module.js';
import { Status, checkStatus, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { engineInput, markProblem, pagodasFor, permute, popcount, type PegsProblem } from './problem.js';
import { MAX_MOVES_HOLES, MODE_MOVES, engineShare, phaseBudgets, wasmPegsEngine } from './engine.js';
import { jumpNames, jumpsBetween } from './format.js';

export interface FewestResult {
  /** The jumps of a shortest solution (names), or null when there is none. */
  jumps: string[] | null;
  /** Complete levels of the perimeter (moves from the finish known exactly), -1 without one. */
  perimeter: number;
  nodes: bigint;
  memory: number;
}

/**
 * Disjoint Merson regions of 2 to 4 holes for the engine's lower bound: connected sets R
 * such that every jump over a hole of R starts or lands in R, which every finish lacks a
 * hole of. Holes no jump passes over are left out (the engine counts each alone). Chosen
 * greedily, smallest first, so that they are full as often as can be.
 */
export function mersonRegions(problem: PegsProblem): bigint[] {
  const { board, finishes } = problem;
  const bit = (h: number): bigint => 1n << BigInt(h);
  const neighbours: Set<number>[] = board.holes.map(() => new Set());
  let jumpedOver = 0n;
  for (const [f, o, t] of board.jumps) {
    neighbours[f].add(o).add(t);
    neighbours[o].add(f).add(t);
    neighbours[t].add(o).add(f);
    jumpedOver |= bit(o);
  }
  const isMerson = (r: bigint): boolean => board.jumps.every(([f, o, t]) => (r & bit(o)) === 0n || (r & bit(f)) !== 0n || (r & bit(t)) !== 0n);
  const mustChange = (r: bigint): boolean => finishes.every((f) => (r & ~f) !== 0n);
  const seen = new Set<bigint>();
  const found: bigint[] = [];
  let layer: Array<[bigint, number[]]> = board.holes.map((_, h) => [bit(h), [h]]);
  for (let size = 2; size <= 4; size++) {
    const next: Array<[bigint, number[]]> = [];
    for (const [mask, members] of layer) {
      for (const m of members) {
        for (const n of neighbours[m]) {
          const grown = mask | bit(n);
          if (grown === mask || seen.has(grown) || (grown & ~jumpedOver) !== 0n) continue;
          seen.add(grown);
          next.push([grown, [...members, n]]);
          if (isMerson(grown) && mustChange(grown)) found.push(grown);
        }
      }
    }
    layer = next;
  }
  const chosen: bigint[] = [];
  let covered = 0n;
  for (const r of found) {
    if ((r & covered) !== 0n || chosen.length >= 64) continue;
    chosen.push(r);
    covered |= r;
  }
  return chosen;
}

/**
 * The fewest moves and a shortest solution of `problem`. First the perimeter: the search by
 * moves of assembly/pegs/moves.ts from the finishes' side alone, level by level within a sixteenth of
 * the engine's memory (it may even meet the start and settle the problem); then iterative
 * deepening, with the perimeter's exact distances in its lower bound. Progress reports the
 * bound proved. `perimeter: false` (for the tests) goes without the perimeter.
 */
export async function fewestByDeepening(
  problem: PegsProblem,
  maxMemory: number,
  // fromBound: the fewest moves are known to be at least this (proved by levels): the first
  // iteration searches that bound.
  // firstLanding, finishLandings: the ends of a half of a solution (solutionThrough): the hole
  // whose peg may go on with the move before the start, and the holes the last jump may land
  // in (the problem's symmetries must fix them; the perimeter, which would ignore them, is off).
  options: {
    signal?: AbortSignal;
    onProgress?: (progress: Progress) => void;
    perimeter?: boolean;
    fromBound?: number;
    firstLanding?: number;
    finishLandings?: bigint;
  },
): Promise<FewestResult> {
  const ends = options.firstLanding !== undefined || options.finishLandings !== undefined;
  const exports = await acquireEngine();
  try {
    const limit = engineShare(maxMemory);
    const engine = wasmPegsEngine(exports);
    checkStatus(engine.load(engineInput(problem)), 'loading the board', maxMemory);
    // The most moves a solution can take: one per jump.
    const most = popcount(problem.start) - popcount(problem.finishes[0]);
    let perimeter = -1;
    let nodes = 0n;
    if (options.perimeter !== false && !ends && problem.board.holes.length <= MAX_MOVES_HOLES) {
      setMemoryLimit(exports, Math.floor(limit / 16));
      exports.pegsMovesBackwardOnly();
      if (engine.start(MODE_MOVES, 12) === Status.DONE) {
        const status = await runSliced((budget) => {
          // The perimeter comes before any bound is proved: its depth is the progress.
          options.onProgress?.({ done: 0, total: most, phase: `building the perimeter: ${engine.level()} levels from the finish` });
          return engine.run(budget);
        }, options.signal, undefined, phaseBudgets(engine));
        if (status !== Status.OUT_OF_MEMORY) checkStatus(status, 'the fewest-moves search', maxMemory);
        nodes = engine.nodes();
        if (engine.moves() >= 0) {
          // The finish side met the start: the search by moves has settled it.
          const positions = engine.positions();
          const jumps: string[] = [];
          for (let i = 1; i < positions.length; i++) jumps.push(...jumpsBetween(problem.board, positions[i - 1], positions[i]));
          return { jumps, perimeter: engine.level(), nodes, memory: engine.memory() };
        }
        if (status === Status.DONE) return { jumps: null, perimeter: engine.level(), nodes, memory: engine.memory() };
        perimeter = engine.level(); // the finish side's complete levels (the start side has none)
      }
    }
    setMemoryLimit(exports, limit);
    const regions = mersonRegions(problem);
    new BigUint64Array(exports.memory.buffer, exports.pegsOutputPtr(), regions.length).set(regions);
    checkStatus(
      exports.pegsFewestStart(regions.length, perimeter >= 0 ? 1 : 0, options.fromBound ?? 0, options.firstLanding ?? -1, options.finishLandings ?? 0n),
      'the fewest-moves search',
      maxMemory,
    );
    let reported = -1;
    const status = await runSliced((budget) => {
      const bound = exports.pegsFewestBound();
      if (bound !== reported) {
        reported = bound;
        options.onProgress?.({ done: Math.min(bound, most), total: most, phase: `no solution in fewer than ${bound} moves` });
      }
      return exports.pegsFewestRun(budget);
    }, options.signal);
    checkStatus(status, 'the fewest-moves search', maxMemory);
    const moves = exports.pegsFewestMoves();
    const length = exports.pegsFewestLength();
    const found = Array.from(new Uint32Array(exports.memory.buffer, exports.pegsOutputPtr(), Math.max(length, 0)));
    return {
      jumps: moves < 0 ? null : jumpNames(problem.board, found.map((j) => problem.board.jumps[j])),
      perimeter,
      nodes: nodes + BigInt.asUintN(64, exports.pegsFewestNodes()),
      memory: Number(exports.pegsMemory()),
    };
  } finally {
    releaseEngine(exports);
  }
}

/** Where the fewest moves by levels met (assembly/pegs/meetFewest.ts, pegsMeetMeetPosition and after). */
export interface Meeting {
  /** A position on a fewest-move solution. */
  position: bigint;
  /** The fewest moves from the start to it... */
  forward: number;
  /** ...and from it to a finish. */
  backward: number;
  /** Holes where a fewest move into it may land and a fewest move on from it start: when not 0, that move goes on through it (one move fewer). */
  shared: bigint;
}

/**
 * A fewest-move solution through the position where the fewest moves by levels met: the start
 * to it in meeting.forward moves, then it to a finish in meeting.backward, each by the
 * deepening from that bound (half the moves each: seconds where the whole took hours). When
 * the move into the position goes on from it, the first half must end with a jump into one
 * of the shared holes and the second gets that peg's chain for free: both halves then keep
 * only the symmetries that fix the hole.
 */
export async function solutionThrough(
  problem: PegsProblem,
  meeting: Meeting,
  maxMemory: number,
  options: { signal?: AbortSignal; onProgress?: (phase: string) => void },
): Promise<{ jumps: string[]; nodes: bigint; memory: number }> {
  const { board } = problem;
  const q = meeting.position;
  const hole = meeting.shared === 0n ? -1 : meeting.shared.toString(2).length - 1;
  const symmetries = problem.symmetries.filter((perm) => permute(perm, q) === q && (hole < 0 || perm[hole] === hole));
  const jumps: string[] = [];
  let nodes = 0n;
  let memory = 0;
  const half = async (which: string, part: PegsProblem, moves: number, ends: { firstLanding?: number; finishLandings?: bigint }): Promise<void> => {
    options.onProgress?.(`a solution through the middle: its ${which} half, ${moves} moves`);
    const found = await fewestByDeepening(markProblem(part), maxMemory, { signal: options.signal, fromBound: moves, ...ends });
    if (found.jumps === null) throw new BitpuzzleError('ENGINE_FAILURE', `the fewest moves by levels met at a position whose ${which} half has no solution of ${moves} moves`);
    jumps.push(...found.jumps);
    nodes += found.nodes;
    memory = Math.max(memory, found.memory);
  };
  if (q !== problem.start) {
    const ends = hole >= 0 ? { finishLandings: 1n << BigInt(hole) } : {};
    await half('first', { board, start: problem.start, finishes: [q], symmetries, pagodas: pagodasFor(board, [q]) }, meeting.forward, ends);
  }
  if (!problem.finishes.includes(q)) {
    const ends = hole >= 0 ? { firstLanding: hole } : {};
    const finishes = problem.finishes.filter((f) => popcount(f) < popcount(q));
    await half('second', { board, start: q, finishes, symmetries, pagodas: problem.pagodas }, meeting.backward - (hole >= 0 ? 1 : 0), ends);
  }
  return { jumps, nodes, memory };
}
