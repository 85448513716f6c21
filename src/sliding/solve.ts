// The sliding-tile API: solve (optimal or constructive), solveBatch on the thread pool, and
// moves (the constructive solution as a stream of letter chunks, for boards of any size).
import { setMaxListeners } from 'node:events';
import { BitpuzzleError, badInput, throwIfAborted, describeValue, isDenseArray } from '../errors.js';
import type { SearchStats } from '../stats.js';
import { Slots, checkThreads, runTasks, warmPool, type Progress, type QueueOption } from '../parallel/pool.js';
import { acquireEngine, canShareMemory, loadEngineModule, releaseEngine } from '../wasm/module.js';
import { checkEngine, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import {
  DEFAULT_MAX_MEMORY,
  STEP_CELLS,
  Status,
  checkStatus,
  memoryShare,
  runSliced,
  runStepsSliced,
  setMemoryLimit,
  type Steps,
} from '../wasm/protocol.js';
import { CONFLICT, MANHATTAN, MAX_DEPTH as MAX_OPTIMAL_DEPTH, MAX_OPTIMAL_CELLS, PATTERNS, wasmFastEngine, type FastEngine } from './engine.js';
import { LETTERS, inverseMoves, movesToLetters, tilesMoved } from './format.js';
import {
  checkSolvableSteps,
  goalLabels,
  goalLabelsSteps,
  toBoardSteps,
  toGoalSteps,
  type Board,
  type BoardInput,
  type GoalInput,
} from './parse.js';
import { MAX_PATTERN_CELLS, MIN_PATTERN_CELLS, PDB_CHOICES, cacheDirectory, defaultPdb, loadPatterns, patternSet, tablesOf, type PdbChoice } from './patterns.js';
import { loadSharedTables } from './shared.js';
import {
  preparePatterns,
  runOptimalBatch,
  searchInstance,
  withOptimalEngine,
  type OptimalBatchTask,
  type OptimalInstance,
  type OptimalResult,
  type OptimalSettings,
  type BoundProgress,
  ITERATION_GROWTH,
  iterationGrowth,
  runSplitPart,
  type SplitResult,
  type SplitTask,
} from './tasks.js';

/** How solve works: see SlidingOptions.method. */
export type Method = 'auto' | 'optimal' | 'fast';
/** The optimal search's lower bound: Manhattan distance, with linear conflicts, or pattern databases. */
export type Heuristic = 'manhattan' | 'conflict' | 'patterns';

/** Options of solve and moves (and, less onBound and threads, of solveBatch). */
export interface SlidingOptions {
  /** The goal: 'default' (1..MN-1, blank last), 'korf' (blank first) or a board. */
  goal?: GoalInput;
  /** The size of a board given as a flat list of numbers in text. */
  size?: {
    /** Rows. */
    rows: number;
    /** Columns. */
    cols: number;
  };
  /** 'optimal' (IDA*, up to 32 cells), 'fast' (constructive, any size), or 'auto' (optimal up to 16 cells). */
  method?: Method;
  /** The optimal search's heuristic; default: pattern databases for 12 to 25 cells, else linear conflicts. */
  heuristic?: Heuristic;
  /**
   * Optimal search: stop after this many nodes or milliseconds. The result then has the lower
   * bound proved so far and the constructive solver's moves, `optimal: false` (an anytime answer).
   */
  nodeLimit?: number;
  /** Optimal search: stop after this many milliseconds (see nodeLimit). */
  timeLimit?: number;
  /**
   * The 15-puzzle's pattern databases: '7-8' (Korf & Felner's, 4 bits an entry: 288 MB in
   * memory, a build of about 700 MB once) or '6-6-3' (12 MB). Default: '7-8' in Node with the
   * Wasm engine when maxMemory allows (one copy shared by the threads where memory can be
   * shared, else a copy in each thread's share), else '6-6-3';
   * $BITPUZZLE_PDB sets another default.
   */
  pdb?: PdbChoice;
  /** Where pattern databases are cached (Node); false for none. Default: $BITPUZZLE_CACHE or ~/.cache/bitpuzzle. */
  pdbDir?: string | false;
  /** The former name of pdbDir (still taken; give one of them). */
  cacheDir?: string | false;
  /** Constructive: count the moves without keeping them (needed above 40,000 cells; moves() streams them). */
  lengthOnly?: boolean;
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** Most bytes the engines may use together (default 1 GiB, shared among threads); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
  /** While pattern databases are built: entries done and in all. In batches: instances done. */
  onProgress?: (progress: Progress) => void;
  /**
   * solve, optimal search: called as each IDA* iteration begins (seen between slices of the
   * search, so iterations of a few milliseconds may be skipped), with its bound and the nodes and
   * milliseconds so far.
   */
  onBound?: (iteration: BoundProgress) => void;
  /**
   * solve, optimal search: worker threads for the one board (default 1). Each iteration is split
   * at a fixed depth into up to 64 parts fed to the pool; nodes and moves are those of one thread.
   */
  threads?: number;
}

/** Options of solveBatch. */
export interface BatchOptions extends Omit<SlidingOptions, 'onBound' | 'threads'> {
  /** Worker threads (default: every core). */
  threads?: number;
  /** Solve on `bitpuzzle worker` processes through this Redis queue (see README); each builds its own tables. */
  queue?: QueueOption;
}

/** Stats of a sliding result; `nodes`: nodes of the optimal search (0 for the constructive solver). */
export type SlidingStats = SearchStats;

/** A solution of one board. */
export interface SlidingSolution {
  /** The board's rows. */
  rows: number;
  /** The board's columns. */
  cols: number;
  /**
   * The blank's moves as letters U D L R; null with lengthOnly. When a limit stopped the optimal
   * search, the best path found (the constructive solver's), with `optimal: false`.
   */
  moves: string | null;
  /** The tile each move slides; null with moves, and for constructive solutions of over a million moves. */
  tiles: number[] | null;
  /** The number of moves; null when no solution was found. */
  length: number | null;
  /** True when the length is proved to be the least possible (false: a limit stopped the search, or the constructive solver). */
  optimal: boolean;
  /** No solution is shorter than this (proved: the optimal search's bound, or the Manhattan distance). */
  lowerBound: number;
  /** The solver that answered: the optimal search or the constructive one. */
  method: 'optimal' | 'fast';
  /** The optimal search's heuristic; null for the constructive solver. */
  heuristic: Heuristic | null;
  /** The pattern databases' sizes ('7-8', '6-6-3', '6-6-6-6', …); null without them. */
  patterns: string | null;
  /** Time spent building or loading pattern databases (0 without them). */
  patternMilliseconds: number;
  /** Stats of the search. */
  stats: SlidingStats;
}

const HEURISTICS: Record<Heuristic, number> = { manhattan: MANHATTAN, conflict: CONFLICT, patterns: PATTERNS };
/** 'auto' solves optimally up to this many cells. */
export const AUTO_OPTIMAL_CELLS = 16;

// The options each function takes (checkOptions rejects any other key).
const SOLVE_KEYS = ['goal', 'size', 'method', 'heuristic', 'nodeLimit', 'timeLimit', 'pdb', 'pdbDir', 'cacheDir', 'lengthOnly', 'signal', 'engine', 'maxMemory', 'onProgress', 'onBound', 'threads'];
const MOVES_KEYS = SOLVE_KEYS.filter((key) => key !== 'threads');
const BATCH_KEYS = [...SOLVE_KEYS.filter((key) => key !== 'onBound'), 'queue'];

/** The entry check of solve, moves and solveBatch: the shared options, then the family's own. */
function checkSlidingOptions<T extends SlidingOptions>(options: T, keys: readonly string[], where: string): T {
  options = checkOptions(options, keys, where);
  const { method, heuristic, lengthOnly } = options;
  if (method !== undefined && method !== 'auto' && method !== 'optimal' && method !== 'fast') {
    throw badInput(`method must be 'auto', 'optimal' or 'fast', got ${describeValue(method)}`);
  }
  if (heuristic !== undefined && !Object.hasOwn(HEURISTICS, heuristic)) {
    throw badInput(`heuristic must be 'manhattan', 'conflict' or 'patterns', got ${describeValue(heuristic)}`);
  }
  if (options.pdb !== undefined && !PDB_CHOICES.includes(options.pdb)) throw badInput(`pdb must be '6-6-3' or '7-8', got ${describeValue(options.pdb)}`);
  if (options.pdb === '7-8' && options.engine === 'js') throw badInput("pdb '7-8' needs the Wasm engine (the TS twin has the 6-6-3 databases only)");
  if (options.pdbDir !== undefined && options.cacheDir !== undefined) throw badInput('give pdbDir or cacheDir (its former name), not both');
  for (const name of ['pdbDir', 'cacheDir'] as const) {
    const dir = options[name];
    if (dir !== undefined && dir !== false && (typeof dir !== 'string' || dir === '')) {
      throw badInput(`${name} must be a folder name or false, got ${describeValue(dir)}`);
    }
  }
  if (lengthOnly !== undefined && typeof lengthOnly !== 'boolean') throw badInput(`lengthOnly must be true or false, got ${describeValue(lengthOnly)}`);
  if (options.onBound !== undefined && typeof options.onBound !== 'function') throw badInput(`onBound must be a function, got ${describeValue(options.onBound)}`);
  checkLimitOption(options.nodeLimit, 'nodeLimit');
  checkLimitOption(options.timeLimit, 'timeLimit');
  return options;
}

function checkLimitOption(value: unknown, name: string): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || !(value > 0)) throw badInput(`${name} must be a positive number, got ${describeValue(value)}`);
  return value;
}

