// Counting on several threads. Each level of the dynamic programming is cut into T shards by
// a hash of the canonical position (computed in the engine). A task merges the pairs its shard
// received, expands them, and returns the children bucketed by the shard that owns them, so
// equal positions meet in one place and their path counts sum exactly, as on one thread. The
// host only passes buffers between rounds (transferred, not copied). Wasm only.
import { BitpuzzleError } from '../errors.js';
import { openPool, type Progress } from '../parallel/pool.js';
import { acquireEngine, loadEngineModule, releaseEngine } from '../wasm/module.js';
import { ENGINE_MAX_BYTES, Status, checkStatus, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { OVERFLOW, total128 } from './engine.js';
import { engineInput, fullMask, popcount, reversedProblem, type PegsProblem } from './problem.js';

/** Task kinds and route bits, as in assembly/pegs/shards.ts. */
export const SHARD_EXPAND = 0;
export const SHARD_MEET = 1;
export const SHARD_FINISH = 2;
export const SHARD_JOIN = 3;
const ROUTE_CHILDREN = 1;
const ROUTE_COMPLEMENT = 2;
const ROUTE_TABLE = 4;

export interface ShardTask {
  input: Uint32Array;
  kind: number;
  /** Pegs of the positions in `a`. */
  level: number;
  shards: number;
  route: number;
  /** Add the start position (paths 1) to `a`. */
  seed: boolean;
  /** (position, paths) pairs as u64 words, 16 bytes a pair. */
  a: ArrayBuffer[];
  b: ArrayBuffer[];
  maxMemory: number;
}

export interface ShardResult {
  distinct: number;
  /** Null when the task's sum met a position whose paths saturated (assembly/pegs/board.ts). */
  total: bigint | null;
  nodes: number;
  memory: number;
  /** Pairs per bucket (shards × the route's groups), in batches; a bucket with none may be missing. */
  buckets: ArrayBuffer[][];
}

/** One shard task on this thread's engine (also the body of the worker script). */
export async function runShardTask(task: ShardTask): Promise<ShardResult> {
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, task.maxMemory);
    const what = 'counting';
    const at = exports.pegsInputAlloc(task.input.length);
    if (at === 0) checkStatus(Status.OUT_OF_MEMORY, what, task.maxMemory);
    new Uint32Array(exports.memory.buffer).set(task.input, at >>> 2);
    checkStatus(exports.pegsLoad(), 'loading the board', task.maxMemory);
    const pairs = (list: ArrayBuffer[]): number => list.reduce((sum, buffer) => sum + buffer.byteLength / 16, 0);
    const staging = exports.pegsShardInput(pairs(task.a), pairs(task.b));
    if (staging === 0) checkStatus(Status.OUT_OF_MEMORY, what, task.maxMemory);
    const bytes = new Uint8Array(exports.memory.buffer);
    let offset = staging;
    for (const buffer of [...task.a, ...task.b]) {
      bytes.set(new Uint8Array(buffer), offset);
      offset += buffer.byteLength;
    }
    const largest = (list: ArrayBuffer[]): number => list.reduce((most, buffer) => Math.max(most, buffer.byteLength / 16), 0);
    checkStatus(
      exports.pegsShardStart(task.kind, task.level, task.shards, task.route, task.seed ? 1 : 0, largest(task.a), largest(task.b), capLog(task.maxMemory)),
      what,
      task.maxMemory,
    );
    // The expansion sends its pairs in batches (SOLUTION) when its table reaches the cap.
    const buckets: ArrayBuffer[][] = [];
    let saturated = false;
    for (;;) {
      const ran = await runSliced((budget) => exports.pegsRun(budget));
      // OVERFLOW ends the task as DONE does, its buckets written, its total unknown.
      saturated = ran === OVERFLOW;
      const status = saturated ? Status.DONE : checkStatus(ran, what, task.maxMemory);
      const count = exports.pegsShardBuckets();
      if (count > 0) {
        const offsets = new Uint32Array(exports.memory.buffer, exports.pegsShardOffsets(), count + 1);
        const base = exports.pegsShardPairs();
        for (let b = 0; b < count; b++) {
          if (offsets[b + 1] === offsets[b]) continue;
          (buckets[b] ??= []).push(exports.memory.buffer.slice(base + offsets[b] * 16, base + offsets[b + 1] * 16));
        }
      }
      if (status === Status.DONE) break;
    }
    return {
      distinct: exports.pegsShardDistinct() >>> 0,
      total: saturated ? null : total128(exports),
      nodes: Number(exports.pegsNodes()),
      memory: Number(exports.pegsMemory()),
      buckets,
    };
  } finally {
    releaseEngine(exports);
  }
}

