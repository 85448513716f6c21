// The Sudoku API: solve, count and solutions for one grid. 9×9 and 16×16 grids use the
// dedicated engine (assembly/sudoku/); other box sizes are solved as exact cover.
import { throwIfAborted } from '../errors.js';
import * as cover from '../cover/index.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { oneThreadStats, type SearchStats } from '../stats.js';
import { loadEngineModule } from '../wasm/module.js';
import { Status, memoryShare } from '../wasm/protocol.js';
import { checkEngine, checkLimit, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { cellsOfRows, coverOf } from './cover.js';
import { MODE_COUNT, MODE_EMIT } from './engine.js';
import { lineOf, parseGrid, rowsOf, picture, type SudokuGrid, type SudokuProblem } from './grid.js';
import { allocPuzzles, openSudokuEngine, runSudokuTask, runToStop, splitCount, startAndRun, type SudokuTask } from './tasks.js';

/** Options of sudoku.solve, and the base of the other functions' options. */
export interface SudokuOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** Most bytes the engine may use (default 1 GiB); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
}

/** Options of sudoku.count. */
export interface CountOptions extends SudokuOptions {
  /** Worker threads (default: every core). Counts of under ~65,000 nodes stay on the calling thread. */
  threads?: number;
  /** Only this part of the work: `{ index, count }` (index from 1) or "k/n". */
  shard?: Shard | string;
  /** Called with the parts done so far and in all. */
  onProgress?: (progress: Progress) => void;
  /** Run the parts on `bitpuzzle worker` processes through this Redis queue (see README). */
  queue?: QueueOption;
}

/** Options of sudoku.solutions. */
export interface SolutionsOptions extends SudokuOptions {
  /** Stop after this many solutions. */
  limit?: number;
}

/**
 * `nodes`: for 9×9 and 16×16 grids, the states the engine propagated (the givens, then each digit tried
 * in a branching cell), the same on both engines and for any thread count; for other box
 * sizes, the exact-cover search's rows chosen.
 */
export type SudokuStats = SearchStats;

/** One completion of a grid. */
export interface SudokuSolution {
  /** The filled grid, digits from 1. */
  grid: number[][];
  /** The grid as text, a line per row. */
  text: string;
}

/** The first completion, with the stats of the search that found it. */
export interface SudokuFirst extends SudokuSolution {
  /** Stats of the search up to this completion. */
  stats: SudokuStats;
}

/** The answer of sudoku.count. */
export interface SudokuCount {
  /** The number of completions (of the shard's parts only, for a shard). */
  total: bigint;
  /** Completions are not counted up to symmetry: always null. */
  distinct: null;
  /** Always null: a grid's givens are checked against each other (BAD_INPUT), then searched. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  /** Stats of the count. */
  stats: SudokuStats;
}

const SOLVE_KEYS = ['signal', 'engine', 'maxMemory'];
const COUNT_KEYS = [...SOLVE_KEYS, 'threads', 'shard', 'onProgress', 'queue'];
const SOLUTIONS_KEYS = [...SOLVE_KEYS, 'limit'];

/** 9×9 and 16×16 grids have the engine; other box sizes go to exact cover. */
const onEngine = (problem: SudokuProblem): boolean => problem.size === 9 || problem.size === 16;

function toSolution(size: number, cells: ArrayLike<number>): SudokuSolution {
  const grid = rowsOf(cells, size);
  return { grid, text: picture(grid) };
}

function rootTask(problem: SudokuProblem, options: SudokuOptions): SudokuTask {
  return {
    engine: checkEngine(options.engine),
    size: problem.size,
    puzzles: [lineOf(problem.cells)],
    limit: 0,
    firstSolutions: false,
    maxMemory: checkMaxMemory(options.maxMemory),
  };
}

/** The first completion found, with its stats, or null when the grid has none. */
export async function solve(grid: SudokuGrid, options: SudokuOptions = {}): Promise<SudokuFirst | null> {
  const started = performance.now();
  options = checkOptions(options, SOLVE_KEYS, 'sudoku.solve');
  const problem = parseGrid(grid);
  if (!onEngine(problem)) {
    const found = await cover.solve(coverOf(problem), options);
    return found && { ...toSolution(problem.size, cellsOfRows(problem.size, found.rows)), stats: found.stats };
  }
  const maxMemory = checkMaxMemory(options.maxMemory);
  const { engine, release } = await openSudokuEngine(checkEngine(options.engine), maxMemory);
  try {
    throwIfAborted(options.signal);
    allocPuzzles(engine, 1, problem.size, maxMemory);
    engine.input().set(problem.cells);
    await startAndRun(engine, 1, 1, MODE_COUNT, 0, maxMemory, options.signal);
    if (engine.solutions(0) === 0) return null;
    return { ...toSolution(problem.size, engine.solution(0)), stats: oneThreadStats(engine.nodes(), started) };
  } finally {
    release();
  }
}

