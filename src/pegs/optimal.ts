// Every fewest-move solution: counted exactly (countOptimal) and listed in a stable order
// (optimalSolutions). The fewest moves are proved first (the MOVES search), then the engine
// counts the chain sequences of that length over the positions it kept (assembly/pegs/optimal.ts).
import { BitpuzzleError } from '../errors.js';
import { oneThreadStats, type SearchStats } from '../stats.js';
import { acquireEngine, releaseEngine } from '../wasm/module.js';
import { checkEngine, checkLimit, checkMaxMemory, checkOptions } from '../wasm/options.js';
import { Status, checkStatus, memoryLimitText, runSliced, runStepsSliced, setMemoryLimit, type EngineExports, type Steps } from '../wasm/protocol.js';
import { MAX_MOVES_HOLES, MODE_MOVES, OVERFLOW, wasmPegsEngine } from './engine.js';
import { jumpNames } from './format.js';
import { engineInput, popcount, toProblem, type PegsInput, type PegsProblem } from './problem.js';
import { runLevels, type LevelOptions } from './solve.js';

/** The answer of pegs.countOptimal: the fewest moves and how many solutions have them. */
export interface PegsOptimalCount {
  /** The fewest moves, or null when no solution exists. */
  length: number | null;
  /** Jump sequences from the start to a finish in the fewest moves. */
  total: bigint;
  /**
   * The same up to the symmetries the start and the finishes share (each solution's images
   * are distinct solutions); null when a symmetry could fix a solution, so that orbits are
   * not all of one size.
   */
  distinct: bigint | null;
  /** Why the total is 0 without a search (a position-class argument), else null. */
  reason: string | null;
  /** Not sharded: always null. */
  shard: null;
  /** The most bytes of engine memory the search needed. */
  memory: number;
  /** The symmetries the start and the finishes share (the count is searched up to them). */
  symmetries: number;
  /** Stats of the search. */
  stats: SearchStats;
}

/** A solution in the fewest moves, as optimalSolutions lists them. */
export interface PegsOptimalSolution {
  /** Each move as the holes its peg visits: ['d2', 'd4', 'f4'] is d2-d4 then d4-f4. */
  moves: string[][];
  /** Every jump, `from-to`. */
  jumps: string[];
  /** The number of moves (`moves.length`). */
  length: number;
}

const KEYS = ['signal', 'engine', 'maxMemory', 'onProgress'];

/** Checks the problem and options shared by both calls. */
function prepare(input: PegsInput | PegsProblem | string, options: LevelOptions, what: string): { problem: PegsProblem; maxMemory: number; twin: boolean } {
  const problem = toProblem(input);
  const twin = checkEngine(options.engine) === 'js';
  if (problem.board.holes.length > MAX_MOVES_HOLES) {
    throw new BitpuzzleError('BAD_INPUT', `${what} handles boards of up to ${MAX_MOVES_HOLES} holes; this one has ${problem.board.holes.length}`);
  }
  return { problem, maxMemory: checkMaxMemory(options.maxMemory), twin };
}

/** Progress of the twin's walks: `first` levels done before this walk, `total` in all. */
function twinProgress(options: LevelOptions, first: number, total: number): (level: number) => void {
  let reported = -1;
  return (level) => {
    if (level !== reported) options.onProgress?.({ done: first + (reported = level), total });
  };
}

/**
 * Proves the fewest moves, then counts (and, with `list`, prepares the listing) on the
 * engine's kept positions. The caller releases the engine.
 */
