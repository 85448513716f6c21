// Running the SameGame engines to a node budget or a deadline: the fewest-left search on
// the calling thread, and the beam search for score as independent runs, one per thread.
import { BitpuzzleError } from '../errors.js';
import { acquireEngine, releaseEngine } from '../wasm/module.js';
import type { EngineKind } from '../wasm/options.js';
import { DEFAULT_MAX_MEMORY, Status, checkStatus, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { wasmSameGameBeam, wasmSameGameNrpa, wasmSameGameSearch, type SameGameSearch } from './engine.js';

/** Nodes per engine call: a few milliseconds, so deadlines and aborts are prompt. */
const SLICE = 4096;
/**
 * The first call's nodes: a node of the beam search (a playout) takes up to 100 µs on a
 * 32×32 board, so runSliced's usual first budget would hold the thread 100 ms at each run's start.
 */
const FIRST_SLICE = 16;

export interface Limits {
  /** Epoch milliseconds after which the search stops, or null. */
  deadline: number | null;
  /** Nodes after which the search stops, or null. */
  maxNodes: number | null;
  signal?: AbortSignal;
}

/**
 * Runs `run(budget)` until it is done or a limit is reached; true when it finished.
 * `nodes()` is the engine's count so far.
 */
async function runToLimits(run: (budget: number) => number, nodes: () => bigint, limits: Limits, what: string, maxMemory: number, firstSlice = FIRST_SLICE): Promise<boolean> {
  let stopped = false;
  const status = await runSliced((budget) => {
    let slice = Math.min(budget, SLICE);
    if (limits.maxNodes !== null) slice = Math.min(slice, limits.maxNodes - Number(nodes()));
    // Date.now() counts whole milliseconds: the one under way counts as spent, so a budget
    // shorter than a millisecond stops before the first slice, however fast the call got here.
    if (slice <= 0 || (limits.deadline !== null && Date.now() + 1 > limits.deadline)) {
      stopped = true;
      return Status.DONE;
    }
    return run(slice);
  }, limits.signal, firstSlice);
  checkStatus(status, what, maxMemory);
  return !stopped;
}

/** Table entries (as a power of two) for a board of `cells` cells within `maxMemory`. */
function tableBits(cells: number, maxMemory: number): number {
  let bits = Math.min(20, Math.max(12, Math.ceil(Math.log2(Math.max(cells, 1))) + 10));
  while (bits > 4 && 16 * 2 ** bits > maxMemory / 2) bits--;
  return bits;
}

export interface SearchOutcome {
  /** The fewest blocks left on the best line found (`bound` when none was). */
  best: number;
  /** The line's clicks as engine cells, or null. */
  line: number[] | null;
  nodes: bigint;
  /** The search ran to the end, so `best` is proved (or no line below `bound` exists). */
  finished: boolean;
}

/** The fewest-left search for a line leaving fewer than `bound` blocks. */
export async function searchFewestLeft(
  cells: Uint8Array,
  width: number,
  height: number,
  bound: number,
  kind: EngineKind,
  limits: Limits,
  maxMemory = DEFAULT_MAX_MEMORY,
): Promise<SearchOutcome> {
  const what = 'the SameGame search';
  let engine: SameGameSearch;
  let release = (): void => undefined;
  // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
  if (kind === 'js') engine = new (await import('./reference.js')).ReferenceSameGameSearch();
  else {
    const exports = await acquireEngine();
    setMemoryLimit(exports, maxMemory);
    engine = wasmSameGameSearch(exports);
    release = () => releaseEngine(exports);
  }
  try {
    checkStatus(engine.start(cells, width, height, bound, tableBits(width * height, maxMemory)), what, maxMemory);
    const finished = await runToLimits((budget) => engine.run(budget), () => engine.nodes(), limits, what, maxMemory);
    return { best: engine.best(), line: engine.line(), nodes: engine.nodes(), finished };
  } finally {
    release();
  }
}

export interface ScoreTask {
  /** 'beam' (the Monte-Carlo beam search) or 'nrpa' (nested rollout policy adaptation). */
  method: 'beam' | 'nrpa';
  cells: number[];
  width: number;
  height: number;
  seed: number;
  deadline: number | null;
  maxNodes: number | null;
  /** Beam widths of the runs in turn; the last repeats (with new seeds) while limits allow. */
  beams: number[];
  /**
   * The beam: stop after the first run sized to fill the limits (the hybrid's beam round: the
   * narrower runs after it seldom improve its line, so NRPA gets their time).
   */
  sizedOnce?: boolean;
  /**
   * The beam: its playouts hold back the start board's most common colour all game (of
   * equals, the one in the fewest groups), rather than the most common where each starts (the
   * host gives its threads both rules).
   */
  fixedTabu?: boolean;
  /** How the beam values children: 0 one playout, 1 a nested search of level 1; NRPA: its levels (1 to 6). */
  level: number;
  /** At level 0, how many playouts value a child (the best counts). */
  playouts: number;
  /** NRPA: the policies its top level keeps (1: NRPA, more: Beam NRPA); 1 for the beam. */
  nrpaBeam: number;
  maxMemory: number;
  /** A line (engine cells) known to score `knownScore`, that the run starts from ([] and -1: none). */
  known: number[];
  knownScore: number;
  /**
   * NRPA as a part of parallel NRPA, whose top level runs on the host: the lines (engine cells)
   * the level above adapted its policy toward so far, in order. The part's top level starts from
   * that policy, runs once (no restart) and answers its best line.
   */
  above?: number[][];
  /**
   * The name of a BroadcastChannel on which the run posts a LiveReport about every
   * REPORT_MS (local runs only: the queue's parts drop it), so that a long run shows its best
   * line while it runs.
   */
  channel?: string;
}

/** What a run posts on its task's channel. */
export interface LiveReport {
  /** The task's seed (distinct for every thread of a round). */
  seed: number;
  /** The best score so far (-1: none yet) and its line (engine cells). */
  score: number;
  line: number[];
  playouts: number;
  /** NRPA: the top level's iteration under way (0 for the beam). */
  iteration: number;
}

/** How often a run posts its best line on its channel. */
const REPORT_MS = 1000;

/**
 * A function to call after each slice: every REPORT_MS it posts the run's best so far on the
 * task's channel (the line only when the score has changed since the last post).
 */
function reporter(task: ScoreTask, best: () => { score: number; line: () => number[] }, playouts: () => number, iteration: () => number): { report: () => void; close: () => void } {
  if (task.channel === undefined || typeof BroadcastChannel !== 'function') return { report: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(task.channel);
  let last = Date.now();
  let posted = -1;
  return {
    report() {
      const now = Date.now();
      if (now - last < REPORT_MS) return;
      last = now;
      const { score, line } = best();
      const report: LiveReport = { seed: task.seed, score, line: score !== posted ? line() : [], playouts: playouts(), iteration: iteration() };
      posted = score;
      channel.postMessage(report);
    },
    close: () => channel.close(),
  };
}

export interface ScoreTaskResult {
  score: number;
  /** The best line's clicks as engine cells. */
  line: number[];
  nodes: bigint;
  /** Beam runs started. */
  runs: number;
  /** A run followed every line, so `score` is the board's best. */
  optimal: boolean;
  /** Playouts played (NRPA; the beam's nodes are mostly playouts too). */
  playouts: number;
  /** NRPA: the top level's iteration under way and its restarts so far (0 for the beam). */
  iteration: number;
  restarts: number;
  /** When the best score improved: pairs of epoch milliseconds and the score then (at most MAX_TIMELINE pairs). */
  timeline: number[];
}

const MAX_TIMELINE = 256;

/**
 * Wraps a run(budget) so that each improvement of score() after a slice is noted in `timeline`
 * (and `after` is called after every slice).
 */
function noting(run: (budget: number) => number, score: () => number, timeline: number[], after: () => void): (budget: number) => number {
  let last = timeline.length > 0 ? timeline[timeline.length - 1] : -1;
  return (budget) => {
    const status = run(budget);
    after();
    const now = score();
    if (now > last) {
      last = now;
      if (timeline.length >= 2 * MAX_TIMELINE) timeline.splice(0, 2);
      timeline.push(Date.now(), now);
    }
    return status;
  };
}

/** Seeds of successive runs: distinct, deterministic, 32-bit. */
const runSeed = (seed: number, run: number): number => (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + run * 0x7f4a7c15) >>> 0;

/**
 * The widest beam a run may use: the engine's limit (its slots are u16). On a 15×15 board a
 * width takes about 2,650 nodes and 4 KiB, so a 5-minute run on bitboards reaches beyond 16,384
 * (the old cap), and 65,536 takes about 270 MB (widestBeam keeps it within maxMemory).
 */
const MAX_BEAM = 65536;

/**
 * The share of what is left of the limits that the next run is sized to take (the cost of a
 * run grows about linearly with its width): runs that end with a margin to spare, so the
 * time goes to runs that finish rather than to one cut off half-way.
 */
const FILL = 0.85;

/**
 * The widest beam whose buffers (two boards with their lines and a history entry per layer,
 * per position, and the table of children; see assembly/samegame/beam.ts) take at most half of `maxMemory`.
 */
function widestBeam(width: number, height: number, maxMemory: number): number {
  const cells = width * height;
  const layers = Math.floor(cells / 2) + 2;
  const slot = 72 + cells + 8 + 2 * layers + 16;
  // The table of children valued in a layer takes up to 2 KiB per position of the beam.
  const perPosition = 2 * slot + 8 * layers + 96 + 2048;
  return Math.max(1, Math.min(MAX_BEAM, Math.floor(maxMemory / 2 / perPosition)));
}

/**
 * Beam runs of widening width until a limit is reached, each starting from the best line
 * found before it; the best line of them all. The widths follow `beams` until a run is long
 * enough to time: then each next width is chosen to fill what is left of the limits.
 */
export function runScoreTask(task: ScoreTask, signal?: AbortSignal): Promise<ScoreTaskResult> {
  return task.method === 'nrpa' ? runNrpaTask(task, signal) : runBeamTask(task, signal);
}

/**
 * The policy table of NRPA: 2^bits f32 weights per table, at most an eighth of maxMemory in
 * all: a table per level, and with a beam of B policies 2B more (the beam and the next one).
 */
function policyBits(levels: number, beam: number, maxMemory: number): number {
  const tables = levels + (beam > 1 ? 2 * beam : 0);
  let bits = 18;
  while (bits > 10 && tables * 4 * 2 ** bits > maxMemory / 8) bits--;
  return bits;
}

/** The most policies Beam NRPA keeps (the engine's MAX_BEAM). */
export const NRPA_MAX_BEAM = 16;

/** Iterations per level of NRPA (Rosin's N). */
export const NRPA_ITERATIONS = 100;

/** NRPA from the known line (if any) until a limit is reached; its best line. */
async function runNrpaTask(task: ScoreTask, signal?: AbortSignal): Promise<ScoreTaskResult> {
  const what = 'the SameGame NRPA search';
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, task.maxMemory);
    const nrpa = wasmSameGameNrpa(exports);
    const bits = policyBits(task.level, task.nrpaBeam, task.maxMemory);
    checkStatus(nrpa.start(Uint8Array.from(task.cells), task.width, task.height, task.level, NRPA_ITERATIONS, task.playouts, bits, task.seed, task.known, task.knownScore, task.nrpaBeam), what, task.maxMemory);
    if (task.above !== undefined) {
      task.above.forEach((line, i) => {
        // A part from outside may carry any cells: a line that hits no group is its error, not the engine's.
        const status = nrpa.adapt(line);
        if (status === Status.BAD_INPUT) throw new BitpuzzleError('BAD_INPUT', `above[${i}]: a click of the line hits no group`);
        checkStatus(status, what, task.maxMemory);
      });
      nrpa.once();
    }
    const limits: Limits = { deadline: task.deadline, maxNodes: task.maxNodes, signal };
    if (limits.deadline === null && limits.maxNodes === null) throw new BitpuzzleError('BAD_INPUT', 'NRPA needs a time or node budget');
    const timeline: number[] = [];
    const live = reporter(task, () => ({ score: nrpa.score(), line: () => nrpa.line() }), () => Number(nrpa.playouts()), () => nrpa.iteration());
    try {
      // One node first: a playout on a 32×32 board takes milliseconds.
      await runToLimits(noting((budget) => nrpa.run(budget), () => nrpa.score(), timeline, live.report), () => nrpa.nodes(), limits, what, task.maxMemory, 1);
    } finally {
      live.close();
    }
    const score = nrpa.score();
    return {
      score: Math.max(score, 0),
      line: score < 0 ? [] : nrpa.line(),
      nodes: nrpa.nodes(),
      runs: nrpa.restarts() + 1,
      optimal: false,
      playouts: Number(nrpa.playouts()),
      iteration: nrpa.iteration(),
      restarts: nrpa.restarts(),
      timeline,
    };
  } finally {
    releaseEngine(exports);
  }
}

