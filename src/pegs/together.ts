// The peg count on worker threads that share one memory (assembly/pegs/together.ts, built as
// pegs-shared.wasm): each level, forward from the start or backward from the finishes, is
// built by every thread at once in one hash table, so that threads add speed without each
// holding tables of their own. This host plans the memory and names each phase in the control
// block; each phase runs as one task a thread, and the tasks share its units, so a phase ends
// however many of them the pool runs at once.
//
// The memory's layout: the module's static data (below CTRL_AT), the control block and the
// tasks' sums, the chunks' counts, a block per task for its instance's board tables and
// scratch, then the levels: each side's dense pairs, with the table being built above them.
import { BitpuzzleError, aborted, badInput } from '../errors.js';
import { runTasks, type Progress } from '../parallel/pool.js';
import { compileEngineModule, instantiateEngine } from '../wasm/module.js';
import { Status } from '../wasm/protocol.js';
import { engineShare } from './engine.js';
import { engineInput, fullMask, pagodasFor, permute, popcount, type PegsProblem } from './problem.js';
import type { ThreadedCount } from './shards.js';

/** The most tasks a phase is cut into (the most threads a count runs on). */
export const MAX_TOGETHER_THREADS = 64;

const PAGE = 65536;
const CTRL_AT = 1 << 20;
const SUMS_AT = CTRL_AT + 4096;
const COUNTS_AT = SUMS_AT + 16 * MAX_TOGETHER_THREADS;
/** Slots of a chunk (together.ts CHUNK_SLOTS): the least a table has. */
const CHUNK_SLOTS = 8192;
const MIN_LOG = 13;
/** Tables of up to 2^28 slots (4 GiB, all a WebAssembly memory holds): their chunks' counts. */
const MAX_LOG = 28;
const BLOCKS_AT = COUNTS_AT + 8 * (2 ** MAX_LOG / CHUNK_SLOTS);
/** A task's block: the board's tables (about 340 KB on the largest boards), then its scratch. */
const BLOCK_BYTES = 512 << 10;
const SCRATCH_BYTES = 64 << 10; // together.ts: GROUP × MAX_JUMPS × 20 + MAX_JUMPS × 4
const CLEAR_BYTES = 1 << 20;

// The control block's words and the phases (together.ts).
const C = {
  PHASE: 0, CLAIM: 1, UNITS: 2, STOP: 3, FLAGS: 4, RESERVED: 5, NODES: 6, SOURCE: 7, PARENTS: 8, NEXT: 9, TABLE: 10,
  LOG: 11, FRESH: 12, BYTES: 13, COUNTS: 14, THREADS: 15, SUMS: 16, SELVES: 17, PAGODAS: 18, STREAM: 20, STREAMED: 21,
  LAST: 22,
} as const;
const PHASE = { CLEAR: 1, EXPAND: 2, REHASH: 3, MOVE: 4, COMPACT: 5, GATHER: 6, MEET: 7 } as const;
const STOPPED = 3; // togetherRun: EXPAND stopped for the table to grow, or the host asked to stop
const FLAG_GROW = 1n;
const FLAG_OVERFLOW = 2n;

/** A phase's task on one thread. */
export interface TogetherTask {
  /** Names the count: a thread keeps its instances for the latest one only. */
  id: string;
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  /** The board as the engine loads it (problem.ts engineInput). */
  input: Uint32Array;
  /** This task's place among the phase's: its block, and where it puts its sum. */
  index: number;
}

interface TogetherExports {
  memory: WebAssembly.Memory;
  sharedDataEnd(): number;
  arenaPlace(start: number, end: number): void;
  pegsInputAlloc(words: number): number;
  pegsLoad(): number;
  togetherAttach(ctrl: number, scratch: number): number;
  togetherRun(task: number, budget: number): number;
}

const sharedUrl = new URL('../pegs-shared.wasm', import.meta.url);
let sharedModule: Promise<WebAssembly.Module> | undefined;

function loadSharedModule(): Promise<WebAssembly.Module> {
  sharedModule ??= compileEngineModule(sharedUrl).catch((error: unknown) => {
    sharedModule = undefined;
    throw error;
  });
  return sharedModule;
}

