// Counting work cut into independent parts. An empty board (n >= 5) is counted by start
// constellations: a part is one constellation (or, for small boards on one thread, all of
// them), most costly first; or by joining half-boards (5 <= n <= 22): a part is the decision
// of the first rows, east or west of the cut (see assembly/queens/join.ts). Other searches are cut at the live nodes a few rows down, found by
// the engine itself in split mode, each part a search with those rows fixed. Each class of
// solutions is counted in exactly one part, so the parts' sums are the whole.
import { acquireEngine, acquireEngineWithLimit, releaseEngine } from '../wasm/module.js';
import type { EngineKind } from '../wasm/options.js';
import { Status, checkStatus, runSliced, type EngineExports } from '../wasm/protocol.js';
import { constellations, MAX_CONSTELLATION_N, MIN_CONSTELLATION_N } from './constellations.js';
import { popcount32 as popcount } from '../bits.js';
import {
  MODE_ALL,
  MODE_DISTINCT,
  wasmConstellationEngine,
  wasmJoinEngine,
  wasmQueensEngine,
  type ConstellationEngine,
  type JoinEngine,
  type QueensEngine,
} from './engine.js';

/** A search of the rows below fixed ones, a list of start constellations of an empty board, or parts of a join. */
export type QueensTask = RowsTask | ConstellationsTask | JoinTask;

export interface RowsTask {
  engine: EngineKind;
  n: number;
  mode: typeof MODE_ALL | typeof MODE_DISTINCT;
  /** Allowed columns per row (u32 bit masks). */
  allowed: number[];
}

export interface ConstellationsTask {
  engine: EngineKind;
  n: number;
  /** Constellation codes (see constellations.ts), each one of its symmetry class. */
  constellations: number[];
}

export interface JoinTask {
  engine: EngineKind;
  n: number;
  join: {
    /** The rows decided by each part: 0 .. prefix-1. */
    prefix: number;
    /** Each part's east rows among them (bit r: row r), counted in turn. */
    rows: number[];
  };
  /** Most bytes the engine may use. */
  maxMemory: number;
}

export interface QueensTaskResult {
  total: bigint;
  distinct: bigint;
  nodes: bigint;
}

/** An engine of the requested kind, held until `release` is called. */
export function openQueensEngine(kind: EngineKind): Promise<{ engine: QueensEngine; release: () => void }> {
  return openEngine<QueensEngine>(kind, async () => new (await import('./reference.js')).ReferenceQueensEngine(), wasmQueensEngine);
}

/**
 * An engine of one of the queens methods: its pure-TS twin, or a pooled Wasm instance (with
 * `maxMemory` as its limit when given), held until `release` is called.
 */
async function openEngine<E>(
  kind: EngineKind,
  twin: () => Promise<E>,
  wasm: (exports: EngineExports) => E,
  maxMemory?: number,
): Promise<{ engine: E; release: () => void }> {
  // The twins are loaded when asked for (browsers then fetch them as chunks of their own).
  if (kind === 'js') return { engine: await twin(), release: () => undefined };
  const exports = maxMemory === undefined ? await acquireEngine() : await acquireEngineWithLimit(maxMemory);
  return { engine: wasm(exports), release: () => releaseEngine(exports) };
}

/** Runs `work` with an engine of the requested kind. */
export async function withQueensEngine<R>(
  kind: EngineKind,
  work: (engine: QueensEngine) => Promise<R>,
): Promise<R> {
  const { engine, release } = await openQueensEngine(kind);
  try {
    return await work(engine);
  } finally {
    release();
  }
}

export function startSearch(engine: QueensEngine, task: RowsTask, emit: boolean, split = 0): void {
  engine.setAllowed(task.allowed);
  checkStatus(engine.init(task.n, task.mode, emit, split), 'the N-Queens search');
}

/** Counts one part to the end. */
export function runQueensTask(task: QueensTask, signal?: AbortSignal): Promise<QueensTaskResult> {
  if ('constellations' in task) return runConstellationsTask(task, signal);
  if ('join' in task) return runJoinTask(task, signal);
  return withQueensEngine(task.engine, async (engine) => {
    startSearch(engine, task, false);
    const status = await runSliced((budget) => engine.run(budget), signal);
    checkStatus(status, 'the N-Queens search');
    return { total: engine.total(), distinct: engine.distinct(), nodes: engine.nodes() };
  });
}

/**
 * The first budget of a constellation part: placements cost a few nanoseconds, so 2^16 takes
 * well under the 8 ms of a slice, and most parts end in one or two calls.
 */
const FIRST_BUDGET = 1 << 16;

/** Counts a list of constellations to the end. */
async function runConstellationsTask(task: ConstellationsTask, signal?: AbortSignal): Promise<QueensTaskResult> {
  const { engine, release } = await openEngine<ConstellationEngine>(
    task.engine,
    async () => new (await import('./constellationsReference.js')).ReferenceConstellationEngine(),
    wasmConstellationEngine,
  );
  try {
    checkStatus(engine.init(task.n, task.constellations), 'the N-Queens count');
    checkStatus(await runSliced((budget) => engine.run(budget), signal, FIRST_BUDGET), 'the N-Queens count');
    return { total: engine.total(), distinct: engine.distinct(), nodes: engine.nodes() };
  } finally {
    release();
  }
}