async function runBeamTask(task: ScoreTask, signal?: AbortSignal): Promise<ScoreTaskResult> {
  const what = 'the SameGame beam search';
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, task.maxMemory);
    const beam = wasmSameGameBeam(exports);
    const cells = Uint8Array.from(task.cells);
    let best = { score: task.known.length > 0 ? task.knownScore : -1, line: task.known };
    let spent = 0n;
    const widest = widestBeam(task.width, task.height, task.maxMemory);
    let width = Math.min(widest, task.beams[0]);
    // A run is timed once it takes MEASURE_SHARE of the budget (and at least MEASURABLE_MS or
    // MEASURABLE_NODES): a run's fixed costs make narrow runs dearer per width, and the big run
    // sized from them would end early, leaving its time to narrower ones.
    const taskStarted = Date.now();
    const measurableMs = task.deadline === null ? MEASURABLE_MS : Math.max(MEASURABLE_MS, MEASURE_SHARE * (task.deadline - taskStarted));
    const measurableNodes = task.maxNodes === null ? MEASURABLE_NODES : Math.max(MEASURABLE_NODES, MEASURE_SHARE * task.maxNodes);
    const timeline: number[] = [];
    let msPerWidth: number | null = null;
    let nodesPerWidth: number | null = null;
    // Whether the run under way was sized to fill what was left of the limits.
    let sized = false;
    // The best so far: of the runs before, or of the run under way (whose line is read mid-run).
    const live = reporter(
      task,
      () => (beam.score() > best.score ? { score: beam.score(), line: () => beam.line() } : { score: best.score, line: () => best.line }),
      () => Number(spent + beam.nodes()),
      () => 0,
    );
    try {
      for (let run = 0; ; run++) {
        const seed = runSeed(task.seed, run);
        const runStarted = Date.now();
        const nodesBefore = spent;
        checkStatus(beam.start(cells, task.width, task.height, width, seed, task.level, task.playouts, best.line, best.score, task.fixedTabu === true), what, task.maxMemory);
        const limits: Limits = {
          deadline: task.deadline,
          maxNodes: task.maxNodes === null ? null : task.maxNodes - Number(spent),
          signal,
        };
        const finished = await runToLimits(noting((budget) => beam.run(budget), () => Math.max(beam.score(), best.score), timeline, live.report), () => beam.nodes(), limits, what, task.maxMemory);
        spent += beam.nodes();
        // A stopped run's finished lines are real games too.
        if (beam.score() > best.score) best = { score: beam.score(), line: beam.line() };
        const optimal = beam.complete();
        const last = task.deadline === null && task.maxNodes === null && run + 1 >= task.beams.length;
        // Stopped before any line was found: no clicks at all is the best line known (score 0).
        const counts = { nodes: spent, runs: run + 1, playouts: Number(spent), iteration: 0, restarts: 0, timeline };
        if (!finished && best.score < 0) return { score: 0, line: [], ...counts, optimal: false };
        if (!finished || optimal || last || (sized && task.sizedOnce === true)) return { ...best, ...counts, optimal };
        if (best.score < 0) throw new BitpuzzleError('ENGINE_FAILURE', `${what} finished without a line`);
        // The cost of a width unit, from the last run long enough to measure (start-up costs
        // dominate shorter ones).
        const took = Date.now() - runStarted;
        const used = Number(spent - nodesBefore);
        if (took >= measurableMs) msPerWidth = took / width;
        if (used >= measurableNodes) nodesPerWidth = used / width;
        // Until a run can be measured the widths follow `beams`; then each run is sized to fit
        // what is left of the limits.
        const affordable: number[] = [];
        if (task.deadline !== null && msPerWidth !== null) affordable.push((task.deadline - Date.now()) / msPerWidth);
        if (task.maxNodes !== null && nodesPerWidth !== null) affordable.push((task.maxNodes - Number(spent)) / nodesPerWidth);
        if (affordable.length === 0) width = Math.min(widest, run + 1 < task.beams.length ? task.beams[run + 1] : width * 2);
        else {
          width = Math.min(widest, Math.floor(FILL * Math.min(...affordable)));
          sized = true;
        }
        if (width < 1) return { ...best, ...counts, optimal: false };
      }
    } finally {
      live.close();
    }
  } finally {
    releaseEngine(exports);
  }
}

/** A run shorter than these is not timed (its start-up costs would dominate). */
const MEASURABLE_MS = 200;
const MEASURABLE_NODES = 50_000;
/**
 * Position 1 of the standard set, 150 s on one thread (load 7-10): sized from a run of width 32
 * (0.4 s, 14.4 ms a width), the big run of width 8,782 took 88 s (10 ms a width), not the 127 s
 * planned; sized from a run of width 128 (1.7 s), one of width 9,298 took 112 s of 125 planned.
 */
const MEASURE_SHARE = 0.01;
