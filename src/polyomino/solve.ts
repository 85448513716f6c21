// The polyomino tiling API: count, solve, solutions (an async iterator).
import { checkThreads, runTasks, sumCounts, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { loadEngineModule } from '../wasm/module.js';
import { checkEngine, checkLimit, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { Status, checkStatus, memoryShare, runSliced } from '../wasm/protocol.js';
import { checkPrepared, prepareSliced, type PolyominoProblem, type Prepared } from './problem.js';
import { badInput, describeValue } from '../errors.js';
import { countWithin, openTilingEngine, runTilingTask, splitParts, startPart, type TilingTaskResult } from './tasks.js';
import type { Cell } from './shapes.js';
import { BitpuzzleError } from '../errors.js';
import { firstWithStats, withStats, type SearchStats } from '../stats.js';

/** Options of polyomino.solve, and the base of the other functions' options. */
export interface TilingOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** The most memory one engine instance may use, in bytes (default 1 GiB). */
  maxMemory?: number;
}

/** Options of polyomino.count. */
export interface TilingCountOptions extends TilingOptions {
  /** Worker threads (default: every core). Small problems run on the calling thread. */
  threads?: number;
  /** Only this part of the work: `{ index, count }` (index from 1) or "k/n". */
  shard?: Shard | string;
  /** Called with the parts done so far and in all. */
  onProgress?: (progress: Progress) => void;
  /** Run the parts on `bitpuzzle worker` processes through this Redis queue (see README). */
  queue?: QueueOption;
}

/** Options of polyomino.solutions. */
export interface TilingSolutionsOptions extends TilingOptions {
  /** Stop after this many solutions. */
  limit?: number;
  /** One solution per class of the problem's symmetries. */
  distinct?: boolean;
}

/** Stats of a tiling result; `nodes` counts placements made by the search (any thread count gives the same). */
export type TilingStats = SearchStats;

/** The answer of polyomino.count. */
export interface TilingCount {
  /** Every solution (every way to place the pieces). */
  total: bigint;
  /**
   * Solutions up to the symmetries of the problem (rotations and reflections of the region that
   * keep the piece set; in space, when the pieces are not the mirror images of each other, the
   * rotations only).
   */
  distinct: bigint;
  /** How many symmetries the problem has (1: none but the identity). */
  symmetries: number;
  /** Why there is no solution, when that is known without a search; otherwise null. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  /** Stats of the count. */
  stats: TilingStats;
}

/** A piece as a solution places it. */
export interface PlacedPiece {
  /** The piece's name. */
  piece: string;
  /** Which of the piece's fixed shapes (index into `orientations`). */
  orientation: number;
  /** [x, y] of each cell, x from the left and y from the top, 0-based; in space [x, y, z], z the layer from the top. */
  cells: Cell[];
}

/** One tiling. */
export interface TilingSolution {
  /** The region's width (columns of the box around its cells). */
  width: number;
  /** The region's height (rows of the box around its cells). */
  height: number;
  /** The layers of a region in space (absent on a plane). */
  depth?: number;
  /** The pieces, in the order the search placed them. */
  pieces: PlacedPiece[];
}

/** The first solution, with the stats of the search that found it. */
export interface TilingFirst extends TilingSolution {
  /** Stats of the search up to this solution. */
  stats: TilingStats;
}

// The options each function takes (checkOptions rejects any other key).
const SOLVE_KEYS = ['signal', 'engine', 'maxMemory'];
const COUNT_KEYS = [...SOLVE_KEYS, 'threads', 'shard', 'onProgress', 'queue'];
const SOLUTIONS_KEYS = [...SOLVE_KEYS, 'limit', 'distinct'];

/** Placements a threaded count makes on the calling thread before it starts a pool (~0.3 s). */
const TRIAL_NODES = 4_000_000;

/** Counts the solutions, and the distinct ones up to the problem's symmetries. */
export async function count(problem: PolyominoProblem, options: TilingCountOptions = {}): Promise<TilingCount> {
  const started = performance.now();
  options = checkOptions(options, COUNT_KEYS, 'polyomino.count');
  const prepared = await prepareSliced(problem, options.signal);
  const engine = checkEngine(options.engine);
  const threads = checkThreads(options.threads);
  const shard = parseShard(options.shard);
  const maxMemory = checkMaxMemory(options.maxMemory);
  const base = { engine, spec: prepared.spec, maxMemory };
  // With threads, a count first runs on this thread for a moment: small problems finish
  // before a pool would have started. What is left is cut into parts for the pool.
  let done: TilingTaskResult[] = [];
  let rest = prepared.reason ? [] : prepared.parts;
  if (threads > 1 && shard.count === 1 && rest.length > 0) {
    ({ done, rest } = await countWithin(base, rest, TRIAL_NODES, options.signal));
  }
  const cut = rest.length > 0 && (threads > 1 || shard.count > 1 || options.queue !== undefined);
  let splitNodes = 0n;
  let split = rest;
  if (cut) ({ parts: split, nodes: splitNodes } = await splitParts(base, rest, shard.count, options.signal));
  const parts = rest.length > 0 ? partsOfShard(split, shard) : [];
  const results = done.concat(
    await runTasks({
      // The threads' engines together stay within maxMemory (a queue's workers each have their own).
      tasks: parts.map((part) => ({ ...base, maxMemory: options.queue ? maxMemory : memoryShare(maxMemory, Math.min(threads, parts.length)), part })),
      threads,
      kind: 'polyomino',
      queue: options.queue,
      runInline: runTilingTask,
      engineModule: engine === 'wasm' ? await loadEngineModule() : undefined,
      signal: options.signal,
      onProgress: options.onProgress && ((p) => options.onProgress!({ ...p, done: p.done + done.length, total: p.total + done.length })),
    }),
  );
  const { total, distinct, nodes } = sumCounts(results);
  return {
    total,
    distinct,
    symmetries: prepared.symmetries.length + 1,
    reason: prepared.reason,
    shard: shard.count > 1 ? shard : null,
    stats: {
      // The placements above the parts belong to the whole count, not to any one shard.
      nodes: nodes + (shard.count === 1 ? splitNodes : 0n),
      milliseconds: performance.now() - started,
      threads: Math.max(1, Math.min(threads, parts.length)),
      parts: done.length + parts.length,
    },
  };
}

/**
 * The solutions one by one (with `distinct`, one per symmetry class). The search pauses
 * between items; an unsolvable problem (see `count(...).reason`) yields nothing. The
 * iterator's final value (with next()) is the search's stats.
 */
export async function* solutions(
  problem: PolyominoProblem,
  options: TilingSolutionsOptions = {},
): AsyncGenerator<TilingSolution, TilingStats, undefined> {
  options = checkOptions(options, SOLUTIONS_KEYS, 'polyomino.solutions');
  if (options.distinct !== undefined && typeof options.distinct !== 'boolean') {
    throw badInput(`distinct must be true or false, got ${describeValue(options.distinct)}`);
  }
  return yield* withStats(search(await prepareSliced(problem, options.signal), options), performance.now());
}

/** The solutions; returns the placements made. */
async function* search(prepared: Prepared, options: TilingSolutionsOptions): AsyncGenerator<TilingSolution, bigint, undefined> {
  const engineKind = checkEngine(options.engine);
  const limit = checkLimit(options.limit);
  if (limit === 0 || prepared.reason) return 0n;
  const maxMemory = checkMaxMemory(options.maxMemory);
  const parts = options.distinct ? prepared.parts : [{ pre: [], weight: 1, mask: 0 }];
  const { engine, release } = await openTilingEngine(engineKind, prepared, maxMemory);
  try {
    let produced = 0;
    let nodes = 0n;
    for (const part of parts) {
      startPart(engine, part, true);
      for (;;) {
        const status = checkStatus(await runSliced((budget) => engine.run(budget), options.signal), 'the tiling search', maxMemory);
        if (status === Status.DONE) break;
        yield decode(prepared, engine.output());
        if (++produced >= limit) return nodes + engine.nodes();
      }
      nodes += engine.nodes();
    }
    return nodes;
  } finally {
    release();
  }
}

/**
 * The first solution with its stats, or null when the search finds none. UNSOLVABLE (with
 * the reason) when a check before the search proves there is none (see `count(...).reason`).
 */
export async function solve(problem: PolyominoProblem, options: TilingOptions = {}): Promise<TilingFirst | null> {
  options = checkOptions(options, SOLVE_KEYS, 'polyomino.solve');
  const started = performance.now();
  const prepared = await prepareSliced(problem, options.signal);
  if (prepared.reason) throw new BitpuzzleError('UNSOLVABLE', prepared.reason);
  return firstWithStats(withStats(search(prepared, { ...options, limit: 1 }), started));
}

/** A solution from placement numbers: the pieces in the order they were placed. */
export function decode(prepared: Prepared, placementIds: readonly number[]): TilingSolution {
  checkPrepared(prepared);
  if (!Array.isArray(placementIds) || !placementIds.every((id) => Number.isInteger(id) && id >= 0 && id < prepared.placements.length)) {
    throw badInput(`placement numbers are integers from 0 to ${prepared.placements.length - 1}, got ${describeValue(placementIds)}`);
  }
  return {
    width: prepared.region.width,
    height: prepared.region.height,
    ...(prepared.region.depth === undefined ? {} : { depth: prepared.region.depth }),
    pieces: placementIds.map((id) => {
      const p = prepared.placements[id];
      return { piece: prepared.pieces[p.kind].name, orientation: p.orientation, cells: p.cells.map((c) => prepared.cellXY[c]) };
    }),
  };
}
