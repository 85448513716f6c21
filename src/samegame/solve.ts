// The SameGame API: clear (can the board be emptied?), minLeft (the fewest blocks that must
// remain) and score (the best SameGame score found in a time budget).
import { BitpuzzleError, badInput, describeValue } from '../errors.js';
import { oneThreadStats, type SearchStats } from '../stats.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import { loadEngineModule } from '../wasm/module.js';
import { checkEngine, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { memoryShare } from '../wasm/protocol.js';
import { blocks, clickOfCell, engineCells, replay, toBoard, type Click, type SameGameBoard, type SameGameInput } from './board.js';
import { runScoreTask, searchFewestLeft, type Limits, type ScoreTask } from './tasks.js';

export interface SameGameOptions {
  /** Stops the work; the promise rejects with code ABORTED. */
  signal?: AbortSignal;
  /** Stop after this many seconds with the best found so far (not proved). */
  time?: number;
  /** Stop after this many nodes (positions searched) with the best found so far. */
  maxNodes?: number;
  /** The most memory (bytes) the engine instance may grow to. */
  maxMemory?: number;
}

export interface SearchOptions extends SameGameOptions {
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
}

export interface ScoreOptions extends SameGameOptions {
  /** Seed of the tie-breaks and playouts (default 1): the same seed, threads and maxNodes give the same game. */
  seed?: number;
  /** Independent runs on worker threads (default: every core); the best one wins. */
  threads?: number;
  /** Called as runs finish. */
  onProgress?: (progress: Progress) => void;
  /** Play the runs on `bitpuzzle worker` processes through this Redis queue (with maxNodes: a time budget would depend on when a worker starts). */
  queue?: QueueOption;
}

/** Stats of a SameGame result; `nodes`: positions searched (score: over every run; parts: the runs). */
export type SameGameStats = SearchStats;

export interface SameGameResult {
  /** The clicks of the line found, in order. */
  clicks: Click[];
  /** Blocks left after the clicks. */
  left: number;
  /** True when the clicks empty the board. */
  cleared: boolean;
  /** The SameGame score of the clicks: (n − 2)² per group of n, plus 1000 for clearing. */
  score: number;
  /**
   * clear: the answer (cleared or not) is proved; minLeft: `left` is the fewest possible;
   * score: `score` is the best possible (only when the search could follow every line).
   */
  proved: boolean;
  /** The board after each click. */
  boards: SameGameBoard[];
  stats: SameGameStats;
}

/** A positive number option, or null when it is not given. */
function checkPositive(value: unknown, name: string): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw badInput(`${name} must be a positive number, got ${describeValue(value)}`);
  }
  return value;
}

function limitsOf(options: SameGameOptions, started: number): Limits {
  const time = checkPositive(options.time, 'time');
  const maxNodes = checkPositive(options.maxNodes, 'maxNodes');
  if (maxNodes !== null && !Number.isSafeInteger(maxNodes)) throw badInput(`maxNodes must be an integer, got ${maxNodes}`);
  return { deadline: time === null ? null : started + time * 1000, maxNodes, signal: options.signal };
}

/** The result of a line given as engine cells, checked by replaying it on the host. */
function result(board: SameGameBoard, line: number[], proved: boolean, stats: SameGameStats, expect: { left?: number; score?: number }): SameGameResult {
  const clicks = line.map((cell) => clickOfCell(cell, board.height));
  const played = replay(board, clicks);
  if ((expect.left !== undefined && played.left !== expect.left) || (expect.score !== undefined && played.score !== expect.score)) {
    throw new BitpuzzleError('ENGINE_FAILURE', 'the engine returned a line that does not replay to its result');
  }
  return { clicks, left: played.left, cleared: played.left === 0, score: played.score, proved, boards: played.boards, stats };
}

// The options each function takes (checkOptions rejects any other key).
const LIMIT_KEYS = ['signal', 'time', 'maxNodes', 'maxMemory'];
const SEARCH_KEYS = [...LIMIT_KEYS, 'engine'];
const SCORE_KEYS = [...LIMIT_KEYS, 'seed', 'threads', 'onProgress', 'queue'];