export interface Prepared {
  board: Board;
  goal: Board;
}

/**
 * Checks the board and goal. The checks are linear in the cells (about 170 ms a million):
 * they run in slices, so that a 4096×4096 board does not hold the thread.
 */
function prepare(input: BoardInput, options: SlidingOptions): Promise<Prepared> {
  return runStepsSliced(prepareSteps(input, options), options.signal);
}

function* prepareSteps(input: BoardInput, options: SlidingOptions): Steps<Prepared> {
  const board = yield* toBoardSteps(input, options.size);
  const goal = yield* toGoalSteps(options.goal, board.rows, board.cols);
  yield* checkSolvableSteps(board, goal);
  return { board, goal };
}

function chooseMethod(board: Board, options: SlidingOptions): 'optimal' | 'fast' {
  const method = options.method ?? 'auto';
  if (method !== 'auto' && method !== 'optimal' && method !== 'fast') {
    throw badInput(`method must be 'auto', 'optimal' or 'fast', got ${describeValue(method)}`);
  }
  const cells = board.rows * board.cols;
  if (method === 'optimal' && cells > MAX_OPTIMAL_CELLS) {
    throw badInput(`optimal solving takes boards of up to ${MAX_OPTIMAL_CELLS} cells; this one has ${cells} (use the fast method)`);
  }
  if (method === 'auto') return cells <= AUTO_OPTIMAL_CELLS ? 'optimal' : 'fast';
  return method;
}

// ---- optimal -------------------------------------------------------------------------

/** The board in the engine's frame: flipped so that a corner blank goal is at cell 0. */
interface Frame {
  instance: OptimalInstance;
  flipRows: boolean;
  flipCols: boolean;
}