/** One side of the count: its level as dense pairs, and how its levels have grown. */
interface Side {
  /** The first pair. */
  at: number;
  pairs: number;
  /** Pegs of its positions (the backward side's are the complements of the positions they undo to). */
  pegs: number;
  ratio: number;
  lastRatio: number;
  /** Its pagodas in the engine's input: [first, end). */
  pagodas: [number, number];
}

/** countTogether's answer when its memory did not hold the count: the bytes that memory has grown to. */
export interface DidNotFit {
  held: number;
}

/**
 * The count of a problem whose finishes have at least 2 pegs fewer than the start, on
 * `threads` threads over one shared memory within maxMemory: forward from the start and
 * backward from the finishes (as jumps on their complements), the smaller side a level at a
 * time, until the sides meet; a central game (the finish is the start's complement) keeps the
 * forward side only, which serves for both; with `forward`, every level forward from the start
 * to the finishes' (at least one peg fewer). When the memory does not hold it, the bytes it
 * grew to, which the process keeps (the caller then counts on the calling thread, in what is left).
 */
export async function countTogether(
  problem: PegsProblem,
  threads: number,
  maxMemory: number,
  // forward: every level from the start to the finishes' (as one thread counts a small board
  // with several finishes, and `reachable`). sizing scales the guess each level's table starts
  // from (tests: a small one makes every level's table grow while the threads fill it).
  options: { signal?: AbortSignal; onProgress?: (progress: Progress) => void; forward?: boolean; sizing?: number },
): Promise<(ThreadedCount & { growths: number }) | DidNotFit> {
  const { signal } = options;
  const tasks = Math.min(threads, MAX_TOGETHER_THREADS);
  const { board } = problem;
  const holes = board.holes.length;
  const full = fullMask(board);
  const startPegs = popcount(problem.start);
  const finishPegs = popcount(problem.finishes[0]);
  const onward = options.forward === true;
  const central = !onward && problem.finishes.length === 1 && problem.finishes[0] === (full & ~problem.start);
  // The backward side's positions must be able to jump to the start's complement.
  const backward = central || onward ? [] : pagodasFor(board, [full & ~problem.start]);
  const forwardEnd = problem.pagodas.length;
  const input = engineInput({ ...problem, pagodas: [...problem.pagodas, ...backward] });
  // Levels expanded, and the sum where the sides meet.
  const steps = central ? startPegs - Math.ceil(holes / 2) + 1 : startPegs - finishPegs;
  const module = await loadSharedModule();
  const maxPages = Math.min(65536, Math.floor(engineShare(maxMemory) / PAGE));
  const levelsAt = BLOCKS_AT + tasks * BLOCK_BYTES;
  // The backward side's first level: the finishes' complements, an orbit's total its members.
  const finishOrbits = new Map<bigint, bigint>();
  if (!central && !onward) {
    for (const finish of problem.finishes) {
      const key = canonical(problem, full & ~finish);
      finishOrbits.set(key, (finishOrbits.get(key) ?? 0n) + 1n);
    }
  }
  const firstBytes = align(levelsAt + 16) + 16 * finishOrbits.size;
  if (Math.ceil(firstBytes / PAGE) > maxPages) return { held: 0 };
  const taken = takeMemory(Math.ceil(firstBytes / PAGE), maxPages);
  const { memory } = taken;
  // Whether every phase sent has ended (the memory may then serve the next count).
  let settled = true;
  const ctrl = new BigUint64Array(memory.buffer, CTRL_AT, 32);
  const set = (word: number, value: number | bigint): void => void Atomics.store(ctrl, word, BigInt(value));
  const get = (word: number): bigint => Atomics.load(ctrl, word);
  const onAbort = (): void => set(C.STOP, 1);
  signal?.addEventListener('abort', onAbort, { once: true });
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  // The highest byte the count has used (its memory figure).
  let top = firstBytes;
  const room = (end: number): boolean => {
    const pages = Math.ceil(end / PAGE);
    const have = memory.buffer.byteLength / PAGE;
    if (pages <= have) return true;
    if (pages > maxPages) return false;
    try {
      memory.grow(pages - have);
      return true;
    } catch {
      return false; // the system refused the memory
    }
  };
  const short = (): DidNotFit => ({ held: memory.buffer.byteLength });
  const phase = async (kind: number, units: number): Promise<void> => {
    set(C.PHASE, kind);
    set(C.CLAIM, 0);
    set(C.UNITS, units);
    const list: TogetherTask[] = Array.from({ length: tasks }, (_, index) => ({ id, memory, module, input, index }));
    // On worker threads even for one task: a phase runs to its end without yielding.
    settled = false;
    await runTasks({ tasks: list, threads: tasks, kind: 'pegs', runInline: runTogetherTask, onWorkers: true, signal });
    settled = true;
    if (signal?.aborted) throw aborted(signal);
  };
  // Zeroes [from, from + bytes), fresh memory too: a page written first is mapped once, where
  // one read first (the inserts read a slot before they write it) is mapped twice.
  const clear = async (from: number, bytes: number): Promise<void> => {
    top = Math.max(top, from + bytes);
    set(C.FRESH, from);
    set(C.BYTES, bytes);
    await phase(PHASE.CLEAR, Math.ceil(bytes / CLEAR_BYTES));
  };
  // The tasks' 128-bit sums (MEET, and EXPAND into the finishes' level), added, after zeroSums
  // and the phases that sum; null when a sum met a position whose paths saturated (as on the
  // calling thread).
  const zeroSums = (): void => void new BigUint64Array(memory.buffer, SUMS_AT, 2 * tasks).fill(0n);
  const sums = (): bigint | null => {
    if ((get(C.FLAGS) & FLAG_OVERFLOW) !== 0n) return null;
    const words = new BigUint64Array(memory.buffer, SUMS_AT, 2 * tasks);
    let added = 0n;
    for (let t = 0; t < tasks; t++) added += words[2 * t] + (words[2 * t + 1] << 64n);
    return added;
  };
  // Moves `bytes` from `from` down to `to`, in one piece.
  const move = async (to: number, from: number, bytes: number): Promise<void> => {
    set(C.SOURCE, to);
    set(C.FRESH, from);
    set(C.BYTES, bytes);
    await phase(PHASE.MOVE, 1);
  };
  try {
    set(C.THREADS, tasks);
    set(C.SUMS, SUMS_AT);
    set(C.COUNTS, COUNTS_AT);
    // The first levels: the start alone, its orbit (the symmetries keep it) reached once; the
    // finishes' complements.
    const forward: Side = { at: levelsAt, pairs: 1, pegs: startPegs, ratio: 0, lastRatio: 0, pagodas: [0, forwardEnd] };
    new BigUint64Array(memory.buffer, forward.at, 2).set([problem.start, 1n]);
    const back: Side = { at: align(levelsAt + 16), pairs: finishOrbits.size, pegs: holes - finishPegs, ratio: 0, lastRatio: 0, pagodas: [forwardEnd, forwardEnd + backward.length] };
    new BigUint64Array(memory.buffer, back.at, 2 * back.pairs).set([...finishOrbits].flat());
    const levels = new Array<number>(startPegs + 1).fill(0);
    levels[startPegs] = 1;
    if (!central && !onward) levels[finishPegs] = back.pairs;
    let total: bigint | null = 0n;
    let growths = 0;
    for (let step = 0; ; step++) {
      options.onProgress?.({ done: step, total: steps });
      // The smaller side goes a level further (its table above both sides).
      const x = central || onward || forward.pairs <= back.pairs ? forward : back;
      const other = x === forward ? back : forward;
      // Its table, sized by the side's growth: the last ratio, changed again as much as it
      // changed last (the ratios fall toward the middle), and a margin.
      const trend = x.ratio === 0 || x.lastRatio === 0 ? 1 : Math.min(1, x.ratio / x.lastRatio);
      const guess = x.ratio === 0 ? Math.max(x.pairs * 4, x.pairs + board.jumps.length) : x.pairs * x.ratio * trend * 1.05;
      let log = Math.max(MIN_LOG, Math.ceil(Math.log2((guess * (options.sizing ?? 1)) / 0.75)));
      if (log > MAX_LOG) return short();
      const tableAt = align(Math.max(forward.at + forward.pairs * 16, central || onward ? 0 : back.at + back.pairs * 16));
      if (!room(tableAt + 16 * 2 ** log)) return short();
      await clear(tableAt, 16 * 2 ** log);
      set(C.TABLE, tableAt);
      set(C.LOG, log);
      set(C.RESERVED, 0);
      set(C.NEXT, 0);
      set(C.SOURCE, x.at);
      set(C.PARENTS, x.pairs);
      set(C.PAGODAS, x.pagodas[0]);
      set(C.PAGODAS + 1, x.pagodas[1]);
      // Forward into the finishes' level, the expansion sums the total (its jumps into finishes).
      const last = onward && forward.pegs - 1 === finishPegs;
      set(C.LAST, last ? 1 : 0);
      zeroSums();
      for (;;) {
        await phase(PHASE.EXPAND, 0);
        if ((get(C.FLAGS) & FLAG_GROW) === 0n) break;
        // The table doubles: its pairs into a table above it, which then moves down in its place.
        const bytes = 16 * 2 ** log;
        if (log + 1 > MAX_LOG || !room(tableAt + 3 * bytes)) return short();
        await clear(tableAt + bytes, 2 * bytes);
        set(C.FRESH, tableAt + bytes);
        await phase(PHASE.REHASH, 2 ** log / CHUNK_SLOTS);
        await move(tableAt, tableAt + bytes, 2 * bytes);
        log++;
        growths++;
        set(C.LOG, log);
        set(C.SOURCE, x.at);
        set(C.FLAGS, get(C.FLAGS) & ~FLAG_GROW);
      }
      const keys = Number(get(C.RESERVED));
      x.pegs--;
      levels[x === forward ? x.pegs : holes - x.pegs] = keys;
      if (keys === 0) break; // no position on this level: no solution
      if (last) {
        total = sums();
        break;
      }
      // Where the sides stand, in the pegs of positions along a sequence: the forward side's,
      // and the positions the backward side undoes to.
      const gap = forward.pegs - (holes - (central ? forward.pegs : back.pegs));
      if (!onward && gap <= 1) {
        // They meet: the other side's positions (a central game: the table's own) against the table.
        set(C.SELVES, gap === 0 ? 1 : 0);
        set(C.STREAM, central ? 0 : other.at);
        set(C.STREAMED, central ? 0 : other.pairs);
        zeroSums();
        await phase(PHASE.MEET, Math.ceil((central ? 2 ** log : other.pairs) / CHUNK_SLOTS));
        total = sums();
        break;
      }
      // The level made dense, in the place of the one it came from: a lower side's place goes
      // to the other side, moved down, and the new level follows it.
      await phase(PHASE.COMPACT, 2 ** log / CHUNK_SLOTS);
      if (!central && x.at < other.at) {
        await move(x.at, other.at, other.pairs * 16);
        other.at = x.at;
        x.at = align(other.at + other.pairs * 16);
      }
      set(C.SOURCE, x.at);
      await phase(PHASE.GATHER, 1);
      x.lastRatio = x.ratio;
      x.ratio = keys / x.pairs;
      x.pairs = keys;
    }
    options.onProgress?.({ done: steps, total: steps });
    return { total, levels, nodes: get(C.NODES), memory: top, growths };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stops any task still under way (a failure elsewhere), so that its thread is free.
    set(C.STOP, 1);
    // A task of a phase that failed or was aborted may still be running: that memory is not
    // handed on.
    if (settled) keepMemory(taken);
  }
}

