// The peg solitaire API: solve, solutions, minMoves, count and reachable.
import { BitpuzzleError, badInput, describeValue } from '../errors.js';
import { oneThreadStats, type SearchStats } from '../stats.js';
import { checkThreads, type Progress } from '../parallel/pool.js';
import { countMeeting, countOnThreads } from './shards.js';
import type { CheckpointEvent } from './checkpoint.js';
import { countBothEnds, dualSymmetry } from './meet.js';
import { MAX_TOGETHER_THREADS, countTogether } from './together.js';
import { fewestByDeepening, solutionThrough } from './fewest.js';
import { acquireEngine, canShareMemory, releaseEngine } from '../wasm/module.js';
import { MIN_MAX_MEMORY, checkEngine, checkLimit, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { Status, checkStatus, memoryLimitText, memoryShare, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { MAX_MOVES_HOLES, MODE_COUNT, MODE_MOVES, MODE_SOLVE, OVERFLOW, engineShare, pathsOverflow, phaseBudgets, wasmPegsEngine, type PegsEngine } from './engine.js';
import { jumpsBetween, jumpNames, groupMoves, replay } from './format.js';
import { boardAndStart, engineInput, feasibleFinishes, fullMask, markProblem, permute, popcount, reversedProblem, toProblem, type PegsInput, type PegsProblem } from './problem.js';
import type { Board } from './board.js';

/** Options of pegs.solve and pegs.solutions, and the base of the others. */
export interface PegsOptions {
  /** Stops the work; the promise rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js' (solve, solutions and count). */
  engine?: EngineKind;
  /** Most bytes the engine's tables may take (default 1 GiB); beyond, OUT_OF_MEMORY. */
  maxMemory?: number;
}

/** Options of countOptimal and optimalSolutions, and the base of count's and minMoves'. */
export interface LevelOptions extends PegsOptions {
  /** Called after each level: levels done and in all. */
  onProgress?: (progress: Progress) => void;
}

/** Options of pegs.count (and of pegs.reachable, less spill and spillDir). */
export interface CountOptions extends LevelOptions {
  /**
   * Worker threads for the Wasm engine (default 1: the calling thread). More threads fill each
   * level's table together in one shared memory where the host allows it (about 0.44× the
   * time on 2 threads for the English count), else each takes a shard of every level (more
   * memory); a count whose shared memory would pass maxMemory runs on the calling thread
   * (stats.threads 1). See docs/pegs.md. The twin (engine: 'js') always counts on the calling
   * thread.
   */
  threads?: number;
  /**
   * Counts from both ends on the calling thread (boards of 30 holes or more, `threads` 1):
   * when a level would not fit in `maxMemory`, the levels go to files in a temporary folder
   * (removed at the end) and memory holds one part of a level at a time. Default true; false
   * keeps every level in memory (OUT_OF_MEMORY when they do not fit).
   */
  spill?: boolean;
  /** Where that temporary folder is made (default the OS's temporary folder, os.tmpdir()). */
  spillDir?: string;
  /**
   * With `spill`, the most bytes the count's engine holds (its levels, or on disk its tables
   * and buffers): a level that would need more goes to disk. Default 480 MiB (the count's
   * process then stays under 600 MB); never more than maxMemory allows.
   */
  spillAbove?: number;
  /**
   * With `spill`, the most bytes the count's files may take on disk (default: the free space
   * less 64 MiB). A level whose parts' files would not fit is built in rounds, one pass over
   * its parents each; a count that cannot fit even so stops with OUT_OF_DISK.
   */
  maxDisk?: number;
  /**
   * A folder for checkpoints (Node): the count from both ends (on the calling thread; its
   * levels on disk, if any, in DIR/levels) saves its engine's state there after a level when the
   * last save is 30 s old, and every 2 minutes within a level ($BITPUZZLE_CHECKPOINT_MS sets
   * that), and when it is aborted; the same call with the same folder
   * resumes from the last whole checkpoint, and a folder of a finished count answers at once. A
   * folder of another count (board, start, finish, maxMemory, spillAbove) or a damaged one is
   * BAD_INPUT; OUT_OF_DISK leaves the last checkpoint, to resume once there is room.
   */
  checkpoint?: string;
  /** Told of each checkpoint saved, and when a count resumes from one (or finds it finished). */
  onCheckpoint?: (event: CheckpointEvent) => void;
}

/** Boards of this many holes or more count from both ends (small ones count in milliseconds). */
const BOTH_ENDS_HOLES = 30;

/**
 * Boards of this many holes or more count forward on one thread in the shared module, on a
 * worker thread; smaller ones on the calling thread, where a count takes milliseconds and a
 * worker's round trips would cost more than it saves (triangle 5: 0.4 ms against 7 ms; triangle
 * 6's reachable, 21 holes, 44 ms against 61 ms; a 24-hole rectangle, 160 ms against 130 ms).
 */
const SHARED_FORWARD_HOLES = 24;

/** Stats of a pegs result; `nodes`: jumps tried (solve), positions expanded (count, minMoves). */
export type PegsStats = SearchStats;

/** The answer of pegs.solve: one solution. */
export interface PegsSolution {
  /** Every jump, `from-to` (`d2-d4`). */
  jumps: string[];
  /** The jumps grouped into moves (a chain by one peg is one move): `d2-d4-f4`. */
  moves: string[];
  /** The number of moves (`moves.length`). */
  length: number;
  /** The most bytes of engine memory the search needed (Wasm: linear memory; twin: its tables). */
  memory: number;
  /** Restarts of the search (each with a larger node budget) until one found the solution. */
  attempts: number;
  /** Stats of the search. */
  stats: PegsStats;
}

/** The answer of pegs.minMoves: a shortest solution. */
export interface PegsMinMoves {
  /** A shortest solution: its jumps... */
  jumps: string[];
  /** ...and its moves. */
  moves: string[];
  /** The fewest moves (`moves.length`). */
  length: number;
  /** The most bytes of engine memory the search needed. */
  memory: number;
  /** Stats of the search. */
  stats: PegsStats;
}

/** minMoves with lengthOnly: the fewest moves, proved, without a solution. */
export interface PegsMinMovesLength {
  /** No solution is looked for: always null. */
  jumps: null;
  /** Always null, as `jumps`. */
  moves: null;
  /** The fewest moves. */
  length: number;
  /** The most bytes of engine memory the search needed. */
  memory: number;
  /** Stats of the search. */
  stats: PegsStats;
}

/** How minMoves searches (see MinMovesOptions.method). */
export type MinMovesMethod = 'auto' | 'moves' | 'deepening' | 'levels';
const MIN_MOVES_METHODS: readonly MinMovesMethod[] = ['auto', 'moves', 'deepening', 'levels'];

/** Options of pegs.minMoves. */
export interface MinMovesOptions extends LevelOptions, Pick<CountOptions, 'spill' | 'spillDir' | 'spillAbove' | 'maxDisk' | 'checkpoint' | 'onCheckpoint'> {
  /**
   * 'moves': breadth-first by moves from both ends, every position seen in one table (boards
   * up to 48 holes; fast, but past 33 holes it outgrows memory); 'deepening': iterative
   * deepening on the moves (any board, within memory: time bounds it); 'levels': the levels of
   * pegs from both ends, as count goes, each position with its fewest moves (any board up to
   * 56 holes, in the time and memory of a count, levels on disk as count's: spill, spillDir,
   * spillAbove, maxDisk), then a solution through the position where the two ends met, each
   * half by the deepening. 'auto' (default): 'levels' with lengthOnly, else 'moves' up to 33
   * holes and 'deepening' past them.
   */
  method?: MinMovesMethod;
  /**
   * The fewest moves alone (jumps and moves null), by levels: no solution is looked for. Only
   * this search keeps checkpoints (`checkpoint`, as count's).
   */
  lengthOnly?: boolean;
}

/** The answer of pegs.count and pegs.reachable. */
export interface PegsCount {
  /** Distinct jump sequences from the start to a finish. */
  total: bigint;
  /** Jump sequences are not counted up to symmetry: always null. */
  distinct: null;
  /** Why the total is 0 without a search (a position-class argument), else null. */
  reason: string | null;
  /** Peg solitaire counts are not sharded: always null. */
  shard: null;
  /** The most bytes of engine memory the count needed (summed over threads). */
  memory: number;
  /**
   * Positions kept at each number of pegs, up to symmetry (index = pegs). When the finish is
   * the complement of the start the count meets in the middle, and only the upper half is
   * searched; on boards of 30 holes or more the count goes from both ends, and the levels below
   * the meeting are the backward side's (the positions they undo to); a level skipped to save
   * memory is 0.
   */
  levels: number[];
  /** The number of symmetries used (0 when no search ran). */
  symmetries: number;
  /** Stats of the count. */
  stats: PegsStats;
}

interface Held {
  engine: PegsEngine;
  release: () => void;
}

async function openEngine(kind: EngineKind, maxMemory: number): Promise<Held> {
  // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
  if (kind === 'js') return { engine: new (await import('./reference.js')).ReferencePegsEngine(maxMemory), release: () => undefined };
  const exports = await acquireEngine();
  setMemoryLimit(exports, maxMemory);
  return { engine: wasmPegsEngine(exports), release: () => releaseEngine(exports) };
}

// The options each function takes (checkOptions rejects any other key).
const SOLVE_KEYS = ['signal', 'engine', 'maxMemory'];
const COUNT_KEYS = [...SOLVE_KEYS, 'onProgress', 'threads'];

/** Which of spillDir, spillAbove and maxDisk the options give. */
function diskOptionsGiven(options: CountOptions): string[] {
  return (['spillDir', 'spillAbove', 'maxDisk'] as const).filter((key) => options[key] !== undefined);
}

/** How often a count saves a checkpoint within a level: $BITPUZZLE_CHECKPOINT_MS, default 2 minutes. */
function checkpointEvery(): number | undefined {
  const text = typeof process !== 'undefined' ? process.env?.BITPUZZLE_CHECKPOINT_MS : undefined;
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 1) throw badInput(`BITPUZZLE_CHECKPOINT_MS must be a whole number of milliseconds from 1 up, got ${JSON.stringify(text)}`);
  return ms;
}

/** count's checkpoint: a folder's path, for the Wasm count on the calling thread with its levels in memory. */
function checkCheckpoint(options: CountOptions | MinMovesOptions): void {
  if (options.onCheckpoint !== undefined && typeof options.onCheckpoint !== 'function') {
    throw badInput(`onCheckpoint must be a function, got ${describeValue(options.onCheckpoint)}`);
  }
  if (options.checkpoint === undefined) {
    if (options.onCheckpoint !== undefined) throw badInput('onCheckpoint goes with checkpoint');
    return;
  }
  if (typeof options.checkpoint !== 'string' || options.checkpoint === '') throw badInput(`checkpoint must be a folder's path, got ${describeValue(options.checkpoint)}`);
  const why =
    options.engine === 'js'
      ? "engine: 'js'"
      : 'threads' in options && typeof options.threads === 'number' && options.threads > 1
        ? `threads: ${options.threads}`
        : options.spillDir !== undefined
          ? 'spillDir'
          : null;
  if (why) throw badInput(`checkpoint cannot go with ${why}: checkpoints are of the Wasm count on the calling thread, its levels on disk in the checkpoint's folder`);
}

/** count's options for levels on disk: spill a boolean, spillDir a folder's path, spillAbove and maxDisk bytes. */
function checkSpill(options: CountOptions): void {
  const above = options.spillAbove;
  if (above !== undefined && (typeof above !== 'number' || !Number.isSafeInteger(above) || above < MIN_MAX_MEMORY)) {
    throw badInput(`spillAbove must be a whole number of bytes from ${MIN_MAX_MEMORY} up, got ${describeValue(above)}`);
  }
  const disk = options.maxDisk;
  if (disk !== undefined && (typeof disk !== 'number' || !Number.isSafeInteger(disk) || disk < 1)) {
    throw badInput(`maxDisk must be a whole number of bytes from 1 up, got ${describeValue(disk)}`);
  }
  if (options.spill !== undefined && typeof options.spill !== 'boolean') {
    throw badInput(`spill must be true or false, got ${describeValue(options.spill)}`);
  }
  if (options.spillDir !== undefined && (typeof options.spillDir !== 'string' || options.spillDir === '')) {
    throw badInput(`spillDir must be a folder's path, got ${describeValue(options.spillDir)}`);
  }
  // Options that would do nothing are refused, as the CLI refuses its flags, rather than ignored.
  const given = diskOptionsGiven(options);
  if (options.spill === false && given.length > 0) {
    throw badInput(`${given.join(', ')} cannot go with spill: false (nothing goes to disk)`);
  }
  if (options.spill === true) given.unshift('spill');
  const threaded = typeof options.threads === 'number' && options.threads > 1;
  if (given.length > 0 && (threaded || options.engine === 'js')) {
    const why = threaded ? `threads: ${options.threads}` : "engine: 'js'";
    throw badInput(`${given.join(', ')} cannot go with ${why}: only the Wasm count on the calling thread takes them (a count on threads puts levels on disk only where its shared memory did not hold it, with the defaults; spill: false keeps them in memory)`);
  }
}

async function withEngine<R>(options: PegsOptions, work: (engine: PegsEngine, maxMemory: number) => Promise<R>): Promise<R> {
  const kind = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const { engine, release } = await openEngine(kind, maxMemory);
  try {
    return await work(engine, maxMemory);
  } finally {
    release();
  }
}

/** log2 of a hash table's slots (16 bytes each) that fits in a share of the memory. */
function tableLog(maxMemory: number, share: number, cap: number): number {
  return Math.max(4, Math.min(cap, Math.floor(Math.log2((maxMemory * share) / 16))));
}

const GAVE_UP = 3; // a status of our own: an attempt used up its budget

/**
 * One solution, or null when there is none. Depth-first search with a table of dead
 * positions. A fixed jump order meets pathological cases, so attempts under a growing node
 * budget alternate the problem and the problem played backwards (on complements), each on
 * its own engine, and restart in the board order seen through each symmetry of the board
 * (a mirrored search keeps the board order's locality, which random orders lose), then in
 * shuffled orders; an engine keeps the positions it has proved dead from one restart to the next.
 */
export async function solve(input: PegsInput | PegsProblem | string, options: PegsOptions = {}): Promise<PegsSolution | null> {
  const started = performance.now();
  options = checkOptions(options, SOLVE_KEYS, 'pegs.solve');
  const problem = toProblem(input);
  const kind = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const reversed = reversedProblem(problem);
  const sides = reversed ? [problem, reversed] : [problem];
  // Each side's engine holds a dead-position table of a share of the memory.
  const share = 0.8 / sides.length;
  const held: Held[] = [];
  try {
    for (const side of sides) {
      // The sides' engines together stay within maxMemory.
      const h = await openEngine(kind, memoryShare(maxMemory, sides.length));
      held.push(h);
      checkStatus(h.engine.load(engineInput(side)), 'loading the board', maxMemory);
      checkStatus(h.engine.start(MODE_SOLVE, tableLog(maxMemory, share, 23)), 'the peg solitaire search', maxMemory);
    }
    const orders = symmetricOrders(problem.board);
    let budget = 1 << 18;
    for (let attempt = 0; ; attempt++, budget *= 1.25) {
      const k = attempt % sides.length;
      const { engine } = held[k];
      const current = sides[k];
      const round = Math.floor(attempt / sides.length);
      const order = orders[round] ?? shuffledOrder(current.board.jumps.length, round);
      if (round > 0) checkStatus(engine.restart(order), 'the peg solitaire search', maxMemory);
      const limit = engine.nodes() + BigInt(Math.round(budget));
      const status = checkStatus(
        // Budgets anew each attempt: the call cut short at its limit would have looked fast.
        await runSliced((slice) => (engine.nodes() >= limit ? GAVE_UP : engine.run(Math.min(slice, Number(limit - engine.nodes())))), options.signal, undefined, phaseBudgets(engine)),
        'the peg solitaire search',
        maxMemory,
      );
      if (status === Status.DONE) return null; // searched to the end: no solution
      if (status === Status.SOLUTION) {
        let triples = engine.jumps().map((j) => current.board.jumps[j]);
        if (k === 1) triples = triples.reverse();
        const names = jumpNames(problem.board, triples);
        const nodes = held.reduce((sum, h) => sum + h.engine.nodes(), 0n);
        const memory = held.reduce((sum, h) => sum + h.engine.memory(), 0);
        const moves = groupMoves(names);
        const stats = { nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 };
        return { jumps: names, moves, length: moves.length, memory, attempts: attempt + 1, stats };
      }
    }
  } finally {
    for (const h of held) h.release();
  }
}

/** The board's jump order seen through each of its symmetries (the identity first). */
function symmetricOrders(board: Board): number[][] {
  const index = new Map(board.jumps.map(([f, o, t], i) => [`${f},${o},${t}`, i]));
  return board.symmetries.map((perm) => {
    const rank = board.jumps.map(([f, o, t]) => index.get(`${perm[f]},${perm[o]},${perm[t]}`)!);
    return board.jumps.map((_, i) => i).sort((a, b) => rank[a] - rank[b]);
  });
}

/** The jump indices in order, or shuffled by a small deterministic generator. */
function shuffledOrder(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  if (seed === 0) return order;
  let state = seed * 2654435761;
  for (let i = n - 1; i > 0; i--) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
    const k = state % (i + 1);
    [order[i], order[k]] = [order[k], order[i]];
  }
  return order;
}