async function proveAndCount(exports: EngineExports, problem: PegsProblem, maxMemory: number, list: boolean, options: LevelOptions): Promise<number | null> {
  const engine = wasmPegsEngine(exports);
  setMemoryLimit(exports, maxMemory);
  checkStatus(engine.load(engineInput(problem)), 'loading the board', maxMemory);
  checkStatus(engine.start(MODE_MOVES, 12), 'the fewest-moves search', maxMemory);
  const bound = popcount(problem.start) - popcount(problem.finishes[0]);
  // Progress: the fewest-moves search's levels (at most `bound`), then the counting passes.
  const total = bound + 2 + bound + (list ? bound + 1 : 0);
  const report = options.onProgress;
  await runLevels(engine, bound, 'the fewest-moves search', maxMemory, {
    ...options,
    onProgress: report && ((p) => report({ done: Math.min(p.done, bound), total })),
  });
  if (engine.moves() < 0) return null;
  const length = engine.moves();
  const counting = 'counting the fewest-move solutions';
  const status = exports.pegsOptimalStart(list ? 1 : 0);
  if (status === Status.OUT_OF_MEMORY) {
    throw new BitpuzzleError('OUT_OF_MEMORY', `${counting} needs more than ${memoryLimitText(maxMemory)}; the fewest moves (${length}) were proved, the count did not start`);
  }
  checkStatus(status, counting, maxMemory);
  let reported = -1;
  const passes = exports.pegsOptimalSteps();
  const ran = await runSliced((budget) => {
    const step = exports.pegsOptimalStep();
    if (step !== reported && report) {
      reported = step;
      report({ done: Math.min(total, bound + step), total });
    }
    return exports.pegsOptimalRun(budget);
  }, options.signal);
  if (ran === OVERFLOW) {
    throw new BitpuzzleError('ENGINE_FAILURE', `${counting}: a count passed 2^64 - 1 (the engine counts in 64 bits); the fewest moves are ${length}`);
  }
  if (ran === Status.OUT_OF_MEMORY) {
    throw new BitpuzzleError(
      'OUT_OF_MEMORY',
      `${counting} needs more than ${memoryLimitText(maxMemory)}; the fewest moves (${length}) were proved, the count got through ${exports.pegsOptimalStep()} of ${passes} passes`,
    );
  }
  checkStatus(ran, counting, maxMemory);
  report?.({ done: total, total });
  return length;
}

/**
 * The symmetry count: total / |G| when no symmetry but the identity can fix a solution (a
 * solution fixed by g only uses jumps g fixes, so it never changes a hole g moves: when
 * every finish differs from the start on a hole each g ≠ 1 moves, every orbit has |G|
 * solutions). Else null.
 */
function upToSymmetry(problem: PegsProblem, total: bigint): bigint | null {
  const group = problem.symmetries;
  for (const perm of group.slice(1)) {
    const moved = perm.reduce((m, to, from) => (to !== from ? m | (1n << BigInt(from)) : m), 0n);
    if (problem.finishes.some((f) => ((problem.start ^ f) & moved) === 0n)) return null;
  }
  const size = BigInt(group.length);
  if (total % size !== 0n) throw new BitpuzzleError('ENGINE_FAILURE', `the fewest-move count ${total} is not a multiple of the ${size} symmetries`);
  return total / size;
}

/**
 * The fewest moves and the exact number of jump sequences that solve the problem in that
 * many moves (a chain of jumps by one peg is one move). Boards of up to 48 holes; the twin
 * (engine: 'js') counts by another method (src/pegs/referenceOptimal.ts), for small boards.
 */