/** Counts the completions of a grid. */
export async function count(grid: SudokuGrid, options: CountOptions = {}): Promise<SudokuCount> {
  const started = performance.now();
  options = checkOptions(options, COUNT_KEYS, 'sudoku.count');
  const problem = parseGrid(grid);
  if (!onEngine(problem)) {
    const { total, reason, shard, stats } = await cover.count(coverOf(problem), options);
    return { total, distinct: null, reason, shard, stats };
  }
  const root = rootTask(problem, options);
  const threads = checkThreads(options.threads);
  const shard = parseShard(options.shard);
  throwIfAborted(options.signal);
  const stats = (nodes: bigint, threadsUsed: number, parts: number): SudokuStats => ({
    nodes,
    milliseconds: performance.now() - started,
    threads: threadsUsed,
    parts,
  });
  const answer = (total: bigint, nodes: bigint, threadsUsed: number, parts: number): SudokuCount => ({
    total,
    distinct: null,
    reason: null,
    shard: shard.count > 1 ? shard : null,
    stats: stats(nodes, threadsUsed, parts),
  });
  if (threads === 1 && shard.count === 1 && options.queue === undefined) {
    options.onProgress?.({ done: 0, total: 1 });
    const result = await runSudokuTask(root, options.signal);
    options.onProgress?.({ done: 1, total: 1 });
    return answer(BigInt(result.counts[0]), BigInt(result.nodes[0]), 1, 1);
  }
  const split = await splitCount(root, shard.count, options.signal);
  if (split.finished) {
    options.onProgress?.({ done: 1, total: 1 });
    return answer(BigInt(split.finished.solutions), split.finished.nodes, 1, 1);
  }
  const parts = partsOfShard(split.parts, shard);
  // The threads' engines together stay within maxMemory (a queue's workers each have their own).
  const workers = options.queue ? 1 : Math.min(threads, parts.length);
  const maxMemory = workers > 1 ? memoryShare(root.maxMemory, workers) : root.maxMemory;
  const results = await runTasks({
    tasks: parts.map((part): SudokuTask => ({ ...root, puzzles: [part], maxMemory })),
    threads,
    kind: 'sudoku',
    queue: options.queue,
    runInline: (task: SudokuTask, signal?: AbortSignal) => runSudokuTask(task, signal),
    engineModule: root.engine === 'wasm' && threads > 1 ? await loadEngineModule() : undefined,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  let total = 0n;
  // The levels above the parts belong to the whole search, not to any one shard.
  let nodes = shard.count === 1 ? split.nodes : 0n;
  for (const r of results) {
    total += BigInt(r.counts[0]);
    nodes += BigInt(r.nodes[0]);
  }
  return answer(total, nodes, Math.max(1, Math.min(threads, parts.length)), parts.length);
}

/** The completions one by one, in the order of the search; the final value (with next()) is the stats. */
export async function* solutions(grid: SudokuGrid, options: SolutionsOptions = {}): AsyncGenerator<SudokuSolution, SudokuStats, undefined> {
  const started = performance.now();
  options = checkOptions(options, SOLUTIONS_KEYS, 'sudoku.solutions');
  const problem = parseGrid(grid);
  if (!onEngine(problem)) {
    const found = cover.solutions(coverOf(problem), options);
    try {
      for (;;) {
        const step = await found.next();
        if (step.done) return step.value;
        yield toSolution(problem.size, cellsOfRows(problem.size, step.value.rows));
      }
    } finally {
      await found.return(oneThreadStats(0n, started));
    }
  }
  const limit = checkLimit(options.limit);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const kind = checkEngine(options.engine);
  throwIfAborted(options.signal);
  if (limit === 0) return oneThreadStats(0n, started);
  // The engine is held until the iterator finishes or is closed.
  const { engine, release } = await openSudokuEngine(kind, maxMemory);
  try {
    allocPuzzles(engine, 1, problem.size, maxMemory);
    engine.input().set(problem.cells);
    let status = await startAndRun(engine, 1, limit === Infinity ? 0 : limit, MODE_EMIT, 0, maxMemory, options.signal);
    while (status === Status.SOLUTION) {
      yield toSolution(problem.size, engine.emitted());
      status = await runToStop(engine, maxMemory, options.signal);
    }
    return oneThreadStats(engine.nodes(), started);
  } finally {
    release();
  }
}