/**
 * Solutions one by one, in the order of the depth-first search (jumps in board order); the
 * iterator's final value (with next()) is the search's stats.
 */
export async function* solutions(
  input: PegsInput | PegsProblem | string,
  options: PegsOptions & { limit?: number } = {},
): AsyncGenerator<{
  /** Every jump, `from-to`. */
  jumps: string[];
  /** The jumps grouped into moves: `d2-d4-f4`. */
  moves: string[];
}, PegsStats, undefined> {
  options = checkOptions(options, [...SOLVE_KEYS, 'limit'], 'pegs.solutions');
  const started = performance.now();
  let problem: PegsProblem;
  try {
    problem = toProblem(input);
  } catch (error) {
    // Like a count, a listing answers: nothing to list when a check proves there is no solution.
    if (error instanceof BitpuzzleError && error.code === 'UNSOLVABLE') return oneThreadStats(0n, started);
    throw error;
  }
  const limit = checkLimit(options.limit);
  const kind = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  if (limit === 0) return oneThreadStats(0n, started);
  const { engine, release } = await openEngine(kind, maxMemory);
  const phases = phaseBudgets(engine);
  try {
    checkStatus(engine.load(engineInput(problem)), 'loading the board', maxMemory);
    checkStatus(engine.start(MODE_SOLVE, tableLog(maxMemory, 0.25, 22)), 'the peg solitaire search', maxMemory);
    for (let produced = 0; produced < limit; produced++) {
      const status = checkStatus(await runSliced((b) => engine.run(b), options.signal, undefined, phases), 'the peg solitaire search', maxMemory);
      if (status === Status.DONE) break;
      const names = jumpNames(problem.board, engine.jumps().map((j) => problem.board.jumps[j]));
      yield { jumps: names, moves: groupMoves(names) };
    }
    return oneThreadStats(engine.nodes(), started);
  } finally {
    release();
  }
}

