// Optimal solving of prepared instances (labels relabelled to goal cells, blank goal at cell 0
// where it was in a corner), one at a time or a batch per worker thread.
import { acquireEngine, instantiateEngine, loadEngineModule, releaseEngine } from '../wasm/module.js';
import type { EngineKind } from '../wasm/options.js';
import { DEFAULT_MAX_MEMORY, Status, checkStatus, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { PATTERNS, wasmOptimalEngine, type OptimalEngine } from './engine.js';
import { buildSlot, loadPatterns, slotBytes, useTables, type PatternSet } from './patterns.js';
import { acquireSharedEngine, type SharedTables } from './shared.js';

export interface OptimalInstance {
  rows: number;
  cols: number;
  /** The goal cell of the tile in each cell. */
  labels: number[];
  blankGoal: number;
}

export interface OptimalSettings {
  engine: EngineKind;
  heuristic: number;
  patterns: PatternSet | null;
  /** Tables handed over as bytes (when there is no disk cache to load them from). */
  tables?: Uint8Array[];
  /** Tables in a memory the threads share (shared.ts): the search runs on an instance over it. */
  shared?: SharedTables;
  cacheDir?: string | false;
  /** Stop after this many nodes, or this many milliseconds (per instance). */
  nodeLimit: number;
  timeLimit: number;
  maxMemory: number;
  /**
   * Stop as an iteration begins whose nodes are estimated above this (from the last two
   * iterations), so that the host goes on with it on every thread (a batch's big boards).
   */
  handOver?: number;
}

export interface OptimalResult {
  /** Engine move codes in the prepared frame, or null when stopped first. */
  codes: number[] | null;
  nodes: bigint;
  /** No solution is shorter (the length itself when solved). */
  lowerBound: number;
  milliseconds: number;
  patternMilliseconds: number;
  /**
   * Stopped for the hand-over (settings.handOver) as the iteration at `lowerBound` began:
   * `nodes` are those before it, and this the nodes of the iteration before it.
   */
  handedOver?: { lastIteration: bigint };
  /** A board that went on across the threads: how many, and the parts it took. */
  split?: { threads: number; parts: number };
}

/** An IDA* iteration begun: its bound (no solution is shorter), the nodes and milliseconds so far. */
export interface BoundProgress {
  /** The iteration's bound, in moves. */
  bound: number;
  /** Nodes searched so far. */
  nodes: bigint;
  /** Milliseconds since the search started. */
  milliseconds: number;
}

export interface OptimalBatchTask {
  settings: OptimalSettings;
  instances: OptimalInstance[];
}

// Statuses of our own: a limit stopped the search; the search stopped for the hand-over.
const STOPPED = 100;
const HANDED_OVER = 101;
/** An iteration's nodes over the last one's, where only one is known. */
export const ITERATION_GROWTH = 5;

/** The growth from an iteration of `last` nodes to one of `size`, within 2 to 20 (ITERATION_GROWTH while `last` is unknown, 0). */
export function iterationGrowth(size: number, last: number): number {
  return last > 0 ? Math.min(20, Math.max(2, size / last)) : ITERATION_GROWTH;
}

/** Runs `work` with an optimal engine of the requested kind (over the shared tables when given). */
export async function withOptimalEngine<R>(
  kind: EngineKind,
  maxMemory: number,
  work: (engine: OptimalEngine) => Promise<R>,
  shared?: SharedTables,
): Promise<R> {
  // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
  if (kind === 'js') return work((jsEngine ??= new (await import('./reference.js')).ReferenceOptimalEngine()));
  if (shared) {
    const { engine, release } = acquireSharedEngine(shared);
    try {
      return await work(engine);
    } finally {
      release();
    }
  }
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, maxMemory);
    return await work(wasmOptimalEngine(exports));
  } finally {
    releaseEngine(exports);
  }
}
// The twin keeps its tables between searches on this thread, as a Wasm instance does.
let jsEngine: OptimalEngine | undefined;

/** Makes the engine hold the tables the settings need. */
export async function preparePatterns(
  engine: OptimalEngine,
  settings: OptimalSettings,
  signal?: AbortSignal,
  onProgress?: (p: { done: number; total: number }) => void,
): Promise<number> {
  // Shared tables are in place when the engine is made.
  if (settings.heuristic !== PATTERNS || !settings.patterns || settings.shared) return 0;
  if (settings.tables && engine.loadedPatterns() !== settings.patterns.key) {
    const started = performance.now();
    useTables(engine, settings.patterns, settings.tables);
    return performance.now() - started;
  }
  const load = await loadPatterns(engine, settings.patterns, {
    cacheDir: settings.cacheDir,
    signal,
    onProgress,
    maxMemory: settings.maxMemory,
  });
  return load.milliseconds;
}