function frameOf(board: Board, goal: Board): Frame {
  const { rows, cols } = board;
  const labels = goalLabels(board, goal);
  const blankGoal = goal.tiles.indexOf(0);
  const br = Math.floor(blankGoal / cols);
  const bc = blankGoal % cols;
  const corner = (br === 0 || br === rows - 1) && (bc === 0 || bc === cols - 1);
  const flipRows = corner && br === rows - 1;
  const flipCols = corner && bc === cols - 1;
  const flip = (c: number): number => {
    const r = Math.floor(c / cols);
    const col = c % cols;
    return (flipRows ? rows - 1 - r : r) * cols + (flipCols ? cols - 1 - col : col);
  };
  const flipped = new Array<number>(labels.length);
  for (let c = 0; c < labels.length; c++) flipped[flip(c)] = flip(labels[c]);
  return { instance: { rows, cols, labels: flipped, blankGoal: flip(blankGoal) }, flipRows, flipCols };
}

function lettersOf(codes: number[], frame: Frame): string {
  const map = [...LETTERS];
  if (frame.flipRows) [map[0], map[3]] = [map[3], map[0]];
  if (frame.flipCols) [map[1], map[2]] = [map[2], map[1]];
  return codes.map((d) => map[d]).join('');
}

/** The settings of an optimal search; `engines`: how many engines share maxMemory (threads). */
function settingsFor(board: Board, options: SlidingOptions, blankGoal: number, engines = 1): OptimalSettings {
  const cells = board.rows * board.cols;
  const name = options.heuristic ?? (cells >= MIN_PATTERN_CELLS && cells <= MAX_PATTERN_CELLS ? 'patterns' : 'conflict');
  if (!Object.hasOwn(HEURISTICS, name)) throw badInput(`heuristic must be 'manhattan', 'conflict' or 'patterns', got ${describeValue(name)}`);
  if (name === 'patterns' && cells > MAX_PATTERN_CELLS) {
    throw badInput(`pattern databases are built for boards of up to ${MAX_PATTERN_CELLS} cells; this one has ${cells}`);
  }
  const engine = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  // The 7-8 databases are the 15-puzzle's with its blank goal in a corner (cell 0 in this frame).
  const fifteen = board.rows === 4 && board.cols === 4 && blankGoal === 0;
  if (options.pdb === '7-8' && !fifteen) throw badInput(`pdb '7-8' is for the 15-puzzle (4×4) with the blank's goal in a corner`);
  // Threads that share one copy of the tables need room for one only.
  const copies = engine === 'wasm' && canShareMemory() ? 1 : engines;
  const pdb = fifteen ? (options.pdb ?? defaultPdb(engine, maxMemory, copies)) : '6-6-3';
  return {
    engine,
    heuristic: HEURISTICS[name],
    patterns: name === 'patterns' ? patternSet(board.rows, board.cols, blankGoal, pdb, engine === 'wasm') : null,
    cacheDir: options.pdbDir ?? options.cacheDir,
    nodeLimit: checkLimitOption(options.nodeLimit, 'nodeLimit'),
    timeLimit: checkLimitOption(options.timeLimit, 'timeLimit'),
    maxMemory,
  };
}

const heuristicName = (kind: number): Heuristic => (['manhattan', 'conflict', 'patterns'] as const)[kind];

function toSolution(board: Board, frame: Frame, result: OptimalResult, settings: OptimalSettings, milliseconds: number): SlidingSolution {
  const moves = result.codes ? lettersOf(result.codes, frame) : null;
  return {
    rows: board.rows,
    cols: board.cols,
    moves,
    tiles: moves === null ? null : tilesMoved(board, moves),
    length: moves === null ? null : moves.length,
    optimal: moves !== null,
    lowerBound: result.lowerBound,
    method: 'optimal',
    heuristic: heuristicName(settings.heuristic),
    patterns: settings.patterns?.name ?? null,
    patternMilliseconds: result.patternMilliseconds,
    stats: { nodes: result.nodes, milliseconds, threads: 1, parts: 1 },
  };
}

async function solveOptimal(prepared: Prepared, options: SlidingOptions): Promise<SlidingSolution> {
  const started = performance.now();
  const frame = frameOf(prepared.board, prepared.goal);
  const settings = settingsFor(prepared.board, options, frame.instance.blankGoal);
  const result = await withOptimalEngine(settings.engine, settings.maxMemory, async (engine) => {
    const patternMilliseconds = await preparePatterns(engine, settings, options.signal, options.onProgress);
    return { ...(await searchInstance(engine, frame.instance, settings, options.signal, options.onBound)), patternMilliseconds };
  });
  return anytime(prepared, toSolution(prepared.board, frame, result, settings, performance.now() - started), options);
}

/** The parity of every solution's length: that of the blank's grid distance to its goal cell. */
function lengthParity({ board, goal }: Prepared): number {
  const { cols } = board;
  const from = board.tiles.indexOf(0);
  const to = goal.tiles.indexOf(0);
  return (Math.abs(Math.floor(from / cols) - Math.floor(to / cols)) + Math.abs((from % cols) - (to % cols))) % 2;
}

/**
 * The anytime answer of an optimal search a limit stopped: the bound it proved (raised to the
 * parity every solution has) and the best path at hand, the constructive solver's (milliseconds
 * on boards this small), marked `optimal: false` unless its length meets the bound.
 */
async function anytime(prepared: Prepared, solution: SlidingSolution, options: SlidingOptions): Promise<SlidingSolution> {
  if (solution.moves !== null) return solution;
  const started = performance.now();
  const path = await solveFast(prepared, { engine: options.engine, maxMemory: options.maxMemory, signal: options.signal });
  let lowerBound = Math.max(solution.lowerBound, path.lowerBound);
  if ((lowerBound - lengthParity(prepared)) % 2 !== 0) lowerBound++;
  return {
    ...solution,
    moves: path.moves,
    tiles: path.tiles,
    length: path.length,
    optimal: path.length === lowerBound,
    lowerBound,
    stats: { ...solution.stats, milliseconds: solution.stats.milliseconds + performance.now() - started },
  };
}

// ---- constructive ----------------------------------------------------------------------