/**
 * Runs a level-by-level search, reporting each finished level. True when a count's sum met a
 * position whose paths saturated (OVERFLOW: its total is past what 64-bit paths tell).
 */
export async function runLevels(engine: PegsEngine, levels: number, what: string, maxMemory: number, options: LevelOptions): Promise<boolean> {
  let reported = -1;
  const first = engine.level();
  const status = await runSliced((budget) => {
    const done = Math.abs(first - engine.level());
    if (done !== reported) {
      reported = done;
      options.onProgress?.({ done: Math.min(done, levels), total: levels });
    }
    return engine.run(budget);
  }, options.signal, undefined, phaseBudgets(engine));
  if (status === Status.OUT_OF_MEMORY) {
    throw new BitpuzzleError(
      'OUT_OF_MEMORY',
      `${what} needs more than ${memoryLimitText(maxMemory)}; it got ${Math.abs(first - engine.level())} of ${levels} levels deep`,
    );
  }
  if (status !== OVERFLOW) checkStatus(status, what, maxMemory);
  options.onProgress?.({ done: levels, total: levels });
  return status === OVERFLOW;
}

/**
 * Counts the jump sequences from the start to a finish exactly, by dynamic programming
 * over positions up to symmetry, level by level.
 */
export async function count(input: PegsInput | PegsProblem | string, options: CountOptions = {}): Promise<PegsCount> {
  options = checkOptions(options, [...COUNT_KEYS, 'spill', 'spillDir', 'spillAbove', 'maxDisk', 'checkpoint', 'onCheckpoint'], 'pegs.count');
  checkSpill(options);
  checkCheckpoint(options);
  const counted = await countFrom(input, options, false);
  if (counted.total === null) throw pathsOverflow();
  return { ...counted, total: counted.total };
}