/** Counts the parts of a join to the end (distinct is 0: the host finds it from the total, see solve.ts). */
async function runJoinTask(task: JoinTask, signal?: AbortSignal): Promise<QueensTaskResult> {
  const { engine, release } = await openEngine<JoinEngine>(
    task.engine,
    async () => new (await import('./joinReference.js')).ReferenceJoinEngine(task.maxMemory),
    wasmJoinEngine,
    task.maxMemory,
  );
  try {
    let total = 0n;
    let nodes = 0n;
    for (const rows of task.join.rows) {
      checkStatus(engine.init(task.n, task.join.prefix, rows), 'the N-Queens join', task.maxMemory);
      checkStatus(await runSliced((budget) => engine.run(budget), signal, FIRST_BUDGET), 'the N-Queens join', task.maxMemory);
      total += engine.total();
      nodes += engine.nodes();
    }
    return { total, distinct: 0n, nodes };
  } finally {
    release();
  }
}

/**
 * The parts of a join of an n×n board: every decision of rows 0 .. prefix-1 that the method
 * counts (row 0 east for even n; west, or east in the middle column, for odd n), with a prefix
 * as short as gives at least `want` parts, and at most half the board: each part builds the
 * lists of its prefix again, which costs nothing there but most of the work further down.
 */
export function joinParts(n: number, want: number): { prefix: number; rows: number[] } {
  const longest = Math.max(1, Math.ceil(n / 2));
  for (let prefix = 1; ; prefix++) {
    const rows: number[] = [];
    for (let mask = 0; mask < 2 ** prefix; mask++) {
      if ((n % 2 === 0 && (mask & 1) === 0) || !joinSidesFit(n, prefix, mask)) continue;
      rows.push(mask);
    }
    if (rows.length >= want || prefix >= longest) return { prefix, rows };
  }
}

/** Whether the first `prefix` rows, east where `rows` has a bit, fit the sides: n - n/2 columns east, n/2 west. */
export function joinSidesFit(n: number, prefix: number, rows: number): boolean {
  const east = popcount(rows);
  return east <= n - (n >> 1) && prefix - east <= n >> 1;
}

/** Below this n, a count on one thread is one part of all the constellations (milliseconds). */
const CONSTELLATION_PARTS_FROM = 15;
/**
 * From this n on, a count on one thread has one constellation a part (each takes milliseconds
 * or more, so a part's set-up is lost in it, and progress moves at every constellation); below
 * it, runs of them (one part each cost 4% of n = 16).
 */
const ONE_THREAD_SINGLE_PARTS_FROM = 18;

/** Whether a task is the whole of an empty board that constellations count. */
function byConstellations(task: RowsTask): boolean {
  const full = task.n === 32 ? 0xffffffff : 2 ** task.n - 1;
  return task.mode === MODE_DISTINCT && task.n >= MIN_CONSTELLATION_N && task.n <= MAX_CONSTELLATION_N &&
    task.allowed.every((mask) => mask >>> 0 === full);
}

/** Fewest parts a split aims for: enough to balance threads and spread over shards. */
const MIN_PARTS = 64;
/** Searches with fewer rows to fill take milliseconds: splitting them costs more than it gains. */
const MIN_ROWS_TO_SPLIT = 15;

/**
 * Cuts a search into parts: the task itself when it is small, else one part per live node
 * at the shallowest depth that gives at least max(64, 8 × shards) parts.
 */
export async function splitTask(task: RowsTask, shards: number, signal?: AbortSignal, threads = 1): Promise<QueensTask[]> {
  if (byConstellations(task)) {
    const list = await constellations(task.n, signal);
    if (task.n < CONSTELLATION_PARTS_FROM && shards === 1) return [{ engine: task.engine, n: task.n, constellations: list }];
    // Shards and queues get one constellation a part. Worker threads get runs of consecutive
    // ones (still costliest first), about 64 runs a thread: a part crosses to a thread and back,
    // which costs much more than a cheap constellation when the machine is busy. On one thread,
    // runs too, up to ONE_THREAD_SINGLE_PARTS_FROM.
    const runs = shards === 1 && (threads > 1 || task.n < ONE_THREAD_SINGLE_PARTS_FROM);
    const run = runs ? Math.max(1, Math.floor(list.length / (64 * threads))) : 1;
    const parts: QueensTask[] = [];
    for (let at = 0; at < list.length; at += run) {
      parts.push({ engine: task.engine, n: task.n, constellations: list.slice(at, at + run) });
    }
    return parts;
  }
  const freeRows = task.allowed.filter((mask) => (mask & (mask - 1)) !== 0).length;
  if (freeRows < MIN_ROWS_TO_SPLIT && shards === 1) return [task];
  const want = Math.max(MIN_PARTS, 8 * shards);
  return withQueensEngine(task.engine, async (engine) => {
    let parts: RowsTask[] = [task];
    for (let depth = 1; depth <= task.n - 2 && parts.length < want; depth++) {
      const found: RowsTask[] = [];
      startSearch(engine, task, false, depth);
      for (;;) {
        const status = checkStatus(await runSliced((budget) => engine.run(budget), signal), 'splitting');
        if (status === Status.DONE) break;
        const prefix = engine.output(depth);
        const allowed = task.allowed.slice();
        prefix.forEach((col, row) => (allowed[row] = 2 ** col));
        found.push({ ...task, allowed });
      }
      parts = found;
      if (found.length === 0) break;
    }
    return parts;
  });
}
