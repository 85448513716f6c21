// The exact-cover API: count, solve, solutions (an async iterator) and exactCover.
import { BitpuzzleError, throwIfAborted } from '../errors.js';
import { firstWithStats, withStats, type SearchStats } from '../stats.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { loadEngineModule } from '../wasm/module.js';
import { Status, memoryShare, runStepsSliced } from '../wasm/protocol.js';
import { checkEngine, checkLimit, checkMaxMemory, checkOptions } from '../wasm/options.js';
import { parseCover, parseCoverSteps } from './parse.js';
import { prepareProblem, prepareProblemSteps, type CoverInput, type PreparedCover } from './problem.js';
import {
  openCoverEngine,
  runCoverTask,
  runToStop,
  splitTask,
  startSearch,
  type CoverTask,
  type EngineKind,
} from './tasks.js';

/** Options of cover.solve, and the base of the other functions' options. */
export interface CoverOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** Most bytes the engine may use for the links (default 1 GiB); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
}

/** Options of cover.count. */
export interface CountOptions extends CoverOptions {
  /** Worker threads (default: every core). Searches of under ~65,000 nodes stay on the calling thread. */
  threads?: number;
  /** Only this part of the work: `{ index, count }` (index from 1) or "k/n". */
  shard?: Shard | string;
  /** Called with the parts done so far and in all. */
  onProgress?: (progress: Progress) => void;
  /** Run the parts on `bitpuzzle worker` processes through this Redis queue (see README). */
  queue?: QueueOption;
}

/** Options of cover.solutions and exactCover. */
export interface SolutionsOptions extends CoverOptions {
  /** Stop after this many solutions. */
  limit?: number;
}

/**
 * Stats of a cover result. `nodes`: rows selected by the search (givens not included); for a
 * whole count the size of the search tree, the same for every thread count; a shard counts
 * only its own parts.
 */
export type CoverStats = SearchStats;

/** The answer of cover.count. */
export interface CoverCount {
  /** The number of exact covers (of the shard's parts only, for a shard). */
  total: bigint;
  /** Exact cover has no symmetry to count up to: always null. */
  distinct: null;
  /** Why the answer is zero without a search (a primary column that no row covers), else null. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  /** Stats of the count. */
  stats: CoverStats;
}

/** One exact cover. */
export interface CoverSolution {
  /** The chosen rows, by index (from 0), ascending. */
  rows: number[];
  /** Their names, when the problem names its rows; else null. */
  names: string[] | null;
}

/** The first solution, with the stats of the search that found it. */
export interface CoverFirst extends CoverSolution {
  /** Stats of the search up to this solution. */
  stats: CoverStats;
}

/** Checks any accepted input: plain data, the text format, or a problem prepared earlier. */
export function prepare(input: CoverInput): PreparedCover {
  return typeof input === 'string' ? parseCover(input) : prepareProblem(input);
}

/** prepare() in slices of a few milliseconds (a matrix of many thousand rows takes a while), stopped by `signal`. */
function prepareSliced(input: CoverInput, signal?: AbortSignal): Promise<PreparedCover> {
  return runStepsSliced(typeof input === 'string' ? parseCoverSteps(input) : prepareProblemSteps(input), signal);
}

// The options each function takes (checkOptions rejects any other key).
const SOLVE_KEYS = ['signal', 'engine', 'maxMemory'];
const COUNT_KEYS = [...SOLVE_KEYS, 'threads', 'shard', 'onProgress', 'queue'];
const SOLUTIONS_KEYS = [...SOLVE_KEYS, 'limit'];

function rootTask(problem: PreparedCover, options: CoverOptions): CoverTask {
  const maxMemory = checkMaxMemory(options.maxMemory);
  return { engine: checkEngine(options.engine), matrix: problem.matrix, forced: problem.given.slice(), maxMemory };
}

function toSolution(problem: PreparedCover, rows: number[]): CoverSolution {
  const sorted = rows.slice().sort((a, b) => a - b);
  return { rows: sorted, names: problem.rowNames ? sorted.map((row) => problem.rowNames![row]) : null };
}