/** A count whose total is null when a sum met a position whose paths saturated (assembly/pegs/board.ts). */
type Counted = Omit<PegsCount, 'total'> & { total: bigint | null };

/**
 * count(), or with `forwardOnly` every level searched from the start (reachable). With
 * `shareFirst`, a count from both ends tries the threads' shared memory even on one thread
 * (reachable's total, after forward levels that most likely left that memory grown).
 */
async function countFrom(input: PegsInput | PegsProblem | string, options: CountOptions, forwardOnly: boolean, shareFirst = false): Promise<Counted> {
  const started = performance.now();
  let problem: PegsProblem;
  try {
    problem = toProblem(input);
  } catch (error) {
    // A count is always an answer: 0, with the reason a check proved it before any search.
    if (!(error instanceof BitpuzzleError && error.code === 'UNSOLVABLE')) throw error;
    const stats = { nodes: 0n, milliseconds: performance.now() - started, threads: 1, parts: 0 };
    return { total: 0n, distinct: null, reason: error.message, shard: null, memory: 0, levels: [], symmetries: 0, stats };
  }
  const kind = checkEngine(options.engine);
  const startPegs = popcount(problem.start);
  const holes = problem.board.holes.length;
  const selfDual = problem.finishes.length === 1 && problem.finishes[0] === (fullMask(problem.board) & ~problem.start);
  // Boards of 30 holes or more count from both ends (from the start, and back from the
  // finishes), meeting in the middle: on the calling thread by default, every level in one
  // engine's memory; on worker threads when `threads` asks for them.
  // With a checkpoint, any board counts that way (the count the checkpoints are of).
  const bothEnds = !forwardOnly && startPegs > popcount(problem.finishes[0]) + 1;
  const big = bothEnds && (holes >= BOTH_ENDS_HOLES || options.checkpoint !== undefined);
  const threads = options.threads === undefined ? 1 : checkThreads(options.threads);
  const meeting = !forwardOnly && !selfDual && startPegs > popcount(problem.finishes[0]) + 1 && (big || threads > 1);
  // One thread counts a smaller board forward to the finishes (count.ts), but a central game,
  // which it meets in the middle.
  const forwardOnOne = threads === 1 && holes >= SHARED_FORWARD_HOLES && !big && !selfDual && startPegs > popcount(problem.finishes[0]);
  // What a count on threads that did not fit left in the shared memory.
  let held = 0;
  if (kind === 'wasm' && (big || meeting || forwardOnOne || (threads > 1 && startPegs > popcount(problem.finishes[0])))) {
    const maxMemory = checkMaxMemory(options.maxMemory);
    // Counts go on threads that share one memory (together.ts): one table a level, built by
    // every thread at once; from both ends where one thread counts from both ends (and for one
    // finish), else forward to the finishes as one thread counts, so that the levels are the
    // same. When that would not fit, they count on the calling thread, their levels in memory
    // as a count with threads keeps them. So do the big boards where a symmetry lets one side
    // serve for both (the calling thread's engine does half the work there; smaller ones go
    // sharded): there one thread beat the sharded threads, which hold tables of their own
    // (d4 → d1 ran out of 1 GiB on 2 threads where one thread needs 358 MB).
    // A forward count on one thread goes to the shared module too, one task on one worker
    // thread: its dense levels made it faster and smaller than count.ts (reachable from d3 on
    // the English board: 47 s in 0.8 GB against 95 s in more than 1 GiB).
    const dual = !selfDual && bothEnds && dualSymmetry(problem) !== undefined;
    const fromBothEnds = bothEnds && (selfDual || ((big || problem.finishes.length === 1) && !dual));
    const onward = forwardOnOne || (!fromBothEnds && !dual && startPegs > popcount(problem.finishes[0]));
    const tryTogether =
      options.checkpoint === undefined && canShareMemory() && (forwardOnOne || ((threads > 1 || (shareFirst && fromBothEnds)) && (fromBothEnds || onward)));
    const tried = tryTogether ? await countTogether(problem, threads, maxMemory, { ...options, forward: onward }) : undefined;
    const together = tried && !('held' in tried) ? tried : undefined;
    // A count that did not fit there goes on the calling thread within what is left (the
    // shared memory stays with the process: together.ts keeps it for the next count), its
    // levels on disk unless spill is false (a count on threads that never tried the shared
    // memory keeps them in memory). A forward count (or one where memory cannot be shared,
    // on one thread) goes forward there (below).
    if (tried && 'held' in tried) held = tried.held;
    const forwardHere = !together && (forwardOnOne || (tryTogether && onward));
    const onOneThread = !together && (threads > 1 || tryTogether) && (big || tryTogether);
    if (!forwardHere) {
      const { total, levels, nodes, memory } =
        together ??
        (big && threads === 1 && !tryTogether
          ? await countBothEnds(problem, maxMemory, { ...options, spill: options.spill ?? true, checkpointEvery: checkpointEvery() })
          : onOneThread
            ? await withinLeft(maxMemory, held, (left) => countBothEnds(problem, left, { ...options, spill: options.spill ?? held > 0 }))
            : meeting && problem.finishes.length === 1
            ? await countMeeting(problem, threads, maxMemory, options)
            : await countOnThreads(problem, threads, maxMemory, options));
      const used = together ? Math.min(threads, MAX_TOGETHER_THREADS) : onOneThread ? 1 : threads;
      return {
        total,
        distinct: null,
        reason: null,
        shard: null,
        memory,
        levels,
        symmetries: problem.symmetries.length,
        stats: { nodes, milliseconds: performance.now() - started, threads: used, parts: used },
      };
    }
  }
  const maxMemory = checkMaxMemory(options.maxMemory);
  return withinLeft(maxMemory, held, (left) => withEngine({ ...options, maxMemory: left }, async (engine, maxMemory) => {
    checkStatus(engine.load(engineInput(problem)), 'loading the board', maxMemory);
    checkStatus(engine.start(MODE_COUNT, 10), 'counting', maxMemory);
    const startPegs = popcount(problem.start);
    // The engine meets in the middle when the finish is the start's complement.
    const holes = problem.board.holes.length;
    const meets = problem.finishes.length === 1 && problem.finishes[0] === (fullMask(problem.board) & ~problem.start);
    const steps = startPegs - (meets ? Math.min(startPegs, holes >> 1) : popcount(problem.finishes[0]));
    const saturated = await runLevels(engine, steps, 'counting', maxMemory, options);
    const levels = engine.levels().slice(0, startPegs + 1).map(Number);
    return {
      total: saturated ? null : engine.total(),
      distinct: null,
      reason: null,
      shard: null,
      memory: engine.memory(),
      levels,
      symmetries: problem.symmetries.length,
      stats: { nodes: engine.nodes(), milliseconds: performance.now() - started, threads: 1, parts: 1 },
    };
  }));
}