export interface ThreadedCount {
  /** Null when a sum met a position whose paths saturated: the total is past what 64-bit paths tell. */
  total: bigint | null;
  levels: number[];
  nodes: bigint;
  memory: number;
}

/** `total` plus the results' totals; null when any is (a sum met a saturated position). */
function addTotals(total: bigint | null, results: ShardResult[]): bigint | null {
  return results.reduce<bigint | null>((sum, r) => (sum === null || r.total === null ? null : sum + r.total), total);
}

const workerUrl = new URL('./worker.js', import.meta.url);

/** log2 of the slots an expansion's table may reach: an eighth of the thread's memory. */
function capLog(maxMemory: number): number {
  return Math.max(8, Math.min(30, Math.floor(Math.log2(maxMemory / 8 / 16))));
}

/**
 * One round of shard tasks on the pool: the results, their nodes, and the bytes held meanwhile
 * (`held` kept by the caller, the tasks' pairs, the buckets returned and the workers' peaks).
 * Out of memory says how far the count got (`progress`).
 */
async function runRound(
  pool: Awaited<ReturnType<typeof openPool>>,
  tasks: ShardTask[],
  held: number,
  progress: () => string,
  maxMemory: number,
  perWorker: number,
): Promise<{ results: ShardResult[]; nodes: bigint; memory: number }> {
  const inputs = tasks.reduce((sum, t) => sum + [...t.a, ...t.b].reduce((s, x) => s + x.byteLength, 0), 0);
  let results: ShardResult[];
  try {
    results = await Promise.all(tasks.map((t) => pool.run<ShardTask, ShardResult>(t, [...t.a, ...t.b])));
  } catch (error) {
    if (error instanceof BitpuzzleError && error.code === 'OUT_OF_MEMORY') {
      const cap = perWorker > ENGINE_MAX_BYTES ? `, of which one WebAssembly engine addresses at most ${ENGINE_MAX_BYTES}, 4 GiB` : '';
      throw new BitpuzzleError('OUT_OF_MEMORY', `counting needs more than maxMemory (${maxMemory} bytes, ${perWorker} per thread${cap}); ${progress()}`);
    }
    throw error;
  }
  const out = results.reduce((sum, r) => sum + r.buckets.flat().reduce((s, x) => s + x.byteLength, 0), 0);
  const nodes = results.reduce((sum, r) => sum + BigInt(r.nodes), 0n);
  const memory = held + inputs + out + results.reduce((sum, r) => sum + r.memory, 0);
  // maxMemory bounds the engines and the buffers between rounds together.
  if (memory > maxMemory) {
    throw new BitpuzzleError(
      'OUT_OF_MEMORY',
      `counting needs more than maxMemory (${maxMemory} bytes; the workers' engines and the pairs between levels held ${memory}); ${progress()}`,
    );
  }
  return { results, nodes, memory };
}

/**
 * The count on `threads` worker threads, one shard each. `maxMemory` bounds each worker's
 * engine at maxMemory / threads, and the engines and the buffers between rounds together.
 */