/**
 * The constructive solver's moves in chunks of letters. The engine's frame has the blank's
 * goal at the bottom-right: a goal with it elsewhere is reached through the goal with the
 * blank walked there (right, then down), and the walk undone at the end.
 */
async function* fastChunks(prepared: Prepared, options: SlidingOptions): AsyncGenerator<Uint8Array | string> {
  const { board, goal } = prepared;
  const { rows, cols } = board;
  const blankGoal = goal.tiles.indexOf(0);
  const walk = 'R'.repeat(cols - 1 - (blankGoal % cols)) + 'D'.repeat(rows - 1 - Math.floor(blankGoal / cols));
  const labels = await runStepsSliced(goalLabelsSteps(board, walk ? walkBlank(goal, walk) : goal), options.signal);
  const kind = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const exports = kind === 'wasm' ? await acquireEngine() : null;
  try {
    let engine: FastEngine;
    if (exports) {
      setMemoryLimit(exports, maxMemory);
      engine = wasmFastEngine(exports);
    } else {
      // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
      engine = new (await import('./referenceFast.js')).ReferenceFastEngine();
    }
    const view = engine.alloc(rows, cols);
    if (!view) checkStatus(Status.OUT_OF_MEMORY, `a ${cols}×${rows} board`, maxMemory);
    // Big boards: the labels go in, and the engine prepares, in slices.
    await runStepsSliced(copySteps(view!, labels), options.signal);
    checkStatus(await runSliced(() => engine.start(), options.signal), 'the constructive solver');
    for (;;) {
      let chunk: Uint8Array = new Uint8Array(0);
      const status = await runSliced(() => {
        const s = engine.run();
        chunk = engine.chunk();
        return s === Status.MORE ? STOP_CHUNK : s;
      }, options.signal);
      if (status === Status.BAD_INPUT) {
        throw new BitpuzzleError('ENGINE_FAILURE', 'the constructive solver got stuck (please report this board)');
      }
      checkStatus(status, 'the constructive solver', maxMemory);
      yield chunk;
      if (status === Status.DONE) break;
    }
    if (walk) yield inverseMoves(walk);
  } finally {
    if (exports) releaseEngine(exports);
  }
}
/** Copies `from` into `to` a piece at a time (fresh engine memory is slow to touch first). */
function* copySteps(to: Uint32Array, from: Uint32Array): Steps<void> {
  const piece = STEP_CELLS * 16;
  for (let at = 0; at < from.length; at += piece) {
    to.set(from.subarray(at, Math.min(from.length, at + piece)), at);
    yield;
  }
}

/** The checked board `goal` after the blank's moves `walk` (which stay on the board). */
function walkBlank(goal: Board, walk: string): Board {
  const { rows, cols } = goal;
  const tiles = goal.tiles.slice();
  let blank = tiles.indexOf(0);
  for (const move of walk) {
    const to = blank + (move === 'R' ? 1 : move === 'L' ? -1 : move === 'D' ? cols : -cols);
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
  }
  return { rows, cols, tiles };
}

// runSliced stops at any status but MORE: a chunk is handed out between two runs.
const STOP_CHUNK = 101;

/**
 * The constructive solution's moves (letters U D L R) in chunks, for boards of any size: a
 * 1000×1000 board needs billions of moves, which are never held at once.
 */
export async function* moves(input: BoardInput, options: SlidingOptions = {}): AsyncGenerator<string, void, undefined> {
  options = checkSlidingOptions(options, MOVES_KEYS, 'sliding.moves');
  const prepared = await prepare(input, options);
  for await (const chunk of fastChunks(prepared, options)) yield typeof chunk === 'string' ? chunk : movesToLetters(chunk);
}

/** Constructive solutions of boards with more cells come as a length or a stream, not a string. */
export const MAX_KEPT_CELLS = 40_000;
/** Longer solutions list no tiles (the letters say it all). */
const MAX_TILES_LISTED = 1_000_000;

function checkKept({ board }: Prepared, options: SlidingOptions): void {
  if (!options.lengthOnly && board.rows * board.cols > MAX_KEPT_CELLS) {
    throw badInput(`a ${board.cols}×${board.rows} solution is too long to return as one string: pass lengthOnly, or stream it with moves()`);
  }
}

async function solveFast(prepared: Prepared, options: SlidingOptions): Promise<SlidingSolution> {
  const started = performance.now();
  checkKept(prepared, options);
  let length = 0;
  const parts: string[] = [];
  for await (const chunk of fastChunks(prepared, options)) {
    length += chunk.length;
    if (!options.lengthOnly) parts.push(typeof chunk === 'string' ? chunk : movesToLetters(chunk));
  }
  const moves = options.lengthOnly ? null : parts.join('');
  const { board } = prepared;
  return {
    rows: board.rows,
    cols: board.cols,
    moves,
    tiles: moves === null || length > MAX_TILES_LISTED ? null : tilesMoved(board, moves),
    length,
    optimal: length === 0,
    lowerBound: await runStepsSliced(manhattanBoundSteps(prepared), options.signal),
    method: 'fast',
    heuristic: null,
    patterns: null,
    patternMilliseconds: 0,
    stats: { nodes: 0n, milliseconds: performance.now() - started, threads: 1, parts: 1 },
  };
}

/** The Manhattan distance of the board from the goal: no solution is shorter. */
function* manhattanBoundSteps({ board, goal }: Prepared): Steps<number> {
  const { cols } = board;
  const labels = yield* goalLabelsSteps(board, goal);
  let sum = 0;
  for (let c = 0; c < labels.length; c++) {
    if (c % STEP_CELLS === 0) yield;
    if (board.tiles[c] === 0) continue;
    const g = labels[c];
    sum += Math.abs(Math.floor(g / cols) - Math.floor(c / cols)) + Math.abs((g % cols) - (c % cols));
  }
  return sum;
}