/**
 * Runs a count on the calling thread within maxMemory less `held`, the bytes a count on
 * threads before it in the same call left grown in the shared memory (and less the host's
 * own, which that count's share left out); its OUT_OF_MEMORY says so.
 */
async function withinLeft<R>(maxMemory: number, held: number, work: (left: number) => Promise<R>): Promise<R> {
  try {
    return await work(held === 0 ? maxMemory : Math.max(MIN_MAX_MEMORY, engineShare(maxMemory) - held));
  } catch (error) {
    if (held === 0 || !(error instanceof BitpuzzleError && error.code === 'OUT_OF_MEMORY')) throw error;
    throw new BitpuzzleError('OUT_OF_MEMORY', `${error.message}: what maxMemory (${maxMemory} bytes) leaves beside the ${held} bytes the threads' shared memory holds (it did not hold the count)`);
  }
}

/**
 * The positions reachable from the start at each number of pegs, up to the symmetries
 * that keep the start (the finish is ignored). `total` is the number of jump sequences
 * that end with one peg.
 */
export async function reachable(input: PegsInput | PegsProblem | string, options: Omit<CountOptions, 'spill' | 'spillDir'> = {}): Promise<PegsCount> {
  options = checkOptions(options, COUNT_KEYS, 'pegs.reachable');
  const { board, start } = typeof input === 'object' && input !== null && 'finishes' in input ? toProblem(input) : boardAndStart(input);
  const open: PegsProblem = markProblem({
    board,
    start,
    finishes: board.holes.map((_, i) => 1n << BigInt(i)),
    symmetries: board.symmetries.filter((perm) => permute(perm, start) === start),
    pagodas: [],
  });
  const forward = await countFrom(open, options, true);
  if (forward.total !== null) return { ...forward, total: forward.total };
  // Forward, a finish's paths (or those of a parent of one) saturated. The total is then
  // count's for the finishes in the start's class, from both ends (where the sides' paths
  // meet in products, far below 2^64 each), its levels kept in memory.
  const finishes = feasibleFinishes(board, start, open.finishes);
  const report = options.onProgress;
  const onProgress = report && ((progress: Progress) => report({ ...progress, phase: 'the total, from both ends' }));
  const both = await countFrom(markProblem({ ...open, finishes }), { ...options, spill: false, onProgress }, false, true);
  if (both.total === null) throw pathsOverflow('reachable counted its levels forward, and from both ends for the total');
  const stats = { ...forward.stats, nodes: forward.stats.nodes + both.stats.nodes, milliseconds: forward.stats.milliseconds + both.stats.milliseconds };
  return { ...forward, total: both.total, memory: Math.max(forward.memory, both.memory), stats };
}

