// The SameGame API: clear (can the board be emptied?), minLeft (the fewest blocks that must
// remain) and score (the best SameGame score found in a time budget).
import { BitpuzzleError, badInput, describeValue } from '../errors.js';
import { oneThreadStats, type SearchStats } from '../stats.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import { loadEngineModule } from '../wasm/module.js';
import { checkEngine, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { memoryShare } from '../wasm/protocol.js';
import { blocks, clickOfCell, engineCells, replay, toBoard, type Click, type SameGameBoard, type SameGameInput } from './board.js';
import { NRPA_ITERATIONS, NRPA_MAX_BEAM, runScoreTask, searchFewestLeft, type Limits, type LiveReport, type ScoreTask, type ScoreTaskResult } from './tasks.js';

/** Limits every SameGame search takes. */
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

/** Options of clear and minLeft. */
export interface SearchOptions extends SameGameOptions {
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
}

/** Options of score. */
export interface ScoreOptions extends SameGameOptions {
  /** Seed of the tie-breaks and playouts (default 1): the same seed, threads and maxNodes give the same game. */
  seed?: number;
  /** Independent runs on worker threads (default: every core), the best one winning; with nrpaShared, NRPA's top level shared by them. */
  threads?: number;
  /** Called as runs finish. */
  onProgress?: (progress: Progress) => void;
  /** Play the runs on `bitpuzzle worker` processes through this Redis queue (with maxNodes: a time budget would depend on when a worker starts). */
  queue?: QueueOption;
  /**
   * 'beam' (the Monte-Carlo beam search), 'nrpa' (nested rollout policy adaptation) or 'hybrid'
   * (the beam for up to a quarter of the budget, then NRPA from its best line). By default the beam below
   * HYBRID_FROM_SECONDS (or HYBRID_FROM_NODES a thread), the hybrid from there. Alone, the beam
   * beat NRPA at every budget measured: standard positions 5-8 with about 40 s of CPU each on one
   * thread scored 15,230 and 14,958 by the beam (two seeds), 14,298 and 14,206 by NRPA. On ten
   * held-apart random 15×15 boards at 60 s on 2 threads NRPA alone scored 1.7% more than the
   * hybrid, but not on standard positions 1-4 (docs/benchmarks.md), so the default is unchanged.
   */
  method?: ScoreMethod;
  /**
   * With method 'nrpa' or 'hybrid': the policies NRPA's top level keeps, from 1 (NRPA, the default) to
   * NRPA_MAX_BEAM = 16 (Beam NRPA, Cazenave and Teytaud 2012: each top iteration runs the level
   * below from each policy and keeps the best distinct scores among the results).
   */
  nrpaBeam?: number;
  /**
   * With method 'nrpa' or 'hybrid' on 2 threads or more (or a queue): the threads share one NRPA's
   * top level (parallel NRPA: each of its iterations is a part, run from the top level's policy,
   * and the results adapt that one policy), instead of playing independent runs whose best line
   * wins (the default). Not with nrpaBeam above 1.
   */
  nrpaShared?: boolean;
  /** A line (clicks) to start from, such as the best of an earlier run: the result scores at least as much. */
  start?: readonly Click[];
  /**
   * Called with the best line so far while the search runs (when it improves, and at least every
   * UPDATE_SECONDS) and after every round (see ROUND_SECONDS). It only reports: the search is the
   * same with or without it.
   */
  onUpdate?: (update: ScoreUpdate) => void;
}

/** How score() searches (see ScoreOptions.method). */
export type ScoreMethod = 'beam' | 'nrpa' | 'hybrid';

/** What onUpdate gets after each round. */
export interface ScoreUpdate {
  /** The best score so far (0 before any line). */
  score: number;
  /** The clicks of that line. */
  clicks: Click[];
  /** The method of the round under way ('beam' or 'nrpa'; the hybrid plays the beam, then NRPA). */
  method: ScoreMethod;
  /** Seconds since the call started. */
  seconds: number;
  /** Playouts per second over every thread in the last round. */
  playoutsPerSecond: number;
  /** NRPA: its levels, and the top level's iteration under way (of NRPA_ITERATIONS) in the best thread; the beam: 0 and 0. */
  level: number;
  /** The top level's iteration under way (NRPA; see `level`), 0 for the beam. */
  iteration: number;
  /** When the best score so far improved (seconds since the call started), over every thread and round. */
  timeline: Array<{
    /** Seconds since the call started. */
    seconds: number;
    /** The best score from then on. */
    score: number;
  }>;
}

/** Stats of a SameGame result; `nodes`: positions searched (score: over every run; parts: the runs). */
export type SameGameStats = SearchStats;

/** The answer of clear, minLeft and score: the line found and what it achieves. */
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
  /** Stats of the search. */
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
const SCORE_KEYS = [...LIMIT_KEYS, 'seed', 'threads', 'onProgress', 'queue', 'method', 'nrpaBeam', 'nrpaShared', 'start', 'onUpdate'];

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
export const BEAMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/**
 * Playouts between adaptations at level 1 of NRPA (stabilized NRPA). On positions 1-4 at 15 s
 * on 2 threads (one run each, the machine shared): 10,737 with 1, 11,290 with 4, 10,674 with 10.
 */
const NRPA_STABLE = 4;
/** The policies NRPA's top level keeps by default (1: NRPA; more: Beam NRPA). */
export const DEFAULT_NRPA_BEAM = 1;
/** The levels of NRPA (of NRPA_ITERATIONS iterations each). */
export const NRPA_LEVELS = 3;
/**
 * A time budget over this with NRPA (alone, or the hybrid's NRPA part) is played in rounds of
 * this many seconds, each round's runs starting from the best line so far (fresh policies adapted
 * to it), with or without onUpdate; the beam plays one round. The time-budget figures of
 * docs/benchmarks.md were played so.
 */
export const ROUND_SECONDS = 60;
/** The methods of score(). */
const SCORE_METHODS: readonly unknown[] = ['beam', 'nrpa', 'hybrid'];
/**
 * The hybrid's share of the budget for the beam; NRPA from its best line has the rest. Positions
 * 1-20 on one thread at 9 million beam nodes a position (two seeds): beam 74,183 and 73,917,
 * the hybrid with 0.5 74,658 and 75,930. A quarter since: on 16 random boards at 12 million
 * nodes a board on one thread (three seeds) 190,178 against 189,250 for a half, and on standard
 * positions 1-4 at 60 s on 2 threads a mean of 14,495 over 8 seeds against 14,425
 * (docs/benchmarks.md); doubling NRPA's nodes there gained 0.9%, doubling the beam's 0.1%.
 * An eighth scored 0.42% more than a quarter on those random boards, but 0.4% less on positions
 * 1-4 at 60 s (8 seeds: 14,433 against 14,495), so the share stays a quarter.
 */
export const HYBRID_BEAM_SHARE = 0.25;
/**
 * The CPU of an NRPA node (a playout, an adaptation or a policy copy) in beam nodes: on
 * positions 1-2, one thread, 3 million beam nodes took 15.2 s and 300,000 NRPA nodes 12.75 s
 * (medians of 6 pairs; so about 8. It was 16 before NRPA relisted only the groups a click
 * changed, and 9 before the beam's bitboards were stored word by word).
 */
export const NRPA_NODE_COST = 8;
/**
 * The budget (per thread) from which score() plays the hybrid by default; the beam below it,
 * where the hybrid was not measured. On 16 random boards on 2 threads (docs/benchmarks.md) the
 * hybrid beat the beam alone at 10 s (+6.7%, 15 boards higher, 1 lower) and at 20 s (+4.6%,
 * 16 higher); it was 30 s before, when nothing shorter had been measured.
 */
export const HYBRID_FROM_SECONDS = 10;
/**
 * The same for a budget of maxNodes (nodes a thread): on 16 random boards on one thread the hybrid
 * beat the beam by 3.0% at 6,000,000 nodes (13 boards higher, 3 lower) and 3.6% at 9,000,000
 * (the threshold before); at 3,000,000 by 1.5%, 8 boards higher and 7 lower, too close to call.
 */
export const HYBRID_FROM_NODES = 6_000_000;

/** The default method for these limits: the beam for short budgets, the hybrid for long ones. */
function defaultMethod(limits: Limits, threads: number): ScoreMethod {
  if (limits.maxNodes !== null) return limits.maxNodes / threads >= HYBRID_FROM_NODES ? 'hybrid' : 'beam';
  return limits.deadline !== null && limits.deadline - Date.now() >= HYBRID_FROM_SECONDS * 1000 - 50 ? 'hybrid' : 'beam';
}
/** With onUpdate, the longest time between two calls while a round runs (the best line so far, even when it has not improved). */
export const UPDATE_SECONDS = 10;

/** The clicks of `start`, checked by replaying them on the board: engine cells and their score. */
function startLine(board: SameGameBoard, start: unknown): { line: number[]; score: number } {
  if (start === undefined) return { line: [], score: -1 };
  let played;
  try {
    played = replay(board, start as Click[]);
  } catch (error) {
    if (error instanceof BitpuzzleError) throw badInput(`start: ${error.message}`);
    throw error;
  }
  const line = (start as Click[]).map((click) => (click.column - 1) * board.height + (click.row - 1));
  return { line, score: line.length === 0 ? -1 : played.score };
}

/** What onUpdate gets: the best line so far (engine cells) and how the search goes. */
function updateOf(
  board: SameGameBoard,
  method: ScoreMethod,
  started: number,
  best: { score: number; line: number[] },
  playoutsPerSecond: number,
  iteration: number,
  timeline: Array<{ seconds: number; score: number }>,
): ScoreUpdate {
  return {
    score: Math.max(best.score, 0),
    clicks: best.line.map((cell) => clickOfCell(cell, board.height)),
    method,
    seconds: (performance.now() - started) / 1000,
    playoutsPerSecond,
    level: method === 'nrpa' ? NRPA_LEVELS : 0,
    iteration,
    timeline: timeline.slice(),
  };
}

/**
 * onUpdate while a round runs: the runs post their best line about every second on a
 * BroadcastChannel (tasks.ts); each line that beats the best so far is replayed on the host
 * (a line that does not replay is ignored here; the answer is checked again at the end) and
 * reported at once, and the best so far is reported at least every UPDATE_SECONDS.
 */
function liveUpdates(board: SameGameBoard, started: number, onUpdate: (update: ScoreUpdate) => void) {
  const name = `bitpuzzle-samegame-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
  let best = { score: -1, line: [] as number[] };
  let timeline: Array<{ seconds: number; score: number }> = [];
  let roundStarted = Date.now();
  let method: ScoreMethod = 'beam';
  let lastUpdate = Date.now();
  let open = false;
  const threads = new Map<number, LiveReport>();
  // A run's report (or the host's, for parallel NRPA's top level): a better line is replayed and
  // reported at once; the best so far at least every UPDATE_SECONDS.
  const take = (report: LiveReport): void => {
    if (!open) return;
    threads.set(report.seed, report);
    let improved = false;
    if (report.score > best.score && report.line.length > 0) {
      let played;
      try {
        played = replay(board, report.line.map((cell) => clickOfCell(cell, board.height)));
      } catch {
        played = undefined;
      }
      if (played?.score === report.score) {
        best = { score: report.score, line: report.line };
        timeline.push({ seconds: (performance.now() - started) / 1000, score: best.score });
        improved = true;
      }
    }
    if (!improved && Date.now() - lastUpdate < UPDATE_SECONDS * 1000) return;
    lastUpdate = Date.now();
    let playouts = 0;
    let iteration = 0;
    let top = -Infinity;
    for (const thread of threads.values()) {
      playouts += thread.playouts;
      if (thread.score > top) [top, iteration] = [thread.score, thread.iteration];
    }
    const seconds = (Date.now() - roundStarted) / 1000;
    onUpdate(updateOf(board, method, started, best, playouts / Math.max(0.001, seconds), iteration, timeline));
  };
  if (channel) channel.onmessage = (event: MessageEvent) => take(event.data as LiveReport);
  return {
    name,
    /**
     * Parallel NRPA after a batch: the round's best line, the top level's iteration under way and the
     * playouts of its finished parts (whose own reports are dropped).
     */
    batch(score: number, line: number[], iteration: number, playouts: number) {
      threads.clear();
      take({ seed: -1, score, line, playouts, iteration });
    },
    /** A round of `roundMethod` starts from `from` (the best so far); `noted` is the timeline so far. */
    startRound(roundMethod: ScoreMethod, from: { score: number; line: number[] }, noted: Array<{ seconds: number; score: number }>) {
      method = roundMethod;
      best = from;
      // A copy: the improvements reported while the round runs are added to it (the round's end
      // notes the runs' own, to the slice).
      timeline = noted.slice();
      roundStarted = Date.now();
      threads.clear();
      open = true;
    },
    /** The round is over: its reports are late. */
    endRound() {
      open = false;
      lastUpdate = Date.now();
    },
    close: () => channel?.close(),
  };
}

/** What parallelNrpa needs besides its parts. */
interface ParallelRun {
  /** Runs a batch of parts on the threads or the queue, reporting their progress to `onProgress`. */
  runParts: (tasks: ScoreTask[], onProgress: ((progress: Progress) => void) | undefined) => Promise<ScoreTaskResult[]>;
  onProgress: ((progress: Progress) => void) | undefined;
  /** Nodes for the whole round over every thread, or null. */
  maxNodes: number | null;
  deadline: number | null;
  /** Called after each batch with the best line of the round so far, the top level's iteration and the playouts so far. */
  onBatch: ((score: number, line: number[], iteration: number, playouts: number) => void) | undefined;
}

/**
 * Parallel NRPA: the threads share one NRPA's top level, which runs here, on the host. Each of
 * its iterations is a part: a run of the level below, from the top level's policy, which the part
 * rebuilds from an empty one by adapting it toward the lines the top level has adapted toward so
 * far (a few adaptations against the part's tens of thousands of playouts). The threads run the
 * iterations in batches, one part each, all from the same policy; then each result in thread
 * order updates the top level as NRPA's would after an iteration (the best line so far, then an
 * adaptation toward it), as if the batch's iterations had been played one after the other from
 * the policy before them. Batches keep the result the same for the same seed, threads and
 * maxNodes; on 15×15 boards a part takes about a second, so a batch waits little for its slowest.
 * After NRPA_ITERATIONS iterations the top level restarts from an empty policy, as the engine's.
 * `templates` are the round's tasks, one a thread (the known line starts the top level).
 */
async function parallelNrpa(templates: ScoreTask[], run: ParallelRun): Promise<ScoreTaskResult[]> {
  const threads = templates.length;
  const known = templates[0];
  const results: ScoreTaskResult[] = [];
  let top = known.known.length > 0 ? { score: known.knownScore, line: known.known } : null;
  let above: number[][] = top ? [top.line] : [];
  let iteration = 0;
  let restarts = 0;
  let spent = 0;
  let playouts = 0;
  // The best part of the round so far (the first of equals).
  let best = { score: -1, line: [] as number[] };
  for (let batch = 0; ; batch++) {
    const left = run.maxNodes === null ? null : run.maxNodes - spent;
    // The first batch always runs (its parts stop on the limits themselves), so there is a result.
    if (batch > 0 && ((left !== null && left < threads) || (run.deadline !== null && Date.now() >= run.deadline - 5))) break;
    const tasks: ScoreTask[] = templates.map((task) => ({
      ...task,
      level: task.level - 1,
      known: [],
      knownScore: -1,
      above,
      seed: (task.seed + Math.imul(batch + 1, 0x9e3779b9)) >>> 0,
      maxNodes: left === null ? null : Math.max(1, Math.floor(left / threads)),
    }));
    const before = results.length;
    const parts = await run.runParts(tasks, run.onProgress && ((progress) => run.onProgress?.({ done: before + progress.done, total: before + progress.total })));
    for (const part of parts) {
      spent += Number(part.nodes);
      playouts += part.playouts;
      results.push({ ...part, iteration, restarts });
      if (part.score > best.score) best = part;
      if (part.line.length > 0 && (top === null || part.score >= top.score)) top = { score: part.score, line: part.line };
      if (top !== null) above = [...above, top.line];
      iteration++;
      if (iteration >= NRPA_ITERATIONS) {
        top = null;
        above = [];
        iteration = 0;
        restarts++;
      }
    }
    run.onBatch?.(best.score, best.line, iteration, playouts);
  }
  return results;
}

/**
 * The best SameGame score found within the limits: independent runs, one per thread with its
 * own seed, of the Monte-Carlo beam search (each widening its beam to fill the time or node
 * budget) or of NRPA; the best line of all.
 */
export async function score(input: SameGameInput, options: ScoreOptions = {}): Promise<SameGameResult> {
  const started = performance.now();
  options = checkOptions(options, SCORE_KEYS, 'samegame.score');
  const board = toBoard(input);
  const threads = checkThreads(options.threads);
  const seed = options.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) throw badInput(`seed must be a non-negative integer, got ${describeValue(seed)}`);
  if (options.method !== undefined && !SCORE_METHODS.includes(options.method)) throw badInput(`method must be 'beam', 'nrpa' or 'hybrid', got ${describeValue(options.method)}`);
  const nrpaBeam = options.nrpaBeam ?? DEFAULT_NRPA_BEAM;
  if (typeof nrpaBeam !== 'number' || !Number.isInteger(nrpaBeam) || nrpaBeam < 1 || nrpaBeam > NRPA_MAX_BEAM) {
    throw badInput(`nrpaBeam must be an integer from 1 to ${NRPA_MAX_BEAM}, got ${describeValue(nrpaBeam)}`);
  }
  if (options.nrpaBeam !== undefined && options.method !== 'nrpa' && options.method !== 'hybrid') throw badInput("nrpaBeam is for method 'nrpa' or 'hybrid'");
  const nrpaShared = options.nrpaShared ?? false;
  if (typeof nrpaShared !== 'boolean') throw badInput(`nrpaShared must be true or false, got ${describeValue(nrpaShared)}`);
  if (options.nrpaShared !== undefined && options.method !== 'nrpa' && options.method !== 'hybrid') throw badInput("nrpaShared is for method 'nrpa' or 'hybrid'");
  if (nrpaShared && nrpaBeam > 1) throw badInput('nrpaShared plays NRPA without a beam: give nrpaBeam 1 or leave it out');
  if (options.onUpdate !== undefined && typeof options.onUpdate !== 'function') throw badInput(`onUpdate must be a function, got ${describeValue(options.onUpdate)}`);
  const limits = limitsOf(options, Date.now());
  if (options.queue !== undefined && (limits.deadline !== null || limits.maxNodes === null)) {
    throw badInput('on a queue, give maxNodes and no time: parts wait for a worker, so a time budget would not mean the same');
  }
  const known = startLine(board, options.start);
  if (limits.deadline === null && limits.maxNodes === null) limits.deadline = Date.now() + DEFAULT_SCORE_SECONDS * 1000;
  const method: ScoreMethod = options.method ?? defaultMethod(limits, threads);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const cells = Array.from(engineCells(board));
  const engineModule = await loadEngineModule();
  // NRPA plays a long time budget in rounds, each adapting fresh policies to the best line so
  // far. The beam plays one round whatever the time: its score grows with its width
  // (positions 1-4 on one thread: 10,906, 11,689 and 12,816 at 200,000, 800,000 and 3.2 million
  // nodes a position), so one beam sized to the whole time beats several shorter ones.
  let best = { score: known.score, line: known.line };
  let nodes = 0n;
  let parts = 0;
  let optimal = false;
  const timeline: Array<{ seconds: number; score: number }> = [];
  const startedAt = Date.now();
  const live = options.onUpdate !== undefined && options.queue === undefined ? liveUpdates(board, started, options.onUpdate) : undefined;
  // NRPA nodes of the rounds so far: later rounds get what is left of the node budget.
  let nrpaSpent = 0;
  // The hybrid's beam nodes: its NRPA gets the rest of the budget.
  let beamSpent = 0;
  try {
  for (let round = 0; ; round++) {
    // The hybrid plays the beam in its first round, then NRPA from the beam's best line.
    const hybridBeam = method === 'hybrid' && round === 0;
    const roundMethod = method === 'hybrid' ? (hybridBeam ? 'beam' : 'nrpa') : method;
    const roundStarted = Date.now();
    // Parallel NRPA shares its top level between the threads, so it needs no rounds to share
    // the best line (and a round's restart would cut its top level short).
    const parallel = roundMethod === 'nrpa' && nrpaShared && (threads > 1 || options.queue !== undefined);
    const roundMs = roundMethod === 'nrpa' && !parallel ? ROUND_SECONDS * 1000 : Infinity;
    let deadline = limits.deadline === null ? null : Math.min(limits.deadline, roundStarted + roundMs);
    let maxNodes = limits.maxNodes;
    if (method === 'hybrid') {
      // maxNodes counts beam nodes: the NRPA part gets what the beam left, in NRPA nodes of
      // the same CPU.
      if (maxNodes !== null) {
        const nodes = hybridBeam ? maxNodes * HYBRID_BEAM_SHARE : (maxNodes - beamSpent) / NRPA_NODE_COST;
        maxNodes = Math.max(threads, Math.round(nodes));
      }
      if (hybridBeam && deadline !== null) deadline = roundStarted + (deadline - roundStarted) * HYBRID_BEAM_SHARE;
    }
    if (roundMethod === 'nrpa' && maxNodes !== null) {
      maxNodes -= nrpaSpent;
      if (maxNodes < threads) break;
    }
    live?.startRound(roundMethod, best, timeline);
    const tasks: ScoreTask[] = Array.from({ length: threads }, (_, i) => ({
      method: roundMethod,
      cells,
      width: board.width,
      height: board.height,
      seed: (seed + i * 0x3c6ef372 + round * 0x2545f491) >>> 0,
      deadline,
      maxNodes: maxNodes === null ? null : Math.max(1, Math.floor(maxNodes / threads)),
      beams: BEAMS,
      // The hybrid's beam ends after its big run (sized to fill its share): the narrower runs
      // after it seldom improved its line, and NRPA gets their time.
      sizedOnce: hybridBeam,
      // Odd threads' beams hold back the start board's most common colour all game, even
      // threads' the most common where each playout starts: each rule clears boards the
      // other does not (docs/benchmarks.md; random boards, hybrid on 2 threads: +0.86%).
      fixedTabu: roundMethod === 'beam' && i % 2 === 1,
      // Beam: children valued by playouts: on the standard positions this beat valuing them by
      // nested searches of level 1 on every other thread (positions 1-5 at 10 s: 15,205
      // against 14,308 for the mix), since a wider beam pays more than a better valuation.
      // The best of 3 playouts beat a single one there (3 seeds: 15,521, 16,253 and 16,361
      // against 14,926, 14,901 and 15,327), and 2, 5 or 8 (15,258, 15,126, 15,140). Since only
      // children near the beam get more than one, 5 still lost to 3 (positions 1-20 at 5 s on
      // one thread, 2 seeds: 66,501 against 68,961). NRPA: its levels.
      level: roundMethod === 'nrpa' ? NRPA_LEVELS : 0,
      // NRPA: playouts per adaptation at level 1 (NRPA_STABLE).
      playouts: roundMethod === 'nrpa' ? NRPA_STABLE : 3,
      nrpaBeam: roundMethod === 'nrpa' ? nrpaBeam : 1,
      // The threads' engines together stay within maxMemory.
      maxMemory: memoryShare(maxMemory, threads),
      known: best.line,
      knownScore: best.score,
      ...(live ? { channel: live.name } : {}),
    }));
    const runParts = (parts: ScoreTask[], onProgress: ((progress: Progress) => void) | undefined): Promise<ScoreTaskResult[]> =>
      runTasks({ tasks: parts, threads, kind: 'samegame', queue: options.queue, runInline: runScoreTask, engineModule, signal: options.signal, onProgress });
    const runs = parallel
      ? await parallelNrpa(tasks, { runParts, onProgress: options.onProgress, maxNodes, deadline, onBatch: live?.batch })
      : await runParts(tasks, options.onProgress);
    // The best run; ties go to the lowest thread, so the result does not depend on timing.
    let top = runs[0];
    for (const run of runs) if (run.score > top.score) top = run;
    if (top.score > best.score || best.line.length === 0) best = { score: top.score, line: top.line };
    // The threads' improvements in time order: each that beats every earlier one.
    const noted = runs.flatMap((run) => Array.from({ length: run.timeline.length / 2 }, (_, k) => ({ at: run.timeline[2 * k], score: run.timeline[2 * k + 1] })));
    noted.sort((a, b) => a.at - b.at);
    for (const { at, score } of noted) {
      if (timeline.length === 0 || score > timeline[timeline.length - 1].score) timeline.push({ seconds: Math.max(0, at - startedAt) / 1000, score });
    }
    const roundNodes = runs.reduce((sum, run) => sum + run.nodes, 0n);
    nodes += roundNodes;
    if (roundMethod === 'nrpa') nrpaSpent += Number(roundNodes);
    else beamSpent += Number(roundNodes);
    parts += runs.length;
    optimal ||= runs.some((run) => run.optimal);
    if (options.onUpdate) {
      const playouts = runs.reduce((sum, run) => sum + run.playouts, 0);
      live?.endRound();
      options.onUpdate(updateOf(board, roundMethod, started, best, playouts / Math.max(0.001, (Date.now() - roundStarted) / 1000), top.iteration, timeline));
    }
    if (optimal) break;
    if (hybridBeam && (limits.deadline === null || Date.now() < limits.deadline - 5)) continue;
    if (deadline === null || limits.deadline === null || Date.now() >= limits.deadline - 5) break;
    // A round that ended on its node budget leaves none for the next.
    if (maxNodes !== null && Number(roundNodes) >= maxNodes) break;
  }
  } finally {
    live?.close();
  }
  const stats = { nodes, milliseconds: performance.now() - started, threads, parts };
  return result(board, best.line, optimal, stats, { score: Math.max(best.score, 0) });
}