/** Counts the exact covers: sets of rows covering each primary column once and each secondary one at most once. */
export async function count(input: CoverInput, options: CountOptions = {}): Promise<CoverCount> {
  const started = performance.now();
  options = checkOptions(options, COUNT_KEYS, 'cover.count');
  const problem = await prepareSliced(input, options.signal);
  const root = rootTask(problem, options);
  const threads = checkThreads(options.threads);
  const shard = parseShard(options.shard);
  throwIfAborted(options.signal);
  const stats = (nodes: bigint, threadsUsed: number, parts: number): CoverStats => ({
    nodes,
    milliseconds: performance.now() - started,
    threads: threadsUsed,
    parts,
  });
  if (problem.reason !== null && shard.count === 1) {
    return { total: 0n, distinct: null, reason: problem.reason, shard: null, stats: stats(0n, 1, 0) };
  }
  let parts: CoverTask[] = [root];
  let splitNodes = 0n;
  if (threads > 1 || shard.count > 1 || options.queue !== undefined) {
    const split = await splitTask(root, shard.count, options.signal);
    if (split.finished) {
      options.onProgress?.({ done: 1, total: 1 });
      return { total: split.finished.solutions, distinct: null, reason: null, shard: null, stats: stats(split.finished.nodes, 1, 1) };
    }
    parts = partsOfShard(split.parts, shard);
    // The levels above the parts belong to the whole search, not to any one shard.
    if (shard.count === 1) splitNodes = split.nodes;
  }
  // The threads' engines together stay within maxMemory (a queue's workers each have their own).
  const workers = options.queue ? 1 : Math.min(threads, parts.length);
  const results = await runTasks({
    tasks: workers > 1 ? parts.map((part) => ({ ...part, maxMemory: memoryShare(part.maxMemory, workers) })) : parts,
    threads,
    kind: 'cover',
    queue: options.queue,
    runInline: runCoverTask,
    engineModule: root.engine === 'wasm' && threads > 1 ? await loadEngineModule() : undefined,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  let total = 0n;
  let nodes = splitNodes;
  for (const r of results) {
    total += r.solutions;
    nodes += r.nodes;
  }
  return {
    total,
    distinct: null,
    reason: problem.reason,
    shard: shard.count > 1 ? shard : null,
    stats: stats(nodes, Math.max(1, Math.min(threads, parts.length)), parts.length),
  };
}

/** The solutions one by one, in the order of the search. It pauses between items; its final value (with next()) is the stats. */
export async function* solutions(
  input: CoverInput,
  options: SolutionsOptions = {},
): AsyncGenerator<CoverSolution, CoverStats, undefined> {
  options = checkOptions(options, SOLUTIONS_KEYS, 'cover.solutions');
  return yield* withStats(search(await prepareSliced(input, options.signal), options), performance.now());
}

/** The solutions; returns the rows selected. */
async function* search(problem: PreparedCover, options: SolutionsOptions): AsyncGenerator<CoverSolution, bigint, undefined> {
  const task = rootTask(problem, options);
  const limit = checkLimit(options.limit);
  throwIfAborted(options.signal);
  if (limit === 0 || problem.reason !== null) return 0n;
  // The engine is held until the iterator finishes or is closed.
  const { engine, release } = await openCoverEngine(task.engine, task.maxMemory);
  try {
    await startSearch(engine, task, true, 0, options.signal);
    for (let produced = 0; produced < limit; produced++) {
      if ((await runToStop(engine, task, options.signal)) === Status.DONE) break;
      yield toSolution(problem, engine.output());
    }
    return engine.nodes();
  } finally {
    release();
  }
}

/**
 * The first solution the search finds, with its stats, or null when the search finds none.
 * UNSOLVABLE (with the reason) when a primary column is in no row.
 */
export async function solve(input: CoverInput, options: CoverOptions = {}): Promise<CoverFirst | null> {
  options = checkOptions(options, SOLVE_KEYS, 'cover.solve');
  const started = performance.now();
  const problem = await prepareSliced(input, options.signal);
  if (problem.reason !== null) throw new BitpuzzleError('UNSOLVABLE', problem.reason);
  return firstWithStats(withStats(search(problem, { ...options, limit: 1 }), started));
}

/** Every solution (or the first `limit`) as an array: solutions() collected. */
export async function exactCover(input: CoverInput, options: SolutionsOptions = {}): Promise<CoverSolution[]> {
  options = checkOptions(options, SOLUTIONS_KEYS, 'exactCover');
  const found: CoverSolution[] = [];
  for await (const solution of solutions(input, options)) found.push(solution);
  return found;
}
