// The N-Queens API: count, solve, solutions (an async iterator) and construct.
import { BitpuzzleError, badInput, describeValue, throwIfAborted } from '../errors.js';
import { checkThreads, runTasks, sumCounts, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { acquireEngine, loadEngineModule, releaseEngine } from '../wasm/module.js';
import { checkEngine, checkLimit, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { Status, checkStatus, memoryShare, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { firstWithStats, oneThreadStats, withStats, type SearchStats } from '../stats.js';
import { MAX_CONSTRUCT_N, MAX_JOIN_N, MAX_SEARCH_N, MIN_JOIN_N, MODE_ALL, MODE_DISTINCT } from './engine.js';
import { boardPicture } from './format.js';
import { toProblem, type QueensInput, type QueensProblem } from './parse.js';
import { symmetricConstellations } from './constellations.js';
import {
  joinParts,
  runQueensTask,
  splitTask,
  openQueensEngine,
  startSearch,
  type QueensTask,
  type QueensTaskResult,
  type RowsTask,
} from './tasks.js';

/** Options every queens function takes (solve and construct take maxMemory too). */
export interface QueensOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
}

/** Options of queens.solve and queens.construct. */
export interface SolveOptions extends QueensOptions {
  /** Most bytes the engine may use (default 1 GiB); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
}

/** How queens.count counts an empty board (see CountOptions.method). */
export type CountMethod = 'join' | 'constellations';

/** Options of queens.count. */
export interface CountOptions extends QueensOptions {
  /**
   * How an empty board is counted: 'join' joins half-boards (5 ≤ n ≤ 22), 'constellations'
   * searches from start constellations (n ≥ 5). By default the join from n = 16 to 22 when
   * maxMemory allows it, else the constellations. Boards under 5 and boards with queens are
   * searched row by row.
   */
  method?: CountMethod;
  /**
   * Most bytes the engines may use together (default 1 GiB). A join that needs more falls back
   * to the constellations, or fails with OUT_OF_MEMORY when `method` is 'join'.
   */
  maxMemory?: number;
  /** Worker threads (default: every core). Small searches run on the calling thread. */
  threads?: number;
  /** Only this part of the work: `{ index, count }` (index from 1) or "k/n". */
  shard?: Shard | string;
  /** Called with the parts done so far and in all. */
  onProgress?: (progress: Progress) => void;
  /** Run the parts on `bitpuzzle worker` processes through this Redis queue (see README). */
  queue?: QueueOption;
}

/** Options of queens.solutions. */
export interface SolutionsOptions extends QueensOptions {
  /** Stop after this many solutions. */
  limit?: number;
  /** One solution per class of the 8 board symmetries (empty boards only). */
  distinct?: boolean;
}

/** Stats of a queens result; `nodes` counts queens placed by the search. */
export type QueensStats = SearchStats;

/** The answer of queens.count. */
export interface QueensCount {
  /** The board's size. */
  n: number;
  /** Solutions (completions of the given queens). */
  total: bigint;
  /** Solutions up to the 8 symmetries of the board; null when queens were given. */
  distinct: bigint | null;
  /** Why the total is 0 without a search; always null here (every board is searched). */
  reason: string | null;
  /** How it was counted: half-boards joined, start constellations, or a search row by row. */
  method: CountMethod | 'rows';
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  /** Stats of the count. */
  stats: QueensStats;
}

/** One placement of n queens. */
export interface QueensSolution {
  /** The column of the queen in each row (0-based). */
  columns: number[];
}

/** The first solution, with the stats of the search that found it. */
export interface QueensFirst extends QueensSolution {
  /** Stats of the search up to this solution. */
  stats: QueensStats;
}

// The options each function takes (checkOptions rejects any other key).
const SEARCH_KEYS = ['signal', 'engine'];
const COUNT_KEYS = [...SEARCH_KEYS, 'threads', 'shard', 'onProgress', 'queue', 'method', 'maxMemory'];
const SOLUTIONS_KEYS = [...SEARCH_KEYS, 'limit', 'distinct'];
const SOLVE_KEYS = [...SEARCH_KEYS, 'maxMemory'];

function searchable(problem: QueensProblem, what: string): void {
  if (problem.n > MAX_SEARCH_N) {
    const hint = problem.queens.length ? '' : '; construct(n) gives one solution of any size';
    throw badInput(`${what} works for n up to ${MAX_SEARCH_N}, got n = ${problem.n}${hint}`);
  }
}

/** The root search: each row's allowed columns, with every square a given queen attacks removed. */
function rootTask(problem: QueensProblem, engine: EngineKind): RowsTask {
  const { n, queens } = problem;
  const full = n === 32 ? 0xffffffff : 2 ** n - 1;
  const allowed = new Array<number>(n).fill(full);
  for (const q of queens) {
    for (let row = 0; row < n; row++) {
      if (row === q.row) continue;
      const d = Math.abs(row - q.row);
      let attacked = 2 ** q.col;
      if (q.col - d >= 0) attacked += 2 ** (q.col - d);
      if (q.col + d < n) attacked += 2 ** (q.col + d);
      allowed[row] = (allowed[row] & ~attacked) >>> 0;
    }
  }
  for (const q of queens) allowed[q.row] = 2 ** q.col;
  return { engine, n, mode: queens.length === 0 ? MODE_DISTINCT : MODE_ALL, allowed };
}

/**
 * Counts the solutions of an n×n board (n ≤ 32), or the completions of a board with queens.
 * On an empty board it also counts solutions up to symmetry, visiting one per class.
 */
export async function count(input: QueensInput, options: CountOptions = {}): Promise<QueensCount> {
  const started = performance.now();
  options = checkOptions(options, COUNT_KEYS, 'queens.count');
  const problem = toProblem(input);
  searchable(problem, 'counting');
  const engine = checkEngine(options.engine);
  const threads = checkThreads(options.threads);
  const shard = parseShard(options.shard);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const method = checkMethod(options.method);
  const root = rootTask(problem, engine);
  const empty = root.mode === MODE_DISTINCT;
  if (method !== undefined && !empty) {
    throw badInput('method chooses how an empty board is counted; a board with queens is searched row by row');
  }
  if (method === 'join' && problem.n > MAX_JOIN_N) {
    throw badInput(`the join counts boards up to n = ${MAX_JOIN_N}, got n = ${problem.n}; method 'constellations' counts any n up to ${MAX_SEARCH_N}`);
  }
  const n = problem.n;
  if (empty && n >= MIN_JOIN_N && n <= MAX_JOIN_N && (method === 'join' || (method === undefined && n >= JOIN_FROM))) {
    try {
      return await countByJoin(n, engine, threads, shard, maxMemory, options, started);
    } catch (error) {
      // The join needs more than maxMemory: the constellations need almost none.
      if (method !== undefined || !(error instanceof BitpuzzleError) || error.code !== 'OUT_OF_MEMORY') throw error;
    }
  }
  // On a queue even small searches are cut (as into 2 shards): parts are what the queue carries.
  const parts = partsOfShard(await splitTask(root, options.queue ? Math.max(shard.count, 2) : shard.count, options.signal, threads), shard);
  const results = await runParts(parts, engine, threads, options, options.onProgress && constellationProgress(parts, options.onProgress));
  const { total, distinct, nodes } = sumCounts(results);
  return {
    n: problem.n,
    total,
    distinct: empty ? distinct : null,
    reason: null,
    method: parts.some((part) => 'constellations' in part) ? 'constellations' : 'rows',
    shard: shard.count > 1 ? shard : null,
    stats: {
      nodes,
      milliseconds: performance.now() - started,
      threads: Math.min(threads, parts.length),
      parts: parts.length,
    },
  };
}

/** Runs a count's parts on the threads or the queue its options ask for. */
async function runParts(
  tasks: QueensTask[],
  engine: EngineKind,
  threads: number,
  options: CountOptions,
  onProgress: CountOptions['onProgress'],
): Promise<QueensTaskResult[]> {
  return runTasks({
    tasks,
    threads,
    kind: 'queens',
    queue: options.queue,
    runInline: runQueensTask,
    engineModule: engine === 'wasm' ? await loadEngineModule() : undefined,
    signal: options.signal,
    onProgress,
  });
}

/** From this n on, an empty board is counted by the join unless asked otherwise (on one thread 0.65× the constellations' time at n = 16, 1.4× at n = 15). */
const JOIN_FROM = 16;

function checkMethod(method: unknown): CountMethod | undefined {
  if (method === undefined || method === 'join' || method === 'constellations') return method;
  throw badInput(`method must be 'join' or 'constellations', got ${describeValue(method)}`);
}

/**
 * Counts an empty board by joining half-boards: parts of the join, and (for a whole count) the
 * symmetric start constellations, whose counts give the distinct solutions: by Burnside's lemma
 * distinct = (total + fixed by the half turn + 2 × fixed by the quarter turn) / 8, and every
 * solution a turn fixes has a constellation that turn fixes, so that over those constellations
 * (their classes closed under the symmetries) 8 × their distinct − their total is that sum.
 */
async function countByJoin(
  n: number,
  engine: EngineKind,
  threads: number,
  shard: Shard,
  maxMemory: number,
  options: CountOptions,
  started: number,
): Promise<QueensCount> {
  // Parts differ in cost a hundredfold: about 128 a thread keep the threads busy to the end.
  // Shards and queues cut the same way on every machine (a shard's part is the same whatever
  // the threads; a queue finds the parts of an earlier run again).
  const local = shard.count === 1 && options.queue === undefined;
  const want = local ? (n < 14 ? 1 : Math.max(16, 128 * threads)) : Math.max(256, 8 * shard.count);
  const { prefix, rows } = joinParts(n, want);
  const share = options.queue ? maxMemory : memoryShare(maxMemory, Math.min(threads, rows.length));
  const joinTasks: QueensTask[] = rows.map((mask) => ({ engine, n, join: { prefix, rows: [mask] }, maxMemory: share }));
  const symmetricTask: QueensTask = { engine, n, constellations: await symmetricConstellations(n, options.signal) };
  // The symmetric constellations are one more part (in one shard, like any other part), the
  // first: one of the longest.
  const tasks = partsOfShard([symmetricTask, ...joinTasks], shard);
  const results = await runParts(tasks, engine, threads, options, options.onProgress);
  const at = tasks.indexOf(symmetricTask);
  const { total, nodes } = sumCounts(results.filter((_, i) => i !== at));
  const symmetric = results[at];
  const whole = shard.count === 1;
  let distinct: bigint | null = null;
  if (whole) {
    const eightfold = total + 8n * symmetric.distinct - symmetric.total;
    if (eightfold < 0n || eightfold % 8n !== 0n) {
      throw new BitpuzzleError('ENGINE_FAILURE', `the join's total ${total} and the symmetric solutions disagree (${symmetric.total}, ${symmetric.distinct})`);
    }
    distinct = eightfold / 8n;
  }
  const symmetricNodes = at >= 0 ? symmetric.nodes : 0n;
  return {
    n,
    total,
    distinct,
    reason: null,
    method: 'join',
    shard: whole ? null : shard,
    stats: {
      nodes: nodes + symmetricNodes,
      milliseconds: performance.now() - started,
      threads: Math.min(threads, tasks.length),
      parts: tasks.length,
    },
  };
}

/**
 * Progress of a count by start constellations counts constellations: parts are runs of an equal
 * number of them (the last may be shorter), so `done` parts are that many runs, up to the whole.
 */
function constellationProgress(parts: QueensTask[], onProgress: (progress: Progress) => void): (progress: Progress) => void {
  const first = parts[0];
  if (first === undefined || !('constellations' in first) || parts.length === 1) return onProgress;
  const run = first.constellations.length;
  const total = parts.reduce((sum, part) => sum + ('constellations' in part ? part.constellations.length : 0), 0);
  return (progress) =>
    onProgress({
      ...progress,
      done: Math.min(total, progress.done * run),
      total,
      ...(progress.reused !== undefined && { reused: Math.min(total, progress.reused * run) }),
    });
}

/**
 * The solutions one by one, in lexicographic order of their columns (or the class
 * representatives with `distinct`). The search pauses between items. The iterator's final
 * value (with next()) is the search's stats.
 */
export async function* solutions(
  input: QueensInput,
  options: SolutionsOptions = {},
): AsyncGenerator<QueensSolution, QueensStats, undefined> {
  options = checkOptions(options, SOLUTIONS_KEYS, 'queens.solutions');
  if (options.distinct !== undefined && typeof options.distinct !== 'boolean') {
    throw badInput(`distinct must be true or false, got ${describeValue(options.distinct)}`);
  }
  return yield* withStats(search(input, options), performance.now());
}

/** The solutions; returns the nodes searched. */
async function* search(input: QueensInput, options: SolutionsOptions): AsyncGenerator<QueensSolution, bigint, undefined> {
  const problem = toProblem(input);
  searchable(problem, 'the search');
  const engineKind = checkEngine(options.engine);
  const limit = checkLimit(options.limit);
  if (options.distinct && problem.queens.length > 0) {
    throw badInput('distinct solutions are defined for the empty board only');
  }
  const task = rootTask(problem, engineKind);
  if (!options.distinct) task.mode = MODE_ALL;
  if (limit === 0) return 0n;
  // The engine is held until the iterator finishes or is closed.
  const { engine, release } = await openQueensEngine(engineKind);
  try {
    startSearch(engine, task, true);
    for (let produced = 0; produced < limit; produced++) {
      const status = checkStatus(await runSliced((budget) => engine.run(budget), options.signal), 'the N-Queens search');
      if (status === Status.DONE) break;
      yield { columns: engine.output(problem.n) };
    }
    return engine.nodes();
  } finally {
    release();
  }
}

/**
 * The first solution in lexicographic order with its stats, or null when the search finds
 * none. n > 32 uses construct() (0 nodes).
 */
export async function solve(input: QueensInput, options: SolveOptions = {}): Promise<QueensFirst | null> {
  options = checkOptions(options, SOLVE_KEYS, 'queens.solve');
  const started = performance.now();
  const problem = toProblem(input);
  if (problem.n > MAX_SEARCH_N && problem.queens.length === 0) {
    const columns = await construct(problem.n, options);
    return { columns: Array.from(columns), stats: oneThreadStats(0n, started) };
  }
  const { maxMemory, ...searchOptions } = options;
  checkMaxMemory(maxMemory);
  return firstWithStats(solutions(problem, { ...searchOptions, limit: 1 }));
}

/**
 * One solution for any n by an explicit construction (Hoffman, Loessi and Moore 1969), in
 * linear time: the column of each row. n = 2 and 3 have none: UNSOLVABLE, since that is
 * known without any search (the contract's rule; solve() returns null for them, as its
 * search finds none).
 */
export async function construct(n: number, options: SolveOptions = {}): Promise<Int32Array> {
  options = checkOptions(options, SOLVE_KEYS, 'queens.construct');
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > MAX_CONSTRUCT_N) {
    throw badInput(`n must be an integer from 1 to ${MAX_CONSTRUCT_N} (the largest board construct builds), got ${describeValue(n)}`);
  }
  const engineKind = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  throwIfAborted(options.signal);
  if (n === 2 || n === 3) throw new BitpuzzleError('UNSOLVABLE', `the ${n}×${n} board has no solution`);
  if (n === 1) return Int32Array.of(0);
  // The engine's copy and the one handed back: 4 bytes a row each, known before any work.
  if (8 * n > maxMemory) {
    throw new BitpuzzleError('OUT_OF_MEMORY', `a ${n}×${n} solution needs ${8 * n} bytes, more than maxMemory (${maxMemory} bytes)`);
  }
  if (engineKind === 'js') return (await import('./reference.js')).constructReference(n);
  const engine = await acquireEngine();
  try {
    setMemoryLimit(engine, maxMemory);
    const pointer = engine.queensConstructStart(n);
    if (pointer === 0) checkStatus(Status.OUT_OF_MEMORY, `a ${n}×${n} solution`, maxMemory);
    checkStatus(await runSliced((budget) => engine.queensConstructRun(budget), options.signal), `a ${n}×${n} solution`, maxMemory);
    // Copied out in slices too: 400 MB for n = 100,000,000.
    const columns = new Int32Array(n);
    let copied = 0;
    await runSliced((budget) => {
      const end = Math.min(n, copied + 16 * budget);
      columns.set(new Int32Array(engine.memory.buffer, pointer + 4 * copied, end - copied), copied);
      copied = end;
      return copied < n ? Status.MORE : Status.DONE;
    }, options.signal);
    return columns;
  } finally {
    releaseEngine(engine);
  }
}

/** The board picture of a solution. */
export function picture(solution: QueensSolution | ArrayLike<number>): string {
  const columns = solution !== null && typeof solution === 'object' && 'columns' in solution ? solution.columns : solution;
  return boardPicture(columns as ArrayLike<number>);
}