// A count's memory is kept for the next count on threads: pages grown stay resident, and
// freeing them takes a garbage collection in this thread and in every worker that held the
// memory, which may come much later. So the next count (reachable's total from both ends
// after its forward levels, a count after one that did not fit) grows this one instead of
// adding its own. Dropped when unused for a while, as the pool's idle threads are.
interface HeldMemory {
  memory: WebAssembly.Memory;
  /** Its maximum, in pages (a Memory does not say its own). */
  maximum: number;
}
let spare: (HeldMemory & { timer: ReturnType<typeof setTimeout> }) | undefined;
const SPARE_MS = 30_000;

/** The memory for a count within maxPages: the spare when it fits, else a new one. */
function takeMemory(initial: number, maxPages: number): HeldMemory {
  const kept = spare;
  spare = undefined;
  if (kept) clearTimeout(kept.timer);
  if (kept && kept.memory.buffer.byteLength <= maxPages * PAGE && kept.maximum >= maxPages) {
    // The control block, the sums and the chunks' counts start at zero (the levels are
    // written, and the tables cleared, before they are read).
    new Uint8Array(kept.memory.buffer, CTRL_AT, BLOCKS_AT - CTRL_AT).fill(0);
    const have = kept.memory.buffer.byteLength / PAGE;
    if (have < initial) kept.memory.grow(initial - have);
    return { memory: kept.memory, maximum: kept.maximum };
  }
  // Room to grow to 4 GiB, so that a later count with a larger maxMemory can take it (the host
  // keeps each count within its own maxPages: room()); where that much cannot be reserved,
  // maxPages.
  try {
    return { memory: new WebAssembly.Memory({ initial, maximum: 65536, shared: true }), maximum: 65536 };
  } catch {
    return { memory: new WebAssembly.Memory({ initial, maximum: maxPages, shared: true }), maximum: maxPages };
  }
}