/** A worker's share of a constructive batch: prepared boards and the options that matter there. */
export interface FastBatchTask {
  fast: true;
  options: Pick<SlidingOptions, 'engine' | 'maxMemory' | 'lengthOnly'>;
  instances: Prepared[];
}

/** Solves a share of a constructive batch, one board after another (the worker task). */
export async function runFastBatch(task: FastBatchTask, signal?: AbortSignal): Promise<SlidingSolution[]> {
  const results: SlidingSolution[] = [];
  for (const prepared of task.instances) results.push(await solveFast(prepared, { ...task.options, signal }));
  return results;
}

// ---- the API ---------------------------------------------------------------------------

/**
 * Solves a board: optimally by IDA* (boards of up to 16 cells by default; up to 32 with
 * method 'optimal'), or by the constructive solver for any size. UNSOLVABLE when the board
 * cannot reach the goal, with the reason.
 */
export async function solve(input: BoardInput, options: SlidingOptions = {}): Promise<SlidingSolution> {
  options = checkSlidingOptions(options, SOLVE_KEYS, 'sliding.solve');
  throwIfAborted(options.signal);
  const threads = options.threads === undefined ? 1 : checkThreads(options.threads);
  if (threads > 1 && options.nodeLimit !== undefined) throw badInput('nodeLimit counts the nodes of a search on one thread: with threads, give timeLimit');
  const prepared = await prepare(input, options);
  if (chooseMethod(prepared.board, options) !== 'optimal') return solveFast(prepared, options);
  return threads > 1 ? solveOptimalSplit(prepared, options, threads) : solveOptimal(prepared, options);
}

/**
 * Runs the parts of an iteration on the pool, in order, each thread taking the next part when
 * it is free (so the threads stay busy to the end). A solution found with `c` frontier nodes
 * before it makes every part whose range starts at `c` or later useless (the first solution in
 * search order has at most `c` before it): those are not started, or cancelled (undefined).
 */
async function runParts(
  tasks: SplitTask[],
  threads: number,
  engineModule: WebAssembly.Module | undefined,
  signal?: AbortSignal,
  slots?: Slots,
): Promise<Array<SplitResult | undefined>> {
  const pool = await warmPool();
  pool.allow(threads);
  const results: Array<SplitResult | undefined> = new Array(tasks.length);
  const running = new Map<number, AbortController>();
  // The caller's abort reaches every lane's part through one signal of ours that follows it,
  // which may have more than Node's default 10 listeners (one a lane) without being a leak.
  const outer = AbortSignal.any(signal ? [signal] : []);
  setMaxListeners(threads + 10, outer);
  let next = 0;
  let cutoff = Infinity;
  let failure: unknown = null;
  // One part, or false when none is left to run (or worth running); `freed` is told when its thread is free again.
  const runNext = async (freed?: () => void): Promise<boolean> => {
    if (!(failure === null && next < tasks.length && tasks[next].first < cutoff)) {
      freed?.();
      return false;
    }
    const i = next++;
    const controller = new AbortController();
    running.set(i, controller);
    try {
      const partSignal = AbortSignal.any([outer, controller.signal]);
      results[i] = await pool.run<SplitTask, SplitResult>('sliding', tasks[i], engineModule, partSignal, freed);
    } catch (error) {
      if (tasks[i].first >= cutoff && controller.signal.aborted && !signal?.aborted) return true; // useless now
      failure ??= error;
      next = tasks.length;
      for (const other of running.values()) other.abort();
      return false;
    } finally {
      running.delete(i);
    }
    const result = results[i]!;
    if (result.codes && result.frontier < cutoff) {
      cutoff = result.frontier;
      for (const [j, other] of running) if (tasks[j].first >= cutoff) other.abort();
    }
    return true;
  };
  // With `slots`, the parts take turns with other work on the same threads; a part holds its
  // slot until its thread is free (a cancelled part's thread stops a moment after the cancel).
  const lane = async (): Promise<void> => {
    for (;;) {
      await slots?.take();
      if (!(await runNext(slots?.free))) return;
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, tasks.length) }, lane));
  if (failure !== null) throw failure;
  return results;
}

/** Frontier parts of an iteration, at most (fixed: node counts and moves do not depend on the threads). */
const SPLIT_PARTS = 64;
/** Each iteration, the split depth grows until the frontier has this many nodes, the prefix this many, or it reaches the bound. */
const MIN_FRONTIER = 256;
const MAX_PREFIX = 100_000n;
const FIRST_SPLIT_DEPTH = 4;
const PREFIX_SHARE = 20;

/**
 * One board's IDA* on the thread pool. Each iteration is first walked down to the split depth
 * (a part of no frontier nodes: it numbers them, deepening the split until there are enough),
 * then the frontier is cut into ranges searched as parts by the workers, each walking the same
 * prefix. The first solution in search order wins, and the nodes counted are exactly those of
 * the search on one thread: the prefix up to it and the parts before it.
 */