/** The most holes of a board whose fewest moves go by levels (a value holds a mark per hole and the moves). */
const LEVELS_HOLES = 56;

/**
 * minMoves by levels: the levels of pegs from both ends, as count's, with each position's
 * fewest moves (assembly/pegs/meet.ts, pegsMeetFewest), then (without lengthOnly) a solution
 * through the position where the ends met (solutionThrough); null when no sequence of jumps
 * reaches a finish.
 */
async function minMovesByLevels(problem: PegsProblem, options: MinMovesOptions, started: number): Promise<PegsMinMoves | PegsMinMovesLength | null> {
  const maxMemory = checkMaxMemory(options.maxMemory);
  const what = options.lengthOnly ? 'minMoves with lengthOnly' : "minMoves with method 'levels'";
  if (problem.board.holes.length > LEVELS_HOLES) {
    throw badInput(`${what} takes boards of up to ${LEVELS_HOLES} holes; this one has ${problem.board.holes.length}`);
  }
  if (popcount(problem.start) < popcount(problem.finishes[0]) + 2) {
    // No jump or one: nothing to meet in the middle; the search by moves answers at once.
    const found = await minMoves(problem, { signal: options.signal, maxMemory, method: 'moves' });
    if (!found || !options.lengthOnly) return found && { ...found, stats: { ...found.stats, milliseconds: performance.now() - started } };
    return { jumps: null, moves: null, length: found.length, memory: found.memory, stats: { ...found.stats, milliseconds: performance.now() - started } };
  }
  const levels = await countBothEnds(problem, maxMemory, { ...options, spill: options.spill ?? true, fewest: true, checkpointEvery: checkpointEvery() });
  if (levels.total < 0n) return null;
  const length = Number(levels.total);
  if (options.lengthOnly) {
    const stats = { nodes: levels.nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 };
    return { jumps: null, moves: null, length, memory: levels.memory, stats };
  }
  const steps = popcount(problem.start) - popcount(problem.finishes[0]);
  const through = await solutionThrough(problem, levels.meeting!, maxMemory, {
    signal: options.signal,
    onProgress: (phase) => options.onProgress?.({ done: steps, total: steps, phase: `${length} moves at fewest; ${phase}` }),
  });
  const moveList = groupMoves(through.jumps);
  const after = through.jumps.length > 0 ? replay(problem.board, problem.start, through.jumps).at(-1)! : problem.start;
  if (moveList.length !== length || !problem.finishes.includes(after)) {
    throw new BitpuzzleError('ENGINE_FAILURE', `the solution through the middle does not take the ${length} moves the levels proved (${moveList.length}), or misses the finish`);
  }
  return {
    jumps: through.jumps,
    moves: moveList,
    length,
    memory: Math.max(levels.memory, through.memory),
    stats: { nodes: levels.nodes + through.nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 },
  };
}