export async function countOnThreads(
  problem: PegsProblem,
  threads: number,
  maxMemory: number,
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void },
): Promise<ThreadedCount> {
  const holes = problem.board.holes.length;
  const startPegs = popcount(problem.start);
  const finishPegs = popcount(problem.finishes[0]);
  const selfDual = problem.finishes.length === 1 && problem.finishes[0] === (fullMask(problem.board) & ~problem.start);
  const meet = selfDual && startPegs > holes >> 1 ? holes >> 1 : -1;
  const steps = startPegs - (meet >= 0 ? meet : finishPegs);
  const input = engineInput(problem);
  const shards = threads;
  const perWorker = Math.floor(maxMemory / threads);
  const levels = new Array<number>(startPegs + 1).fill(0);
  let nodes = 0n;
  let total: bigint | null = 0n;
  let memory = 0;
  let level = startPegs;
  const task = (kind: number, route: number, a: ArrayBuffer[], b: ArrayBuffer[] = [], seed = false): ShardTask => ({
    input, kind, level, shards, route, seed, a, b, maxMemory: perWorker,
  });
  const pool = await openPool({ threads, workerUrl, engineModule: await loadEngineModule(), signal: options.signal });
  const round = async (tasks: ShardTask[]): Promise<ShardResult[]> => {
    const ran = await runRound(pool, tasks, 0, () => `it got ${startPegs - level} of ${steps} levels deep`, maxMemory, perWorker);
    memory = Math.max(memory, ran.memory);
    nodes += ran.nodes;
    return ran.results;
  };
  /** Bucket k of route group g from every result, empty ones left out. */
  const gather = (results: ShardResult[], group: number, k: number): ArrayBuffer[] =>
    results.flatMap((r) => r.buckets[group * shards + k] ?? []);
  const each = <T>(f: (k: number) => T): T[] => Array.from({ length: shards }, (_, k) => f(k));
  try {
    options.onProgress?.({ done: 0, total: steps });
    let own: ArrayBuffer[][] | null = null; // per shard: the pairs of the level to expand
    for (;;) {
      const lastUp = meet >= 0 && level === meet + 1;
      const odd = holes - meet === meet + 1;
      const route = !lastUp ? ROUTE_CHILDREN : odd ? ROUTE_COMPLEMENT | ROUTE_TABLE : ROUTE_CHILDREN | ROUTE_COMPLEMENT;
      const tasks = own === null ? [task(SHARD_EXPAND, route, [], [], true)] : each((k) => task(SHARD_EXPAND, route, own![k]));
      const results = await round(tasks);
      levels[level] = results.reduce((sum, r) => sum + r.distinct, 0);
      // Only the expansion into the finishes' level sums (its jumps into finishes).
      total = addTotals(total, results);
      level--;
      options.onProgress?.({ done: Math.min(startPegs - level, steps), total: steps });
      if (lastUp) {
        // The middle: the upper level (by owner) against the middle level (by its complement's owner).
        const [upper, middle] = odd ? [1, 0] : [0, 1];
        const met = await round(each((k) => task(SHARD_MEET, 0, gather(results, upper, k), gather(results, middle, k))));
        levels[level] = met.reduce((sum, r) => sum + r.distinct, 0);
        total = addTotals(0n, met);
        break;
      }
      own = each((k) => gather(results, 0, k));
      if (own.every((list) => list.length === 0)) break; // nothing left: no solution
      if (level === finishPegs) {
        const done = await round(each((k) => task(SHARD_FINISH, 0, own![k])));
        levels[level] = done.reduce((sum, r) => sum + r.distinct, 0);
        break;
      }
    }
    options.onProgress?.({ done: steps, total: steps });
    return { total, levels, nodes, memory };
  } finally {
    // Closing waits for each worker to end its slice (or to be killed); an abort answers at
    // once and lets the workers go in the background.
    const closing = pool.close();
    if (options.signal?.aborted) closing.catch(() => undefined);
    else await closing;
  }
}

/**
 * The count of a problem with one finish that is not the start's complement, meeting in the
 * middle: forward from the start, and backward from the finish (forward from its complement on
 * complements: the problem played backwards), each level by level, always expanding the side
 * whose frontier is smaller, until both frontiers stand for positions with the same number of
 * pegs. The side that made the last step routes its pairs by the owner of their complement, and
 * each shard sums paths(q) · paths(~q) / |orbit| over them against the other side's frontier in
 * a table (JOIN). Each side is cut by its own pagoda function (the finish's, the start's
 * complement's), so the two halves can be far smaller than one search from the start.
 * `levels[k]`: positions with k pegs searched, forward above the meeting level and backward (as
 * the positions they undo to) below it.
 */