async function solveOptimalSplit(prepared: Prepared, options: SlidingOptions, threads: number): Promise<SlidingSolution> {
  const started = performance.now();
  const frame = frameOf(prepared.board, prepared.goal);
  const settings = settingsFor(prepared.board, options, frame.instance.blankGoal, threads);
  let patternMilliseconds = 0;
  if (settings.patterns && settings.engine === 'wasm' && canShareMemory()) {
    // Loaded once into a memory that every thread's engine reads, this one's too.
    const loadStarted = performance.now();
    const load = await loadSharedTables(settings.patterns, { cacheDir: settings.cacheDir, signal: options.signal, onProgress: options.onProgress, maxMemory: settings.maxMemory, readers: threads, builders: threads });
    await load.verified; // a table found damaged is rebuilt before the search starts
    settings.shared = load.shared;
    patternMilliseconds = performance.now() - loadStarted;
  } else if (settings.patterns) {
    // Built (or loaded) once here; the workers read the disk cache, or get the bytes.
    const dir = await cacheDirectory(settings.cacheDir);
    patternMilliseconds = await withOptimalEngine(settings.engine, settings.maxMemory, async (engine) => {
      const load = await loadPatterns(engine, settings.patterns!, { cacheDir: settings.cacheDir, signal: options.signal, onProgress: options.onProgress, maxMemory: settings.maxMemory });
      return load.onDisk ? load.milliseconds : -1;
    });
    // Without the tables on disk, every part would carry them: one thread instead.
    if (patternMilliseconds < 0) return solveOptimal(prepared, options);
    settings.cacheDir = dir ?? false;
  }
  // The workers' engines share maxMemory (with shared tables, they allocate nothing).
  const taskSettings: OptimalSettings = { ...settings, maxMemory: memoryShare(settings.maxMemory, threads) };
  const engineModule = settings.engine === 'wasm' ? await loadEngineModule() : undefined;
  const searchStarted = performance.now();
  const deadline = Number.isFinite(settings.timeLimit) ? AbortSignal.timeout(Math.ceil(settings.timeLimit)) : undefined;
  const signal = deadline ? (options.signal ? AbortSignal.any([options.signal, deadline]) : deadline) : options.signal;
  const split: SplitSearch = { instance: frame.instance, settings, taskSettings, engineModule, threads, signal };
  const state: SplitState = { bound: 0, nodes: 1n, lastWork: 0, parts: 0 }; // the root, as on one thread
  let codes: number[] | null = null;
  try {
    codes = await searchSplit(split, state, (bound, nodes) => options.onBound?.({ bound, nodes, milliseconds: performance.now() - searchStarted }));
  } catch (error) {
    // The time limit (not the caller's signal) ends the search with the bound reached.
    if (!(deadline?.aborted && !options.signal?.aborted && error instanceof BitpuzzleError && error.code === 'ABORTED')) throw error;
  }
  const milliseconds = performance.now() - started;
  const result = { codes, nodes: state.nodes, lowerBound: codes ? codes.length : state.bound, milliseconds, patternMilliseconds };
  const solution = toSolution(prepared.board, frame, result, settings, milliseconds);
  solution.stats = { ...solution.stats, threads, parts: state.parts };
  return anytime(prepared, solution, options);
}

/** What a board's search on the thread pool needs. */
interface SplitSearch {
  instance: OptimalInstance;
  /** The probes' settings (they run here); taskSettings the workers'. */
  settings: OptimalSettings;
  taskSettings: OptimalSettings;
  engineModule: WebAssembly.Module | undefined;
  threads: number;
  signal: AbortSignal | undefined;
  /** The most parts an iteration is cut into (SPLIT_PARTS when not given). */
  maxParts?: number;
  /** Where several boards go on at once: the threads' slots that their parts share, and the probes' one (one engine here). */
  slots?: { parts: Slots; probe: Slots };
}

/** Where a board's search stands: the next iteration's bound (0: the root's), the nodes before it, the last iteration's nodes (0: unknown), the parts run. */
interface SplitState {
  bound: number;
  nodes: bigint;
  lastWork: number;
  parts: number;
}

/**
 * IDA* on the thread pool from `state` on, iteration by iteration, updating `state`: the
 * solution's moves (engine codes), or null when none is within the depth limit. `onBound`
 * hears each iteration's bound as it begins.
 */
async function searchSplit(search: SplitSearch, state: SplitState, onBound?: (bound: number, nodes: bigint) => void): Promise<number[] | null> {
  const { instance, settings, taskSettings, engineModule, threads, signal } = search;
  const probe = (task: SplitTask): Promise<SplitResult> => {
    state.parts++;
    const walk = (): Promise<SplitResult> => runSplitPart({ ...task, settings }, signal); // here, on this thread's engine: a walk of the prefix only
    return search.slots ? search.slots.probe.run(walk) : walk();
  };
  const part = (bound: number, depth: number, first: number, count: number): SplitTask => ({ split: true, settings: taskSettings, instance, bound, depth, first, count });
  let growth = ITERATION_GROWTH;
  for (;;) {
    let depth = FIRST_SPLIT_DEPTH;
    let prefix = await probe(part(state.bound, depth, 0, 0));
    while (!prefix.codes && prefix.frontier < MIN_FRONTIER && prefix.prefixNodes < MAX_PREFIX && depth < prefix.bound) {
      prefix = await probe(part(state.bound, ++depth, 0, 0));
    }
    state.bound = prefix.bound;
    onBound?.(state.bound, state.nodes);
    if (prefix.codes) {
      state.nodes += prefix.prefixNodes;
      return prefix.codes;
    }
    // Each part walks the prefix again: as many parts as keep that under 1/PREFIX_SHARE of the
    // iteration's work, estimated from the last one (the parts do not change the nodes counted).
    const estimate = state.lastWork * growth;
    const count = Math.min(prefix.frontier, search.maxParts ?? SPLIT_PARTS, Math.max(1, Math.floor(estimate / (PREFIX_SHARE * (Number(prefix.prefixNodes) + 1)))));
    const firsts = Array.from({ length: count }, (_, i) => Math.floor((i * prefix.frontier) / count));
    const tasks = firsts.map((first, i) => part(state.bound, depth, first, (firsts[i + 1] ?? prefix.frontier) - first));
    state.parts += tasks.length;
    const results = await runParts(tasks, threads, engineModule, signal, search.slots?.parts);
    // The first solution in search order: fewest frontier nodes before it, then fewest prefix nodes.
    let best = -1;
    results.forEach((r, i) => {
      const b = results[best];
      if (r?.codes && (!b || r.frontier < b.frontier || (r.frontier === b.frontier && r.prefixNodes < b.prefixNodes))) best = i;
    });
    if (best < 0) {
      const work = Number(prefix.prefixNodes + results.reduce((sum, r) => sum + r!.nodes, 0n));
      if (state.lastWork > 0) growth = iterationGrowth(work, state.lastWork);
      state.lastWork = work;
      state.nodes += prefix.prefixNodes + results.reduce((sum, r) => sum + r!.nodes, 0n);
      const next = Math.min(prefix.leastCut, ...results.map((r) => r!.leastCut));
      if (next >= MAX_OPTIMAL_DEPTH) return null; // nothing left below the depth limit
      state.bound = next;
      continue;
    }
    const solved = results[best]!;
    state.nodes += solved.prefixNodes;
    results.forEach((r, i) => {
      if (firsts[i] < solved.frontier) state.nodes += r!.nodes; // these all ran (to their end, or to the solution)
    });
    return solved.codes;
  }
}