/** Solves one prepared instance on an engine that holds the tables. */
export async function searchInstance(
  engine: OptimalEngine,
  instance: OptimalInstance,
  settings: OptimalSettings,
  signal?: AbortSignal,
  onBound?: (iteration: BoundProgress) => void,
): Promise<Omit<OptimalResult, 'patternMilliseconds'>> {
  const started = performance.now();
  const slots = settings.patterns?.patterns.length ?? 0;
  const reflect = settings.patterns?.reflect ?? false;
  checkStatus(
    engine.start(instance.labels, instance.rows, instance.cols, instance.blankGoal, settings.heuristic, slots, reflect),
    'the sliding-tile search',
  );
  const deadline = started + settings.timeLimit;
  let bound = engine.bound();
  onBound?.({ bound, nodes: engine.nodes(), milliseconds: 0 });
  // The hand-over watches the iterations' sizes, the engine pausing as each begins.
  const handOver = settings.handOver ?? Infinity;
  if (Number.isFinite(handOver)) engine.pauseAtIterations();
  let iterationStart = engine.iterationNodes();
  let lastIteration = 0n;
  let handedOver: bigint | null = null;
  const status = await runSliced((budget) => {
    const nodes = Number(engine.nodes());
    if (nodes >= settings.nodeLimit || performance.now() > deadline) return STOPPED;
    const s = engine.run(Math.max(1, Math.min(budget, settings.nodeLimit - nodes)));
    if (s === Status.MORE && engine.bound() !== bound) {
      // An iteration has begun: the one before it took `size` nodes.
      bound = engine.bound();
      const start = engine.iterationNodes();
      const size = start - iterationStart;
      const growth = iterationGrowth(Number(size), Number(lastIteration));
      iterationStart = start;
      lastIteration = size;
      if (Number(size) * growth > handOver) {
        handedOver = size;
        return HANDED_OVER;
      }
      onBound?.({ bound, nodes: engine.nodes(), milliseconds: performance.now() - started });
    }
    return s;
  }, signal);
  if (handedOver !== null) {
    return {
      codes: null,
      nodes: engine.iterationNodes(),
      lowerBound: engine.bound(),
      milliseconds: performance.now() - started,
      handedOver: { lastIteration: handedOver },
    };
  }
  checkStatus(status, 'the sliding-tile search', settings.maxMemory);
  const solved = status === Status.SOLUTION;
  const codes = solved ? Array.from(engine.solution()) : null;
  return {
    codes,
    nodes: engine.nodes(),
    lowerBound: solved ? codes!.length : engine.bound(),
    milliseconds: performance.now() - started,
  };
}

/** Solves a batch of instances with the same settings (the worker task). */
export function runOptimalBatch(task: OptimalBatchTask, signal?: AbortSignal): Promise<OptimalResult[]> {
  const { settings } = task;
  return withOptimalEngine(
    settings.engine,
    settings.maxMemory ?? DEFAULT_MAX_MEMORY,
    async (engine) => {
      const patternMilliseconds = await preparePatterns(engine, settings, signal);
      const results: OptimalResult[] = [];
      for (const instance of task.instances) {
        results.push({ ...(await searchInstance(engine, instance, settings, signal)), patternMilliseconds });
      }
      return results;
    },
    settings.shared,
  );
}

/**
 * A part of one IDA* iteration of one board: the frontier nodes at `depth` numbered first …
 * first + count - 1 (count 0: none, which measures the prefix and numbers the frontier).
 */
export interface SplitTask {
  split: true;
  settings: OptimalSettings;
  instance: OptimalInstance;
  bound: number;
  depth: number;
  first: number;
  count: number;
}

export interface SplitResult {
  /** Nodes below the frontier, in range (up to the solution when one was found). */
  nodes: bigint;
  /** Nodes down to the frontier, up to the solution (the same in every part without one). */
  prefixNodes: bigint;
  /** Frontier nodes numbered up to the solution (or in all). */
  frontier: number;
  /** The least f above the bound seen (0x7fffffff: none). */
  leastCut: number;
  /** The iteration's bound (at least the root's heuristic). */
  bound: number;
  /** The first solution met, as engine moves from the root, or null. */
  codes: number[] | null;
}

/** Searches a part of one iteration (the worker task of a board's search on several threads). */
export function runSplitPart(task: SplitTask, signal?: AbortSignal): Promise<SplitResult> {
  const { settings, instance } = task;
  return withOptimalEngine(
    settings.engine,
    settings.maxMemory ?? DEFAULT_MAX_MEMORY,
    async (engine) => {
      await preparePatterns(engine, settings, signal);
      const slots = settings.patterns?.patterns.length ?? 0;
      const reflect = settings.patterns?.reflect ?? false;
      checkStatus(
        engine.start(instance.labels, instance.rows, instance.cols, instance.blankGoal, settings.heuristic, slots, reflect),
        'the sliding-tile search',
      );
      checkStatus(engine.part(task.bound, task.depth, task.first, task.count), 'the sliding-tile search');
      const status = await runSliced((budget) => engine.run(budget), signal);
      checkStatus(status, 'the sliding-tile search', settings.maxMemory);
      const solved = status === Status.SOLUTION;
      return {
        nodes: engine.nodes(),
        prefixNodes: engine.prefixNodes(),
        frontier: engine.frontier(),
        leastCut: engine.leastCut(),
        bound: engine.bound(),
        codes: solved ? Array.from(engine.solution()) : null,
      };
    },
    settings.shared,
  );
}

/** One pattern database to build (the worker task of a set's tables built on several threads). */
export interface TableTask {
  /** The table goes to `memory` at byte `at` (the tables the threads share). */
  table: { set: PatternSet; slot: number; maxMemory: number; memory: WebAssembly.Memory; at: number };
}

/**
 * Builds one slot's table in an instance of its own (its memory, the table's scratch among it,
 * goes with it) and copies it into the shared memory: no copy travels back.
 */
export async function runTableTask(task: TableTask, signal?: AbortSignal): Promise<true> {
  const { set, slot, maxMemory, memory, at } = task.table;
  const exports = instantiateEngine(await loadEngineModule());
  setMemoryLimit(exports, maxMemory);
  const engine = wasmOptimalEngine(exports);
  if (!engine.definePattern(slot, set.rows * set.cols, set.cols, set.patterns[slot], set.packed)) {
    checkStatus(Status.OUT_OF_MEMORY, `the pattern database of slot ${slot} (${slotBytes(set, slot)} bytes)`, maxMemory);
  }
  await buildSlot(engine, set, slot, { signal, maxMemory });
  const table = engine.table(slot);
  new Uint8Array(memory.buffer, at, table.length).set(table);
  return true;
}