async function fewestLeft(input: SameGameInput, options: SearchOptions, clearOnly: boolean): Promise<SameGameResult> {
  const started = performance.now();
  options = checkOptions(options, SEARCH_KEYS, clearOnly ? 'samegame.clear' : 'samegame.minLeft');
  const board = toBoard(input);
  const kind = checkEngine(options.engine);
  const limits = limitsOf(options, Date.now());
  const maxMemory = checkMaxMemory(options.maxMemory);
  const total = blocks(board);
  // Clear: only a line leaving 0 counts. Fewest left: any line beats leaving them all + 1.
  const bound = clearOnly ? 1 : total + 1;
  const outcome = await searchFewestLeft(engineCells(board), board.width, board.height, bound, kind, limits, maxMemory);
  const stats = oneThreadStats(outcome.nodes, started);
  const found = outcome.line !== null;
  // A clear is its own proof; otherwise only a finished search proves anything.
  const proved = outcome.finished || (found && outcome.best === 0);
  return result(board, outcome.line ?? [], proved, stats, found ? { left: outcome.best } : {});
}

/** Decides whether the board can be cleared: the clicks that do it, or a proof that none do. */
export function clear(input: SameGameInput, options: SearchOptions = {}): Promise<SameGameResult> {
  return fewestLeft(input, options, true);
}

/** The fewest blocks that must remain, with clicks that leave that many (proved unless a limit stopped it). */
export function minLeft(input: SameGameInput, options: SearchOptions = {}): Promise<SameGameResult> {
  return fewestLeft(input, options, false);
}

/** Default seconds for score() when neither time nor maxNodes is given. */
export const DEFAULT_SCORE_SECONDS = 10;
/** Beam widths of the first runs, until one is long enough to time (see runScoreTask). */
const BEAMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/**
 * The best SameGame score found within the limits: independent runs of a Monte-Carlo beam
 * search valued by the best of 3 playouts, one per thread with its own seed, each widening its beam
 * to fill the time or node budget; the best line of all.
 */
export async function score(input: SameGameInput, options: ScoreOptions = {}): Promise<SameGameResult> {
  const started = performance.now();
  options = checkOptions(options, SCORE_KEYS, 'samegame.score');
  const board = toBoard(input);
  const threads = checkThreads(options.threads);
  const seed = options.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) throw badInput(`seed must be a non-negative integer, got ${describeValue(seed)}`);
  const limits = limitsOf(options, Date.now());
  if (options.queue !== undefined && (limits.deadline !== null || limits.maxNodes === null)) {
    throw badInput('on a queue, give maxNodes and no time: parts wait for a worker, so a time budget would not mean the same');
  }
  if (limits.deadline === null && limits.maxNodes === null) limits.deadline = Date.now() + DEFAULT_SCORE_SECONDS * 1000;
  const maxMemory = checkMaxMemory(options.maxMemory);
  const cells = Array.from(engineCells(board));
  const tasks: ScoreTask[] = Array.from({ length: threads }, (_, i) => ({
    cells,
    width: board.width,
    height: board.height,
    seed: (seed + i * 0x3c6ef372) >>> 0,
    deadline: limits.deadline,
    maxNodes: limits.maxNodes === null ? null : Math.max(1, Math.floor(limits.maxNodes / threads)),
    beams: BEAMS,
    // Children valued by playouts: on the standard positions this beat valuing them by
    // nested searches of level 1 on every other thread (positions 1-5 at 10 s: 15,205
    // against 14,308 for the mix), since a wider beam pays more than a better valuation.
    // The best of 3 playouts beat a single one there (3 seeds: 15,521, 16,253 and 16,361
    // against 14,926, 14,901 and 15,327), and 2, 5 or 8 (15,258, 15,126, 15,140). Since only
    // children near the beam get more than one, 5 still lost to 3 (positions 1-20 at 5 s on
    // one thread, 2 seeds: 66,501 against 68,961).
    level: 0,
    playouts: 3,
    // The threads' engines together stay within maxMemory.
    maxMemory: memoryShare(maxMemory, threads),
  }));
  const runs = await runTasks({
    tasks,
    threads,
    kind: 'samegame',
    queue: options.queue,
    runInline: runScoreTask,
    engineModule: await loadEngineModule(),
    signal: options.signal,
    onProgress: options.onProgress,
  });
  // The best run; ties go to the lowest thread, so the result does not depend on timing.
  let best = runs[0];
  for (const run of runs) if (run.score > best.score) best = run;
  const nodes = runs.reduce((sum, run) => sum + run.nodes, 0n);
  const stats = { nodes, milliseconds: performance.now() - started, threads, parts: runs.length };
  return result(board, best.line, runs.some((run) => run.optimal), stats, { score: best.score });
}