/** The most instances a worker takes at once (smaller parts balance the threads). */
const INSTANCES_PER_TASK = 4;

/**
 * Solves many boards (one goal for all) on the thread pool, optimally or (method 'fast')
 * constructively; results in input order. Pattern databases are built once (here) and cached
 * on disk, or handed to the workers.
 */
export async function solveBatch(inputs: readonly BoardInput[], options: BatchOptions = {}): Promise<SlidingSolution[]> {
  options = checkSlidingOptions(options, BATCH_KEYS, 'sliding.solveBatch');
  if (!isDenseArray(inputs)) throw badInput(`solveBatch takes an array of boards, got ${describeValue(inputs)}`);
  throwIfAborted(options.signal);
  const threads = checkThreads(options.threads);
  if (inputs.length === 0) return [];
  const prepared: Prepared[] = [];
  for (const input of inputs) prepared.push(await prepare(input, options));
  const { rows, cols } = prepared[0].board;
  prepared.forEach(({ board }, i) => {
    if (board.rows !== rows || board.cols !== cols) throw badInput(`instance ${i + 1} is ${board.cols}×${board.rows}, the first ${cols}×${rows}`);
  });
  const workers = Math.min(threads, inputs.length);
  if ((options.method ?? 'optimal') === 'fast') {
    checkKept(prepared[0], options);
    const engine = checkEngine(options.engine);
    const perTask = options.queue ? 1 : Math.max(1, Math.min(INSTANCES_PER_TASK, Math.ceil(inputs.length / workers)));
    // The threads' engines together stay within maxMemory (a queue's workers each have their own).
    const maxMemory = options.queue
      ? checkMaxMemory(options.maxMemory)
      : memoryShare(options.maxMemory ?? DEFAULT_MAX_MEMORY, Math.min(workers, Math.ceil(inputs.length / perTask)));
    const taskOptions = { engine, maxMemory, lengthOnly: options.lengthOnly };
    const tasks: FastBatchTask[] = [];
    for (let i = 0; i < prepared.length; i += perTask) tasks.push({ fast: true, options: taskOptions, instances: prepared.slice(i, i + perTask) });
    const results = await runTasks({
      tasks,
      threads: workers,
      kind: 'sliding',
      queue: options.queue,
      runInline: runFastBatch,
      engineModule: engine === 'wasm' ? await loadEngineModule() : undefined,
      signal: options.signal,
      onProgress: options.onProgress && ((p) => options.onProgress!({ ...p, done: Math.min(inputs.length, p.done * perTask), total: inputs.length })),
    });
    return results.flat();
  }
  chooseMethod(prepared[0].board, { ...options, method: 'optimal' });
  const frames = prepared.map((p) => frameOf(p.board, p.goal));
  const settings = settingsFor(prepared[0].board, options, frames[0].instance.blankGoal, options.queue ? 1 : workers);
  if (new Set(frames.map((f) => f.instance.blankGoal)).size > 1) throw badInput('the instances of a batch share one goal');
  // Shared tables are checked against their checksums while the threads search.
  let verified: Promise<boolean> | true = true;
  if (settings.patterns && workers > 1 && !options.queue && settings.engine === 'wasm' && canShareMemory()) {
    // Loaded once into a memory that every thread's engine reads; the threads boot meanwhile.
    (await warmPool()).prestart(workers);
    const load = await loadSharedTables(settings.patterns, { cacheDir: settings.cacheDir, signal: options.signal, maxMemory: settings.maxMemory, readers: workers, builders: workers });
    settings.shared = load.shared;
    verified = load.verified;
  } else if (settings.patterns && workers > 1 && !options.queue) {
    // Build (or load) the tables once; workers read the disk cache, or get the bytes (no cache
    // folder, or one that cannot be written).
    const dir = await cacheDirectory(settings.cacheDir);
    await withOptimalEngine(settings.engine, settings.maxMemory, async (engine) => {
      const load = await loadPatterns(engine, settings.patterns!, { cacheDir: settings.cacheDir, signal: options.signal, maxMemory: settings.maxMemory });
      if (!load.onDisk) settings.tables = tablesOf(engine, settings.patterns!);
    });
    settings.cacheDir = dir ?? false;
  }
  // The threads' engines (each with its own copy of the tables, unless shared) together stay within maxMemory;
  // a queue's workers each have their own.
  const taskSettings = options.queue ? settings : { ...settings, maxMemory: memoryShare(settings.maxMemory, workers) };
  // One board a part (a part costs a message, a board up to seconds), so that the threads end
  // together; and on a queue, the same parts (and job ids) whatever the thread count.
  const tasks: OptimalBatchTask[] = frames.map((f) => ({ settings: taskSettings, instances: [f.instance] }));
  const engineModule = settings.engine === 'wasm' ? await loadEngineModule() : undefined;
  // On 8 or more local threads without limits, a board whose next iteration looks big goes on
  // across every thread (searchSplit), so that the batch's hardest boards do not end it on one.
  if (!options.queue && workers >= HAND_OVER_THREADS && !Number.isFinite(settings.nodeLimit) && !Number.isFinite(settings.timeLimit)) {
    const search = { settings, taskSettings, engineModule, threads: workers, signal: options.signal };
    const run = (): Promise<OptimalResult[]> => runBatchHandingOver(frames, search, options.onProgress);
    const [first, intact] = await Promise.all([run(), verified]);
    const results = intact ? first : await run();
    return finishBatch(prepared, frames, results, settings, options);
  }
  const run = (): Promise<OptimalResult[][]> =>
    runTasks({
      tasks,
      threads: workers,
      kind: 'sliding',
      queue: options.queue,
      runInline: runOptimalBatch,
      engineModule,
      signal: options.signal,
      onProgress: options.onProgress,
    });
  // A table found damaged was rebuilt meanwhile: the searches run again on the whole one.
  const [first, intact] = await Promise.all([run(), verified]);
  const results = intact ? first : await run();
  return finishBatch(prepared, frames, results.flat(), settings, options);
}

