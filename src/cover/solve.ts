// The exact-cover API: count, solve, solutions (an async iterator) and exactCover.
import { badInput, throwIfAborted } from '../errors.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { loadEngineModule } from '../wasm/module.js';
import { DEFAULT_MAX_MEMORY, Status } from '../wasm/protocol.js';
import { parseCover } from './parse.js';
import { prepareProblem, type CoverInput, type PreparedCover } from './problem.js';
import {
  openCoverEngine,
  runCoverTask,
  runToStop,
  splitTask,
  startSearch,
  type CoverTask,
  type EngineKind,
} from './tasks.js';

export interface CoverOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** Most bytes the engine may use for the links (default 1 GiB); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
}

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

export interface SolutionsOptions extends CoverOptions {
  /** Stop after this many solutions. */
  limit?: number;
}

export interface CoverStats {
  /**
   * Rows selected by the search (givens not included). For a whole count this is the size of
   * the search tree, the same for every thread count; a shard counts only its own parts.
   */
  nodes: bigint;
  milliseconds: number;
  threads: number;
  /** Independent parts the search was cut into. */
  parts: number;
}

export interface CoverCount {
  total: bigint;
  /** Why the answer is zero without a search (a primary column that no row covers), else null. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  stats: CoverStats;
}

export interface CoverSolution {
  /** The chosen rows, by index (from 0), ascending. */
  rows: number[];
  /** Their names, when the problem names its rows; else null. */
  names: string[] | null;
}

/** Checks any accepted input: plain data, the text format, or a problem prepared earlier. */
export function prepare(input: CoverInput): PreparedCover {
  return typeof input === 'string' ? parseCover(input) : prepareProblem(input);
}

function checkEngine(engine: unknown): EngineKind {
  if (engine === undefined || engine === 'wasm' || engine === 'js') return engine ?? 'wasm';
  throw badInput(`engine must be 'wasm' or 'js', got ${String(engine)}`);
}

function rootTask(problem: PreparedCover, options: CoverOptions): CoverTask {
  const maxMemory = options.maxMemory ?? DEFAULT_MAX_MEMORY;
  if (typeof maxMemory !== 'number' || !(maxMemory >= 65536)) {
    throw badInput(`maxMemory must be at least 65536 bytes, got ${String(maxMemory)}`);
  }
  return { engine: checkEngine(options.engine), matrix: problem.matrix, forced: problem.given.slice(), maxMemory };
}

function toSolution(problem: PreparedCover, rows: number[]): CoverSolution {
  const sorted = rows.slice().sort((a, b) => a - b);
  return { rows: sorted, names: problem.rowNames ? sorted.map((row) => problem.rowNames![row]) : null };
}

/** Counts the exact covers: sets of rows covering each primary column once and each secondary one at most once. */
export async function count(input: CoverInput, options: CountOptions = {}): Promise<CoverCount> {
  const started = performance.now();
  const problem = prepare(input);
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
    return { total: 0n, reason: problem.reason, shard: null, stats: stats(0n, 1, 0) };
  }
  let parts: CoverTask[] = [root];
  let splitNodes = 0n;
  if (threads > 1 || shard.count > 1 || options.queue !== undefined) {
    const split = await splitTask(root, shard.count, options.signal);
    if (split.finished) {
      options.onProgress?.({ done: 1, total: 1 });
      return { total: split.finished.solutions, reason: null, shard: null, stats: stats(split.finished.nodes, 1, 1) };
    }
    parts = partsOfShard(split.parts, shard);
    // The levels above the parts belong to the whole search, not to any one shard.
    if (shard.count === 1) splitNodes = split.nodes;
  }
  const results = await runTasks({
    tasks: parts,
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
    reason: problem.reason,
    shard: shard.count > 1 ? shard : null,
    stats: stats(nodes, Math.max(1, Math.min(threads, parts.length)), parts.length),
  };
}

/** The solutions one by one, in the order of the search. It pauses between items. */
export async function* solutions(
  input: CoverInput,
  options: SolutionsOptions = {},
): AsyncGenerator<CoverSolution, void, undefined> {
  const problem = prepare(input);
  const task = rootTask(problem, options);
  const limit = options.limit ?? Infinity;
  if (limit !== Infinity && (!Number.isInteger(limit) || limit < 0)) {
    throw badInput(`limit must be a non-negative integer, got ${String(limit)}`);
  }
  throwIfAborted(options.signal);
  if (limit === 0 || problem.reason !== null) return;
  // The engine is held until the iterator finishes or is closed.
  const { engine, release } = await openCoverEngine(task.engine, task.maxMemory);
  try {
    startSearch(engine, task, true);
    for (let produced = 0; produced < limit; produced++) {
      if ((await runToStop(engine, task, options.signal)) === Status.DONE) return;
      yield toSolution(problem, engine.output());
    }
  } finally {
    release();
  }
}

/** The first solution the search finds, or null when there is none. */
export async function solve(input: CoverInput, options: CoverOptions = {}): Promise<CoverSolution | null> {
  for await (const solution of solutions(input, { ...options, limit: 1 })) return solution;
  return null;
}

/** Every solution (or the first `limit`) as an array: solutions() collected. */
export async function exactCover(input: CoverInput, options: SolutionsOptions = {}): Promise<CoverSolution[]> {
  const found: CoverSolution[] = [];
  for await (const solution of solutions(input, options)) found.push(solution);
  return found;
}