/** The method minMoves takes: 'auto' resolved by the board's size and lengthOnly; BAD_INPUT for one that cannot serve. */
function minMovesMethod(options: MinMovesOptions, problem: PegsProblem): Exclude<MinMovesMethod, 'auto'> {
  const method = options.method ?? 'auto';
  if (!MIN_MOVES_METHODS.includes(method)) throw badInput(`method must be one of ${MIN_MOVES_METHODS.join(', ')}, got ${describeValue(method)}`);
  if (options.lengthOnly && method !== 'auto' && method !== 'levels') {
    throw badInput(`lengthOnly goes with method 'levels' (the fewest moves alone are proved by levels), not '${method}'`);
  }
  const holes = problem.board.holes.length;
  if (method === 'moves' && holes > MAX_MOVES_HOLES) throw badInput(`method 'moves' takes boards of up to ${MAX_MOVES_HOLES} holes; this one has ${holes}`);
  if (method !== 'auto') return method;
  return options.lengthOnly ? 'levels' : holes > DEEPENING_HOLES ? 'deepening' : 'moves';
}

/**
 * Boards with more holes than this (past the English board's 33) get the fewest moves by
 * iterative deepening (fewest.ts), within memory; up to it, by the search from both ends,
 * which is faster there and keeps the table countOptimal needs.
 */