/** Keeps a count's memory as the spare (in place of any other). */
function keepMemory(held: HeldMemory): void {
  if (spare) clearTimeout(spare.timer);
  const timer = setTimeout(() => {
    if (spare?.memory === held.memory) spare = undefined;
  }, SPARE_MS);
  (timer as { unref?: () => void }).unref?.();
  spare = { ...held, timer };
}

/** The least image of a position under the problem's symmetries (the engine's key of its orbit). */
function canonical(problem: PegsProblem, position: bigint): bigint {
  let least = position;
  for (const perm of problem.symmetries) {
    const image = permute(perm, position);
    if (image < least) least = image;
  }
  return least;
}

const align = (at: number): number => Math.ceil(at / 64) * 64;

// ---- the worker side ------------------------------------------------------------------------

// This thread's instances for the latest count, by task index (a task's instance uses its
// block, and no two tasks of a phase share an index). Dropped soon after the count's last
// phase, so that the thread does not keep its memory.
let instances: { id: string; byIndex: Map<number, TogetherExports>; timer?: ReturnType<typeof setTimeout> } | undefined;
const FORGET_MS = 1000;

/** Runs one task of a phase (a worker thread's part of a count on threads); the engine's status. */
export async function runTogetherTask(task: TogetherTask): Promise<number> {
  if (instances?.id !== task.id) {
    clearTimeout(instances?.timer);
    instances = { id: task.id, byIndex: new Map() };
  }
  const held = instances;
  clearTimeout(held.timer);
  let exports = held.byIndex.get(task.index);
  if (!exports) {
    exports = attach(task);
    held.byIndex.set(task.index, exports);
  }
  // Unit by unit (a few ms each), so that V8's optimized code serves all but the first calls.
  let status: number;
  do status = exports.togetherRun(task.index, 1);
  while (status === Status.MORE);
  held.timer = setTimeout(() => {
    if (instances === held) instances = undefined;
  }, FORGET_MS);
  (held.timer as { unref?: () => void }).unref?.();
  if (status !== Status.DONE && status !== STOPPED) throw new BitpuzzleError('ENGINE_FAILURE', `the shared peg count answered ${status}`);
  return status;
}

