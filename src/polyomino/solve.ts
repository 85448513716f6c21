// The polyomino tiling API: count, solve, solutions (an async iterator).
import { checkThreads, runTasks, sumCounts, type Progress, type QueueOption } from '../parallel/pool.js';
import { parseShard, partsOfShard, type Shard } from '../parallel/shard.js';
import { loadEngineModule } from '../wasm/module.js';
import { checkEngine, checkLimit, type EngineKind } from '../wasm/options.js';
import { DEFAULT_MAX_MEMORY, Status, checkStatus, runSliced } from '../wasm/protocol.js';
import { prepare, type PolyominoProblem, type Prepared } from './problem.js';
import { countWithin, openTilingEngine, runTilingTask, splitParts, startPart, type TilingTaskResult } from './tasks.js';
import type { Cell } from './shapes.js';

export interface TilingOptions {
  /** Stops the work; the promise or iterator rejects with code ABORTED. */
  signal?: AbortSignal;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** The most memory one engine instance may use, in bytes (default 1 GiB). */
  maxMemory?: number;
}

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

export interface TilingSolutionsOptions extends TilingOptions {
  /** Stop after this many solutions. */
  limit?: number;
  /** One solution per class of the problem's symmetries. */
  distinct?: boolean;
}

export interface TilingStats {
  /** Placements made by the search. */
  nodes: bigint;
  milliseconds: number;
  threads: number;
  /** Independent parts the search was cut into. */
  parts: number;
}

export interface TilingCount {
  /** Every solution (every way to place the pieces). */
  total: bigint;
  /** Solutions up to the symmetries of the problem (rotations and reflections of the region that keep the piece set). */
  distinct: bigint;
  /** How many symmetries the problem has (1: none but the identity). */
  symmetries: number;
  /** Why there is no solution, when that is known without a search; otherwise null. */
  reason: string | null;
  /** The shard counted, when only a part was asked for. */
  shard: Shard | null;
  stats: TilingStats;
}

export interface PlacedPiece {
  /** The piece's name. */
  piece: string;
  /** Which of the piece's fixed shapes (index into `orientations`). */
  orientation: number;
  /** [x, y] of each cell, x from the left and y from the top, 0-based. */
  cells: Cell[];
}

export interface TilingSolution {
  width: number;
  height: number;
  pieces: PlacedPiece[];
}

/** Placements a threaded count makes on the calling thread before it starts a pool (~0.3 s). */
const TRIAL_NODES = 4_000_000;

/** Counts the solutions, and the distinct ones up to the problem's symmetries. */
export async function count(problem: PolyominoProblem, options: TilingCountOptions = {}): Promise<TilingCount> {
  const started = performance.now();
  const prepared = prepare(problem);
  const engine = checkEngine(options.engine);
  const threads = checkThreads(options.threads);
  const shard = parseShard(options.shard);
  const maxMemory = options.maxMemory ?? DEFAULT_MAX_MEMORY;
  const base = { engine, spec: prepared.spec, maxMemory };
  // With threads, a count first runs on this thread for a moment: small problems finish
  // before a pool would have started. What is left is cut into parts for the pool.
  let done: TilingTaskResult[] = [];
  let rest = prepared.reason ? [] : prepared.parts;
  if (threads > 1 && shard.count === 1 && rest.length > 0) {
    ({ done, rest } = await countWithin(base, rest, TRIAL_NODES, options.signal));
  }
  const cut = rest.length > 0 && (threads > 1 || shard.count > 1 || options.queue !== undefined);
  const parts = rest.length > 0 ? partsOfShard(cut ? await splitParts(base, rest, shard.count, options.signal) : rest, shard) : [];
  const results = done.concat(
    await runTasks({
      tasks: parts.map((part) => ({ ...base, part })),
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
      nodes,
      milliseconds: performance.now() - started,
      threads: Math.max(1, Math.min(threads, parts.length)),
      parts: done.length + parts.length,
    },
  };
}

/**
 * The solutions one by one (with `distinct`, one per symmetry class). The search pauses
 * between items; an unsolvable problem (see `count(...).reason`) yields nothing.
 */
export async function* solutions(
  problem: PolyominoProblem,
  options: TilingSolutionsOptions = {},
): AsyncGenerator<TilingSolution, void, undefined> {
  const prepared = prepare(problem);
  const engineKind = checkEngine(options.engine);
  const limit = checkLimit(options.limit);
  if (limit === 0 || prepared.reason) return;
  const maxMemory = options.maxMemory ?? DEFAULT_MAX_MEMORY;
  const parts = options.distinct ? prepared.parts : [{ pre: [], weight: 1, mask: 0 }];
  const { engine, release } = await openTilingEngine(engineKind, prepared, maxMemory);
  try {
    let produced = 0;
    for (const part of parts) {
      startPart(engine, part, true);
      for (;;) {
        const status = checkStatus(await runSliced((budget) => engine.run(budget), options.signal), 'the tiling search', maxMemory);
        if (status === Status.DONE) break;
        yield decode(prepared, engine.output());
        if (++produced >= limit) return;
      }
    }
  } finally {
    release();
  }
}

/** The first solution, or null when there is none. */
export async function solve(problem: PolyominoProblem, options: TilingOptions = {}): Promise<TilingSolution | null> {
  for await (const solution of solutions(problem, { ...options, limit: 1 })) return solution;
  return null;
}

/** A solution from placement numbers: the pieces in the order they were placed. */
export function decode(prepared: Prepared, placementIds: readonly number[]): TilingSolution {
  return {
    width: prepared.region.width,
    height: prepared.region.height,
    pieces: placementIds.map((id) => {
      const p = prepared.placements[id];
      return { piece: prepared.pieces[p.kind].name, orientation: p.orientation, cells: p.cells.map((c) => prepared.cellXY[c]) };
    }),
  };
}