export async function countOptimal(input: PegsInput | PegsProblem | string, options: LevelOptions = {}): Promise<PegsOptimalCount> {
  const started = performance.now();
  options = checkOptions(options, KEYS, 'pegs.countOptimal');
  let problem: PegsProblem;
  let maxMemory: number;
  let twin: boolean;
  try {
    ({ problem, maxMemory, twin } = prepare(input, options, 'countOptimal'));
  } catch (error) {
    // A count is always an answer: 0, with the reason a check proved it before any search.
    if (!(error instanceof BitpuzzleError && error.code === 'UNSOLVABLE')) throw error;
    const stats = { nodes: 0n, milliseconds: performance.now() - started, threads: 1, parts: 0 };
    return { length: null, total: 0n, distinct: 0n, reason: error.message, shard: null, memory: 0, symmetries: 0, stats };
  }
  if (twin) {
    const levels = popcount(problem.start) - popcount(problem.finishes[0]);
    // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
    const { twinCountOptimal } = await import('./referenceOptimal.js');
    const counted = await runStepsSliced(twinCountOptimal(problem, maxMemory, twinProgress(options, 0, levels)), options.signal);
    return {
      length: counted.length,
      total: counted.total,
      distinct: upToSymmetry(problem, counted.total),
      reason: null,
      shard: null,
      memory: counted.memory,
      symmetries: problem.symmetries.length,
      stats: oneThreadStats(BigInt(counted.nodes), started),
    };
  }
  const exports = await acquireEngine();
  try {
    const length = await proveAndCount(exports, problem, maxMemory, false, options);
    const total = length === null ? 0n : BigInt.asUintN(64, exports.pegsOptimalTotal());
    const nodes = BigInt.asUintN(64, exports.pegsNodes()) + (length === null ? 0n : BigInt.asUintN(64, exports.pegsOptimalNodes()));
    return {
      length,
      total,
      distinct: upToSymmetry(problem, total),
      reason: null,
      shard: null,
      memory: Number(exports.pegsMemory()),
      symmetries: problem.symmetries.length,
      stats: { nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 },
    };
  } finally {
    releaseEngine(exports);
  }
}

/**
 * Every fewest-move solution, in a stable order (depth first, moves in the order of the
 * board's jumps, a move's chain before its extensions); each replays from the start to a
 * finish. The iterator's final value (with next()) is the search's stats. The twin lists
 * in the same order.
 */
export async function* optimalSolutions(
  input: PegsInput | PegsProblem | string,
  options: LevelOptions & { limit?: number } = {},
): AsyncGenerator<PegsOptimalSolution, SearchStats, undefined> {
  const started = performance.now();
  options = checkOptions(options, [...KEYS, 'limit'], 'pegs.optimalSolutions');
  const limit = checkLimit(options.limit);
  let problem: PegsProblem;
  let maxMemory: number;
  let twin: boolean;
  try {
    ({ problem, maxMemory, twin } = prepare(input, options, 'optimalSolutions'));
  } catch (error) {
    // Like a count, a listing answers: nothing to list when a check proves there is no solution.
    if (error instanceof BitpuzzleError && error.code === 'UNSOLVABLE') return oneThreadStats(0n, started);
    throw error;
  }
  if (limit === 0) return oneThreadStats(0n, started);
  if (twin) {
    const levels = popcount(problem.start) - popcount(problem.finishes[0]);
    const { twinCountOptimal, twinOnPath } = await import('./referenceOptimal.js');
    const counted = await runStepsSliced(twinCountOptimal(problem, maxMemory, twinProgress(options, 0, 2 * levels)), options.signal);
    let nodes = BigInt(counted.nodes);
    if (counted.length === null) return oneThreadStats(nodes, started);
    const back = await runStepsSliced(twinOnPath(problem, counted.fewest, counted.length, maxMemory, twinProgress(options, levels, 2 * levels)), options.signal);
    nodes += BigInt(back.nodes);
    const search = new OptimalListing(problem, counted.length, back.onPath);
    for (let produced = 0; produced < limit; produced++) {
      const found = await runStepsSliced(search.next(), options.signal);
      if (found === null) break;
      yield found;
    }
    return oneThreadStats(nodes + BigInt(search.nodes), started);
  }
  const exports = await acquireEngine();
  try {
    const length = await proveAndCount(exports, problem, maxMemory, true, options);
    let nodes = BigInt.asUintN(64, exports.pegsNodes()) + BigInt.asUintN(64, exports.pegsOptimalNodes());
    if (length === null) return oneThreadStats(nodes, started);
    const onPath = (p: bigint, index: number): boolean => exports.pegsOptimalOnPath(Number(p & 0xffffffffn), Number(p >> 32n), index) === 1;
    const search = new OptimalListing(problem, length, onPath);
    for (let produced = 0; produced < limit; produced++) {
      const found = await runStepsSliced(search.next(), options.signal);
      if (found === null) break;
      yield found;
    }
    nodes += BigInt(search.nodes);
    return { nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 };
  } finally {
    releaseEngine(exports);
  }
}