/** An instance over the task's memory with the board loaded into the task's block. */
function attach(task: TogetherTask): TogetherExports {
  const exports = instantiateEngine(task.module, { env: { memory: task.memory } }) as unknown as TogetherExports;
  const block = BLOCKS_AT + task.index * BLOCK_BYTES;
  const scratch = block + BLOCK_BYTES - SCRATCH_BYTES;
  if (exports.sharedDataEnd() > CTRL_AT) throw new BitpuzzleError('ENGINE_FAILURE', 'the shared peg module does not fit the layout of its memory');
  exports.arenaPlace(block, scratch);
  const pointer = exports.pegsInputAlloc(task.input.length);
  if (pointer === 0) throw new BitpuzzleError('ENGINE_FAILURE', 'the board does not fit in a thread block of the shared peg count');
  new Uint32Array(task.memory.buffer, pointer, task.input.length).set(task.input);
  const loaded = exports.pegsLoad();
  if (loaded !== Status.DONE || exports.togetherAttach(CTRL_AT, scratch) !== Status.DONE) {
    throw new BitpuzzleError('ENGINE_FAILURE', `the shared peg module refused the board (${loaded})`);
  }
  return exports;
}

/** A task from outside this process: never (the tasks share this process's memory). */
export function checkTogetherTask(): never {
  throw badInput('a part of a peg count on threads shares memory with its process and does not go on a queue');
}