export async function countMeeting(
  problem: PegsProblem,
  threads: number,
  maxMemory: number,
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void },
): Promise<ThreadedCount> {
  const holes = problem.board.holes.length;
  const startPegs = popcount(problem.start);
  const backward = reversedProblem(problem)!;
  // Forward and backward steps add up to this (the meeting level is decided on the way).
  const steps = startPegs - popcount(problem.finishes[0]) + 1;
  const shards = threads;
  const perWorker = Math.floor(maxMemory / threads);
  const levels = new Array<number>(startPegs + 1).fill(0);
  let nodes = 0n;
  let memory = 0;
  let done = 0;
  interface Side {
    input: Uint32Array;
    /** Pegs of the frontier's positions (in the side's own space). */
    level: number;
    /** The frontier's pairs per shard (null before the seed is expanded). */
    own: ArrayBuffer[][] | null;
    where: string;
    /** The frontier's level in the forward space. */
    forward: (pegs: number) => number;
  }
  const ahead: Side = { input: engineInput(problem), level: startPegs, own: null, where: 'forward from the start', forward: (pegs) => pegs };
  const behind: Side = { input: engineInput(backward), level: popcount(backward.start), own: null, where: 'backward from the finish', forward: (pegs) => holes - pegs };
  const bytesOf = (side: Side): number => (side.own === null ? 0 : side.own.reduce((sum, list) => sum + list.reduce((s, x) => s + x.byteLength, 0), 0));
  const pool = await openPool({ threads, workerUrl, engineModule: await loadEngineModule(), signal: options.signal });
  const round = async (tasks: ShardTask[], where: string): Promise<ShardResult[]> => {
    const other = where === ahead.where ? bytesOf(behind) : where === behind.where ? bytesOf(ahead) : 0;
    const ran = await runRound(pool, tasks, other, () => `it got ${done} of ${steps} levels deep (${where})`, maxMemory, perWorker);
    memory = Math.max(memory, ran.memory);
    nodes += ran.nodes;
    return ran.results;
  };
  const each = <T>(f: (k: number) => T): T[] => Array.from({ length: shards }, (_, k) => f(k));
  try {
    options.onProgress?.({ done: 0, total: steps });
    while (ahead.forward(ahead.level) !== behind.forward(behind.level)) {
      const side = bytesOf(ahead) <= bytesOf(behind) ? ahead : behind;
      const other = side === ahead ? behind : ahead;
      const last = side.forward(side.level - 1) === other.forward(other.level);
      const { input, level } = side;
      const task = (a: ArrayBuffer[], seed: boolean): ShardTask => ({
        input, kind: SHARD_EXPAND, level, shards, route: last ? ROUTE_COMPLEMENT : ROUTE_CHILDREN, seed, a, b: [], maxMemory: perWorker,
      });
      const own = side.own;
      side.own = null; // given to the tasks (transferred)
      const results = await round(own === null ? [task([], true)] : each((k) => task(own[k], false)), side.where);
      levels[side.forward(level)] = results.reduce((sum, r) => sum + r.distinct, 0);
      side.own = each((k) => results.flatMap((r) => r.buckets[k] ?? []));
      side.level--;
      options.onProgress?.({ done: ++done, total: steps });
      if (side.own.every((list) => list.length === 0)) return { total: 0n, levels, nodes, memory }; // nothing left: no solution
      if (last) {
        // The side just expanded is streamed against the other's frontier, merged into tables.
        const met = await round(
          each((k) => ({ input, kind: SHARD_JOIN, level: other.level, shards, route: 0, seed: false, a: other.own![k], b: side.own![k], maxMemory: perWorker })),
          'the middle',
        );
        levels[other.forward(other.level)] = met.reduce((sum, r) => sum + r.distinct, 0);
        const total = addTotals(0n, met);
        options.onProgress?.({ done: steps, total: steps });
        return { total, levels, nodes, memory };
      }
    }
    return { total: 0n, levels, nodes, memory }; // not reached: the sides meet by the loop's last step
  } finally {
    const closing = pool.close();
    if (options.signal?.aborted) closing.catch(() => undefined);
    else await closing;
  }
}