/** One chain of jumps by one peg: the jumps (indices) and the position it leaves. */
interface Chain {
  jumps: number[];
  position: bigint;
}

/**
 * The depth-first listing: at each depth the chains from the position in order, keeping those
 * the engine says lie on a fewest-move solution.
 */
class OptimalListing {
  nodes = 0;
  private readonly byFrom: number[][];
  private readonly stack: Array<{ chains: Chain[]; next: number }> = [];
  private readonly path: Chain[] = [];
  private started = false;

  constructor(
    private readonly problem: PegsProblem,
    private readonly length: number,
    private readonly lies: (p: bigint, index: number) => boolean,
  ) {
    const { board } = problem;
    this.byFrom = board.holes.map(() => []);
    board.jumps.forEach(([f], j) => this.byFrom[f].push(j));
  }

  /** Every chain from p, in order: by first jump, then each chain before its extensions. */
  private chains(p: bigint): Chain[] {
    const { jumps } = this.problem.board;
    const out: Chain[] = [];
    const legal = (q: bigint, j: number): boolean => {
      const [f, o, t] = jumps[j];
      return ((q >> BigInt(f)) & 1n) === 1n && ((q >> BigInt(o)) & 1n) === 1n && ((q >> BigInt(t)) & 1n) === 0n;
    };
    const flip = (q: bigint, j: number): bigint => {
      const [f, o, t] = jumps[j];
      return q ^ (1n << BigInt(f)) ^ (1n << BigInt(o)) ^ (1n << BigInt(t));
    };
    const extend = (q: bigint, taken: number[]): void => {
      const peg = jumps[taken[taken.length - 1]][2];
      for (const j of this.byFrom[peg]) {
        if (!legal(q, j)) continue;
        const next = flip(q, j);
        const chain = [...taken, j];
        out.push({ jumps: chain, position: next });
        extend(next, chain);
      }
    };
    for (let j = 0; j < jumps.length; j++) {
      if (!legal(p, j)) continue;
      const next = flip(p, j);
      out.push({ jumps: [j], position: next });
      extend(next, [j]);
    }
    return out;
  }

  private onPath(p: bigint, index: number): boolean {
    this.nodes++;
    return this.lies(p, index);
  }

  private expand(p: bigint): void {
    const index = this.stack.length + 1;
    this.stack.push({ chains: this.chains(p).filter((c) => this.onPath(c.position, index)), next: 0 });
  }

  /** Steps to the next solution (null when there are no more). */
  *next(): Steps<PegsOptimalSolution | null> {
    if (!this.started) {
      this.started = true;
      if (this.length === 0) {
        return { moves: [], jumps: [], length: 0 };
      }
      this.expand(this.problem.start);
    }
    while (this.stack.length > 0) {
      yield;
      const top = this.stack[this.stack.length - 1];
      if (top.next >= top.chains.length) {
        this.stack.pop();
        this.path.pop();
        continue;
      }
      const chain = top.chains[top.next++];
      if (this.stack.length === this.length) return this.solution([...this.path, chain]);
      this.path.push(chain);
      this.expand(chain.position);
    }
    return null;
  }

  private solution(chains: Chain[]): PegsOptimalSolution {
    const { board } = this.problem;
    const moves = chains.map((c) => [board.holes[board.jumps[c.jumps[0]][0]].name, ...c.jumps.map((j) => board.holes[board.jumps[j][2]].name)]);
    const jumps = jumpNames(board, chains.flatMap((c) => c.jumps.map((j) => board.jumps[j])));
    return { moves, jumps, length: moves.length };
  }
}