/** A batch's solutions from its results; boards a limit stopped get their anytime answers (a constructive solve each, milliseconds). */
async function finishBatch(prepared: Prepared[], frames: Frame[], results: OptimalResult[], settings: OptimalSettings, options: BatchOptions): Promise<SlidingSolution[]> {
  const solutions = results.map((result, i) => {
    const solution = toSolution(prepared[i].board, frames[i], result, settings, result.milliseconds);
    if (result.split) solution.stats = { ...solution.stats, ...result.split };
    return solution;
  });
  for (let i = 0; i < solutions.length; i++) solutions[i] = await anytime(prepared[i], solutions[i], options);
  return solutions;
}

/** The least nodes an iteration must be estimated to take for a batch's board to go on across the threads (about 40 ms). */
const MIN_HAND_OVER = 1 << 20;
/**
 * The fewest threads that hand boards over. Korf's 100 (6-6-3) with it took 1.04× the time on 2
 * threads (the cancelled parts, the probes; whole boards lose 1% to the tail there), and on a
 * 16-core machine 1.1× on 4 threads, 1.0× on 8 and 0.8× on 16 (two runs each).
 */
const HAND_OVER_THREADS = 8;
/** A board going on across the threads cuts an iteration into at most this many parts a thread. */
const PARTS_A_THREAD = 4;

/**
 * A batch on the thread pool, a board a part. A board whose next iteration is estimated to take
 * more than half a thread's share of the work left (the boards not finished, at the mean of
 * those finished) stops as it begins, and goes on from it across every thread (searchSplit)
 * while the other boards go on being dealt: so the batch's hardest boards do not end it on one
 * thread. The moves and nodes are those of one thread (the engine pauses as each iteration
 * begins, so a board stops with none of the iteration it hands over searched).
 */
async function runBatchHandingOver(
  frames: Frame[],
  search: Omit<SplitSearch, 'instance'>,
  onProgress?: (progress: Progress) => void,
): Promise<OptimalResult[]> {
  const { threads, engineModule } = search;
  // The first failure stops the other lanes and boards (the caller's abort too).
  const failed = new AbortController();
  const signal = search.signal ? AbortSignal.any([search.signal, failed.signal]) : failed.signal;
  setMaxListeners(frames.length + 4 * threads + 10, signal);
  const fail = (error: unknown): never => {
    failed.abort(error);
    throw error;
  };
  const pool = await warmPool();
  pool.allow(threads);
  const results: OptimalResult[] = new Array(frames.length);
  let done = 0;
  let doneNodes = 0;
  const finished = (i: number, result: OptimalResult): void => {
    results[i] = result;
    doneNodes += Number(result.nodes);
    onProgress?.({ done: ++done, total: frames.length });
  };
  // Half a thread's share of the work left, once a board has finished.
  const handOver = (): number => (done === 0 ? Infinity : Math.max(MIN_HAND_OVER, (doneNodes / done) * (frames.length - done) / threads / 2));
  const splits: Array<Promise<void>> = [];
  // The boards and the parts of those that go on across the threads share `threads` slots.
  const slots = { parts: new Slots(threads), probe: new Slots(1) };
  let next = 0;
  const goOn = async (i: number, stopped: OptimalResult): Promise<void> => {
    const started = performance.now();
    const state: SplitState = { bound: stopped.lowerBound, nodes: stopped.nodes, lastWork: Number(stopped.handedOver!.lastIteration), parts: 0 };
    const codes = await searchSplit({ ...search, signal, slots, maxParts: PARTS_A_THREAD * threads, instance: frames[i].instance }, state).catch(fail);
    const milliseconds = stopped.milliseconds + performance.now() - started;
    finished(i, { codes, nodes: state.nodes, lowerBound: codes ? codes.length : state.bound, milliseconds, patternMilliseconds: stopped.patternMilliseconds, split: { threads, parts: 1 + state.parts } });
  };
  const lane = async (): Promise<void> => {
    while (next < frames.length) {
      const i = next++;
      // The threshold as the board starts, with the latest estimate of the work left.
      const task = (): OptimalBatchTask => ({ settings: { ...search.taskSettings, handOver: handOver() }, instances: [frames[i].instance] });
      // A board holds its slot until its thread is free (after an abort, a moment later).
      await slots.parts.take();
      const [result] = await pool.run<OptimalBatchTask, OptimalResult[]>('sliding', task(), engineModule, signal, slots.parts.free).catch(fail);
      if (!result.handedOver) {
        finished(i, result);
        continue;
      }
      // The lane deals on while the board's parts join the pool's queue.
      const split = goOn(i, result);
      split.catch(() => undefined); // awaited below; failing early must not go unhandled
      splits.push(split);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(threads, frames.length) }, lane));
    await Promise.all(splits);
  } catch (error) {
    // The first error, not the abort it caused elsewhere; the caller's abort as ABORTED.
    throwIfAborted(search.signal);
    throw failed.signal.reason ?? error;
  }
  return results;
}