export const DEEPENING_HOLES = 33;

/**
 * The fewest moves (a chain of jumps by one peg is one move), proved by breadth-first
 * search by moves from both ends with symmetry (by default boards up to DEEPENING_HOLES
 * holes), by iterative deepening on the moves (larger boards) or by levels of pegs (`method`,
 * `lengthOnly`), and a shortest solution; null when the search finds no solution. Wasm only.
 */
export async function minMoves(input: PegsInput | PegsProblem | string, options: MinMovesOptions & { lengthOnly: true }): Promise<PegsMinMovesLength | null>;
export async function minMoves(input: PegsInput | PegsProblem | string, options?: MinMovesOptions & { lengthOnly?: false }): Promise<PegsMinMoves | null>;
export async function minMoves(input: PegsInput | PegsProblem | string, options?: MinMovesOptions): Promise<PegsMinMoves | PegsMinMovesLength | null>;
export async function minMoves(input: PegsInput | PegsProblem | string, options: MinMovesOptions = {}): Promise<PegsMinMoves | PegsMinMovesLength | null> {
  const started = performance.now();
  options = checkOptions(options, [...SOLVE_KEYS, 'onProgress', 'method', 'lengthOnly', 'spill', 'spillDir', 'spillAbove', 'maxDisk', 'checkpoint', 'onCheckpoint'], 'pegs.minMoves');
  if (options.lengthOnly !== undefined && typeof options.lengthOnly !== 'boolean') throw badInput(`lengthOnly must be true or false, got ${describeValue(options.lengthOnly)}`);
  checkSpill(options);
  checkCheckpoint(options);
  if (options.checkpoint !== undefined && options.lengthOnly !== true) throw badInput('checkpoint goes with lengthOnly: true (the fewest moves by levels, without a solution)');
  const problem = toProblem(input);
  const method = minMovesMethod(options, problem);
  if (method !== 'levels') {
    const given = [...(options.spill !== undefined ? ['spill'] : []), ...diskOptionsGiven(options)];
    if (given.length > 0) throw badInput(`${given.join(', ')} cannot go with minMoves by ${method}: only the fewest moves by levels (method 'levels' or lengthOnly) puts levels on disk`);
  }
  if (checkEngine(options.engine) === 'js') {
    throw new BitpuzzleError('BAD_INPUT', "minMoves runs on the Wasm engine only (engine: 'wasm')");
  }
  if (method === 'levels') return minMovesByLevels(problem, options, started);
  if (method === 'deepening') {
    const maxMemory = checkMaxMemory(options.maxMemory);
    const result = await fewestByDeepening(problem, maxMemory, options);
    if (result.jumps === null) return null;
    const jumps = result.jumps;
    const moveList = groupMoves(jumps);
    return {
      jumps,
      moves: moveList,
      length: moveList.length,
      memory: result.memory,
      stats: { nodes: result.nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 },
    };
  }
  // 'moves' (by default up to DEEPENING_HOLES; at most MAX_MOVES_HOLES): from both ends.
  return withEngine(options, async (engine, maxMemory) => {
    checkStatus(engine.load(engineInput(problem)), 'loading the board', maxMemory);
    checkStatus(engine.start(MODE_MOVES, 12), 'the fewest-moves search', maxMemory);
    const steps = popcount(problem.start) - popcount(problem.finishes[0]);
    await runLevels(engine, steps, 'the fewest-moves search', maxMemory, options);
    if (engine.moves() < 0) return null; // no sequence of jumps reaches the finish
    const positions = engine.positions();
    const jumps: string[] = [];
    const moveList: string[] = [];
    for (let i = 1; i < positions.length; i++) {
      const chain = jumpsBetween(problem.board, positions[i - 1], positions[i]);
      jumps.push(...chain);
      moveList.push(...groupMoves(chain));
    }
    return {
      jumps,
      moves: moveList,
      length: moveList.length,
      memory: engine.memory(),
      stats: { nodes: engine.nodes(), milliseconds: performance.now() - started, threads: 1, parts: 1 },
    };
  });
}
